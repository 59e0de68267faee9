"""Jobs sent as raw messages (``scoregate.control.submit`` from any Celery client).

A redelivered message must not start a second job, and a bad body must not crash a
worker: the message is the only channel back to a client in another language, so a
bad body leaves a failed job saying what was wrong, under its ``idempotency_key`` or,
without one, under ``celery:<message id>``.
"""

from __future__ import annotations

import logging
from typing import Any

from scoregate.pipelines import steps
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.validation import MAX_KEY_CHARS, check_text
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)

#: The idempotency key of a submission that brought none: its Celery message id.
MESSAGE_KEY_PREFIX = "celery:"


def submit_message(ctx: PipelineContext, body: Any, message_id: str | None) -> str | None:
    """Record and start the job of one raw message; returns its id.

    Returns:
        The job id; for an invalid body, the id of the failed job recorded (with the
        reason) under its idempotency key, else under ``celery:<message id>``; None only
        when it has neither (the error is logged either way).
    """
    keyed = body
    if isinstance(body, dict) and body.get("idempotency_key") is None and message_id:
        keyed = {**body, "idempotency_key": MESSAGE_KEY_PREFIX + message_id}
    try:
        return steps.submit_body(ctx, keyed)
    except ValueError as exc:
        reason = f"invalid job: {exc}"
        log.error("scoregate.control.submit[%s]: refused: %s", message_id, reason)
        return record_rejected(ctx, body, reason, message_id)


def record_rejected(
    ctx: PipelineContext, body: Any, reason: str, message_id: str | None = None
) -> str | None:
    """Leave a failed job under the client's idempotency key if it gave a usable one,
    else under ``celery:<message id>``."""
    key = body.get("idempotency_key") if isinstance(body, dict) else None
    if not _usable_key(key) and message_id:
        key = MESSAGE_KEY_PREFIX + message_id
    if not _usable_key(key):
        return None
    with ctx.session() as s:
        job = repo.create_job(s, request={}, policy={}, idempotency_key=key)
        # A valid job holding this key has an iteration: never overwrite it.
        if job.status == "pending" and job.current_iteration == 0:
            repo.set_job_status(s, job_id=job.id, status="failed", failure_reason=reason)
            repo.append_decision(
                s,
                job_id=job.id,
                n=0,
                action="fail",
                rationale=reason,
                dedupe_key=f"{job.id}:0:fail",
            )
        return job.id


def _usable_key(key: Any) -> bool:
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_CHARS:
        return False
    try:
        check_text(key, "idempotency_key")
    except ValueError:
        return False
    return True
