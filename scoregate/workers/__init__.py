"""Celery workers, one module per pool: ``celery -A scoregate.workers worker -Q semantic``."""

from scoregate.workers.app import app

__all__ = ["app"]
