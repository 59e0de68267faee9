"""Every error as RFC 9457 problem details (``application/problem+json``), one shape.

``type`` is stable per kind of problem (``/problems/not-found``...: :data:`PROBLEM_TYPES`),
for a program to branch on; ``detail`` says what is wrong and how to fix it; validation
errors also list each problem under ``errors`` with its location in the request.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from scoregate.schemas.request import MAX_CONTENT_CHARS

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"

#: Largest request body accepted: a 2,000,000-character answer, JSON-escaped, fits.
MAX_BODY_BYTES = 32 * 1024 * 1024
TOO_LARGE = (
    f"the body is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB (or its Content-Length"
    f" is not a number): send the answer in smaller jobs (an answer is at most"
    f" {MAX_CONTENT_CHARS:,} characters)"
)


#: Each kind of problem, by the last part of its ``type`` (``/problems/<kind>``).
PROBLEM_TYPES: dict[str, str] = {
    "unreadable-body": "400: the body is not UTF-8, or not one JSON value",
    "unauthorized": "401: no API key, or not a configured one",
    "forbidden": "403: the key lacks the scope the route needs",
    "not-found": "404: no job has that id, idempotency key or id start",
    "no-route": "404: no such path (see /docs)",
    "method-not-allowed": "405: the path takes another method",
    "conflict": "409: the job is not in a state that allows this",
    "ambiguous-id": "409: the start of an id names more than one job",
    "idempotency-conflict": "409: the idempotency key holds a different request or policy",
    "not-reviewable": "409: nothing of the job waits for a human's verdict",
    "job-final": "409: the job is final (accepted, completed, rejected, failed, cancelled)",
    "not-waiting-for-agent": "409: the job does not wait for the agent's answer to that"
    " iteration (refused and noted in its audit trail)",
    "length-required": "411: the route needs a Content-Length",
    "too-large": "413: the body is over the size limit",
    "unsupported-media-type": "415: the body is not sent as application/json",
    "validation": "422: the body or a parameter is invalid; `errors` lists each field",
    "quota-exceeded": "429: a quota is used up; `Retry-After` says when to try again",
    "internal": "500: a server fault; the server log has the details",
    "unavailable": "503: a service the server needs (the database; for research, the"
    " quota's Redis) does not answer; `Retry-After` says when to try again",
}
#: The kind a status means when the raiser names none.
STATUS_KINDS: dict[int, str] = {
    400: "unreadable-body",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    411: "length-required",
    413: "too-large",
    415: "unsupported-media-type",
    422: "validation",
    429: "quota-exceeded",
    500: "internal",
    503: "unavailable",
}


def problem_type(status: int, kind: str | None = None) -> str:
    """The ``type`` URI reference of a problem: its kind's, else its status's default."""
    kind = kind or STATUS_KINDS.get(status)
    if kind is None:
        return "about:blank"
    if kind not in PROBLEM_TYPES:
        raise ValueError(f"unknown problem kind {kind!r}: add it to PROBLEM_TYPES")
    return f"/problems/{kind}"


class FieldError(BaseModel):
    #: Where: ``body.request.constraints.0``, ``query.status``...
    loc: str
    msg: str
    type: str


class Decided(BaseModel):
    """A job's latest human verdict, from its audit trail."""

    verdict: str = Field(description="approve, reject, research or cancel.")
    actor: str = Field(description="Who gave it, as recorded ('bob (key alice)').")
    at: str = Field(description="When, RFC 3339 in UTC.")
    rationale: str = Field(description="The note given with it, or 'VERDICT by ACTOR'.")


class ProblemDetails(BaseModel):
    """An RFC 9457 problem document (``application/problem+json``)."""

    #: Stable per kind of problem: ``/problems/not-found``, ``/problems/validation``...
    type: str = Field(json_schema_extra={"enum": [f"/problems/{k}" for k in PROBLEM_TYPES]})
    title: str
    status: int
    detail: str
    instance: str
    #: For validation problems: each invalid field (may be empty when no field is known).
    errors: list[FieldError] | None = None
    decided: Decided | None = Field(
        default=None,
        description="On a 409 for a verdict on a job no longer waiting for a person: the"
        " latest human verdict (another reviewer's, or a cancel).",
    )
    agent_failure_recorded: bool | None = Field(
        default=None,
        description="On a 422 from agent-result: true when the answer was recorded as an agent"
        " failure (the job changed: see job_status); absent when nothing was recorded.",
    )
    job_status: str | None = Field(
        default=None, description="With agent_failure_recorded: the job's status now."
    )
    current_iteration: int | None = Field(
        default=None, description="With agent_failure_recorded: the job's iteration now."
    )


#: What each error status of the API means, for the OpenAPI document.
DESCRIPTIONS: dict[int, str] = {
    400: "The body could not be read: not UTF-8, or not valid JSON (`/problems/unreadable-body`).",
    401: "No API key, or not a configured one.",
    403: "The key lacks the scope this route needs.",
    404: "No job has that id, idempotency key or id start.",
    409: "The job's state does not allow this; `type` says why.",
    411: "The body was sent without a Content-Length (chunked): send it whole"
    " (`/problems/length-required`).",
    413: "The body is larger than the server accepts (32 MiB).",
    415: "The body is not sent as `Content-Type: application/json`.",
    422: "The body or a parameter is invalid; `errors` lists each field, `detail` says what"
    " to fix.",
    429: "A quota is used up; `Retry-After` says when to try again.",
    503: "The database does not answer; try again later.",
}


def problem_schema() -> dict[str, Any]:
    """:class:`ProblemDetails` as one self-contained JSON schema (its ``$defs`` inlined)."""
    schema = ProblemDetails.model_json_schema(mode="serialization")
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return dict(inline(schema))


def responses(*statuses: int, **described: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's problem statuses; ``described`` overrides a
    description (``s409="..."``)."""
    schema = problem_schema()
    return {
        status: {
            "description": described.get(f"s{status}", DESCRIPTIONS[status]),
            "content": {PROBLEM_JSON: {"schema": schema}},
        }
        for status in statuses
    }


class Problem(Exception):
    """Raise to answer with a problem document; ``type_`` is its kind (a key of
    :data:`PROBLEM_TYPES`), by default the status's."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        type_: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers
        self.kind = type_
        self.type = problem_type(status, type_)  # an unknown kind fails here, at the raise
        self.extra = extra


#: Asked in turn before a problem is answered as problem+json: one may answer it as a page
#: instead (the review pages: a browser is shown the error with a way back, not JSON).
#: Filled by the modules that declare the pages.
PAGE_ANSWERS: list[Callable[[Request, int, str, dict[str, str] | None], Response | None]] = []


def problem_response(
    request: Request,
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
    *,
    type_: str | None = None,
    **extra: Any,
) -> Response:
    for answer in PAGE_ANSWERS:
        page = answer(request, status, detail, headers)
        if page is not None:
            return page
    body = {
        "type": problem_type(status, type_),
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "instance": _instance(request.url.path),
        **extra,
    }
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_JSON)


def _instance(path: str, limit: int = 300) -> str:
    """The request's path, cut to ``limit`` characters (a 5,000-character id is not echoed)."""
    return path if len(path) <= limit else path[:limit] + "..."


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "body"


async def _on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return problem_response(
        request, exc.status, exc.detail, exc.headers, type_=exc.kind, **exc.extra
    )


def _unreadable_json(exc: RequestValidationError) -> str | None:
    """The detail of a body that is not JSON at all (truncated, a stray comma...), which
    FastAPI reports as a validation error at ``body.<character offset>``: the fault is
    the client's encoding, not a field (400, as for a body that is not UTF-8)."""
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            loc = tuple(error.get("loc", ()))
            at = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
            why = str((error.get("ctx") or {}).get("error") or error.get("msg") or "")
            where = f" at character {at}" if at is not None else ""
            return (
                f"the body is not valid JSON: {why}{where}; send one JSON object (check the"
                " client's JSON encoder, or a body cut short)"
            )
    return None


async def _on_validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    unreadable = _unreadable_json(exc)
    if unreadable is not None:
        return problem_response(request, 400, unreadable)
    errors = [
        {"loc": _where(tuple(e.get("loc", ()))), "msg": str(e.get("msg", "")), "type": e["type"]}
        for e in exc.errors()
    ]
    shown = "; ".join(f"{e['loc']}: {e['msg']}" for e in errors[:10])
    more = f"; ... {len(errors) - 10} more" if len(errors) > 10 else ""
    detail = f"invalid request: {shown}{more}; fix these fields and send it again"
    return problem_response(request, 422, detail, errors=errors)


#: Asked in turn about a request the router refused for its method (405), before the
#: answer is built: one may answer it better (the job routes: an action that no job has is
#: 404, not a method of the job's path). Filled by the modules that declare the routes.
REFUSAL_EXPLAINERS: list[Callable[[Request], Awaitable[Problem | None]]] = []


#: The methods a 405's ``Allow`` may name (each tried against the routes).
METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> list[str]:
    """The methods the request's path takes: each one the app's routes would answer."""
    routes = request.app.router.routes
    return [
        method
        for method in METHODS
        if any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    ]


def head_where_get(router: APIRouter) -> None:
    """Answer HEAD on each GET route of ``router`` as GET is answered, without the body
    (RFC 9110 9.1: the server drops it), as load balancers and link checkers ask; the
    twins stay out of the OpenAPI document (one operation a path)."""
    for route in list(router.routes):
        if isinstance(route, APIRoute) and "GET" in (route.methods or ()):
            router.add_api_route(
                route.path.removeprefix(router.prefix),
                route.endpoint,
                methods=["HEAD"],
                response_model=route.response_model,
                response_class=route.response_class,
                status_code=route.status_code,
                include_in_schema=False,
            )


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    kind = None
    headers = dict(exc.headers or {}) or None
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"no route {request.url.path}: see /docs for the API's paths"
        kind = "no-route"
    if exc.status_code == 405:
        for explain in REFUSAL_EXPLAINERS:
            better = await explain(request)
            if better is not None:
                return await _on_problem(request, better)
        allow = ", ".join(allowed_methods(request))
        path = request.url.path
        detail = f"{request.method} is not allowed on {path}: it takes {allow} (see /docs)"
        headers = {**(headers or {}), "Allow": allow}
    if exc.status_code == 413:
        detail = TOO_LARGE
    if exc.status_code == 400 and detail == "There was an error parsing the body":
        detail = "the body could not be read: send one JSON object, encoded as UTF-8"
    return problem_response(request, exc.status_code, detail, headers, type_=kind)


async def _on_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem_response(
        request, 500, f"internal error ({type(exc).__name__}): the server log has the details"
    )


def install(app: FastAPI) -> None:
    """Route every error of ``app`` through one problem+json shape."""
    app.add_exception_handler(Problem, _on_problem)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_error)
