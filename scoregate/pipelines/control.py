"""Fusion and the loop controller's steps: fuse, decide and act, agent results."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy.orm import Session

from scoregate.config.settings import Settings
from scoregate.pipelines import agent_errors, live_map, outbound, steplog
from scoregate.pipelines import context as names
from scoregate.pipelines.context import EXPECTED_TRACKS, PipelineContext
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.loop import LoopDecision, decide, research_denied
from scoregate.pipelines.publish import RESEARCH_SUBJECT, publish
from scoregate.pipelines.steps import track_messages
from scoregate.pipelines.validation import MAX_JOB_ID_CHARS, check_tree
from scoregate.schemas.loop import AgentOutput, Hooks, LoopPolicy, TaskRef
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.storage import repository as repo
from scoregate.storage.recovery import WAITING_ON_AGENT, position
from scoregate.telemetry import prometheus

log = logging.getLogger(__name__)


# --- fusion -------------------------------------------------------------------------------------


def _tracks_of(rows: dict[str, Any]) -> dict[str, TrackScore]:
    tracks: dict[str, TrackScore] = {}
    for pool in EXPECTED_TRACKS:
        row = rows.get(pool)
        if row is None:
            tracks[pool] = TrackScore(name=pool, status="failed", error="no result arrived in time")
            continue
        # A pool may report several tracks (reward: heuristics, evidence, metrics) or
        # none of its own name (no constraints): only a missing row is a failure.
        for name, data in (row.payload or {}).get("tracks", {}).items():
            tracks[name] = TrackScore.model_validate(data)
    return tracks


def fuse_iteration(ctx: PipelineContext, job_id: str, n: int) -> None:
    """Fuse the tracks of iteration ``n`` once; then hand the decision to the controller."""
    fuse_iterations(ctx, [(job_id, n)])


def fuse_iterations(ctx: PipelineContext, refs: Sequence[tuple[str, int]]) -> None:
    """Fuse many iterations (job id, n) in one transaction, each exactly once.

    An iteration already fused (a duplicate delivery) is skipped; the decisions are
    published after the commit.
    """
    fused: list[ScoreResult] = []
    out: list[Message] = []
    refs = sorted(refs)  # rows locked in one order: two batches never deadlock
    with ctx.session() as s:
        its = repo.get_iterations(s, refs=refs)
        rows = repo.track_results_of(s, refs=refs)
        jobs = repo.get_jobs(s, job_ids={job_id for job_id, _ in refs})
        for job_id, n in refs:
            it = its.get((job_id, n))
            if it is None or it.status != "scoring":
                continue
            with steplog.timed() as ms:
                req = ScoreRequest.model_validate(it.request)
                tracks = _tracks_of(rows[(job_id, n)])
                job = jobs.get(job_id)
                cut = LoopPolicy.model_validate(job.policy).threshold if job is not None else None
                calibrator = live_map.live_calibrator(s)
                result = fuse(req, tracks, ctx.config, accept_cut=cut, calibrator=calibrator)
            steplog.step(job_id, n, "fusion", result.score, ms[0], f"band {result.band}")
            timings = {name: t.elapsed_ms for name, t in tracks.items()}
            dump = result.model_dump(mode="json")
            if repo.complete_iteration(s, job_id=job_id, n=n, result=dump, timings=timings):
                fused.append(result)
                out.append(Message(names.DECIDE, {"job_id": job_id, "n": n}, "control"))
    for result in fused:
        prometheus.record_fused(result)
    publish(ctx, out)


# --- decide and act -----------------------------------------------------------------------------


def decide_iteration(ctx: PipelineContext, job_id: str, n: int) -> None:
    """Apply the loop policy to iteration ``n``'s result, exactly once, and act on it."""
    decide_iterations(ctx, [(job_id, n)])


def decide_iterations(ctx: PipelineContext, refs: Sequence[tuple[str, int]]) -> None:
    """Decide many fused iterations in one transaction; publish the follow-ups after it."""
    out: list[Message] = []
    refs = sorted(refs)  # rows locked in one order: two batches never deadlock
    with ctx.session() as s:
        jobs = repo.get_jobs(s, job_ids={job_id for job_id, _ in refs})
        its = repo.get_iterations(s, refs=refs)
        for job_id, n in refs:
            job, it = jobs.get(job_id), its.get((job_id, n))
            if job is None or it is None or job.status in ("failed", "cancelled"):
                continue  # a failed or cancelled job is never acted on again
            if not repo.mark_decided(s, job_id=job_id, n=n):
                continue  # decided already: a duplicate delivery
            with steplog.timed() as ms:
                policy = LoopPolicy.model_validate(job.policy)
                hooks = Hooks.model_validate(job.hooks or {})
                result = ScoreResult.model_validate(it.result)
                decision = decide(
                    policy,
                    n,
                    result,
                    has_agent=job.agent is not None,
                    has_research=hooks.research is not None,
                )
                out += _act(ctx, s, job, it, result, decision)
            steplog.step(job_id, n, f"decide {decision.kind}", result.score, ms[0])
    publish(ctx, out)


def _record(
    s: Session,
    job_id: str,
    n: int,
    result: ScoreResult,
    decision: LoopDecision,
    *,
    actor: str = "system",
    quota: Any = None,
    key: str = "decide",
) -> None:
    repo.append_decision(
        s,
        job_id=job_id,
        n=n,
        action=decision.kind,
        rationale=decision.rationale,
        actor=actor,
        tier=result.gate.tier if result.gate else None,
        band=result.band,
        confidence=result.score,
        quota_used=quota.used if quota else None,
        quota_remaining=quota.remaining if quota else None,
        details={"recommended_action": result.action, "exit_reason": decision.exit_reason},
        dedupe_key=f"{job_id}:{n}:{key}",
    )


def _act(
    ctx: PipelineContext, s: Session, job: Any, it: Any, result: ScoreResult, decision: LoopDecision
) -> list[Message]:
    n = int(it.n)
    hooks = Hooks.model_validate(job.hooks or {})
    quota = None
    if decision.kind == "research":
        # Tokened: if this transaction rolls back and runs again, the slot is not taken twice.
        quota = ctx.quota.acquire(
            RESEARCH_SUBJECT,
            ctx.config.gating.research_quota_per_hour,
            token=f"{job.id}:{n}:decide",
        )
        if not quota.allowed:
            decision = research_denied(decision, quota.message)
    _record(s, job.id, n, result, decision, quota=quota)
    prometheus.record_decision(decision.kind, decision.exit_reason, n)
    final = result.model_dump(mode="json")
    terminal = decision.kind in ("accept", "complete", "exit")
    repo.set_job_status(
        s,
        job_id=job.id,
        status=decision.status,
        final_result=final if terminal else None,
        failure_reason=decision.rationale if decision.kind == "exit" else None,
    )
    return _follow_ups(ctx.settings, s, job, it, result, decision, hooks)


def _follow_ups(
    settings: Settings,
    s: Session,
    job: Any,
    it: Any,
    result: ScoreResult,
    decision: LoopDecision,
    hooks: Hooks,
) -> list[Message]:
    n = int(it.n)
    summary = {
        "job_id": job.id,
        "iteration": n,
        "score": result.score,
        "band": result.band,
        "action": result.action,
    }
    hook = partial(outbound.hook, s, settings, job_id=job.id, n=n)
    if decision.kind == "accept":
        full = {**summary, "result": result.model_dump(mode="json"), "content": str(it.content)}
        return hook(role="on_pass", ref=hooks.on_pass, kwargs=full)
    ask = partial(outbound.agent_request, s, settings, job=job, n=n, result=result)
    if decision.kind == "iterate":
        return ask(ref=TaskRef.model_validate(job.agent), content=str(it.content))
    if decision.kind == "research":
        assert hooks.research is not None
        return ask(ref=hooks.research, role="research", content=str(it.content))
    if decision.kind == "exit":
        if decision.escalate:
            repo.open_escalation(
                s, job_id=job.id, n=n, kind="escalation", reason=decision.rationale
            )
        exit_kwargs = {**summary, "reason": decision.exit_reason}
        return hook(role="on_loop_exit", ref=hooks.on_loop_exit, kwargs=exit_kwargs)
    if decision.kind == "review":
        repo.open_escalation(s, job_id=job.id, n=n, kind="review", reason=decision.rationale)
    return []


# --- the agent's next output --------------------------------------------------------------------


def parse_agent_output(output: Any) -> AgentOutput:
    """An agent returns a content string, or content plus eval metrics and confidence."""
    if isinstance(output, str):
        return AgentOutput(content=output)
    if isinstance(output, dict):
        try:
            return AgentOutput.model_validate(output)
        except ValidationError as exc:
            raise ValueError(f"agent output is invalid: {exc.errors()[0]['msg']}") from exc
    raise ValueError(f"agent output must be a string or an object, got {type(output).__name__}")


#: What :func:`agent_result` did with an answer: ``taken`` (iteration n starts),
#: ``duplicate`` (the answer iteration n holds, again: nothing done), ``refused`` (the job
#: does not wait for it; noted), ``rejected`` (it cannot be scored: an agent failure).
AnswerOutcome = Literal["taken", "duplicate", "refused", "rejected"]


def agent_result(ctx: PipelineContext, output: Any, job_id: str, n: int) -> AnswerOutcome:
    """Start iteration ``n`` of the job from what the agent returned; says what it did, so
    a caller (the HTTP route) answers from the one locked decision, not a re-read."""
    out: list[Message] = []
    with ctx.session() as s:
        # Locked before it is read: an agent error recorded at the same moment (a report,
        # or the sweeper's NoAnswer) may escalate the job, and the answer must then see it
        # escalated, not start an iteration on a job a human is already asked about.
        repo.lock_job(s, job_id=job_id)
        job = repo.get_jobs(s, job_ids=[job_id]).get(job_id)
        if job is None:
            raise ValueError(f"no job {job_id!r}")
        if job.status not in WAITING_ON_AGENT or n != job.current_iteration + 1:
            # A late or repeated answer (the sweeper asked again, the job was cancelled,
            # failed or answered already): scoring it would start work nobody decides.
            where = position(job.status, job.current_iteration)
            reason = f"agent answer for iteration {n} ignored: the job is {where}"
            if n == job.current_iteration:
                if _the_taken_answer(s, job_id, n, output):
                    log.info("job %s: iteration %d's answer delivered again: no news", job_id, n)
                    return "duplicate"
                reason = f"agent answer for iteration {n} refused: it holds another answer"
                reason += f" already; the job is {where}"
            log.warning("job %s: %s", job_id, reason)
            _note_refused(s, job_id, n, reason)
            return "refused"
        refused: str | None = None
        try:
            check_tree(output, "agent output")
            parsed = parse_agent_output(output)
            prev = repo.get_iteration(s, job_id=job_id, n=n - 1)
            req = _next_request(job.request, parsed, prev.score if prev else None)
        except ValueError as exc:
            refused = str(exc)
        else:
            _, created = repo.start_iteration(
                s,
                job_id=job_id,
                n=n,
                content=req.content,
                request=req.model_dump(mode="json"),
                expected_tracks=EXPECTED_TRACKS,
            )
            if created:
                weights = LoopPolicy.model_validate(job.policy).eval_metric_weights
                out = track_messages(job_id, n, req, weights)
    if refused is not None:
        # An answer that cannot be scored is the agent failing, as if it had raised: the
        # same retries, then escalation (hil) or failure, and on_loop_exit.
        agent_errors.record_agent_error(ctx, agent_errors.refused_output(job_id, n, refused))
        return "rejected"
    publish(ctx, out)
    return "taken" if created else "duplicate"


def answered_iteration(iteration: Any, n: Any) -> Any:
    """The iteration an ``agent_result`` is for: ``iteration``, or its deprecated alias ``n``.

    Raises:
        ValueError: neither is given, or both are and they disagree.
    """
    if iteration is None and n is None:
        raise ValueError("agent_result needs `iteration`: the iteration the output is for")
    if iteration is not None and n is not None and str(iteration) != str(n):
        raise ValueError(
            f"agent_result got iteration={iteration!r} and n={n!r}, which disagree: send"
            " `iteration` alone (`n` is its deprecated alias)"
        )
    return iteration if iteration is not None else n


def _the_taken_answer(s: Session, job_id: str, n: int, output: Any) -> bool:
    """Whether ``output`` is the answer iteration ``n`` was started from (a redelivery)."""
    it = repo.get_iteration(s, job_id=job_id, n=n)
    try:
        content = parse_agent_output(output).content
    except ValueError:
        return False
    return it is not None and str(it.content) == content


def refuse_agent_result(ctx: PipelineContext, job_id: Any, reason: str) -> None:
    """Log an ``agent_result`` refused before it could be used, and note it on its job."""
    log.error("agent_result for job %r refused: %s", job_id, reason)
    if not isinstance(job_id, str) or len(job_id) > MAX_JOB_ID_CHARS:
        return
    with ctx.session() as s:
        job = repo.get_jobs(s, job_ids=[job_id]).get(job_id)
        if job is not None:
            _note_refused(s, job_id, job.current_iteration, f"agent answer refused: {reason}")


def _note_refused(s: Session, job_id: str, n: int, reason: str) -> None:
    """Note a refused agent answer on the job's audit trail, once per iteration."""
    action = "agent_result_refused"
    key = f"{job_id}:{n}:{action}"
    repo.append_decision(s, job_id=job_id, n=n, action=action, rationale=reason, dedupe_key=key)


def _next_request(
    first: dict[str, Any], output: AgentOutput, previous: float | None
) -> ScoreRequest:
    data = dict(first)
    data["content"] = output.content
    if output.eval_metrics is not None:
        data["eval_metrics"] = output.eval_metrics
    data["self_reported_confidence"] = output.self_reported_confidence
    data["previous_score"] = previous
    try:
        return ScoreRequest.model_validate(data)
    except ValidationError as exc:
        raise ValueError(str(exc.errors()[0]["msg"])) from exc


# --- human review and the sweeper live in their own modules -------------------------------------


def review(
    ctx: PipelineContext, job_id: str, verdict: str, actor: str, note: str | None = None
) -> str:
    """Resolve a job waiting for a human (see :mod:`scoregate.pipelines.review`)."""
    from scoregate.pipelines.review import review as run_review

    return run_review(ctx, job_id, verdict, actor, note)


# --- sweeper ------------------------------------------------------------------------------------


def sweep(ctx: PipelineContext, older_than_s: float) -> int:
    """Re-publish iterations stuck longer than ``older_than_s``: no lost job (``sweeper``)."""
    from scoregate.pipelines.sweeper import sweep as run_sweep

    return run_sweep(ctx, older_than_s)
