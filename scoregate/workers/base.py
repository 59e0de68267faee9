"""What the thin task modules share: the base task, batch options, failing a job.

The modules of ``workers/`` import in one order, bottom to top: ``reliability``
(delivery guard, retry and transport settings) <- ``startup`` <- ``app`` (the Celery
app) <- ``runtime`` (the per-process pipeline context) <- ``batching`` (the
micro-batched task class) <- ``batch_runner`` (a batch's messages in the pool process)
<- ``base`` <- the pool modules (``semantic``, ``precision``, ``reward``, ``fusion``,
``control``).
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from celery import Task

from scoregate.config.settings import get_settings
from scoregate.pipelines.failure import fail_job
from scoregate.pipelines.validation import BadMessage, job_ref
from scoregate.workers import reliability, runtime
from scoregate.workers.batching import FLUSH_TICK_S
from scoregate.workers.reliability import MAX_RETRIES, RETRY_BACKOFF_MAX_S, TRANSIENT_ERRORS

__all__ = ["ScoregateTask", "batch_options", "fail_job"]

log = logging.getLogger(__name__)


def batch_options() -> dict[str, Any]:
    """Micro-batching of a pool: flush on a size, when the pool is free, or after a wait.

    See :class:`scoregate.workers.batching.ReliableBatches` for the flushing rule.
    """
    settings = get_settings()
    wait = settings.batch_interval_s
    return {
        "flush_every": settings.batch_size,
        "flush_interval": min(FLUSH_TICK_S, wait) if wait > 0 else FLUSH_TICK_S,
        "max_wait_s": wait,
    }


class ScoregateTask(Task):  # type: ignore[misc]
    """Base of the non-batched pipeline tasks: retries, delivery counter, refusals."""

    autoretry_for = TRANSIENT_ERRORS
    retry_backoff = 1
    retry_backoff_max = RETRY_BACKOFF_MAX_S
    retry_jitter = True
    max_retries = MAX_RETRIES

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        task_id = self.request.id
        try:
            inspect.signature(self.run).bind(*args, **kwargs)
        except TypeError as exc:
            return self.refuse(f"arguments do not match the task: {exc}")
        guard = reliability.delivery_guard() if task_id else None
        deaths = guard.start(task_id) if guard else 0
        if guard and deaths >= guard.limit:
            guard.end([task_id])
            return self.poisoned(guard.poison_reason(self.name, deaths), kwargs)
        try:
            # Not super().__call__: it would push a request without the task id.
            return self.run(*args, **kwargs)
        except BadMessage as exc:
            return self.refuse(str(exc))
        finally:
            if guard:
                guard.end([task_id])

    def refuse(self, reason: str) -> None:
        """Log and drop a message that can never succeed (it is acked, not retried)."""
        log.error("%s[%s]: refused message: %s", self.name, self.request.id, reason)

    def poisoned(self, reason: str, kwargs: dict[str, Any]) -> None:
        """Fail the message's job (when it names one) and drop the message."""
        log.error("%s[%s]: %s", self.name, self.request.id, reason)
        try:  # agent_result and agent_error name the iteration ``iteration``
            job_id, n = job_ref({"n": kwargs.get("iteration"), **kwargs})
        except BadMessage:
            return
        fail_job(runtime.get_context(), job_id, n, reason)
