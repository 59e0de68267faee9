"""The control pool: submissions, the loop controller, agent results, reviews, the sweeper.

Every task refuses a malformed message (logged, acked, never retried) and retries
transient faults with backoff: ``decide`` is micro-batched (``batch_runner.run_batch``,
one transaction per flush), the others are ``base.ScoregateTask``.
"""

from __future__ import annotations

from typing import Any

from scoregate.pipelines import agent_errors, control, intake
from scoregate.pipelines.context import AGENT_ERROR, SWEEP
from scoregate.pipelines.validation import BadMessage, job_ref
from scoregate.storage.db import is_schema_fault
from scoregate.workers.app import app
from scoregate.workers.base import ScoregateTask, batch_options, fail_job
from scoregate.workers.batch_runner import run_batch
from scoregate.workers.batching import ReliableBatches
from scoregate.workers.reliability import SCHEMA_ERRORS, log_schema_fault
from scoregate.workers.runtime import get_context

# Until ``submit`` and ``review`` commit, the message is the only copy of the job or of
# the human's verdict: no sweeper can recover it, so they retry transient faults for as
# long as the outage lasts (backoff capped at 60 s) instead of giving up after ~5 min.


@app.task(
    name="scoregate.control.submit",
    base=ScoregateTask,
    bind=True,
    max_retries=None,
    ignore_result=False,
)
def submit(self: ScoregateTask, body: Any) -> str | None:
    """Record and start a job sent as a JSON body by any Celery client (once per message).

    Returns the job id (kept in the result backend when ``SCOREGATE_RESULT_BACKEND`` is
    set); a refused body returns the id of the failed job that records why.
    """
    return intake.submit_message(get_context(), body, self.request.id)


def _decide(items: list[dict[str, Any]]) -> None:
    control.decide_iterations(get_context(), [(str(i["job_id"]), int(i["n"])) for i in items])


@app.task(name="scoregate.control.decide", base=ReliableBatches, bind=True, **batch_options())
def decide(self: ReliableBatches, requests: list[Any]) -> dict[str, Any]:
    """Apply the loop policy to fused iterations and act, each exactly once (micro-batched)."""
    return run_batch(self, requests, ("job_id", "n"), _decide, optional=(), dedupe=False)


@app.task(name="scoregate.control.agent_result", base=ScoregateTask)
def agent_result(
    output: Any = None,
    job_id: str | None = None,
    iteration: int | None = None,
    n: int | None = None,
) -> None:
    """The agent's revised output (linked to the agent task) becomes ``iteration``.

    ``n`` is the deprecated name of ``iteration``; given both, they must agree. A message
    without ``output`` (a JavaScript ``undefined`` dropped by ``JSON.stringify``) is an
    agent answer of nothing: an agent failure on its job, not a refused message.
    """
    if job_id is None:
        raise BadMessage("agent_result needs `job_id`: the job the output is for")
    ctx = get_context()
    try:
        number = control.answered_iteration(iteration, n)
    except ValueError as exc:
        control.refuse_agent_result(ctx, job_id, str(exc))
        raise BadMessage(str(exc)) from None
    job, number = job_ref({"job_id": job_id, "n": number})
    try:
        control.agent_result(ctx, output, job, number)
    except ValueError as exc:
        fail_job(ctx, job, number, str(exc))


@app.task(name="scoregate.control.agent_error", base=ScoregateTask)
def agent_error(*args: Any, **kwargs: Any) -> str | None:
    """The agent task for ``iteration`` raised: record it on the job, retry or give up.

    The agent task's ``link_error``; clients in other languages send it with keyword
    arguments ``job_id``, ``iteration``, ``error_type`` and ``message``.
    """
    body, in_place = agent_errors.report_body(args, kwargs, stored_exception)
    if in_place:  # in the agent's own worker: the control pool does the recording
        app.send_task(AGENT_ERROR, kwargs=body, queue="control")
        return None
    try:
        report = agent_errors.parse_report(body)
    except ValueError as exc:
        raise BadMessage(str(exc)) from None
    return agent_errors.record_agent_error(get_context(), report)


def stored_exception(task_id: str) -> tuple[str, str] | None:
    """The failed task's exception (type name, message) from the result backend, if any."""
    from celery.backends.base import DisabledBackend

    if isinstance(app.backend, DisabledBackend):
        return None
    try:
        result = app.AsyncResult(task_id)
        if result.state != "FAILURE":
            return None
        exc = result.result
    except Exception:  # a probe: a backend problem means "not available"
        return None
    if isinstance(exc, BaseException):
        return type(exc).__name__, str(exc)
    if isinstance(exc, dict) and "exc_type" in exc:
        return str(exc["exc_type"]), str(exc.get("exc_message", ""))
    return None


@app.task(name="scoregate.control.review", base=ScoregateTask, bind=True, max_retries=None)
def review(
    self: ScoregateTask, job_id: str, verdict: str, actor: str, note: str | None = None
) -> str | None:
    """A human's verdict on a job waiting for review."""
    try:
        return control.review(get_context(), job_id, verdict, actor, note)
    except ValueError as exc:  # a stale or repeated verdict must not fail the job
        self.refuse(str(exc))
        return None


@app.task(name="scoregate.control.sweep", base=ScoregateTask, send_events=False)
def sweep(older_than_s: float | None = None) -> int:
    """Re-publish iterations stuck longer than the configured timeout."""
    if older_than_s is not None and (
        isinstance(older_than_s, bool) or not isinstance(older_than_s, int | float)
    ):
        raise BadMessage(f"older_than_s must be a number of seconds, got {older_than_s!r}")
    ctx = get_context()
    try:
        return control.sweep(ctx, older_than_s or ctx.settings.stuck_after_s)
    except SCHEMA_ERRORS as exc:  # every 10 s until `db upgrade`: one line, not a traceback
        if not is_schema_fault(exc):
            raise
        log_schema_fault(SWEEP, exc)
        return 0
