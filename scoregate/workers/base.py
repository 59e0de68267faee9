"""What the thin task modules share: batch options and per-message validation."""

from __future__ import annotations

import logging
from typing import Any

from scoregate.config import get_settings
from scoregate.pipelines.context import PipelineContext
from scoregate.storage import repository as repo
from scoregate.workers.batching import FLUSH_TICK_S

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


def fail_job(ctx: PipelineContext, job_id: str, n: int, reason: str) -> None:
    """Mark a job failed with a reason a person can act on; write the audit entry once."""
    with ctx.session() as s:
        if repo.get_job(s, job_id=job_id) is None:
            log.error("job %s: %s (no such job)", job_id, reason)
            return
        repo.set_job_status(s, job_id=job_id, status="failed", failure_reason=reason)
        # The sweeper must not bring a failed iteration back.
        repo.set_iteration_status(
            s, job_id=job_id, n=n, status="failed", expect=("scoring", "fused", "stuck")
        )
        repo.append_decision(
            s, job_id=job_id, n=n, action="fail", rationale=reason, dedupe_key=f"{job_id}:{n}:fail"
        )
