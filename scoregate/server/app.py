"""The ASGI app: the ``/v1`` API, health, metrics, the OpenAPI docs and the review pages."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.body_limit import RequestBodyLimitMiddleware

from scoregate import __version__
from scoregate.server import api, pages, problems, telemetry
from scoregate.server.auth import ApiKey
from scoregate.server.bodies import Health
from scoregate.server.service import ApiService

HERE = Path(__file__).parent
DESCRIPTION = (
    "Score AI agents' output and gate their workflow. Send an API key as"
    " `Authorization: Bearer KEY` (or `X-API-Key`); errors are RFC 9457 problem details."
)


def create_app(service: ApiService, api_keys: list[ApiKey] | None = None) -> FastAPI:
    """The app over ``service``; ``api_keys`` empty means every caller is the local user."""
    app = FastAPI(
        title="scoregate",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,  # served below from local files: no CDN
        redoc_url=None,
    )
    app.state.service = service
    app.state.api_keys = list(api_keys or [])
    problems.install(app)
    # A chunked body has no Content-Length: it is counted as it arrives and cut off at the
    # limit (413). A declared length over the limit is answered at once, by the outer check.
    app.add_middleware(RequestBodyLimitMiddleware, max_body_size=problems.MAX_BODY_BYTES)
    app.middleware("http")(_limit_body)
    app.middleware("http")(telemetry.observe)
    app.middleware("http")(pages.no_store)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _add_operations(app)
    return app


async def _limit_body(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > problems.MAX_BODY_BYTES:
        return problems.problem_response(request, 413, problems.TOO_LARGE)
    return await call_next(request)


def _add_operations(app: FastAPI) -> None:
    @app.get("/healthz", response_model=Health, tags=["operations"])
    async def healthz(request: Request) -> Any:
        """200 when the database answers, 503 when it does not."""
        service: ApiService = request.app.state.service
        db_ok = await run_in_threadpool(service.database_ok)
        body = Health(
            status="ok" if db_ok else "degraded",
            database="ok" if db_ok else "unreachable",
            broker="in-process" if service.inline is not None else "configured",
            mode="embedded" if service.inline is not None else "celery",
        )
        return JSONResponse(body.model_dump(), status_code=200 if db_ok else 503)

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
