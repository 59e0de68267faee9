"""The pipeline's steps: what each task does, independent of how it is delivered.

Every step validates its input, does its work in one transaction, and only after
the commit hands on the messages it produced. Each can run twice without a second
iteration, fusion or decision (the storage layer's unique keys and claims).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from scoregate.pipelines import context as names
from scoregate.pipelines import steplog
from scoregate.pipelines.context import EXPECTED_TRACKS, PipelineContext
from scoregate.pipelines.dispatch import JobsNotPublished, Message, PublishError
from scoregate.pipelines.outbound import check_queue
from scoregate.pipelines.publish import publish
from scoregate.pipelines.validation import check_body, storable
from scoregate.pipelines.workflow import no_agent_message
from scoregate.schemas.loop import (
    Hooks,
    LoopPolicy,
    TaskRef,
    check_hooks_given_once,
    task_ref_fields,
)
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.encoders import model_identity
from scoregate.scoring.engine import describe_validation_error, model_tracks, parse_request
from scoregate.scoring.engine import pure_tracks as run_pure_tracks
from scoregate.scoring.reward import check_constraints
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)


@dataclass
class JobSpec:
    """A validated submission: the request, its policy, agent and hooks."""

    request: ScoreRequest
    policy: LoopPolicy
    agent: TaskRef | None = None
    hooks: Hooks = field(default_factory=Hooks)
    task_name: str | None = None
    submitted_by: str | None = None
    idempotency_key: str | None = None

    def job_fields(self) -> dict[str, Any]:
        return {
            "request": self.request.model_dump(mode="json"),
            "policy": self.policy.model_dump(mode="json"),
            "agent": self.agent.model_dump(mode="json") if self.agent else None,
            "hooks": self.hooks.model_dump(mode="json"),
            "task_name": self.task_name,
            "submitted_by": self.submitted_by,
            "idempotency_key": self.idempotency_key,
        }


def build_spec(ctx: PipelineContext, body: dict[str, Any]) -> JobSpec:
    """Validate a submission body (API, CLI, JSONL line or raw Celery message)."""
    if not isinstance(body, dict):
        raise ValueError(f"a job must be a JSON object, got {type(body).__name__}")
    unknown = set(body) - {
        "request",
        "loop",
        "agent",
        "hooks",
        "on_pass",
        "on_loop_exit",
        "research",
        "task_name",
        "submitted_by",
        "idempotency_key",
    }
    if unknown:
        fields = ", ".join(storable(str(k)) for k in sorted(unknown, key=str))
        raise ValueError(f"unknown job field(s): {fields}")
    check_body(body)
    check_hooks_given_once(body)  # "on_pass" and "hooks.on_pass" naming two tasks
    try:
        spec = _spec_from(ctx, body)
    except ValidationError as exc:
        raise ValueError(describe_validation_error(exc)) from exc
    ctx.check_allowed(spec.agent, "agent")
    check_queue(spec.agent, "agent")
    for role in ("on_pass", "on_loop_exit", "research"):
        ctx.check_allowed(getattr(spec.hooks, role), role)
        check_queue(getattr(spec.hooks, role), role)
    check_constraints(spec.request, ctx.config.reward)
    from scoregate.scoring.fusion import misspelt_metadata

    typo = misspelt_metadata(spec.request.metadata, ctx.config)  # "creatve": refused
    if typo is not None:
        raise ValueError(typo)
    return spec


def _ref(value: Any) -> TaskRef | None:
    if value is None or isinstance(value, TaskRef):
        return value
    if isinstance(value, str):  # "NAME" or "NAME@QUEUE", as the CLI and HTTP bodies take it
        return TaskRef.model_validate(task_ref_fields(value))
    return TaskRef.model_validate(value)


def _spec_from(ctx: PipelineContext, body: dict[str, Any]) -> JobSpec:
    request = parse_request(body.get("request"))  # type: ignore[arg-type]
    task_name = body.get("task_name")
    policy = _policy(ctx, task_name, body.get("loop"), body.get("agent") is not None)
    hooks = Hooks.model_validate(body.get("hooks") or {})
    hooks = Hooks(
        on_pass=_ref(body.get("on_pass")) or hooks.on_pass,
        on_loop_exit=_ref(body.get("on_loop_exit")) or hooks.on_loop_exit,
        research=_ref(body.get("research")) or hooks.research,
    )
    return JobSpec(
        request=request,
        policy=policy,
        agent=_ref(body.get("agent")) or _workflow_agent(ctx, task_name, policy),
        hooks=hooks,
        task_name=task_name,
        submitted_by=body.get("submitted_by"),
        idempotency_key=body.get("idempotency_key"),
    )


def _workflow_agent(
    ctx: PipelineContext, task_name: str | None, policy: LoopPolicy
) -> TaskRef | None:
    """The workflow task's ``agent_task``, for a job that names no agent itself; a loop
    with neither is refused (it could only escalate at its first iteration)."""
    if task_name is None or ctx.workflow is None:
        return None
    agent = ctx.workflow.task(task_name).agent_task
    if agent is None and policy.enabled:
        raise ValueError(no_agent_message(task_name))
    return agent


def _policy(ctx: PipelineContext, task_name: str | None, loop: Any, has_agent: bool) -> LoopPolicy:
    """The job's loop policy: the workflow's for ``task_name`` (else the default), overlaid
    with ``loop``. A loop given its limits, or a job given an agent, is meant to run: it is
    enabled unless ``loop`` says ``"enabled": false``."""
    base = LoopPolicy()
    if task_name is not None:
        if ctx.workflow is None:
            raise ValueError(
                f"task_name {task_name!r} given but no workflow file is configured"
                " (SCOREGATE_WORKFLOW_CONFIG)"
            )
        base = ctx.workflow.policy_for(task_name)
    if isinstance(loop, LoopPolicy):
        return loop
    if loop is None:
        loop = {}
    if not isinstance(loop, dict):
        raise ValueError('loop must be an object like {"enabled": true, "threshold": 0.8}')
    if "enabled" not in loop and (has_agent or {"threshold", "max_iterations"} & set(loop)):
        loop = {**loop, "enabled": True}
    return LoopPolicy.model_validate({**base.model_dump(), **loop})


# --- submit -------------------------------------------------------------------------------------


def track_messages(
    job_id: str, n: int, request: ScoreRequest, metric_weights: dict[str, float] | None = None
) -> list[Message]:
    """The three track tasks of one iteration, one per pool, run in parallel."""
    pair = {"job_id": job_id, "n": n, "query": request.query, "content": request.content}
    return [
        Message(names.SEMANTIC, pair, "semantic"),
        Message(names.PRECISION, pair, "precision"),
        Message(
            names.REWARD,
            {
                "job_id": job_id,
                "n": n,
                "request": request.model_dump(mode="json"),
                "metric_weights": metric_weights,
            },
            "reward",
        ),
    ]


class IdempotencyConflict(ValueError):
    """An idempotency key already holds a job with a different request or loop policy."""

    def __init__(self, message: str, job_id: str) -> None:
        super().__init__(message)
        self.job_id = job_id


def _check_replay(job: Any, spec: JobSpec) -> None:
    """A key sent again must bring the same request and policy: a different one would be
    dropped without a word (and its caller handed the old job's verdict)."""
    fields = spec.job_fields()
    differs = [name for name in ("request", "policy") if getattr(job, name) != fields[name]]
    if differs:
        raise IdempotencyConflict(
            f"idempotency key {spec.idempotency_key!r} already holds job {job.id} with a"
            f" different {' and '.join(differs)}; use a new key for a new job, or resend"
            " the same body to get the first job back",
            job.id,
        )


def submit_jobs(ctx: PipelineContext, specs: list[JobSpec], *, strict: bool = False) -> list[str]:
    """Record the jobs and their first iteration in one transaction, then publish.

    Raises:
        IdempotencyConflict: a key already holds a job with a different request or
            policy (nothing is recorded).
        JobsNotPublished: with ``strict``, when the broker did not take the messages
            (the jobs are recorded; the sweeper publishes them later).
    """
    return [job_id for job_id, _ in submit_specs(ctx, specs, strict=strict)]


def submit_specs(
    ctx: PipelineContext, specs: list[JobSpec], *, strict: bool = False
) -> list[tuple[str, bool]]:
    """:func:`submit_jobs`, each id with whether this call created the job (False: its
    idempotency key held it already, with the same request and policy)."""
    out: list[Message] = []
    with ctx.session() as s:
        made = repo.insert_jobs(s, jobs=[spec.job_fields() for spec in specs])
        for (job, new), spec in zip(made, specs, strict=True):
            if not new and spec.idempotency_key is not None:
                _check_replay(job, spec)
        jobs = [job for job, _ in made]
        # A job seen already (its idempotency key) is running; one named twice in this
        # call starts from the first spec, the one its row was created from.
        fresh: dict[str, JobSpec] = {}
        for job, spec in zip(jobs, specs, strict=True):
            if not job.current_iteration:
                fresh.setdefault(job.id, spec)
        created = repo.start_iterations(
            s,
            starts=[
                (job_id, spec.request.content, spec.request.model_dump(mode="json"))
                for job_id, spec in fresh.items()
            ],
            n=1,
            expected_tracks=EXPECTED_TRACKS,
        )
        for job_id, spec in fresh.items():
            if job_id in created:
                out += track_messages(job_id, 1, spec.request, spec.policy.eval_metric_weights)
                _record_workflow_task(ctx, s, job_id, spec)
    ids = [job.id for job in jobs]
    if not strict:
        publish(ctx, out)
    else:
        try:
            ctx.dispatcher.send_many(out)
        except PublishError as exc:
            log.error("%s; %d message(s) left to the sweeper", exc, len(out))
            raise JobsNotPublished(str(exc), ids) from exc
    return [(job.id, new) for job, new in made]


def _record_workflow_task(ctx: PipelineContext, s: Session, job_id: str, spec: JobSpec) -> None:
    """The audit trail's first line for a job of a workflow task: the task, its role
    (``agent``) and the agent task the loop re-runs."""
    if spec.task_name is None or ctx.workflow is None:
        return
    role = ctx.workflow.task(spec.task_name).agent
    agent = spec.agent.task if spec.agent else None
    repo.append_decision(
        s,
        job_id=job_id,
        n=1,
        action="workflow_task",
        rationale=f"workflow task {spec.task_name!r}"
        + (f" (agent {role})" if role else "")
        + (f": the loop re-runs {agent}" if agent else ": no agent task to re-run"),
        details={"task_name": spec.task_name, "agent": role, "agent_task": agent},
        dedupe_key=f"{job_id}:workflow_task",
    )


def submit_body(ctx: PipelineContext, body: dict[str, Any]) -> str:
    """The ``scoregate.control.submit`` task: a job as a JSON body, from any language."""
    return submit_jobs(ctx, [build_spec(ctx, body)])[0]


# --- tracks -------------------------------------------------------------------------------------


def record_tracks(
    ctx: PipelineContext, rows: list[tuple[str, int, str, dict[str, TrackScore]]]
) -> None:
    """Store many track results in one transaction; publish fusion for each completed join."""
    ready: list[Message] = []
    rows = sorted(rows, key=lambda row: (row[0], row[1]))  # one lock order: no deadlock
    with ctx.session() as s:
        expected = repo.expected_tracks_of(s, refs=[(job_id, n) for job_id, n, _, _ in rows])
        for job_id, n, pool, tracks in rows:
            if (job_id, n) not in expected:
                log.error("dropping %s track of %s/%s: no such iteration", pool, job_id, n)
                continue
            primary = tracks.get(pool)
            payload = {"tracks": {k: v.model_dump(mode="json") for k, v in tracks.items()}}
            try:
                done = repo.record_track(
                    s,
                    job_id=job_id,
                    n=n,
                    track=pool,
                    payload=payload,
                    status=primary.status if primary else "ok",
                    score=primary.score if primary else None,
                    elapsed_ms=sum(t.elapsed_ms for t in tracks.values()),
                    expected=expected[(job_id, n)],
                )
            except (repo.NotFound, ValueError) as exc:  # raised before any write
                log.error("dropping %s track of %s/%s: %s", pool, job_id, n, exc)
                continue
            if done:
                ready.append(Message(names.FUSE, {"job_id": job_id, "n": n}, "fusion"))
            ms = sum(t.elapsed_ms for t in tracks.values())
            steplog.step(job_id, n, pool, primary.score if primary else None, ms)
    publish(ctx, ready)


def track_identity(ctx: PipelineContext, track: str) -> str:
    """What configures a track: the scoregate version (which ships the scoring code), the
    track's config section (model name, penalties, ...), the model's files (see
    ``model_fingerprint``) and the number format the worker runs them in (``numerics``:
    an int8 or GPU worker never shares cached scores with an fp32 one)."""
    from scoregate._version import __version__

    cfg = getattr(ctx.config, track)
    model = getattr(cfg, "model", None)
    settings = ctx.settings
    weights = (
        model_identity(model, settings.device, settings.cpu_backend)
        if isinstance(model, str)
        else ""
    )
    return f"{__version__}\0{cfg.model_dump_json()}\0{weights}"


def pair_key(
    ctx: PipelineContext, track: str, query: str, content: str, identity: str | None = None
) -> str:
    """Cache key of a scored pair: the track, what configures it, and the pair.

    The track's identity (``track_identity``; pass it when keying many pairs) is part of
    the key, so a worker with another model, weights or setting never reads a score that
    a differently configured one cached.
    """
    ident = track_identity(ctx, track) if identity is None else identity
    digest = hashlib.sha256(f"{ident}\0{len(query)}:{query}{content}".encode()).hexdigest()
    return f"{track}:{digest}"


def still_wanted(
    ctx: PipelineContext, track: str, items: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The track messages whose iteration still waits for this track, checked before the
    scoring (seconds or minutes for a long answer): the sweeper re-publishes a message that
    is only slow, and its copy must not score the answer again once the iteration is
    decided or the track has landed. Each one skipped is logged."""
    refs = {(str(i["job_id"]), int(i["n"])) for i in items}
    with ctx.session() as s:
        wanted = repo.awaiting_track(s, refs=refs, track=track)
    for job_id, n in sorted(refs - wanted):
        log.info("job %s iteration %s: %s track skipped: no longer waited for", job_id, n, track)
    return [i for i in items if (str(i["job_id"]), int(i["n"])) in wanted]


def score_model_track(ctx: PipelineContext, track: str, items: list[dict[str, Any]]) -> None:
    """A semantic or precision task, for one message or a micro-batch of them.

    Identical pairs are scored once: within the batch, and across batches via the cache.
    """
    items = still_wanted(ctx, track, items)
    if not items:
        return
    pairs = [(str(i["query"]), str(i["content"])) for i in items]
    cache = ctx.pair_cache
    ident = track_identity(ctx, track) if cache is not None else ""
    known: dict[tuple[str, str], TrackScore] = {}
    if cache is not None:
        for pair in set(pairs):
            raw = cache.get(pair_key(ctx, track, *pair, identity=ident))
            if raw is not None:
                known[pair] = TrackScore.model_validate_json(raw)
    todo = list(dict.fromkeys(p for p in pairs if p not in known))
    fresh = model_tracks(todo, track, ctx.models) if todo else []
    for pair, sc in zip(todo, fresh, strict=True):
        known[pair] = sc
        if cache is not None and sc.ok:
            cache.set(pair_key(ctx, track, *pair, identity=ident), sc.model_dump_json().encode())
    scores = [known[p] for p in pairs]
    record_tracks(
        ctx,
        [
            (i["job_id"], int(i["n"]), track, {track: sc})
            for i, sc in zip(items, scores, strict=True)
        ],
    )


def score_reward_track(ctx: PipelineContext, items: list[dict[str, Any]]) -> None:
    """The CPU pool: reward constraints, heuristics, evidence and eval metrics."""
    rows = []
    for item in still_wanted(ctx, "reward", items):
        try:
            req = parse_request(item["request"])
            weights = item.get("metric_weights")
            tracks = run_pure_tracks(req, ctx.config, metric_weights=weights or None)
        except ValueError as exc:
            tracks = {"reward": TrackScore(name="reward", status="failed", error=str(exc))}
        rows.append((item["job_id"], int(item["n"]), "reward", tracks))
    record_tracks(ctx, rows)
