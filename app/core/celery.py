"""Celery configuration shared by the workers and the app's producer.

The app only *sends* tasks by name (see app.producer); the worker side (workers.celery_app)
registers them. Both build their configuration here so they agree on queues and routes.
"""

from __future__ import annotations

from celery.schedules import crontab
from kombu import Exchange, Queue

from app.core.config import ExportSettings, Settings, SettingsError
from app.core.task_names import NIGHTLY_EXPORTS, QUEUES, RESUME_STALLED


def broker_transport_options(settings: Settings) -> dict:
    if settings.broker_url.startswith("filesystem://"):
        folder = settings.broker_folder
        for sub in ("queue", "control"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        return {
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
            "polling_interval": 0.1,
        }
    if settings.broker_url.startswith(("redis://", "rediss://")):
        # a task unacked this long (its worker died) is handed to another worker
        visibility = settings.worker.visibility_timeout_s
        return {
            "visibility_timeout": visibility,
            # sweep for messages of dead workers every few seconds (kombu's default scans
            # only every ~100 s), so a redelivery follows soon after the visibility timeout
            "unacked_restore_interval": max(1, min(10, visibility // 6)),
            "unacked_restore_throttle": 1,
            # the lock one sweep holds: a worker killed mid-sweep leaves it held until it
            # expires (kombu's default, 300 s, stalled every redelivery that long; a sweep
            # takes milliseconds, and a second sweep at worst restores a message twice, which
            # the idempotent stages absorb)
            "unacked_mutex_expire": max(2, min(60, visibility // 2)),
            "socket_timeout": 10,
            "socket_connect_timeout": 5,
        }
    return {}


def celery_config(settings: Settings) -> dict:
    exchange = Exchange("execsynth", type="direct")
    return dict(
        broker_url=settings.broker_url,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        result_backend=None,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue="pipeline",
        task_default_exchange="execsynth",
        task_default_routing_key="pipeline",
        task_queues=[Queue(name, exchange, routing_key=name) for name in QUEUES],
        task_routes={f"execsynth.{queue}.*": {"queue": queue} for queue in QUEUES},
        broker_transport_options=broker_transport_options(settings),
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a restarted Redis is waited for, never given up on
        # on a lost broker connection, stop late-ack tasks now: they are redelivered anyway
        worker_cancel_long_running_tasks_on_connection_loss=True,
        beat_schedule={
            "resume-stalled-batches": {"task": RESUME_STALLED, "schedule": settings.worker.resume_every_s},
            **({"nightly-exports": {"task": NIGHTLY_EXPORTS, "schedule": export_schedule(settings.exports)}}
               if settings.exports.enabled else {}),
        },
        worker_hijack_root_logger=False,
        enable_utc=True,
        timezone="UTC",
    )


def export_schedule(exports: ExportSettings) -> float | crontab:
    """The scheduled exports' beat period: seconds, or a UTC crontab "m h dom mon dow"."""
    if exports.interval_s is not None:
        return exports.interval_s
    minute, hour, day_of_month, month_of_year, day_of_week = exports.schedule.split()
    try:
        return crontab(minute=minute, hour=hour, day_of_month=day_of_month,
                       month_of_year=month_of_year, day_of_week=day_of_week)
    except ValueError as exc:
        raise SettingsError(f"invalid configuration: EXECSYNTH_EXPORTS__SCHEDULE: {exports.schedule!r}: {exc}") from None
