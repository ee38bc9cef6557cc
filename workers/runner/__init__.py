"""Batch execution shared by the Celery tasks and `execsynth synth`: each stage loads a chunk
of a batch by ids, calls the pure pipeline stages with no transaction open, and upserts."""

from workers.runner import ast_lock

ast_lock.install()
