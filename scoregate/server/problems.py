"""Every error as RFC 9457 problem details (``application/problem+json``), one shape.

``detail`` says what is wrong and how to fix it; validation errors also list each
problem under ``errors`` with its location in the request.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"

#: Largest request body accepted: a 2,000,000-character answer, JSON-escaped, fits.
MAX_BODY_BYTES = 32 * 1024 * 1024
TOO_LARGE = (
    f"the body is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB (or its Content-Length"
    " is not a number): send the answer in smaller jobs"
)


class Problem(Exception):
    """Raise to answer with a problem document."""

    def __init__(
        self, status: int, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers
        self.extra = extra


def problem_response(
    request: Request,
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "instance": request.url.path,
        **extra,
    }
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_JSON)


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "body"


async def _on_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Problem)
    return problem_response(request, exc.status, exc.detail, exc.headers, **exc.extra)


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": _where(tuple(e.get("loc", ()))), "msg": str(e.get("msg", "")), "type": e["type"]}
        for e in exc.errors()
    ]
    shown = "; ".join(f"{e['loc']}: {e['msg']}" for e in errors[:10])
    more = f"; ... {len(errors) - 10} more" if len(errors) > 10 else ""
    detail = f"invalid request: {shown}{more}; fix these fields and send it again"
    return problem_response(request, 422, detail, errors=errors)


async def _on_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"no route {request.url.path}: see /docs for the API's paths"
    if exc.status_code == 405:
        detail = f"{request.method} is not allowed on {request.url.path}: see /docs"
    if exc.status_code == 413:
        detail = TOO_LARGE
    if exc.status_code == 400 and detail == "There was an error parsing the body":
        detail = "the body could not be read: send one JSON object, encoded as UTF-8"
    return problem_response(request, exc.status_code, detail, dict(exc.headers or {}) or None)


async def _on_error(request: Request, exc: Exception) -> JSONResponse:
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
