"""The worker-side Celery application: JSON only, late acks, prefetch 1, state in the database.

Tasks are idempotent (natural keys, upserts), which is what makes `acks_late` and
`task_reject_on_worker_lost` safe: a redelivered task rewrites nothing.
"""

from __future__ import annotations

from celery import Celery


def create_celery() -> Celery:
    """Configuration is loaded lazily from `workers.celeryconfig` on the app's first use, so
    importing this module reads no settings."""
    app = Celery("execsynth", include=["workers.tasks", "workers.export_tasks"])
    app.config_from_object("workers.celeryconfig")
    return app


celery_app = create_celery()
