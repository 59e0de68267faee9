"""The Celery app: JSON only, late acks, one queue per pool, routed by task name."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from celery import Celery
from kombu.entity import Exchange, Queue

from scoregate.config.settings import Settings, get_settings
from scoregate.logs import install_celery_logging
from scoregate.pipelines.context import POOLS
from scoregate.workers import startup
from scoregate.workers.reliability import reliability_config, transport_options

#: The embedded default has no broker; Celery still needs a URL to build the app.
MEMORY_BROKER = "memory://"

ROUTES = {f"scoregate.{pool}.*": {"queue": pool} for pool in POOLS}

WORKER_MODULES = [f"scoregate.workers.{pool}" for pool in POOLS]


def celery_config(settings: Settings) -> dict[str, Any]:
    """Everything the app needs, from settings; pickle is never accepted."""
    broker = settings.secret("broker_url") or MEMORY_BROKER
    return {
        "broker_url": broker,
        "result_backend": settings.secret("result_backend"),
        "task_serializer": "json",
        "result_serializer": "json",
        "event_serializer": "json",
        "accept_content": ["json"],
        "result_accept_content": ["json"],
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_acks_on_failure_or_timeout": True,
        "task_ignore_result": True,
        "result_expires": settings.result_expires_s,
        "broker_transport_options": transport_options(settings),
        **reliability_config(settings),
        "task_routes": ROUTES,
        # One queue per pool, each bound once, to a direct exchange of its own name: a
        # queue without an exchange would be bound to the default queue's exchange
        # (``control``, key ``control``) and get every control message on RabbitMQ.
        "task_queues": [Queue(pool, Exchange(pool, type="direct"), pool) for pool in POOLS],
        "task_default_queue": "control",
        "task_default_exchange": "control",
        "task_default_routing_key": "control",
        "task_time_limit": settings.task_time_limit_s,
        "task_soft_time_limit": max(1, settings.task_time_limit_s - 30),
        "worker_send_task_events": settings.task_events,
        "task_send_sent_event": settings.task_events,
        "worker_hijack_root_logger": False,
        "beat_schedule": {
            "scoregate-sweep": {
                "task": "scoregate.control.sweep",
                "schedule": max(5.0, settings.sweep_interval_s),
                "options": {"queue": "control"},
            }
        },
    }


def create_app(settings: Settings | None = None) -> Celery:
    app = Celery("scoregate", include=WORKER_MODULES)
    app.conf.update(celery_config(settings or get_settings()))
    startup.install(app)
    install_celery_logging()
    return app


@lru_cache(maxsize=1)
def get_app() -> Celery:
    return create_app()


app = get_app()
