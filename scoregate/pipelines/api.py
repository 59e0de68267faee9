"""The Python API for orchestrators: submit jobs, read them back."""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

from scoregate.config.settings import (
    SettingsError,
    get_settings,
    missing_database,
    misspelt_broker,
)
from scoregate.pipelines import broker, steps
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import InlineDispatcher
from scoregate.pipelines.loop import open_agent_request
from scoregate.schemas.loop import (
    HOOK_FIELDS,
    check_hooks_given_once,
    task_ref_fields,
    unsent_hooks,
)
from scoregate.storage import repository as repo
from scoregate.storage.paging import waiting_for_review


@lru_cache(maxsize=1)
def client_context() -> tuple[PipelineContext, InlineDispatcher | None]:
    """With a broker: publish to Celery. Without one: the embedded in-process worker, which
    migrates only the embedded default database (the SQLite file scoregate makes itself);
    a database the user named must be upgraded with ``scoregate db upgrade``.

    Raises:
        SettingsError: a broker without ``SCOREGATE_DATABASE_URL``, or no broker while a
            variable a typo away from ``SCOREGATE_BROKER_URL`` is set.
    """
    settings = get_settings()
    # as the CLI and `serve` refuse: a private SQLite file no worker reads, or scoring in
    # this process because the broker variable is misspelt, would each be silent
    refused = missing_database(settings, "scoregate's Python API") or misspelt_broker(
        settings, "scoregate's Python API"
    )
    if refused is not None:
        raise SettingsError(refused)
    if settings.broker_url is None:
        from scoregate.pipelines.embedded import embedded_context

        return embedded_context(settings, migrate=settings.uses_default_database())
    return broker.broker_context(), None


def _body(request: Any, **options: Any) -> dict[str, Any]:
    body = {
        "request": request.model_dump(mode="json") if hasattr(request, "model_dump") else request
    }
    body.update({k: v for k, v in options.items() if v is not None})
    for name, value in list(body.items()):
        if name != "request" and hasattr(value, "model_dump"):
            # what the caller set, as a dict would give it: LoopPolicy(threshold=0.5) loops,
            # as {"threshold": 0.5} does (a dumped default enabled=False would not)
            body[name] = value.model_dump(mode="json", exclude_unset=True)
    for role in ("agent", *HOOK_FIELDS):  # NAME@QUEUE, as the CLI and workflow file take it
        if isinstance(body.get(role), str) and "@" in body[role]:
            body[role] = task_ref_fields(body[role])
    return body


def submit(request: Any, *, strict: bool = False, **options: Any) -> str:
    """Record one job and start it; returns its id.

    Options: ``loop`` (dict or LoopPolicy), ``agent`` (``NAME``, ``NAME@QUEUE`` or
    {task, queue}; the hooks likewise),
    ``on_pass``, ``on_loop_exit``, ``research``, ``task_name``, ``submitted_by``,
    ``idempotency_key``. Embedded mode runs the job to its next wait before returning.
    With ``strict``, a broker that does not take the job's messages is an error rather
    than a job left to the sweeper without a word.

    Raises:
        ValueError: the request or an option is invalid (``on_pass`` and
            ``hooks={"on_pass": ...}`` naming two tasks included), or ``idempotency_key``
            already holds a job with a different request or loop policy
            (:class:`~scoregate.pipelines.steps.IdempotencyConflict`).
        JobsNotPublished: with ``strict``, the broker did not take the job's messages: it
            is recorded (``job_ids``) and the sweeper publishes it once the broker is back
            (:class:`~scoregate.pipelines.dispatch.JobsNotPublished`, a ``PublishError``).
    """
    return submit_bodies([_body(request, **options)], strict=strict)[0]


def submit_many(requests: list[Any], *, strict: bool = False, **options: Any) -> list[str]:
    """Record many jobs in one transaction and publish their track tasks.

    An ``idempotency_key`` K gives each request a key of its own: ``K:0``, ``K:1``...
    in order (one key for them all would make them one job). ``strict`` as for
    :func:`submit`.
    """
    key = options.pop("idempotency_key", None)
    if key is None:
        return submit_bodies([_body(r, **options) for r in requests], strict=strict)
    return submit_bodies(
        [_body(r, **options, idempotency_key=f"{key}:{i}") for i, r in enumerate(requests)],
        strict=strict,
    )


def get_job(job_id: str, *, include_content: bool = False) -> dict[str, Any]:
    """The job with every iteration's breakdown, decisions, escalations and dispatches.

    With ``include_content`` each iteration also carries its ``content`` (the text scored)
    and ``request``: the accepted answer is the content of iteration
    ``current_iteration``. The job's own ``request`` is the original submission.

    ``job_id`` may also be the job's idempotency key (``celery:<message id>`` for a job
    sent without one through ``scoregate.control.submit``) or the start of its id as the
    CLI prints it; an id or id start is read in any case.

    ``approved`` says whether the answer may be used (``accepted``, or ``completed`` with
    the final action ``accept``) and ``reviewed_by`` who approved or rejected it, when a
    person did: the final result's ``action`` stays the score's recommendation.
    """
    ctx, _ = client_context()
    with ctx.session() as s:
        job = repo.get_job(s, job_id=repo.resolve_job_id(s, job_id) or job_id)
        if job is None:
            raise LookupError(f"no job {job_id!r}")
        return job_view(job, include_content=include_content)


def job_view(job: Any, *, include_content: bool) -> dict[str, Any]:
    """A loaded job as the API shows it: :func:`~scoregate.storage.jobs.job_to_dict` plus
    ``agent_request`` (which needs the last answer), each iteration's text only when asked
    for, and once (its ``request`` copy leaves the text out)."""
    out = repo.job_to_dict(job, include_content=True)
    out["final_result"] = repo.shown_final(out["status"], out["final_result"])
    out["agent_request"] = open_agent_request(out)
    out.update(verdict_fields(out))
    for it in out["iterations"]:
        if not include_content:
            del it["content"], it["request"]
        elif isinstance(it.get("request"), dict):
            it["request"] = {k: v for k, v in it["request"].items() if k != "content"}
    return out


def verdict_fields(job: dict[str, Any]) -> dict[str, Any]:
    """``approved`` (whether the answer may be used:
    :func:`~scoregate.storage.jobs.is_approved`) and ``reviewed_by`` (the person who
    approved or rejected the job; None when no one did) of a job as
    :func:`~scoregate.storage.jobs.job_to_dict` gives it, escalations included."""
    decided = [
        e["resolved_by"]
        for e in job.get("escalations", ())
        if e.get("status") in ("approved", "rejected")
    ]
    return {
        "approved": repo.is_approved(job["status"], job.get("final_result")),
        "reviewed_by": decided[-1] if decided else None,
    }


def _full_id(ref: str) -> str:
    """The full id of the job ``ref`` names, or ``ref`` itself when it names none (the
    step it is passed to then checks the rest of its input and says there is no job)."""
    ctx, _ = client_context()
    with ctx.session() as s:
        return repo.resolve_job_id(s, ref) or ref


def cancel(job_id: str, actor: str, note: str | None = None) -> str:
    """Cancel a job that is not final yet; returns the status it was cancelled from.

    Raises:
        LookupError: no such job.
        ValueError: the job is final already.
    """
    from scoregate.pipelines.cancel import cancel as run_cancel

    ctx, inline = client_context()
    was = run_cancel(ctx, _full_id(job_id), actor, note)
    if inline is not None:
        inline.drain()  # the on_loop_exit hook
    return was


def submit_bodies(bodies: list[dict[str, Any]], *, strict: bool = False) -> list[str]:
    """Submit job bodies (``{"request": ..., "loop": ..., ...}``) validated all first.

    With ``strict``, a broker that does not take the messages raises
    :class:`~scoregate.pipelines.dispatch.JobsNotPublished` (the jobs are recorded).
    """
    ctx, inline = client_context()
    for body in bodies:
        check_hooks_given_once(body)
    specs = [steps.build_spec(ctx, b) for b in bodies]
    for said in {line for spec in specs for line in unsent_hooks(spec.policy, spec.hooks)}:
        warnings.warn(said, UserWarning, stacklevel=3)
    if inline is not None:
        _runnable_in_process(specs, inline.tasks)
    ids = steps.submit_jobs(ctx, specs, strict=strict)
    if inline is not None:
        inline.drain()
    return ids


def _runnable_in_process(specs: list[steps.JobSpec], tasks: Any) -> None:
    """Refuse, before anything is recorded, a job that names a task the embedded default
    cannot run: its agent, hooks and research run on your workers, through a broker (the
    job would otherwise wait for them for ever). An external agent answers over HTTP
    (``scoregate serve`` on the same database)."""
    for spec in specs:
        refs = [("agent", spec.agent), *((name, getattr(spec.hooks, name)) for name in _HOOKS)]
        for role, ref in refs:
            if ref is not None and ref.task not in tasks and not (role == "agent" and ref.external):
                raise ValueError(
                    f"the {role} task {ref.task!r} cannot run in the embedded default (no"
                    " broker): set SCOREGATE_BROKER_URL and run a worker that consumes its"
                    " queue, or submit without it"
                )


_HOOKS = ("on_pass", "on_loop_exit", "research")


def research_quota() -> tuple[int, int]:
    """The research runs left this hour and the hourly limit (seed 002's quota display)."""
    from scoregate.pipelines.review import research_quota as peek

    quota = peek(client_context()[0])
    return quota.remaining, quota.limit


def review(job_id: str, verdict: str, actor: str, note: str | None = None) -> str:
    """Apply a human's verdict; returns the job's new status."""
    from scoregate.pipelines.control import review as apply_review

    ctx, inline = client_context()
    job_id = _full_id(job_id)
    status = apply_review(ctx, job_id, verdict, actor, note)
    if inline is not None:
        inline.drain()
        with ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            status = job.status if job is not None else status
    return status


def agent_result(job_id: str, iteration: int, output: Any) -> str:
    """An external agent's next answer, as ``POST /v1/jobs/{id}/agent-result`` and the
    Celery task ``scoregate.control.agent_result`` take it (the same step and checks).

    Returns:
        ``taken`` (iteration ``iteration`` is being scored), ``duplicate`` (it holds this
        answer already: nothing done), ``refused`` (the job does not wait for that
        iteration: noted in its audit trail), or ``rejected`` (the answer cannot be scored:
        recorded as an agent failure, so the agent is asked again, or the job escalated).

    Raises:
        LookupError: no such job.
    """
    from scoregate.pipelines import control

    ctx, inline = client_context()
    job_id = _existing_id(job_id)
    outcome = control.agent_result(ctx, output, job_id, iteration)
    if inline is not None:
        inline.drain()
    return str(outcome)


def agent_error(
    job_id: str,
    iteration: int,
    error_type: str = "Error",
    message: str = "",
    task_id: str | None = None,
) -> str:
    """An external agent failed to produce ``iteration``, as ``POST .../agent-error`` and
    ``scoregate.control.agent_error`` report it. Give each failure a unique ``task_id`` so
    that a retried call counts once.

    Returns:
        ``retried``, ``escalated``, ``failed``, ``ignored`` (the job no longer waits for that
        iteration) or ``duplicate`` (that ``task_id`` was reported before).

    Raises:
        LookupError: no such job.
        ValueError: the report is invalid.
    """
    from scoregate.pipelines import agent_errors

    ctx, inline = client_context()
    report = {"job_id": _existing_id(job_id), "iteration": iteration, "error_type": error_type}
    report |= {"message": message} | ({"task_id": task_id} if task_id is not None else {})
    outcome = agent_errors.record_agent_error(ctx, agent_errors.parse_report(report))
    if inline is not None:
        inline.drain()
    return str(outcome)


def wait_job(
    job_id: str,
    timeout: float = 30.0,
    *,
    since_status: str | None = None,
    since_iteration: int | None = None,
    poll_s: float = 0.25,
) -> dict[str, Any]:
    """Wait until the job is final, or its status or iteration differs from
    ``since_status`` / ``since_iteration`` (by default, from what they are when called),
    or ``timeout`` seconds have passed; then return it as :func:`get_job` does. The same
    rule as the HTTP long poll (``?wait=``), reading one small row each ``poll_s``.

    Raises:
        LookupError: no such job.
    """
    import time

    from sqlalchemy import select

    from scoregate.storage.tables import TERMINAL_JOB_STATUSES, Job

    ctx, _ = client_context()
    job_id = _existing_id(job_id)

    def position() -> tuple[str, int]:
        with ctx.session() as s:
            row = s.execute(select(Job.status, Job.current_iteration).where(Job.id == job_id)).one()
        return str(row[0]), int(row[1])

    at = position()
    seen = (since_status or at[0], at[1] if since_iteration is None else since_iteration)
    deadline = time.monotonic() + max(0.0, timeout)
    while at[0] not in TERMINAL_JOB_STATUSES and at == seen and time.monotonic() < deadline:
        time.sleep(max(0.01, min(poll_s, deadline - time.monotonic())))
        at = position()
    return get_job(job_id)


def _existing_id(ref: str) -> str:
    """The full id of the job ``ref`` names (as :func:`get_job` reads it)."""
    ctx, _ = client_context()
    with ctx.session() as s:
        found = repo.resolve_job_id(s, ref)
    if found is None:
        raise LookupError(f"no job {ref!r}")
    return found


def record_outcome(job_id: str, accepted: bool, actor: str, n: int | None = None) -> None:
    """Record whether a job's output was finally accepted, for ``scoregate calibrate``.

    Call it once the outcome is known (a user kept or reverted the output). The verdict
    is on iteration ``n``, by default the job's latest; a later verdict on the same
    iteration replaces an earlier one when calibrating.

    Raises:
        LookupError: no such job or iteration.
        ValueError: the iteration has no fused score yet.
    """
    ctx, _ = client_context()
    with ctx.session() as s:
        job = repo.get_job(s, job_id=repo.resolve_job_id(s, job_id) or job_id)
        if job is None:
            raise LookupError(f"no job {job_id!r}")
        job_id = job.id
        at = job.current_iteration if n is None else n
        it = repo.get_iteration(s, job_id=job_id, n=at)
        if it is None:
            raise LookupError(f"job {job_id} has no iteration {at}")
        if it.score is None:
            raise ValueError(f"iteration {at} of job {job_id} has no fused score yet")
        repo.add_verdict(s, job_id=job_id, n=at, score=it.score, accepted=accepted, actor=actor)


def sweep(older_than_s: float | None = None) -> int:
    """Re-publish stuck iterations; returns how many messages were sent."""
    from scoregate.pipelines.control import sweep as run_sweep

    ctx, inline = client_context()
    count = run_sweep(ctx, older_than_s if older_than_s is not None else ctx.settings.stuck_after_s)
    if inline is not None:
        inline.drain()
    return count


def list_jobs(
    status: str | None = None, limit: int = 20, *, waiting: bool = False
) -> list[dict[str, Any]]:
    """The newest jobs, as summaries; with ``waiting``, the jobs waiting for a human (an
    open review or escalation, whatever their status), longest waiting first: the review
    queue."""
    ctx, _ = client_context()
    with ctx.session() as s:
        if waiting:
            jobs = [job for job, _ in waiting_for_review(s, limit=limit)]
            if status is not None:
                jobs = [j for j in jobs if j.status == status]
        else:
            jobs = repo.list_jobs(s, status=status, limit=limit)
        scores = repo.shown_scores(s, jobs)
        people = repo.reviewers(s, job_ids=[j.id for j in jobs])
        out = []
        for j in jobs:
            score, band = scores[j.id]
            out.append(
                {
                    "id": j.id,
                    "status": j.status,
                    "iteration": j.current_iteration,
                    "created_at": j.created_at,
                    "score": score,
                    "band": band,
                    "action": (repo.shown_final(j.status, j.final_result) or {}).get("action"),
                    "approved": repo.is_approved(j.status, j.final_result),
                    "reviewed_by": people.get(j.id),
                }
            )
        return out
