"""The one place the app sends Celery tasks: by name, and only after the session commits,
so no worker can race an uncommitted row."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from celery import Celery
from sqlalchemy import event
from sqlalchemy.orm import Session

from app.core.celery import celery_config
from app.core.config import Settings

PING = "execsynth.pipeline.ping"


@lru_cache(maxsize=4)
def _client(broker_url: str, settings_json: str) -> Celery:
    settings = Settings.model_validate_json(settings_json)
    client = Celery("execsynth-producer", set_as_current=False)
    client.conf.update(celery_config(settings))
    return client


def producer(settings: Settings) -> Celery:
    return _client(settings.broker_url, settings.model_dump_json())


def send_after_commit(session: Session, settings: Settings, name: str, *args: Any, queue: str | None = None) -> None:
    """Queue `name(*args)` to be sent when `session` commits (dropped if it rolls back)."""

    def _send(_session: Session) -> None:
        producer(settings).send_task(name, args=list(args), queue=queue)

    event.listen(session, "after_commit", _send, once=True)


def send_now(settings: Settings, name: str, *args: Any, queue: str | None = None) -> None:
    producer(settings).send_task(name, args=list(args), queue=queue)
