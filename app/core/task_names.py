"""Every Celery task name and the queue it runs on: the contract between the app, which sends
tasks by name (`app.producer`), and the workers, which register them (`workers.tasks`,
`workers.export_tasks`). Both sides import these; neither spells a name of its own.

A task's name says its queue: `execsynth.<queue>.<what>` (the routes in `app.core.celery`
match on the prefix).
"""

from __future__ import annotations

QUEUES = ("teacher", "sandbox", "pipeline")

# the pipeline's stages (workers/pipeline/stages/<stage>.py) and the queue each runs on
STAGE_QUEUES = {"generate": "teacher", "inputs": "teacher", "execute": "sandbox", "judge": "pipeline"}

START_BATCH = "execsynth.pipeline.start_batch"
START_BATCHES = "execsynth.pipeline.start_batches"  # what the API sends: one message per group of new batches
RESUME_STALLED = "execsynth.pipeline.resume_stalled"
RUN_EXPORT = "execsynth.pipeline.run_export"
NIGHTLY_EXPORTS = "execsynth.pipeline.nightly_exports"
PING = "execsynth.pipeline.ping"


def stage_task(stage: str) -> str:
    """The task of a pipeline stage, e.g. `execsynth.sandbox.execute`."""
    return f"execsynth.{STAGE_QUEUES[stage]}.{stage}"
