"""Failing a job: the one place that writes "this job failed, and why".

Every path that gives up on a job (a poison message, a batch item that raised, an agent
output that cannot be scored, a job the sweeper re-published too often, a submission
refused at intake) calls :func:`mark_failed` inside its transaction, or
:func:`fail_job` to open one.
"""

from __future__ import annotations

import logging

from sqlalchemy.orm import Session

from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.validation import storable
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)

#: The iteration states a failure retires, so that the sweeper never brings it back.
RETIRABLE = ("scoring", "fused", "stuck")


def mark_failed(s: Session, job_id: str, n: int, reason: str) -> None:
    """In the caller's transaction: the job failed with ``reason`` (a reason a person can
    act on), iteration ``n`` retired if it is still in flight, the audit entry written
    once (its dedupe key is ``<job>:<n>:fail``). A reason that quotes what a client sent is
    stored with its lone surrogates and NULs escaped (``validation.storable``)."""
    reason = storable(reason)
    repo.set_job_status(s, job_id=job_id, status="failed", failure_reason=reason)
    repo.set_iteration_status(s, job_id=job_id, n=n, status="failed", expect=RETIRABLE)
    repo.append_decision(
        s, job_id=job_id, n=n, action="fail", rationale=reason, dedupe_key=f"{job_id}:{n}:fail"
    )


def fail_job(ctx: PipelineContext, job_id: str, n: int, reason: str) -> None:
    """:func:`mark_failed` in a transaction of its own; a job that does not exist is logged."""
    with ctx.session() as s:
        if repo.get_job(s, job_id=job_id) is None:
            log.error("job %s: %s (no such job)", job_id, reason)
            return
        mark_failed(s, job_id, n, reason)
