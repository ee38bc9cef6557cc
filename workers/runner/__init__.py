"""Batch execution shared by the Celery tasks and `execsynth synth`: each stage's runner loads
a chunk of a batch by ids, calls the pure stage (`workers.pipeline.stages`) with no transaction
open, and upserts its outcome on natural keys, so running a stage twice (redelivery, crash,
retry) changes nothing. A stage only touches items in the state it owns (e.g. `execute` only
`pending` samples), which is what makes the order of retries irrelevant."""

from workers.runner import ast_lock

ast_lock.install()
