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
from scoregate.pipelines.failure import mark_failed
from scoregate.pipelines.validation import MAX_KEY_CHARS, check_text
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)

#: The idempotency key of a submission that brought none: its Celery message id.
MESSAGE_KEY_PREFIX = "celery:"


def submit_message(ctx: PipelineContext, body: Any, message_id: str | None) -> str | None:
    """Record and start the job of one raw message; returns its id.

    Returns:
        The job id; for an invalid body, the id of the failed job recorded (with the
        reason) under its idempotency key, else under ``celery:<message id>``; None when
        it has neither, or when its key holds a job with a different request (the
        refusal is noted on that job); the error is logged either way.
    """
    keyed = body
    if isinstance(body, dict) and body.get("idempotency_key") is None and message_id:
        keyed = {**body, "idempotency_key": MESSAGE_KEY_PREFIX + message_id}
    try:
        return steps.submit_body(ctx, keyed)
    except steps.IdempotencyConflict as exc:
        refuse_conflict(ctx, exc, message_id)
        return None
    except ValueError as exc:
        reason = f"invalid job: {exc}"
        log.error("scoregate.control.submit[%s]: refused: %s", message_id, reason)
        return record_rejected(ctx, body, reason, message_id)


def refuse_conflict(
    ctx: PipelineContext, exc: steps.IdempotencyConflict, message_id: str | None
) -> None:
    """A key reused for a different job: refused, logged, and noted on the job holding the
    key, which is left as it was (no id is returned: the caller's request was not taken)."""
    log.error("scoregate.control.submit[%s]: refused: %s", message_id, exc)
    with ctx.session() as s:
        job = repo.get_jobs(s, job_ids=[exc.job_id]).get(exc.job_id)
        if job is None:
            return
        repo.append_decision(
            s,
            job_id=job.id,
            n=job.current_iteration,
            action="submit_refused",
            rationale=f"a submission (Celery message {message_id}) was refused: {exc}",
            details={"message_id": message_id},
            dedupe_key=f"{job.id}:submit_refused:{message_id}" if message_id else None,
        )


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
            mark_failed(s, job.id, 0, reason)
        return job.id


def _usable_key(key: Any) -> bool:
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_CHARS:
        return False
    try:
        check_text(key, "idempotency_key")
    except ValueError:
        return False
    return True
