"""The HTTP API's own Prometheus metrics: requests by route and status, and their latency.

Made on first use on the global registry (as ``scoregate.telemetry.prometheus`` does), once per
process however many apps are built.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from starlette.routing import Match, Route

from scoregate.telemetry.prometheus import LATENCY_BUCKETS


@dataclass(frozen=True)
class HttpMetrics:
    requests: Any
    latency: Any


_made: HttpMetrics | None = None
_lock = threading.Lock()


def http_metrics() -> HttpMetrics:
    global _made
    with _lock:
        if _made is None:
            from prometheus_client import Counter, Histogram

            _made = HttpMetrics(
                requests=Counter(
                    "scoregate_http_requests",
                    "HTTP API requests, by method, route template and status code.",
                    ["method", "route", "status"],
                ),
                latency=Histogram(
                    "scoregate_http_request_seconds",
                    "Time to answer an HTTP API request, by method and route template.",
                    ["method", "route"],
                    buckets=LATENCY_BUCKETS,
                ),
            )
        return _made


def _fixed_path(request: Request) -> str | None:
    """The path of a route without parameters that Starlette does not name in the scope
    (``/openapi.json``, ``/docs``): it is its own template."""
    path = request.url.path
    for route in getattr(request.app, "routes", ()):
        if getattr(route, "path", None) == path and "{" not in path:
            return path
    return None


def _route_named(request: Request) -> str | None:
    """The template of the API or page route the path names, whatever the method, for a
    request a middleware answered before routing (415, 413, 411, a cross-site 403)."""
    from scoregate.server import api, pages  # the routers, as create_app includes them

    for router in (api.router, pages.router):
        for route in router.routes:
            if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
                return route.path
    return None


async def observe(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Middleware: count and time every request under its route template (not its path, so
    job ids do not each make a series)."""
    start = time.perf_counter()
    response = await call_next(request)
    route = request.scope.get("route")
    template = (
        getattr(route, "path", None)
        or _fixed_path(request)
        or (_route_named(request) if response.status_code != 404 else None)
        or "unmatched"
    )
    if template.startswith("/static"):
        return response
    m = http_metrics()
    m.requests.labels(request.method, template, str(response.status_code)).inc()
    m.latency.labels(request.method, template).observe(time.perf_counter() - start)
    return response
