"""Export runs: manual ones (API, CLI) and the scheduled incremental/full runs of Celery beat.

The files themselves are written by `training.export.run_export`; this package owns the
`exports` rows around it (what was asked, which window, where the files are, what failed).
"""
