"""The sweeper: Postgres is the record, so a job survives a broker that lost its messages.

It runs as ``scoregate sweep`` and periodically in the control pool (Celery beat).
Each run:

- re-publishes what every iteration stuck longer than ``stuck_after_s`` waits for:
  its missing track tasks, its fusion or its decision (every step is idempotent, so a
  message that was only slow, not lost, costs a no-op);
- re-sends the agent (or research) task of a job that has waited on it longer than
  ``agent_timeout_s`` (only the first answer for an iteration is taken);
- re-sends a hook (``on_pass``, ``on_loop_exit``) the broker did not take when it was
  decided, from the kwargs its dispatch row keeps, with the same task id;
- sets the gauge ``scoregate_stuck_iterations``: iterations still waiting on a track or
  on fusion ``stuck_after_s`` after they started (a pool with no worker shows here);
- gives up on an iteration re-published ``max_deliveries`` times into an idle queue
  (a queue with a backlog may simply not have reached it yet): its job fails with the
  reason, instead of being re-published forever. Re-publications of one iteration are
  spaced out (``stuck_after_s`` x 1, 3, 7, then 10), so that a worker retrying a fault
  for minutes is not given up on, and a pool that is down does not see its queue grow
  by every job at every sweep.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scoregate.pipelines import agent_errors, outbound
from scoregate.pipelines import context as names
from scoregate.pipelines.context import EXPECTED_TRACKS, TRACK_TASKS, PipelineContext
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.failure import mark_failed
from scoregate.pipelines.publish import publish
from scoregate.pipelines.steps import track_messages
from scoregate.schemas.loop import AgentErrorReport, Hooks, LoopPolicy, TaskRef
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.storage import repository as repo
from scoregate.storage.recovery import stale_agent_waits
from scoregate.storage.tables import TERMINAL_JOB_STATUSES, Iteration, Job
from scoregate.telemetry import prometheus

log = logging.getLogger(__name__)

#: Iterations (and agent waits) handled per run; the next run takes the next ones.
SWEEP_LIMIT = 500


def sweep(ctx: PipelineContext, older_than_s: float) -> int:
    """Re-publish stuck work; returns how many messages were sent."""
    now = datetime.now(UTC)
    out: list[Message] = []
    silent: list[AgentErrorReport] = []
    busy = _Backlog(ctx)
    with ctx.session() as s:
        cutoff = now - timedelta(seconds=older_than_s)
        stuck = repo.stuck_iterations(s, older_than=cutoff, limit=SWEEP_LIMIT)
        for it in stuck:
            out += _revive(ctx, s, it, busy, now, older_than_s)
        agent_cutoff = now - timedelta(seconds=ctx.settings.agent_timeout_s)
        for it in stale_agent_waits(s, older_than=agent_cutoff, limit=SWEEP_LIMIT):
            if _waits_on_external_agent(it):
                silent.append(_no_answer(ctx, it))
            else:
                out += _reask_agent(ctx, s, it)
        # a hook the broker did not take: its job may be final, so nothing else sends it
        for d in repo.unpublished_hooks(s, older_than=cutoff, limit=SWEEP_LIMIT):
            out.append(Message(d.task, dict(d.kwargs or {}), d.queue, task_id=d.celery_task_id))
        unfused = count_unfused(s, older_than=cutoff)
    prometheus.record_stuck_iterations(unfused)
    for report in silent:  # each in its own transaction, as an agent_error message is
        agent_errors.record_agent_error(ctx, report)
    if out:
        log.warning("sweeper: re-publishing %d message(s): %s", len(out), describe(out))
    publish(ctx, out)
    return len(out)


#: Messages named one by one in the sweeper's warning; the rest are counted.
NAMED_MESSAGES = 10


def describe(messages: list[Message]) -> str:
    """The messages of a sweep, for its log line: ``job JOB iteration N: TASK`` each, the
    first :data:`NAMED_MESSAGES` of them, then how many more."""
    shown = []
    for m in messages[:NAMED_MESSAGES]:
        job, n = m.kwargs.get("job_id"), m.kwargs.get("n", m.kwargs.get("iteration"))
        where = f"job {job}" if job is not None else ""
        where += f" iteration {n}" if job is not None and n is not None else ""
        shown.append(f"{where}: {m.task}" if where else m.task)
    more = len(messages) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def count_unfused(s: Session, *, older_than: datetime) -> int:
    """Iterations still ``scoring`` (waiting on a track or on fusion) that started before
    ``older_than``, of jobs not final."""
    stmt = (
        select(func.count())
        .select_from(Iteration)
        .join(Job, Job.id == Iteration.job_id)
        .where(
            Iteration.status == "scoring",
            Iteration.created_at < older_than,
            Job.status.not_in(list(TERMINAL_JOB_STATUSES)),
        )
    )
    return int(s.scalar(stmt) or 0)


class _Backlog:
    """Whether a queue still holds messages, asked once per queue and run."""

    def __init__(self, ctx: PipelineContext) -> None:
        self._probe = getattr(ctx.dispatcher, "backlog", None)
        self._seen: dict[str, bool] = {}

    def __call__(self, queue: str | None) -> bool:
        if self._probe is None or queue is None:
            return False
        if queue not in self._seen:
            self._seen[queue] = bool(self._probe(queue))
        return self._seen[queue]


#: The longest wait between two re-publications of one iteration, in sweep ages.
MAX_WAIT_AGES = 10


def _revive(
    ctx: PipelineContext, s: Session, it: Any, busy: _Backlog, now: datetime, age_s: float
) -> list[Message]:
    if it.job.status in TERMINAL_JOB_STATUSES:
        # Nothing may act on a finished job any more: retire its unfinished iteration.
        repo.set_iteration_status(
            s, job_id=it.job_id, n=it.n, status="failed", expect=("scoring", "fused")
        )
        return []
    waiting_for, messages = _pending(s, it)
    # Behind a backlog the message is more likely queued than lost: re-publish it, but
    # only re-publications into an idle queue count toward giving up.
    behind = any(busy(m.queue) for m in messages)
    tries = None if behind else _another_try(ctx, s, it, waiting_for)
    if not behind and tries is None:
        return []
    # Each re-publication waits longer for the next (age x 1, 3, 7 ... up to 10 ages;
    # behind a backlog, 10 ages at once): a worker may hold the message while it retries
    # a fault for minutes, and a pool that is down must not have its queue grow by one
    # copy of every job at every sweep.
    wait = age_s * (MAX_WAIT_AGES if tries is None else min(2**tries - 1, MAX_WAIT_AGES))
    repo.touch_published(s, job_id=it.job_id, n=it.n, at=now + timedelta(seconds=wait))
    return messages


def _pending(s: Session, it: Any) -> tuple[str, list[Message]]:
    """What the iteration waits for, and the messages that bring it."""
    ref = {"job_id": it.job_id, "n": it.n}
    if it.status == "fused":
        return "its decision", [Message(names.DECIDE, ref, "control")]
    landed = repo.track_results(s, job_id=it.job_id, n=it.n)
    if all(t in landed for t in EXPECTED_TRACKS):
        return "fusion", [Message(names.FUSE, ref, "fusion")]
    req = ScoreRequest.model_validate(it.request)
    weights = LoopPolicy.model_validate(it.job.policy).eval_metric_weights
    missing = [
        m
        for m in track_messages(it.job_id, it.n, req, weights)
        if m.queue not in landed and m.task in TRACK_TASKS.values()
    ]
    return "the " + ", ".join(str(m.queue) for m in missing) + " track(s)", missing


def _waits_on_external_agent(it: Any) -> bool:
    job = it.job
    return bool(
        job.status == "awaiting_agent"
        and job.agent is not None
        and TaskRef.model_validate(job.agent).external
    )


def _no_answer(ctx: PipelineContext, it: Any) -> AgentErrorReport:
    """An external agent that did not answer in time failed, as one that reports an error:
    nothing was sent to it, so there is nothing to send again. The report's id is the
    wait it ends, so two sweepers that see the same wait record it once."""
    waited = ctx.settings.agent_timeout_s
    return AgentErrorReport(
        job_id=it.job_id,
        iteration=it.n + 1,
        error_type="NoAnswer",
        message=f"the external agent sent no answer within {waited:g} s"
        " (SCOREGATE_AGENT_TIMEOUT_S)",
        task_id=f"no-answer:{it.published_at.isoformat()}",
    )


def _reask_agent(ctx: PipelineContext, s: Session, it: Any) -> list[Message]:
    job = it.job
    hooks = Hooks.model_validate(job.hooks or {})
    ref = hooks.research if job.status == "researching" else None
    if ref is None and job.agent is not None:
        ref = TaskRef.model_validate(job.agent)
    if ref is None or it.result is None:
        return []
    if _another_try(ctx, s, it, f"the agent task {ref.task}") is None:
        return []
    repo.touch_published(s, job_id=it.job_id, n=it.n)
    result = ScoreResult.model_validate(it.result)
    role = "research" if job.status == "researching" else "agent"
    return outbound.agent_request(
        s,
        ctx.settings,
        job=job,
        n=it.n,
        result=result,
        ref=ref,
        role=role,
        content=str(it.content),
    )


def _another_try(ctx: PipelineContext, s: Session, it: Any, waiting_for: str) -> int | None:
    """Count one more re-publication and return the count; past the limit, fail the job
    instead and return None."""
    limit = ctx.settings.max_deliveries
    count = repo.bump_deliveries(s, job_id=it.job_id, n=it.n)
    if count <= limit:
        return count
    reason = (
        f"iteration {it.n} still waiting for {waiting_for} after {limit} re-publications"
        f" by the sweeper (SCOREGATE_MAX_DELIVERIES={limit})"
    )
    log.error("job %s: %s", it.job_id, reason)
    mark_failed(s, it.job_id, it.n, reason)
    return None
