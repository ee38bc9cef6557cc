"""Celery reads this module lazily (config_from_object by name) on the app's first use."""

from app.core.celery import celery_config
from app.core.config import get_settings

globals().update(celery_config(get_settings()))
