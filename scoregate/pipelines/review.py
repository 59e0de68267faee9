"""Human review of a job waiting for a person (seed 002): approve, reject, research, cancel.

Every verdict is appended to the audit trail with its actor; approve and reject are also
stored as outcomes for calibration; research is subject to the hourly quota.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.orm import Session

from scoregate.pipelines import outbound
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.loop import CANCELLED, REJECTED_BY_REVIEWER
from scoregate.pipelines.publish import RESEARCH_SUBJECT, publish
from scoregate.pipelines.validation import check_name, check_text
from scoregate.schemas.loop import Hooks
from scoregate.schemas.result import ScoreResult
from scoregate.storage import repository as repo
from scoregate.storage.quota import QuotaDecision, seconds_to_next_window

log = logging.getLogger(__name__)

VERDICTS = ("approve", "reject", "research", "cancel")
#: What a quota store (Redis) raises when it does not answer: down, or too slow.
QUOTA_DOWN = (RedisConnectionError, RedisTimeoutError)
#: Seconds to wait before asking for research again while the quota's store is down.
QUOTA_RETRY_AFTER_S = 5


class QuotaUnavailable(ConnectionError):
    """The research quota's store (Redis) did not answer: no slot was taken and nothing
    changed. Approve, reject and cancel need no quota; research can be asked again."""

    retry_after_s = QUOTA_RETRY_AFTER_S

    def __init__(self, cause: str) -> None:
        #: What Redis's client said (it may name Redis's address: not for an HTTP client).
        self.cause = cause
        super().__init__(
            "the research quota cannot be read: its Redis (SCOREGATE_REDIS_URL, else the"
            " broker) does not answer; nothing changed: approve or reject instead, or ask"
            " for research again in a few seconds"
        )


class ResearchQuotaExceeded(ValueError):
    """A research verdict refused by the hourly quota (seed 002): nothing changed, the job
    still waits for a human, who can approve or reject it."""

    def __init__(self, limit: int, retry_after_s: int) -> None:
        self.limit = limit
        self.retry_after_s = retry_after_s
        minutes = max(1, math.ceil(retry_after_s / 60))
        super().__init__(
            f"research quota exceeded: {limit} per hour, next slot in {minutes} min;"
            " approve or reject instead"
        )


def research_quota(ctx: PipelineContext) -> QuotaDecision:
    """The research quota as it stands (used, limit, remaining), taking no slot.

    Raises:
        QuotaUnavailable: the quota's store (Redis) does not answer.
    """
    try:
        return ctx.quota.peek(RESEARCH_SUBJECT, ctx.config.gating.research_quota_per_hour)
    except QUOTA_DOWN as exc:
        raise _unavailable(exc) from exc


def _unavailable(exc: Exception) -> QuotaUnavailable:
    cause = f"{type(exc).__name__}: {exc}"
    log.warning("research quota not read: Redis does not answer (%s)", cause)
    return QuotaUnavailable(cause)


class NoResearchTask(ValueError):
    """A research verdict on a job submitted without a research task: the caller's choice
    to fix, not a conflict with another reviewer."""


def review(
    ctx: PipelineContext, job_id: str, verdict: str, actor: str, note: str | None = None
) -> str:
    """Resolve a job waiting for a human; returns the job's new status.

    Raises:
        QuotaUnavailable: a research verdict while the quota's Redis does not answer
            (nothing changed).
    """
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {verdict!r}")
    for where, text in (("actor", actor), ("note", note)):
        if text is not None and not isinstance(text, str):
            raise ValueError(f"{where} must be a string, got {type(text).__name__}")
        check_text(text or "", where)
    check_name(actor, "actor")
    note = note if note is None or note.strip() else None  # a blank note is none
    with ctx.session() as s:
        # Two reviewers at once: the second waits here for the first to commit, then
        # finds nothing open (Postgres row lock; SQLite runs one writer at a time).
        repo.lock_job(s, job_id=job_id)
        job = repo.get_job(s, job_id=job_id)
        if job is None:
            raise ValueError(f"no job {job_id!r}")
        open_item = repo.open_escalation_for(s, job_id=job_id)
        if open_item is None:
            raise ValueError(f"job {job_id} is {job.status}: nothing is waiting for review")
        if verdict == "research" and Hooks.model_validate(job.hooks or {}).research is None:
            raise NoResearchTask(
                f"job {job_id} has no research task to run: it was submitted without"
                " `research`; approve or reject it, or cancel it"
            )
        n = job.current_iteration
        it = repo.get_iteration(s, job_id=job_id, n=n)
        result = ScoreResult.model_validate(it.result) if it is not None and it.result else None
        content = str(it.content) if it is not None else None
        status, out = _apply_verdict(ctx, s, job, n, result, content, verdict, actor, note)
    publish(ctx, out)
    return status


def _apply_verdict(
    ctx: PipelineContext,
    s: Session,
    job: Any,
    n: int,
    result: ScoreResult | None,
    content: str | None,
    verdict: str,
    actor: str,
    note: str | None,
) -> tuple[str, list[Message]]:
    hooks = Hooks.model_validate(job.hooks or {})
    rationale = note or f"{verdict} by {actor}"
    quota = None
    out: list[Message] = []
    status = {"approve": "accepted", "reject": "rejected", "cancel": "cancelled"}.get(verdict, "")
    if verdict == "research":
        status, out, quota, rationale = _research_on_review(
            ctx, s, job, n, result, hooks, rationale
        )
    if status != "awaiting_review":  # a research request with nothing to run stays open
        resolved = repo.resolve_escalation(
            s, job_id=job.id, status=_escalation_status(verdict), actor=actor, note=note
        )
        if resolved is None:  # another verdict got there first: change nothing
            raise ValueError(f"job {job.id}: its review was resolved by a concurrent verdict")
    if status == "researching":
        # The agent-wait clock starts now, not when the review opened: the sweeper
        # re-asks a research task only after it has been silent for the agent timeout.
        repo.touch_published(s, job_id=job.id, n=n)
    repo.append_decision(
        s,
        job_id=job.id,
        n=n,
        action=verdict,
        rationale=rationale,
        actor=actor,
        tier=result.gate.tier if result and result.gate else None,
        band=result.band if result else None,
        confidence=result.score if result else None,
        quota_used=quota.used if quota else None,
        quota_remaining=quota.remaining if quota else None,
    )
    if result is not None and verdict in ("approve", "reject"):
        repo.add_verdict(
            s, job_id=job.id, n=n, score=result.score, accepted=verdict == "approve", actor=actor
        )
    final = result.model_dump(mode="json") if result and verdict == "approve" else None
    # The reason the job waited (its score, an agent failure) is no longer why it stands:
    # approved, it has none; rejected, the reviewer's verdict is the reason. Who decided
    # is on the escalation (resolved_by) and the audit trail (actor).
    repo.set_job_status(
        s,
        job_id=job.id,
        status=status,
        final_result=final,
        failure_reason=_rejected_by(actor, note) if verdict == "reject" else None,
        clear_failure_reason=verdict == "approve",
    )
    if verdict == "approve" and result is not None:
        out += outbound.hook(
            s,
            ctx.settings,
            job_id=job.id,
            n=n,
            role="on_pass",
            ref=hooks.on_pass,
            kwargs={
                "job_id": job.id,
                "iteration": n,
                "score": result.score,
                "band": result.band,
                "action": "accept",
                "result": result.model_dump(mode="json"),
                "content": content,
            },
        )
    exit_reason = {"reject": REJECTED_BY_REVIEWER, "cancel": CANCELLED}.get(verdict)
    if exit_reason is not None:
        out += outbound.loop_exit(s, ctx.settings, job=job, n=n, reason=exit_reason)
    return status, out


def _rejected_by(actor: str, note: str | None) -> str:
    return f"rejected by {actor}: {note}" if note else f"rejected by {actor}"


def _escalation_status(verdict: str) -> str:
    return {
        "approve": "approved",
        "reject": "rejected",
        "research": "research",
        "cancel": "cancelled",
    }[verdict]


def _research_on_review(
    ctx: PipelineContext,
    s: Session,
    job: Any,
    n: int,
    result: ScoreResult | None,
    hooks: Hooks,
    rationale: str,
) -> tuple[str, list[Message], Any, str]:
    if hooks.research is None or result is None:
        return "awaiting_review", [], None, f"{rationale}; no research task configured"
    try:
        quota = ctx.quota.acquire(
            RESEARCH_SUBJECT,
            ctx.config.gating.research_quota_per_hour,
            token=f"{job.id}:{n}:review",
        )
    except QUOTA_DOWN as exc:  # nothing taken: the verdict's transaction rolls back
        raise _unavailable(exc) from exc
    if not quota.allowed:  # refused, not recorded: the job waits as it did
        raise ResearchQuotaExceeded(quota.limit, seconds_to_next_window(time.time()))
    msgs = outbound.agent_request(
        s, ctx.settings, job=job, n=n, result=result, ref=hooks.research, role="research"
    )
    return "researching", msgs, quota, f"{rationale}; {quota.message}"
