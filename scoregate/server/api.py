"""The ``/v1`` routes: score, submit, read, list and review jobs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool

from scoregate.pipelines.review import ResearchQuotaExceeded
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.server.bodies import (
    JobAccepted,
    JobDetail,
    JobPage,
    JobSubmission,
    JobSummary,
    ReviewBody,
    ReviewDone,
)
from scoregate.server.problems import Problem
from scoregate.server.security import Caller, recorded_name, require
from scoregate.server.service import ApiService, ConflictError, NotFoundError
from scoregate.storage.paging import MAX_PAGE
from scoregate.storage.tables import JOB_STATUSES

router = APIRouter(prefix="/v1", tags=["v1"])

Submitter = Annotated[Caller, Depends(require("submit"))]
Reader = Annotated[Caller, Depends(require("read"))]
Reviewer = Annotated[Caller, Depends(require("review"))]
PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"description": what, "content": {"application/problem+json": {}}}
    for code, what in (
        (400, "The body could not be read (not UTF-8)."),
        (401, "No API key, or not a configured one."),
        (403, "The key lacks the scope this route needs."),
        (413, "The body is larger than the server accepts (32 MiB)."),
        (422, "The body or a parameter is invalid; `detail` says what to fix."),
    )
}


def service_of(request: Request) -> ApiService:
    service: ApiService = request.app.state.service
    return service


def job_url(job_id: str) -> str:
    return f"/v1/jobs/{job_id}"


def _bad(exc: ValueError) -> Problem:
    return Problem(422, str(exc))


@router.post("/score", response_model=ScoreResult, responses=PROBLEMS)
async def score(body: ScoreRequest, request: Request, caller: Submitter) -> ScoreResult:
    """Score one request synchronously (no job, nothing stored) and return the breakdown."""
    try:
        return await run_in_threadpool(service_of(request).score, body)
    except ValueError as exc:
        raise _bad(exc) from exc


@router.post(
    "/jobs",
    status_code=202,
    response_model=JobAccepted,
    responses={
        **PROBLEMS,
        200: {"description": "The idempotency key's first job, replayed.", "model": JobAccepted},
        409: {"description": "The idempotency key already holds a different request."},
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
    ``replayed: true`` (status 200); with a different request or policy it is refused (409).
    """
    # what the caller sent, not the defaults: a loop given only a threshold is enabled, as
    # it is for a submit message (a dumped default `enabled: false` would turn it off)
    data = body.model_dump(mode="json", exclude_unset=True, exclude_none=True)
    given = data.get("idempotency_key")
    if idempotency_key and given is not None and given != idempotency_key:
        raise Problem(
            422,
            f"the Idempotency-Key header ({idempotency_key!r}) and the body's idempotency_key"
            f" ({given!r}) differ; send one of them, or the same key in both",
        )
    if idempotency_key:
        data["idempotency_key"] = idempotency_key
    data["submitted_by"] = recorded_name(request, caller, data.get("submitted_by"))
    try:
        job_id, status, replayed = await run_in_threadpool(service_of(request).submit, data)
    except ConflictError as exc:
        raise Problem(409, str(exc)) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    response.headers["Location"] = job_url(job_id)
    if replayed:
        response.status_code = 200
    return JobAccepted(id=job_id, status=status, url=job_url(job_id), replayed=replayed)


@router.get(
    "/jobs/{job_id}",
    response_model=JobDetail,
    responses={
        **PROBLEMS,
        404: {"description": "No such job."},
        409: {"description": "The start of an id names more than one job."},
    },
)
async def get_job(
    job_id: str,
    request: Request,
    caller: Reader,
    content: Annotated[bool, Query(description="Include each iteration's text.")] = False,
) -> dict[str, Any]:
    """The job's status, every iteration's breakdown and the audit trail (decisions).

    ``job_id`` may be the job's id, its idempotency key (``celery:<message id>`` for a
    Celery submission without one) or the start of its id as the CLI prints it.
    """
    try:
        return await run_in_threadpool(service_of(request).job, job_id, include_content=content)
    except NotFoundError as exc:
        raise Problem(404, str(exc)) from exc
    except ConflictError as exc:
        raise Problem(409, str(exc)) from exc


@router.get("/jobs", response_model=JobPage, responses=PROBLEMS)
async def list_jobs(
    request: Request,
    caller: Reader,
    status: Annotated[
        str | None,
        Query(
            description="Only jobs with this status.",
            json_schema_extra={"enum": list(JOB_STATUSES)},
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
    cursor: Annotated[str | None, Query(max_length=512, description="next_cursor")] = None,
) -> JobPage:
    """Jobs newest first, a page at a time; follow ``next_cursor`` for the next page."""
    if status is not None and status not in JOB_STATUSES:
        raise Problem(422, f"status {status!r} is not one of: {', '.join(JOB_STATUSES)}")
    try:
        rows, next_cursor = await run_in_threadpool(
            lambda: service_of(request).page(status=status, limit=limit, cursor=cursor)
        )
    except ValueError as exc:
        raise _bad(exc) from exc
    return JobPage(jobs=[_summary(r) for r in rows], next_cursor=next_cursor)


def _summary(row: dict[str, Any]) -> JobSummary:
    return JobSummary(
        id=row["id"],
        status=row["status"],
        iteration=row["current_iteration"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        score=row["score"],
        band=row["band"],
        url=job_url(row["id"]),
    )


@router.post(
    "/jobs/{job_id}/review",
    response_model=ReviewDone,
    responses={
        **PROBLEMS,
        404: {"description": "No such job."},
        409: {
            "description": "Nothing of this job waits for review, or the start of an id"
            " names more than one job."
        },
        429: {"description": "Research asked for past the hourly research quota (Retry-After)."},
    },
)
async def review(job_id: str, body: ReviewBody, request: Request, caller: Reviewer) -> ReviewDone:
    """Resolve a job waiting for a human, as ``scoregate review`` does; approve and reject
    are recorded as reviewer verdicts for calibration."""
    who = recorded_name(request, caller, body.reviewer)
    service = service_of(request)
    try:
        job_id = await run_in_threadpool(service.resolve, job_id)  # an id, key or id start
        status = await run_in_threadpool(service.review, job_id, body.verdict, who, body.note)
    except NotFoundError as exc:
        raise Problem(404, str(exc)) from exc
    except ConflictError as exc:
        raise Problem(409, str(exc)) from exc
    except ResearchQuotaExceeded as exc:
        raise Problem(429, str(exc), headers={"Retry-After": str(exc.retry_after_s)}) from exc
    except ValueError as exc:
        raise _bad(exc) from exc
    return ReviewDone(id=job_id, verdict=body.verdict, reviewer=who, status=status)
