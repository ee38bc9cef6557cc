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



@lru_cache(maxsize=4)
def _client(broker_url: str, settings_json: str) -> Celery:
    settings = Settings.model_validate_json(settings_json)
    client = Celery("execsynth-producer", set_as_current=False)
    client.conf.update(celery_config(settings))
    return client


_by_settings: dict[int, tuple[Settings, Celery]] = {}


def producer(settings: Settings) -> Celery:
    """The client for these settings. Settings objects live as long as the app, so the client is
    looked up by identity first (dumping the settings to JSON on every request costs more than
    the publish itself) and by value when a new settings object arrives."""
    entry = _by_settings.get(id(settings))
    if entry is None or entry[0] is not settings:
        if len(_by_settings) >= 16:
            _by_settings.clear()
        entry = _by_settings[id(settings)] = (settings, _client(settings.broker_url, settings.model_dump_json()))
    return entry[1]


def send_after_commit(session: Session, settings: Settings, name: str, *args: Any, queue: str | None = None) -> None:
    """Queue `name(*args)` to be sent when `session` commits (dropped if it rolls back)."""

    def _send(_session: Session) -> None:
        producer(settings).send_task(name, args=list(args), queue=queue)

    event.listen(session, "after_commit", _send, once=True)


def send_now(settings: Settings, name: str, *args: Any, queue: str | None = None) -> None:
    producer(settings).send_task(name, args=list(args), queue=queue)
