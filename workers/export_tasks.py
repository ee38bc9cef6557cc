"""Celery tasks of exports: run one `exports` row, and the beat tick that plans the scheduled
(incremental / full) runs. Thin callers of `app.exports`; the names are the contract with
`app.exports.service` and the beat schedule in `app.core.celery`, which send them by name.

Retries: a run that fails on anything but a permanent error (bad spec, missing benchmark
file) is retried with exponential backoff, each failure recorded on the row (attempts,
error); after `exports.max_retries` the row is marked failed, never left running.
"""

from __future__ import annotations

import logging

from celery import Task

from app.core.task_names import NIGHTLY_EXPORTS, RUN_EXPORT
from app.core.config import get_settings
from app.core.errors import NotFound
from app.db.session import session_scope
from app.exports import nightly, repository, retention, runner
from app.exports.store import reader_store, writer_store
from workers.celery_app import celery_app

log = logging.getLogger(__name__)


def _scope():
    return session_scope(get_settings().database_url)


@celery_app.task(name=RUN_EXPORT, bind=True)
def run_export(self: Task, export_id: int) -> str:
    """Write the export of row `export_id` into `<data_dir>/exports/<kind>/<id>-<format>/`, or
    upload it to `<bucket>/<prefix>/<kind>/<id>-<format>/` with `exports.store=s3`."""
    settings = get_settings()
    cfg = settings.exports
    try:
        status = runner.execute(_scope, export_id, settings.exports_dir, store=writer_store(cfg))
    except NotFound:
        log.error("export %s: no such row; nothing to run", export_id)
        return "missing"
    except Exception as exc:  # transient or unknown: recorded on the row, then retried
        retries = self.request.retries
        final = retries >= cfg.max_retries
        runner.record_failure(_scope, export_id, runner.describe(exc, retries + 1), final=final)
        if final:
            log.error("export %s failed for good after %d attempts: %s", export_id, retries + 1, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=cfg.retry_backoff_s * 2**retries, max_retries=cfg.max_retries)
    if status == "done":
        with _scope() as session:
            row = repository.get(session, export_id)
            if row.kind in (nightly.INCREMENTAL, nightly.FULL):
                retention.prune(session, row.kind, row.format, cfg.keep_last, settings.exports_dir, reader_store(cfg))
    return status


@celery_app.task(name=NIGHTLY_EXPORTS)
def nightly_exports() -> list[int]:
    """Beat tick: plan this window's runs (insert-or-skip on the window key) and queue them."""
    settings = get_settings()
    with _scope() as session:
        created = nightly.tick(session, settings.exports, runner.now())
    for export_id in created:
        run_export.apply_async(args=(export_id,))
    log.info("scheduled exports: queued %s", created or "nothing (no new window, or one in flight)")
    return created
