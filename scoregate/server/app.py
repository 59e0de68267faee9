"""The ASGI app: the ``/v1`` API, health, metrics, the OpenAPI docs and the review pages."""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import exc as sa_exc
from starlette.middleware.body_limit import RequestBodyLimitMiddleware

from scoregate import __version__
from scoregate.logs import one_line
from scoregate.pipelines.publish import watch_deferred
from scoregate.schemas.request import MAX_CONTENT_CHARS
from scoregate.server import api, pages, problems, serve, telemetry
from scoregate.server.auth import ApiKey
from scoregate.server.bodies import Health
from scoregate.server.compression import Compression
from scoregate.server.service import ApiService
from scoregate.storage.db import redact_url

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
DESCRIPTION = (
    "Score AI agents' output and gate their workflow. Send an API key as"
    " `Authorization: Bearer KEY` (or `X-API-Key`); errors are RFC 9457 problem details."
)

#: Errors that mean the database did not answer (down, restarting, out of connections).
DATABASE_DOWN = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,  # no pooled connection came free
)
#: ``Retry-After`` (seconds) of a 503 for a database that does not answer.
DATABASE_RETRY_AFTER_S = 5
#: How long ``/healthz`` keeps its answer about the broker (checks do not hammer it).
BROKER_CHECK_TTL_S = 5.0
#: Set on a response when messages it implies were left to the sweeper (broker down).
PUBLISHED_HEADER = "X-Scoregate-Published"
#: The largest body ``POST /v1/score`` takes (declared in Content-Length): it is scored in
#: the request on the server's CPU (about 0.1-0.2 ms a character), and a client that gives
#: up does not stop it. Longer answers go through jobs (up to ``MAX_BODY_BYTES``).
SCORE_MAX_BODY_BYTES = 32 * 1024
SCORE_NEEDS_LENGTH = (
    "POST /v1/score needs a Content-Length (its body is limited, and a chunked one is not"
    " counted before it is read): send the body whole, or submit a job (POST /v1/jobs)"
)
SCORE_TOO_LARGE = (
    f"POST /v1/score takes bodies up to {SCORE_MAX_BODY_BYTES // 1024} KiB, since it scores"
    " while the caller waits: submit a long answer as a job (POST /v1/jobs: an answer of up"
    f" to {MAX_CONTENT_CHARS:,} characters, in a body of up to"
    f" {problems.MAX_BODY_BYTES // (1024 * 1024)} MiB) and read its result"
    " (GET /v1/jobs/{id})"
)
#: Bodies the API reads (with any parameters, e.g. ``charset``).
JSON_TYPES = ("application/json",)
JSON_SUFFIX = "+json"


class BrokerCheck:
    """Whether the broker takes a connection, asked at most once per ``ttl`` seconds."""

    def __init__(self, check: Callable[[], bool], ttl: float = BROKER_CHECK_TTL_S) -> None:
        self._check = check
        self._ttl = ttl
        self._lock = threading.Lock()
        self._answer: tuple[float, bool] | None = None

    def __call__(self) -> bool:
        with self._lock:  # concurrent health checks wait for one probe, not one each
            now = time.monotonic()
            if self._answer is None or now - self._answer[0] >= self._ttl:
                self._answer = (now, self._check())
            return self._answer[1]


def _service_broker_check(service: ApiService) -> Callable[[], bool]:
    """A probe of the broker ``service`` publishes to: through its dispatcher's own Celery
    app (the same connection settings and pool), else one made on first use."""
    own = getattr(service.ctx.dispatcher, "app", None)
    celery = functools.cache(lambda: own or serve.publishing_app(service.ctx.settings))
    return lambda: serve.broker_reachable(celery())


def create_app(
    service: ApiService,
    api_keys: list[ApiKey] | None = None,
    broker_check: Callable[[], bool] | None = None,
) -> FastAPI:
    """The app over ``service``; ``api_keys`` empty means every caller is the local user.

    ``broker_check`` says whether the broker answers (``/healthz``); by default a probe of
    the broker the service's settings name. Embedded, there is none.
    """
    app = FastAPI(
        title="scoregate",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,  # served below from local files: no CDN
        redoc_url=None,
    )
    app.state.service = service
    app.state.api_keys = list(api_keys or [])
    app.state.broker_check = (
        None
        if service.inline is not None
        else BrokerCheck(broker_check or _service_broker_check(service))
    )
    problems.install(app)
    for error in DATABASE_DOWN:
        app.add_exception_handler(error, _database_down)
    # Added first, so the innermost: the HTTP middlewares below pass a body on in pieces,
    # which a compressor around them would gzip whatever its size (compression.py).
    if service.ctx.settings.http_gzip_min_bytes:
        app.add_middleware(Compression, minimum_size=service.ctx.settings.http_gzip_min_bytes)
    # A chunked body has no Content-Length: it is counted as it arrives and cut off at the
    # limit (413). A declared length over the limit is answered at once, by the outer check.
    app.add_middleware(RequestBodyLimitMiddleware, max_body_size=problems.MAX_BODY_BYTES)
    app.middleware("http")(_check_body)
    app.middleware("http")(_note_deferred)
    app.middleware("http")(telemetry.observe)
    app.middleware("http")(pages.no_store)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _add_operations(app)
    return app


async def _check_body(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Refuse a body by its headers, before it is read: too large (413), or, on ``/v1``,
    not sent as JSON (415, naming the header rather than the fields it made unreadable). A
    body with no Content-Type is no JSON: a browser may send one cross-site unasked."""
    unsafe = request.method in ("POST", "PUT", "PATCH", "DELETE")
    if (
        unsafe
        and request.url.path.startswith("/v1/")
        and not _key_in_header(request)
        and _cross_site(request)
    ):
        return problems.problem_response(
            request,
            403,
            "a cross-site request from a web page is refused: call the API from your own"
            " server or client, not from a page of another site",
        )
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > problems.MAX_BODY_BYTES:
        return problems.problem_response(request, 413, problems.TOO_LARGE)
    if request.url.path == "/v1/score":
        if int(length) > SCORE_MAX_BODY_BYTES:
            return problems.problem_response(request, 413, SCORE_TOO_LARGE)
        if "content-length" not in request.headers and "transfer-encoding" in request.headers:
            return problems.problem_response(request, 411, SCORE_NEEDS_LENGTH)
    sent = request.headers.get("content-type")
    has_body = length != "0" or "transfer-encoding" in request.headers
    coding = request.headers.get("content-encoding", "identity").strip().lower()
    if has_body and request.url.path.startswith("/v1/") and coding not in ("", "identity"):
        return problems.problem_response(
            request,
            415,
            f"the body was sent with Content-Encoding {coding[:40]!r}, which the API does not"
            " read: send it uncompressed (no Content-Encoding)",
        )
    if (
        has_body
        and request.method in ("POST", "PUT", "PATCH")
        and request.url.path.startswith("/v1/")
        and not is_json(sent or "")
    ):
        sent_as = f"as Content-Type {sent!r}" if sent else "without a Content-Type"
        return problems.problem_response(
            request,
            415,
            f"the body was sent {sent_as}: send Content-Type: application/json with a JSON"
            " body (Node's fetch sends text/plain unless told)",
        )
    return await call_next(request)


def _key_in_header(request: Request) -> bool:
    """With API keys configured, whether the request brings one in a header (``X-API-Key``,
    ``Authorization``): a page of another site cannot make a browser add those (and a page
    holding a key is the caller's own app), unlike the review pages' cookie, which the
    browser sends by itself. Such a request is judged by its key alone."""
    if not request.app.state.api_keys:
        return False
    return bool(request.headers.get("x-api-key") or request.headers.get("authorization"))


def _cross_site(request: Request) -> bool:
    """Whether a browser sent this request from a page of another site. Browsers name the
    page's origin (``Origin``, ``Sec-Fetch-Site``) on every cross-origin POST, a body-less
    one included; other clients send neither. A page of another site could otherwise act
    through a server that trusts every local caller (no API keys, loopback)."""
    if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
        return True
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return origin == "null"  # a sandboxed or file page
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1].lower() != host.lower()


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/*+json``, with any parameters."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media in JSON_TYPES or (media.startswith("application/") and media.endswith(JSON_SUFFIX))


async def _note_deferred(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Say so (:data:`PUBLISHED_HEADER`) when the broker did not take a message the request
    made: its job is recorded and runs once the sweeper has sent it."""
    with watch_deferred() as deferred:
        response = await call_next(request)
    if deferred.messages:
        response.headers[PUBLISHED_HEADER] = "deferred"
    return response


#: What a database says of a fault no retry mends (lower case): it, or its user, does not
#: exist; the password or the host's access is refused.
MISCONFIGURED = (
    "does not exist",
    "password authentication failed",
    "authentication failed",
    "no pg_hba.conf entry",
    "access denied",
    "unable to open database file",
)


def is_misconfigured(exc: Exception) -> bool:
    """Whether a database error is the configuration's (a database or user that does not
    exist, refused credentials), not the server being away: answered without Retry-After."""
    text = str(getattr(exc, "orig", None) or exc).lower()
    return any(needle in text for needle in MISCONFIGURED)


async def _database_down(request: Request, exc: Exception) -> Response:
    """503 with ``Retry-After`` for a database that does not answer. Where and why go to
    the server log, in one line; the client, whatever its key, learns nothing of the
    database's address or its driver's words."""
    service: ApiService = request.app.state.service
    where = redact_url(service.ctx.settings.secret("database_url") or "")
    reason = f"{type(exc).__name__}: {one_line(getattr(exc, 'orig', None) or exc, limit=300)}"
    if is_misconfigured(exc):
        log.error(
            "database refused on %s %s (%s): %s; fix SCOREGATE_DATABASE_URL (or create the"
            " database, or its user) and restart: retrying will not mend it",
            request.method,
            request.url.path,
            where,
            reason,
        )
        return problems.problem_response(
            request,
            500,
            "the server's database is misconfigured (it does not exist, or refuses the"
            " server's credentials): retrying will not help until an operator fixes it (the"
            " server log says why)",
        )
    log.error(
        "database unreachable on %s %s (%s): %s; check the database server and"
        " SCOREGATE_DATABASE_URL",
        request.method,
        request.url.path,
        where,
        reason,
    )
    return problems.problem_response(
        request,
        503,
        f"the database did not answer: try again in {DATABASE_RETRY_AFTER_S} s (the server"
        " log says why)",
        {"Retry-After": str(DATABASE_RETRY_AFTER_S)},
    )


def _add_operations(app: FastAPI) -> None:
    @app.get(
        "/healthz",
        response_model=Health,
        tags=["operations"],
        responses={503: {"model": Health, "description": "The database or the broker is down."}},
    )
    async def healthz(request: Request) -> Any:
        """200 when the database and the broker answer, 503 when either does not (the
        broker's answer is kept a few seconds)."""
        service: ApiService = request.app.state.service
        check: BrokerCheck | None = request.app.state.broker_check
        db_ok = await run_in_threadpool(service.database_ok)
        broker_ok = check is None or await run_in_threadpool(check)
        healthy = db_ok and broker_ok
        body = Health(
            status="ok" if healthy else "degraded",
            database="ok" if db_ok else "unreachable",
            broker="in-process" if check is None else "ok" if broker_ok else "unreachable",
            mode="embedded" if service.inline is not None else "celery",
            version=__version__,
        )
        return JSONResponse(body.model_dump(), status_code=200 if healthy else 503)

    # HEAD as well, as load balancers and uptime checkers probe (one operation in the docs)
    app.add_api_route("/healthz", healthz, methods=["HEAD"], include_in_schema=False)

    @app.get("/metrics", tags=["operations"], response_class=Response)
    async def metrics() -> Response:
        """The Prometheus metrics (text exposition format)."""
        data, content_type = metrics_payload()
        return Response(data, media_type=content_type)

    @app.get("/docs", include_in_schema=False, response_class=HTMLResponse)
    async def docs(request: Request) -> HTMLResponse:
        return pages.render_docs(request, app.openapi())


def metrics_payload() -> tuple[bytes, str]:
    """This process's metrics, or every worker process's under ``PROMETHEUS_MULTIPROC_DIR``."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest

    from scoregate.telemetry.prometheus import metrics

    metrics()  # the pipeline's metrics exist (at zero) before the first score
    telemetry.http_metrics()
    if os.path.isdir(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or ""):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
