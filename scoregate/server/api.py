"""The ``/v1`` routes: score, submit, read, list, review and cancel jobs, and take the agent's
answers and failures (for an orchestrator that speaks only HTTP)."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from difflib import get_close_matches
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from scoregate.pipelines.review import (
    NoResearchTask,
    QuotaUnavailable,
    ResearchQuotaExceeded,
    research_quota,
)
from scoregate.schemas.loop import HookGivenTwice, check_hooks_given_once
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.engine import ScoreAbandoned
from scoregate.server import problems
from scoregate.server.bodies import (  # rfc3339: the API's time format, used here too
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
    rfc3339,
)
from scoregate.server.problems import Problem
from scoregate.server.security import Caller, caller_of, recorded_name, require
from scoregate.server.service import (
    AgentAnswerRefused,
    ApiService,
    ConflictError,
    NotFoundError,
    counting_sent,
)
from scoregate.storage.paging import MAX_PAGE
from scoregate.storage.tables import JOB_STATUSES, TERMINAL_JOB_STATUSES, JobStatus

log = logging.getLogger(__name__)


def _query_names(dependant: Any) -> set[str]:
    """The query parameters a route (its endpoint and every dependency) takes."""
    names = {str(param.alias) for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def _known_query(request: Request) -> None:
    """Refuse a query parameter the route does not take (``?wiat=10``): ignored, a typo
    would turn a long poll into a busy loop without a word. A name that starts with ``_``
    is a client's cache-buster (``?_=1733059200``) and is let through."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    known = sorted(_query_names(route.dependant))
    unknown = sorted(n for n in set(request.query_params) - set(known) if not n.startswith("_"))
    if not unknown:
        return
    errors = []
    for name in unknown:
        near = get_close_matches(name, known, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        errors.append(
            {"loc": f"query.{name[:40]}", "msg": f"unknown query parameter{hint}", "type": "extra"}
        )
    takes = f"it takes {', '.join(known)}" if known else "it takes none"
    shown = "; ".join(f"{e['loc']}: {e['msg']}" for e in errors[:10])
    raise Problem(
        422,
        f"{request.method} {route.path} does not take {shown}; {takes}",
        type_="validation",
        errors=errors,
    )


router = APIRouter(prefix="/v1", tags=["v1"], dependencies=[Depends(_known_query)])

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
    # the job step's own checks name the dotted path: "job.request.metadata.role: ..."
    (re.compile(r"^job\.(request(?:\.\w+)+|\w+)(?: \(a key\))?: "), "body.{0}"),
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
    return Problem(409, str(exc), type_=exc.kind, **exc.extra)


#: The stored times in the API's answers: each row's own fields (never a key inside a
#: free-form object, such as a request's metadata or a decision's details).
TIME_FIELDS = (
    "created_at",
    "updated_at",
    "fused_at",
    "decided_at",
    "published_at",
    "sent_at",
    "resolved_at",
)


def stamped(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its own time fields (:data:`TIME_FIELDS`) in RFC 3339 (in place)."""
    for key in TIME_FIELDS:
        if key in row:
            row[key] = rfc3339(row[key])
    return row


def stamped_job(job: dict[str, Any]) -> dict[str, Any]:
    """A job as built for ``GET /v1/jobs/{id}``, every row's times in RFC 3339 (in place):
    the job's, its iterations' and their tracks', its decisions', escalations' and
    dispatches'."""
    stamped(job)
    for it in job.get("iterations", ()):
        stamped(it)
        for track in it.get("tracks", {}).values():
            stamped(track)
    for key in ("decisions", "escalations", "dispatches"):
        for row in job.get(key, ()):
            stamped(row)
    return job


#: The status logged (and counted in the metrics) of a call its client gave up: nginx's
#: "client closed request"; nobody reads the answer.
CLIENT_GONE = 499


@router.post(
    "/score", response_model=ScoreResult, responses={**BODY_PROBLEMS, **problems.responses(411)}
)
async def score(body: ScoreRequest, request: Request, caller: Submitter) -> Any:
    """Score one request synchronously (no job, nothing stored) and return the breakdown.

    If the client hangs up before the answer, the server stops scoring the request at
    the model's next step (usually well under a second) and goes on with other calls; the
    call is logged and counted with status 499. This changes nothing for a client that
    waits: it gets the full answer, with the same scores.
    """
    stop = threading.Event()
    started = time.monotonic()
    work = asyncio.ensure_future(run_in_threadpool(service_of(request).score, body, stop))
    gone = await _caller_gone(request, work, stop)
    try:
        result = await work
    except ScoreAbandoned as exc:
        _abandoned(started, gone, f"scoring stopped {exc.where} the {exc.track} track")
        return Response(status_code=CLIENT_GONE)
    except ValueError as exc:
        raise _bad(exc, request_at="body") from exc
    if gone is not None:
        _abandoned(started, gone, "its last model track ran to its end")
        return Response(status_code=CLIENT_GONE)
    return result


async def _caller_gone(
    request: Request, work: asyncio.Future[Any], stop: threading.Event
) -> float | None:
    """Wait for ``work`` to end, or for the caller to hang up: then set ``stop`` and
    return when it did (monotonic seconds); None when ``work`` ended first."""
    hangup = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait({work, hangup}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # the server is stopping this call: so does the thread
        stop.set()
        raise
    finally:
        hangup.cancel()
        with suppress(asyncio.CancelledError, Exception):  # a listener that failed: no hang-up
            await hangup
    if work.done() or not _hung_up(hangup):
        return None
    stop.set()
    return time.monotonic()


async def _disconnect(request: Request) -> None:
    """Return once the client has hung up. It listens (``request.is_disconnected()``
    peeks, and a disconnect seen through the HTTP middlewares' task groups is lost to it):
    the body is read, so the next message is ``http.disconnect``."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _abandoned(started: float, gone: float | None, what: str) -> None:
    """One INFO line for a score whose client hung up: when, and what was left undone."""
    log.info(
        "POST /v1/score abandoned: the client hung up %.2f s in; %s, %.2f s in",
        (gone or started) - started,
        what,
        time.monotonic() - started,
    )


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
    if idempotency_key is not None:
        idempotency_key = _header_text(idempotency_key, "Idempotency-Key")
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
    try:
        check_hooks_given_once(data)
    except HookGivenTwice as exc:
        raise Problem(
            422,
            str(exc),
            type_="validation",
            errors=[{"loc": f"body.hooks.{exc.role}", "msg": str(exc), "type": "value_error"}],
        ) from exc
    data["submitted_by"] = recorded_name(request, caller, data.get("submitted_by"))
    try:
        with counting_sent() as sent:
            job_id, status, replayed, warnings = await run_in_threadpool(
                service_of(request).submit, data
            )
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    response.headers["Location"] = job_url(job_id)
    if replayed:
        response.status_code = 200
    accepted = {
        "id": job_id,
        "status": status,
        "url": job_url(job_id),
        "replayed": replayed,
        "warnings": warnings,
    }
    # a replay publishes nothing: the first call published the job, or left it to the sweeper
    return JobAccepted.model_validate({**accepted, "published": sent.published})


def _header_text(value: str, name: str) -> str:
    """A header as the client wrote it: HTTP hands its bytes over as Latin-1, but clients
    (requests, httpx, Node) send UTF-8, so ``ключ`` would otherwise arrive as mojibake and
    name another key than the same text in the body."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError as exc:
        raise Problem(
            422,
            f"the {name} header is not UTF-8 text: send the key in the body's"
            " idempotency_key, or encode the header as UTF-8",
            type_="validation",
            errors=[{"loc": f"header.{name.lower()}", "msg": "not UTF-8", "type": "value_error"}],
        ) from exc


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
    fields = (
        "id",
        "status",
        "created_at",
        "updated_at",
        "score",
        "band",
        "action",
        "approved",
        "reviewed_by",
    )
    return JobSummary.model_validate(
        {
            **stamped({k: row[k] for k in fields}),
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
    if not ref.strip():  # "/v1/jobs/", as a client that joins a base URL and an id builds it
        raise Problem(
            404,
            f"no route {request.url.path}: the list of jobs is GET /v1/jobs (no trailing"
            " slash), a job GET /v1/jobs/{id}",
            type_="no-route",
        )
    try:
        with _job_problems():
            return await run_in_threadpool(service_of(request).resolve, ref)
    except Problem as exc:
        # "ID/cancel" read as one id: the job's routes of another method, or none
        better = await _job_path_problem(request, ref) if exc.status == 404 else None
        if better is not None:
            raise better from None
        raise


#: The last part of a job's paths that take POST.
JOB_ACTIONS = ("review", "cancel", "agent-result", "agent-error")
JOB_PATHS = (
    "GET /v1/jobs/{id} and /v1/jobs/{id}/status; POST /v1/jobs/{id}/review, /cancel,"
    " /agent-result and /agent-error (see /docs)"
)


async def _job_path_problem(request: Request, ref: str) -> Problem | None:
    """The answer to a path under ``/v1/jobs/`` that names a job and then a route it does
    not have with this method (``GET .../cancel``: 405, ``.../approve``: 404 no-route);
    None when it names no job (the usual "no job" holds) or the caller may not read jobs."""
    head, _, last = ref.rpartition("/")
    if not head or not await _may_read(request):
        return None
    try:
        await run_in_threadpool(service_of(request).resolve, head)
    except (NotFoundError, ConflictError):
        return None
    path = request.url.path
    if last in JOB_ACTIONS and request.method != "POST":
        return Problem(
            405,
            f"{request.method} is not allowed on {path}: /{last} takes POST (see /docs)",
            headers={"Allow": "POST"},
        )
    return Problem(
        404,
        f"no route {request.method} {path}: a job has no '{last}'; its paths are {JOB_PATHS}",
        type_="no-route",
    )


async def _may_read(request: Request) -> bool:
    """Whether the request's key (or the local user, with no keys) may read jobs: only
    such a caller learns that a job exists from a path's refusal."""
    caller = await caller_of(request)
    return caller is not None and "read" in caller.scopes


async def _explain_refusal(request: Request) -> Problem | None:
    """A method the router refused on ``/v1/jobs/ID/WHAT``: WHAT is no route of a job."""
    ref = request.url.path.removeprefix(f"{router.prefix}/jobs/")
    if ref == request.url.path or "/" not in ref:
        return None
    with suppress(NotFoundError, ConflictError):
        await run_in_threadpool(service_of(request).resolve, ref)
        return None  # the whole names a job (a key with "/"): a method its path lacks
    return await _job_path_problem(request, ref)


problems.REFUSAL_EXPLAINERS.append(_explain_refusal)


async def _await_change(
    request: Request, job_id: str, wait: float, status: str | None, iteration: int | None
) -> bool:
    """Return once the job is final, or its status or iteration differs from the ones
    given (by default, its own when called), or after ``wait`` seconds: False; or True as
    soon as the client has hung up (nobody reads the answer: build none)."""
    if wait <= 0:
        return False
    service = service_of(request)
    at = await run_in_threadpool(service.position_of, job_id)
    if at is None:
        return False
    seen = (status or at[0], at[1] if iteration is None else iteration)
    deadline = time.monotonic() + wait
    hangup = asyncio.ensure_future(_disconnect(request))
    try:
        while at is not None and at[0] not in TERMINAL_JOB_STATUSES and at == seen:
            if _hung_up(hangup):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(WAIT_POLL_S)
            at = await run_in_threadpool(service.position_of, job_id)
        return _hung_up(hangup)
    finally:
        hangup.cancel()


def _hung_up(listener: asyncio.Future[None]) -> bool:
    """Whether the disconnect listener saw the client go; a listener that failed (its
    error retrieved here) says nothing, and the wait goes on."""
    if not listener.done() or listener.cancelled():
        return False
    return listener.exception() is None


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
    (``approved``: whether the answer may be used; ``action``: the score's recommendation,
    which a person's approval does not change), without the texts and the audit trail.
    With ``wait``, a long poll."""
    full = await _resolve(request, job_id)
    if await _await_change(request, full, wait, since_status, since_iteration):
        return Response(status_code=CLIENT_GONE)  # logged and counted; nobody reads it
    with _job_problems():
        state = await run_in_threadpool(service_of(request).state, full)
    return JSONResponse(stamped({**state, "url": job_url(full)}))


@router.get("/jobs/{job_id}", response_model=JobDetail, responses={**PROBLEMS, **JOB_PROBLEMS})
async def get_job(
    job_id: str,
    request: Request,
    caller: Reader,
    content: Annotated[
        bool | None,
        Query(
            description="Which texts to send. Absent: the submitted request's, not each"
            " iteration's; true: each iteration's too (its `request` copy leaves it out);"
            " false: no answer at all (`request.content` and"
            " `agent_request.previous_content` left out), for polling a large job."
        ),
    ] = None,
    wait: Wait = 0,
    since_status: SinceStatus = None,
    since_iteration: SinceIteration = None,
) -> Any:
    """The job's status, every iteration's breakdown and the audit trail (decisions).

    ``job_id`` may be the job's id, its idempotency key (``celery:<message id>`` for a
    Celery submission without one) or the start of its id as the CLI prints it, in any
    case. Whether its answer may be used is ``approved`` (a person's approval included;
    ``final_result.action`` is the score's recommendation, which that does not change).
    """
    full = await _resolve(request, job_id)
    if await _await_change(request, full, wait, since_status, since_iteration):
        return Response(status_code=CLIENT_GONE)  # logged and counted; nobody reads it
    with _job_problems():
        job = await run_in_threadpool(service_of(request).job, full, include_content=bool(content))
    if content is False:
        _without_answers(job)
    # Sent as built: the shape is JobDetail's, which a test checks against every field.
    return JSONResponse(stamped_job(job))


def _without_answers(job: dict[str, Any]) -> None:
    """Leave every answer's text out of ``job`` (``?content=false``)."""
    job["request"].pop("content", None)
    if job.get("agent_request"):
        job["agent_request"].pop("previous_content", None)


@router.post(
    "/jobs/{job_id}/review",
    response_model=ReviewDone,
    response_model_exclude_none=True,  # research_quota: with a research verdict only
    responses={
        **BODY_PROBLEMS,
        **problems.responses(
            403,
            404,
            409,
            429,
            s409="Nothing of this job waits for review (`/problems/not-reviewable`), the job is"
            " final (`/problems/job-final`), or the start of an id names more than one job."
            " A verdict that lost a race is answered as one that came later; `decided` names"
            " the latest human verdict.",
            s403="The key lacks the `review` scope, or `cancel` of a job that waits for no"
            " person without the `submit` scope.",
            s429="Research asked for past the hourly research quota (Retry-After).",
            s503="The database does not answer, or (a `research` verdict) the research"
            " quota's Redis does not: nothing changed; try again after `Retry-After` seconds"
            " (approve and reject need no Redis).",
        ),
    },
)
async def review(job_id: str, body: ReviewBody, request: Request, caller: Reviewer) -> ReviewDone:
    """Resolve a job waiting for a human, as ``scoregate review`` does; approve and reject
    are recorded as reviewer verdicts for calibration. ``cancel`` cancels any job not
    final yet, as ``POST /v1/jobs/{id}/cancel`` does; one that waits for no person needs
    the ``submit`` scope too, as that route does (scope ``review``)."""
    who = recorded_name(request, caller, body.reviewer)
    service = service_of(request)
    full = await _resolve(request, job_id)
    try:
        with counting_sent() as sent:
            status = await run_in_threadpool(
                lambda: service.review(
                    full, body.verdict, who, body.note, may_cancel_any="submit" in caller.scopes
                )
            )
    except PermissionError as exc:
        raise Problem(403, f"key {caller.name!r} may not do this: {exc}") from exc
    except NotFoundError as exc:
        raise Problem(404, str(exc), type_="not-found") from exc
    except ConflictError as exc:
        raise _conflict(exc) from exc
    except ResearchQuotaExceeded as exc:
        raise Problem(
            429, str(exc), type_="quota-exceeded", headers={"Retry-After": str(exc.retry_after_s)}
        ) from exc
    except QuotaUnavailable as exc:
        raise Problem(
            503,
            f"{exc} (the server log says why)",
            type_="unavailable",
            headers={"Retry-After": str(exc.retry_after_s)},
        ) from exc
    except NoResearchTask as exc:
        raise Problem(
            422,
            str(exc),
            type_="validation",
            errors=[{"loc": "body.verdict", "msg": str(exc), "type": "value_error"}],
        ) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    done: dict[str, Any] = {"id": full, "verdict": body.verdict, "reviewer": who}
    if body.verdict == "research":
        try:
            quota = await run_in_threadpool(research_quota, service.ctx)
        except QuotaUnavailable:  # the verdict is taken; only the count left is unknown
            pass
        else:
            done["research_quota"] = {"remaining": quota.remaining, "limit": quota.limit}
    done["status"] = status
    return ReviewDone.model_validate({**done, "published": sent.published})


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
    with _job_problems(bad_at="body"), counting_sent() as sent:
        was, status = await run_in_threadpool(service_of(request).cancel, full, who, body.note)
    done = {"id": full, "previous_status": was, "actor": who, "status": status}
    return Cancelled.model_validate({**done, "published": sent.published})


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
    counts as an agent failure, as it does through Celery: that 422 carries
    ``agent_failure_recorded: true`` with the job's ``job_status`` and
    ``current_iteration`` now (it may be escalated); a 422 without it changed nothing."""
    full = await _resolve(request, job_id)
    try:
        with counting_sent() as sent:
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
            # the job changed (an agent failure, maybe an escalation): do not just resend
            agent_failure_recorded=True,
            job_status=exc.status,
            current_iteration=exc.current_iteration,
        ) from exc
    if reply["outcome"] == "duplicate":
        response.status_code = 200
    return AgentReplyTaken.model_validate({**reply, "published": sent.published})


@router.post(
    "/jobs/{job_id}/agent-error",
    status_code=202,
    response_model=AgentReplyTaken,
    responses=AGENT_PROBLEMS,
)
async def agent_error(
    job_id: str,
    body: AgentErrorBody,
    request: Request,
    caller: Submitter,
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=255,
            description="Same as the body's task_id: a report sent again with it counts once.",
        ),
    ] = None,
) -> AgentReplyTaken:
    """The agent failed to produce ``iteration``, as the Celery task
    ``scoregate.control.agent_error`` reports it: noted in the audit trail (action
    ``agent_error``); the agent is asked again up to ``SCOREGATE_AGENT_ERROR_RETRIES``
    times, then the job is escalated (``hil``) or fails and ``on_loop_exit`` is told.
    ``outcome`` says which: ``retried``, ``escalated``, ``failed`` (or ``duplicate`` for a
    ``task_id`` sent before). Send a ``task_id`` (or an ``Idempotency-Key`` header) unique
    to each failure, so that a retried POST counts once: without one, each report counts."""
    if idempotency_key is not None:
        idempotency_key = _header_text(idempotency_key, "Idempotency-Key")
    if idempotency_key is not None and body.task_id and body.task_id != idempotency_key:
        raise Problem(
            422,
            f"the Idempotency-Key header ({idempotency_key!r}) and the body's task_id"
            f" ({body.task_id!r}) differ; send one of them, or the same id in both",
            type_="validation",
            errors=[{"loc": "body.task_id", "msg": "differs", "type": "value_error"}],
        )
    full = await _resolve(request, job_id)
    report = body.model_dump(exclude_none=True)
    if idempotency_key is not None:  # an HTTP client's retry key: its report counts once
        report["task_id"] = idempotency_key
    with _job_problems(bad_at="body"), counting_sent() as sent:
        reply = await run_in_threadpool(service_of(request).agent_error, full, report)
    return AgentReplyTaken.model_validate({**reply, "published": sent.published})


def _declare_scopes() -> None:
    """Say in each route's OpenAPI operation which scope its API key needs (its
    description, and ``x-scoregate-scope``): found from the route's ``require`` dependency."""
    for route in router.routes:
        if not isinstance(route, APIRoute):
            continue
        scopes = [
            str(getattr(dep.call, "scope", ""))
            for dep in route.dependant.dependencies
            if hasattr(dep.call, "scope")
        ]
        if not scopes:
            continue
        scope = scopes[0]
        also = ""
        if route.path.endswith("/review"):
            also = "; a `cancel` of a job that waits for no person needs `submit` too"
        route.description = (
            f"{route.description}\n\nScope: an API key with `{scope}`{also} (when keys are"
            " configured; `scoregate api-key NAME --scope ...` makes one)."
        )
        route.openapi_extra = {**(route.openapi_extra or {}), "x-scoregate-scope": scope}


_declare_scopes()


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
            response_model_exclude_none=route.response_model_exclude_none,
            status_code=route.status_code,
            include_in_schema=False,
        )


problems.head_where_get(router)  # before the copies below, which copy the HEAD routes too
_also_for_keys_with_slashes()
