"""The ``/v1`` routes: score, submit, read, list, review and cancel jobs, and take the agent's
answers and failures (for an orchestrator that speaks only HTTP)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from scoregate.pipelines.publish import deferred_so_far
from scoregate.pipelines.review import ResearchQuotaExceeded
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.server import problems
from scoregate.server.bodies import (
    AgentErrorBody,
    AgentReplyTaken,
    AgentResultBody,
    CancelBody,
    Cancelled,
    JobAccepted,
    JobDetail,
    JobPage,
    JobState,
    JobSubmission,
    JobSummary,
    ReviewBody,
    ReviewDone,
)
from scoregate.server.problems import Problem
from scoregate.server.security import Caller, recorded_name, require
from scoregate.server.service import AgentAnswerRefused, ApiService, ConflictError, NotFoundError
from scoregate.storage.paging import MAX_PAGE
from scoregate.storage.tables import JOB_STATUSES, TERMINAL_JOB_STATUSES, JobStatus

router = APIRouter(prefix="/v1", tags=["v1"])

Submitter = Annotated[Caller, Depends(require("submit"))]
Reader = Annotated[Caller, Depends(require("read"))]
Reviewer = Annotated[Caller, Depends(require("review"))]
#: Problems any route may answer; routes with a body also 400, 413 and 415.
PROBLEMS = problems.responses(401, 403, 422, 503)
BODY_PROBLEMS = {**PROBLEMS, **problems.responses(400, 413, 415)}
JOB_PROBLEMS = problems.responses(
    404, 409, s409="The start of an id names more than one job (`/problems/ambiguous-id`)."
)

#: Longest a reader may wait for a job to change (``?wait=``), and how often it looks.
MAX_WAIT_S = 30.0
WAIT_POLL_S = 0.25
Wait = Annotated[
    float,
    Query(
        ge=0,
        le=MAX_WAIT_S,
        description=(
            "Long-poll: wait up to this many seconds for the job to change (its status or"
            " iteration differs from `since_status`/`since_iteration`, by default from what"
            " they were when the request came) or to be final; 0 answers at once."
        ),
    ),
]
SinceStatus = Annotated[
    JobStatus | None, Query(description="With `wait`: the status the client last saw.")
]
SinceIteration = Annotated[
    int | None, Query(ge=0, description="With `wait`: the iteration the client last saw.")
]


def service_of(request: Request) -> ApiService:
    service: ApiService = request.app.state.service
    return service


def job_url(job_id: str) -> str:
    return f"/v1/jobs/{job_id}"


#: Where a semantic check's message names a field: (pattern, location under the request).
_FIELDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:job\.)?(?:request\.)?constraints\[(\d+)\]"), "{request}.constraints.{0}"),
    (re.compile(r"^(?:job\.)?request\.(\w+)"), "{request}.{0}"),
    (re.compile(r"^(agent|on_pass|on_loop_exit|research) task '"), "body.{0}.task"),
    (re.compile(r"^(task_name|idempotency_key|submitted_by|actor|reviewer|note)\b"), "body.{0}"),
    (re.compile(r"^(?:job\.)?(query|content|metadata|evidence|eval_metrics)\b"), "{request}.{0}"),
)


def _bad(exc: ValueError, request_at: str = "body.request") -> Problem:
    """A semantic check's refusal (a bad regex, a task not allowed...) as a 422 whose
    ``errors`` names the field when the message does."""
    message = str(exc)
    errors = []
    for pattern, where in _FIELDS:
        found = pattern.match(message)
        if found:
            loc = where.format(*found.groups(), request=request_at)
            errors.append({"loc": loc, "msg": message, "type": "value_error"})
            break
    return Problem(422, message, type_="validation", errors=errors)


def _conflict(exc: ConflictError) -> Problem:
    return Problem(409, str(exc), type_=exc.kind)


@router.post("/score", response_model=ScoreResult, responses=BODY_PROBLEMS)
async def score(body: ScoreRequest, request: Request, caller: Submitter) -> ScoreResult:
    """Score one request synchronously (no job, nothing stored) and return the breakdown."""
    try:
        return await run_in_threadpool(service_of(request).score, body)
    except ValueError as exc:
        raise _bad(exc, request_at="body") from exc


@router.post(
    "/jobs",
    status_code=202,
    response_model=JobAccepted,
    responses={
        **BODY_PROBLEMS,
        200: {"description": "The idempotency key's first job, replayed.", "model": JobAccepted},
        **problems.responses(
            409,
            s409="The idempotency key already holds a different request"
            " (`/problems/idempotency-conflict`).",
        ),
    },
)
async def submit(
    body: JobSubmission,
    request: Request,
    response: Response,
    caller: Submitter,
    idempotency_key: Annotated[
        str | None, Header(max_length=255, description="Same as the body's idempotency_key.")
    ] = None,
) -> JobAccepted:
    """Submit a job (the body of ``scoregate.control.submit``); returns its id at once.

    A repeated idempotency key with the same request returns the first job with
    ``replayed: true`` and ``published: none`` (status 200): nothing is published again;
    with a different request or policy it is refused (409).
    """
    # what the caller sent, not the defaults: a loop given only a threshold is enabled, as
    # it is for a submit message (a dumped default `enabled: false` would turn it off)
    data = body.model_dump(mode="json", exclude_unset=True, exclude_none=True)
    given = data.get("idempotency_key")
    if idempotency_key is not None and not idempotency_key.strip():
        raise Problem(
            422,
            "the Idempotency-Key header is empty: send a key (1 to 255 characters) or leave"
            " the header out",
            type_="validation",
            errors=[{"loc": "header.idempotency-key", "msg": "empty", "type": "string_too_short"}],
        )
    if idempotency_key and given is not None and given != idempotency_key:
        raise Problem(
            422,
            f"the Idempotency-Key header ({idempotency_key!r}) and the body's idempotency_key"
            f" ({given!r}) differ; send one of them, or the same key in both",
            type_="validation",
            errors=[{"loc": "body.idempotency_key", "msg": "differs", "type": "value_error"}],
        )
    if idempotency_key:
        data["idempotency_key"] = idempotency_key
    data["submitted_by"] = recorded_name(request, caller, data.get("submitted_by"))
    before = deferred_so_far()
    try:
        job_id, status, replayed = await run_in_threadpool(service_of(request).submit, data)
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    response.headers["Location"] = job_url(job_id)
    if replayed:
        response.status_code = 200
    accepted = {"id": job_id, "status": status, "url": job_url(job_id), "replayed": replayed}
    if replayed:
        published = "none"  # the first call published the job, or left it to the sweeper
    else:
        published = "deferred" if deferred_so_far() > before else "queued"
    return JobAccepted.model_validate({**accepted, "published": published})


@router.get("/jobs", response_model=JobPage, responses=PROBLEMS)
async def list_jobs(
    request: Request,
    caller: Reader,
    status: Annotated[
        list[str],
        Query(
            default_factory=list,
            description="Only jobs with one of these statuses (repeat it: `?status=escalated"
            "&status=awaiting_review`); empty or absent: every job.",
            json_schema_extra={"items": {"type": "string", "enum": ["", *JOB_STATUSES]}},
        ),
    ],
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
    cursor: Annotated[str | None, Query(max_length=512, description="next_cursor")] = None,
) -> JobPage:
    """Jobs newest first, a page at a time; follow ``next_cursor`` for the next page."""
    statuses = sorted({s for s in status if s})
    unknown = [s for s in statuses if s not in JOB_STATUSES]
    if unknown:
        raise Problem(
            422,
            f"status {unknown[0]!r} is not one of: {', '.join(JOB_STATUSES)}",
            type_="validation",
            errors=[{"loc": "query.status", "msg": "not a job status", "type": "enum"}],
        )
    try:
        rows, next_cursor = await run_in_threadpool(
            lambda: service_of(request).page(statuses=statuses, limit=limit, cursor=cursor)
        )
    except ValueError as exc:
        raise Problem(
            422,
            str(exc),
            type_="validation",
            errors=[{"loc": "query.cursor", "msg": str(exc), "type": "value_error"}],
        ) from exc
    return JobPage(jobs=[_summary(r) for r in rows], next_cursor=next_cursor)


def _summary(row: dict[str, Any]) -> JobSummary:
    fields = ("id", "status", "created_at", "updated_at", "score", "band", "action")
    return JobSummary.model_validate(
        {
            **{k: row[k] for k in fields},
            "iteration": row["current_iteration"],
            "url": job_url(row["id"]),
        }
    )


@contextmanager
def _job_problems(bad_at: str | None = None) -> Iterator[None]:
    """The service's refusals as problems: no such job (404), a state that does not allow
    it (409) and, with ``bad_at``, an invalid value there (422)."""
    try:
        yield
    except NotFoundError as exc:
        raise Problem(404, str(exc), type_="not-found") from exc
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except ValueError as exc:
        if bad_at is None:
            raise
        raise _bad(exc, request_at=bad_at) from exc


async def _resolve(request: Request, ref: str) -> str:
    with _job_problems():
        return await run_in_threadpool(service_of(request).resolve, ref)


async def _await_change(
    request: Request, job_id: str, wait: float, status: str | None, iteration: int | None
) -> None:
    """Return once the job is final, or its status or iteration differs from the ones
    given (by default, its own when called), or after ``wait`` seconds."""
    if wait <= 0:
        return
    service = service_of(request)
    at = await run_in_threadpool(service.position_of, job_id)
    if at is None:
        return
    seen = (status or at[0], at[1] if iteration is None else iteration)
    deadline = time.monotonic() + wait
    while at is not None and at[0] not in TERMINAL_JOB_STATUSES and at == seen:
        if time.monotonic() >= deadline or await request.is_disconnected():
            return
        await asyncio.sleep(WAIT_POLL_S)
        at = await run_in_threadpool(service.position_of, job_id)


@router.get(
    "/jobs/{job_id}/status",
    response_model=JobState,
    responses={**PROBLEMS, **JOB_PROBLEMS},
)
async def job_state(
    job_id: str,
    request: Request,
    caller: Reader,
    wait: Wait = 0,
    since_status: SinceStatus = None,
    since_iteration: SinceIteration = None,
) -> Any:
    """The light form of a job, for polling: its status, iteration and verdict
    (``action``), without the texts and the audit trail. With ``wait``, a long poll."""
    full = await _resolve(request, job_id)
    await _await_change(request, full, wait, since_status, since_iteration)
    with _job_problems():
        state = await run_in_threadpool(service_of(request).state, full)
    return JSONResponse({**state, "url": job_url(full)})


@router.get("/jobs/{job_id}", response_model=JobDetail, responses={**PROBLEMS, **JOB_PROBLEMS})
async def get_job(
    job_id: str,
    request: Request,
    caller: Reader,
    content: Annotated[
        bool,
        Query(description="Add each iteration's text (its `request` copy leaves it out)."),
    ] = False,
    wait: Wait = 0,
    since_status: SinceStatus = None,
    since_iteration: SinceIteration = None,
) -> Any:
    """The job's status, every iteration's breakdown and the audit trail (decisions).

    ``job_id`` may be the job's id, its idempotency key (``celery:<message id>`` for a
    Celery submission without one) or the start of its id as the CLI prints it. The
    verdict of a final job is ``final_result.action``.
    """
    full = await _resolve(request, job_id)
    await _await_change(request, full, wait, since_status, since_iteration)
    with _job_problems():
        job = await run_in_threadpool(service_of(request).job, full, include_content=content)
    # Sent as built: the shape is JobDetail's, which a test checks against every field.
    return JSONResponse(job)


@router.post(
    "/jobs/{job_id}/review",
    response_model=ReviewDone,
    responses={
        **BODY_PROBLEMS,
        **problems.responses(
            404,
            409,
            429,
            s409="Nothing of this job waits for review (`/problems/not-reviewable`), the job is"
            " final (`/problems/job-final`), or the start of an id names more than one job.",
            s429="Research asked for past the hourly research quota (Retry-After).",
        ),
    },
)
async def review(job_id: str, body: ReviewBody, request: Request, caller: Reviewer) -> ReviewDone:
    """Resolve a job waiting for a human, as ``scoregate review`` does; approve and reject
    are recorded as reviewer verdicts for calibration. ``cancel`` cancels any job not
    final yet, as ``POST /v1/jobs/{id}/cancel`` does."""
    who = recorded_name(request, caller, body.reviewer)
    service = service_of(request)
    full = await _resolve(request, job_id)
    try:
        status = await run_in_threadpool(service.review, full, body.verdict, who, body.note)
    except NotFoundError as exc:
        raise Problem(404, str(exc), type_="not-found") from exc
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except ResearchQuotaExceeded as exc:
        raise Problem(
            429, str(exc), type_="quota-exceeded", headers={"Retry-After": str(exc.retry_after_s)}
        ) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    done = {"id": full, "verdict": body.verdict, "reviewer": who, "status": status}
    return ReviewDone.model_validate(done)


@router.post(
    "/jobs/{job_id}/cancel",
    response_model=Cancelled,
    responses={
        **BODY_PROBLEMS,
        **problems.responses(
            404,
            409,
            s409="The job is final already (`/problems/job-final`: `detail` says in which status).",
        ),
    },
)
async def cancel(
    job_id: str,
    request: Request,
    caller: Submitter,
    body: Annotated[CancelBody | None, Body()] = None,
) -> Cancelled:
    """Cancel any job not final yet (waiting for its agent, its scores or a human), as
    ``scoregate jobs cancel`` does: recorded in the audit trail, its open review closed,
    its ``on_loop_exit`` hook told (``reason="cancelled"``)."""
    body = body or CancelBody()
    if body.actor and body.reviewer and body.actor != body.reviewer:
        raise Problem(
            422,
            f"actor ({body.actor!r}) and reviewer ({body.reviewer!r}) differ: they name the"
            " same person; send one of them",
            type_="validation",
            errors=[{"loc": "body.reviewer", "msg": "differs from actor", "type": "value_error"}],
        )
    who = recorded_name(request, caller, body.actor or body.reviewer)
    full = await _resolve(request, job_id)
    with _job_problems(bad_at="body"):
        was, status = await run_in_threadpool(service_of(request).cancel, full, who, body.note)
    done = {"id": full, "previous_status": was, "actor": who, "status": status}
    return Cancelled.model_validate(done)


AGENT_PROBLEMS = {
    **BODY_PROBLEMS,
    **problems.responses(
        404,
        409,
        s409="The job does not wait for the agent's answer to that iteration (late, for"
        " another iteration, or another answer for an iteration that holds one): refused and"
        " noted in its audit trail (`/problems/not-waiting-for-agent`).",
    ),
}


@router.post(
    "/jobs/{job_id}/agent-result",
    status_code=202,
    response_model=AgentReplyTaken,
    responses={
        **AGENT_PROBLEMS,
        200: {
            "description": "The answer the iteration holds, sent again: `outcome: duplicate`.",
            "model": AgentReplyTaken,
        },
    },
)
async def agent_result(
    job_id: str, body: AgentResultBody, request: Request, response: Response, caller: Submitter
) -> AgentReplyTaken:
    """The agent's next answer for a job waiting for it (``awaiting_agent``), as the
    Celery task ``scoregate.control.agent_result`` takes it: ``iteration`` is the one the
    job waits for (``current_iteration + 1``; the agent task's ``iteration`` argument).
    202: the answer is being scored; read the job (``?wait=``) for the verdict. 200 with
    ``outcome: duplicate``: the iteration holds this answer already (a retry), nothing
    done. An answer that cannot be scored (not a string or an object of the answer's
    fields, a NUL, a metric out of range...) is a 422 whose ``errors`` name the field, and
    counts as an agent failure, as it does through Celery."""
    full = await _resolve(request, job_id)
    try:
        reply = await run_in_threadpool(
            service_of(request).agent_result, full, body.iteration, body.output
        )
    except NotFoundError as exc:
        raise Problem(404, str(exc), type_="not-found") from exc
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except AgentAnswerRefused as exc:
        loc = ".".join(("body.output", exc.field) if exc.field else ("body.output",))
        raise Problem(
            422,
            str(exc),
            type_="validation",
            errors=[{"loc": loc, "msg": str(exc), "type": "value_error"}],
        ) from exc
    if reply["outcome"] == "duplicate":
        response.status_code = 200
    return AgentReplyTaken.model_validate(reply)


@router.post(
    "/jobs/{job_id}/agent-error",
    status_code=202,
    response_model=AgentReplyTaken,
    responses=AGENT_PROBLEMS,
)
async def agent_error(
    job_id: str, body: AgentErrorBody, request: Request, caller: Submitter
) -> AgentReplyTaken:
    """The agent failed to produce ``iteration``, as the Celery task
    ``scoregate.control.agent_error`` reports it: noted in the audit trail (action
    ``agent_error``); the agent is asked again up to ``SCOREGATE_AGENT_ERROR_RETRIES``
    times, then the job is escalated (``hil``) or fails and ``on_loop_exit`` is told.
    ``outcome`` says which: ``retried``, ``escalated``, ``failed`` (or ``duplicate`` for a
    ``task_id`` sent before)."""
    full = await _resolve(request, job_id)
    report = body.model_dump(exclude_none=True)
    with _job_problems(bad_at="body"):
        reply = await run_in_threadpool(service_of(request).agent_error, full, report)
    return AgentReplyTaken.model_validate(reply)


def _also_for_keys_with_slashes() -> None:
    """Each ``/jobs/{job_id}...`` route again with ``{job_id:path}``, tried after every
    other route: an idempotency key may hold "/" (``tenant/order-77``, sent as
    ``tenant%2Forder-77``, arrives decoded). The last part of the path names the
    sub-route, the rest the job; ``.../status`` is always the status route."""
    routes = [r for r in router.routes if isinstance(r, APIRoute) and "{job_id}" in r.path]
    # the sub-routes before the job itself, whose {job_id:path} would swallow them
    for route in sorted(routes, key=lambda r: r.path.endswith("{job_id}")):
        router.add_api_route(
            route.path.removeprefix(router.prefix).replace("{job_id}", "{job_id:path}"),
            route.endpoint,
            methods=sorted(route.methods or ()),
            response_model=route.response_model,
            status_code=route.status_code,
            include_in_schema=False,
        )


_also_for_keys_with_slashes()
