"""A Prometheus endpoint per Celery worker, aggregated over its pool processes.

With ``SCOREGATE_METRICS_PORT`` set, a worker serves ``/metrics`` on that port
from its main process, on ``SCOREGATE_METRICS_HOST`` (loopback unless set). The
tasks run in prefork children, so every process writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` and the endpoint reads them all
(``prometheus_client.multiprocess``): set that variable to an empty directory of
the worker's own (one per worker, never shared), or leave it unset and the worker
makes a fresh temporary one. The worker empties it at start, because the files of
a previous run would be added to this one's.

Queue wait: every task published by a process that imported this module carries
the publish time in a message header; the worker observes ``now - sent`` when the
task (or each request of a micro-batch) starts; the sweep, upkeep every few seconds,
is not observed. Clocks of different machines are assumed NTP-synced.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from celery import signals

from scoregate.config.settings import get_settings
from scoregate.pipelines.context import SWEEP
from scoregate.telemetry.prometheus import record_queue_wait

log = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: The message header holding the publish time (seconds since the epoch).
SENT_HEADER = "scoregate_sent_at"
#: Addresses that only this host reaches.
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def prepare_multiproc_dir() -> Path:
    """Make sure ``PROMETHEUS_MULTIPROC_DIR`` names an empty directory and is used; return it."""
    configured = os.environ.get(MULTIPROC_ENV)
    path = Path(configured) if configured else Path(tempfile.mkdtemp(prefix="scoregate-prom-"))
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_ENV] = str(path)
    _use_multiprocess_values()
    return path


def _use_multiprocess_values() -> None:
    # The `celery` command loads its plugins (flower) before any signal, and flower imports
    # prometheus_client, which picks its value store from the environment at import time.
    # A metric reads `values.ValueClass` when it is created, so switching it here reaches
    # every metric made afterwards: scoregate's are made on first use, in the pool children.
    from prometheus_client import values

    values.ValueClass = values.get_value_class()


def start_metrics_server(port: int, addr: str = "127.0.0.1") -> None:
    """Serve every process's samples from ``PROMETHEUS_MULTIPROC_DIR`` on ``addr:port``."""
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    start_http_server(port, addr=addr, registry=registry)
    exposure = (
        ""
        if addr in LOOPBACK
        else " (no authentication: anyone who reaches this address reads them)"
    )
    log.info("Prometheus metrics on http://%s:%d/metrics%s", addr, port, exposure)


@signals.worker_init.connect
def _before_fork(**_: Any) -> None:
    # worker_init runs in the main process before the pool forks: children inherit the env.
    if get_settings().metrics_port is not None:
        prepare_multiproc_dir()


@signals.worker_ready.connect
def _serve(**_: Any) -> None:
    # Started once the pool has forked, so the children do not inherit the listening socket.
    settings = get_settings()
    port = settings.metrics_port
    if port is None:
        return
    try:
        start_metrics_server(port, settings.metrics_host)
    except OSError as exc:
        log.error("cannot serve metrics on %s port %d: %s", settings.metrics_host, port, exc)


@signals.worker_process_shutdown.connect
def _forget_process(**_: Any) -> None:
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


@signals.before_task_publish.connect
def _stamp_sent(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is not None:
        headers.setdefault(SENT_HEADER, time.time())


@signals.task_prerun.connect
def _observe_wait(task: Any = None, args: Any = None, **_: Any) -> None:
    if getattr(task, "name", None) == SWEEP:
        return  # upkeep every few seconds, not work: it would swamp the control queue's waits
    now = time.time()
    for queue, sent in sent_times(task, args):
        record_queue_wait(queue, now - sent)


def sent_times(task: Any, args: Any) -> Iterator[tuple[str, float]]:
    """(queue, publish time) of the task's request, or of each request of a batch."""
    batch = args[0] if args and isinstance(args[0], list) else None
    if batch and all(hasattr(r, "request_dict") for r in batch):
        for req in batch:
            yield from _sent(req.request_dict or {}, req.delivery_info or {})
    elif task is not None:
        request = task.request
        yield from _sent({SENT_HEADER: request.get(SENT_HEADER)}, request.delivery_info or {})


def _sent(headers: dict[str, Any], delivery: dict[str, Any]) -> Iterator[tuple[str, float]]:
    sent = headers.get(SENT_HEADER)
    if isinstance(sent, int | float):
        yield str(delivery.get("routing_key") or "unknown"), float(sent)
