"""An agent (or research) task that raised: recorded on its job, retried, then given up on.

The agent task is sent with ``link_error`` = ``scoregate.control.agent_error``, so its
exception reaches the job within seconds instead of after the sweeper's agent timeout.
Policy: the error is appended to the audit trail (action ``agent_error``, with the
exception's type and message); the agent task is sent again up to
``SCOREGATE_AGENT_ERROR_RETRIES`` times for that iteration; after that the job is
escalated to a human when its loop has HIL on, else it fails. Either way its
``on_loop_exit`` hook is told (``reason="agent_failed"``). An answer refused before
scoring (``refused_output``) takes the same path.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from scoregate.pipelines import outbound
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.loop import AGENT_FAILED
from scoregate.pipelines.publish import publish
from scoregate.pipelines.validation import BadMessage
from scoregate.schemas.loop import (
    MAX_ERROR_MESSAGE_CHARS,
    AgentErrorReport,
    Hooks,
    LoopPolicy,
    TaskRef,
)
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.engine import describe_validation_error
from scoregate.storage import repository as repo
from scoregate.storage.recovery import WAITING_ON_AGENT, position
from scoregate.storage.tables import Decision

log = logging.getLogger(__name__)

ACTION = "agent_error"
EXIT_REASON = AGENT_FAILED
#: The error type recorded for an agent answer refused before scoring.
REFUSED_OUTPUT = "AgentOutputRejected"

#: Looks up a failed task's exception by its Celery id: (type name, message) or None.
ExceptionLookup = Callable[[str], tuple[str, str] | None]


def parse_report(kwargs: dict[str, Any]) -> AgentErrorReport:
    """Validate an error report at the boundary; a ``ValueError`` says what is wrong."""
    try:
        return AgentErrorReport.model_validate(kwargs)
    except ValidationError as exc:
        raise ValueError(
            describe_validation_error(exc).replace("invalid request", "invalid agent error")
        ) from None


def report_body(
    args: tuple[Any, ...], kwargs: dict[str, Any], lookup: ExceptionLookup | None
) -> tuple[dict[str, Any], bool]:
    """The report body of an ``agent_error`` call, and whether it was called in place.

    Celery calls an error callback three ways: in the failed task's own worker with
    ``(request, exc, traceback)`` when that worker knows the callback task (returns True:
    forward the body to the control queue); as a message with the failed task's id when
    it does not; a client sends the documented keyword arguments alone.

    Raises:
        BadMessage: the arguments are none of these.
    """
    if not args:
        return dict(kwargs), False
    if len(args) == 1 and isinstance(args[0], str):
        return from_task_id(kwargs, args[0], lookup), False
    if len(args) == 3 and isinstance(args[1], BaseException):
        return from_exception(kwargs, getattr(args[0], "id", None), args[1]), True
    raise BadMessage(
        "agent_error takes keyword arguments job_id, iteration, error_type and message"
        f" (got {len(args)} positional argument(s))"
    )


def from_exception(
    kwargs: dict[str, Any], task_id: str | None, exc: BaseException
) -> dict[str, Any]:
    """A report body from a callback's bound kwargs and the exception the task raised."""
    return {
        **kwargs,
        "error_type": type(exc).__name__,
        "message": str(exc)[:MAX_ERROR_MESSAGE_CHARS],
        "task_id": task_id,
    }


def from_task_id(
    kwargs: dict[str, Any], task_id: str, lookup: ExceptionLookup | None
) -> dict[str, Any]:
    """A report body from Celery's old-style errback (only the failed task's id).

    A worker that does not know ``scoregate.control.agent_error`` (an orchestrator's own
    app) sends it on with the failed task's id; its exception is read from the result
    backend when scoregate shares one with the agent's app (``SCOREGATE_RESULT_BACKEND``).
    """
    found = lookup(task_id) if lookup is not None else None
    if found is None:
        error_type, message = (
            "Error",
            (
                "the agent task failed; its exception is not available here (share a result"
                " backend with the agent's Celery app: SCOREGATE_RESULT_BACKEND)"
            ),
        )
    else:
        error_type, message = found
    return {
        **kwargs,
        "error_type": error_type[:200] or "Error",
        "message": message[:MAX_ERROR_MESSAGE_CHARS],
        "task_id": task_id,
    }


def record_agent_error(ctx: PipelineContext, report: AgentErrorReport) -> str | None:
    """Record the error on its job and act per the policy; returns what was done.

    Returns:
        ``retried``, ``escalated``, ``failed``, ``ignored`` (the job no longer waits for
        that iteration: the error is recorded, nothing else changes), ``duplicate`` (its
        ``task_id`` was counted before, whatever the job did since), or None when there
        is no such job.
    """
    out: list[Message] = []
    with ctx.session() as s:
        repo.lock_job(s, job_id=report.job_id)
        job = repo.get_job(s, job_id=report.job_id)
        if job is None:
            log.error("agent error for unknown job %s ignored: %s", report.job_id, _what(report))
            return None
        key = _dedupe_key(report)
        if key is not None and _recorded(s, key):
            # counted before, whatever the job did since (its answer may have been lost on
            # the way back after the report escalated or failed the job): not noted again
            log.info("job %s: agent error report %s sent again", job.id, report.task_id)
            return "duplicate"
        waiting = job.status in WAITING_ON_AGENT and report.iteration == job.current_iteration + 1
        earlier = repo.count_decisions(s, job_id=job.id, n=report.iteration, action=ACTION)
        rationale = _what(report)
        if not waiting:
            where = position(job.status, job.current_iteration)
            rationale += f" (ignored: the job is {where})"
        entry = repo.append_decision(
            s,
            job_id=job.id,
            n=report.iteration,
            action=ACTION,
            rationale=rationale,
            details={
                "error_type": report.error_type,
                "message": report.message,
                "task_id": report.task_id,
                "attempt": earlier + 1,
            },
            # a report the job does not wait for is noted once per iteration: repeated, it
            # would grow the audit trail of any job without end
            dedupe_key=key if waiting else f"{job.id}:{report.iteration}:ignored",
        )
        log.warning("job %s: %s", job.id, rationale)
        if not waiting:
            return "ignored"  # noted (the first time), nothing else changes
        if entry is None:
            return "duplicate"
        # counted: the job changed (a retry used up, or its end), whatever its status now,
        # for a client that syncs on updated_at
        job.updated_at = entry.created_at
        outcome, out = _act(ctx, s, job, report, earlier + 1)
    publish(ctx, out)
    return outcome


def refused_output(job_id: str, iteration: int, reason: str) -> AgentErrorReport:
    """The error report of an agent answer refused before scoring (not a string or an
    object, too long, a metric out of range...): an agent failure like any other."""
    return AgentErrorReport(
        job_id=job_id,
        iteration=iteration,
        error_type=REFUSED_OUTPUT,
        message=reason[:MAX_ERROR_MESSAGE_CHARS],
    )


def _what(report: AgentErrorReport) -> str:
    message = f": {report.message}" if report.message else ""
    if report.error_type == REFUSED_OUTPUT:
        return f"agent output for iteration {report.iteration} rejected{message}"
    return f"agent task for iteration {report.iteration} raised {report.error_type}{message}"


def _dedupe_key(report: AgentErrorReport) -> str | None:
    if report.task_id is None:
        return None  # a client's report without a task id: each one counts
    digest = hashlib.sha256(report.task_id.encode()).hexdigest()[:32]
    return f"{report.job_id}:{report.iteration}:{ACTION}:{digest}"


def _recorded(s: Session, dedupe_key: str) -> bool:
    """Whether a report with this key was counted already."""
    return s.scalar(select(Decision.id).where(Decision.dedupe_key == dedupe_key)) is not None


def _act(
    ctx: PipelineContext, s: Session, job: Any, report: AgentErrorReport, attempt: int
) -> tuple[str, list[Message]]:
    n = report.iteration - 1
    it = repo.get_iteration(s, job_id=job.id, n=n)
    hooks = Hooks.model_validate(job.hooks or {})
    research = job.status == "researching"
    ref = hooks.research if research else _agent(job)
    retries = ctx.settings.agent_error_retries
    if attempt <= retries and ref is not None and it is not None and it.result is not None:
        result = ScoreResult.model_validate(it.result)
        msgs = outbound.agent_request(
            s,
            ctx.settings,
            job=job,
            n=n,
            result=result,
            ref=ref,
            role="research" if research else "agent",
            content=str(it.content),
        )
        repo.touch_published(s, job_id=job.id, n=n)  # the agent-wait clock starts again
        return "retried", msgs
    return _give_up(ctx, s, job, report, n, attempt)


def _agent(job: Any) -> TaskRef | None:
    return TaskRef.model_validate(job.agent) if job.agent is not None else None


def _give_up(
    ctx: PipelineContext,
    s: Session,
    job: Any,
    report: AgentErrorReport,
    n: int,
    attempt: int,
) -> tuple[str, list[Message]]:
    retries = ctx.settings.agent_error_retries
    reason = (
        f"{_what(report)}; failed {attempt} time(s), no retry left"
        f" (SCOREGATE_AGENT_ERROR_RETRIES={retries})"
    )
    hil = LoopPolicy.model_validate(job.policy).hil
    if hil:
        repo.open_escalation(s, job_id=job.id, n=n, kind="escalation", reason=reason)
        repo.set_job_status(s, job_id=job.id, status="escalated", failure_reason=reason)
    else:
        repo.set_job_status(s, job_id=job.id, status="failed", failure_reason=reason)
    action = "escalate" if hil else "fail"
    repo.append_decision(
        s,
        job_id=job.id,
        n=report.iteration,
        action=action,
        rationale=reason,
        details={"exit_reason": EXIT_REASON},
        dedupe_key=f"{job.id}:{report.iteration}:{ACTION}:{action}",
    )
    # The same keywords as any loop exit: the last scored iteration and the reason.
    out = outbound.loop_exit(s, ctx.settings, job=job, n=n, reason=EXIT_REASON)
    return ("escalated" if hil else "failed"), out
