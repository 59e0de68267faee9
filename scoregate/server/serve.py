"""``scoregate serve``: choose the address, build the service and run uvicorn."""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import time
from typing import Any

from scoregate.config.settings import Settings, get_settings
from scoregate.logs import one_line, uvicorn_log_config
from scoregate.schemas.request import ScoreRequest
from scoregate.server.auth import ApiKey, parse_keys
from scoregate.server.service import ApiService

log = logging.getLogger(__name__)

LOOPBACK_NAMES = ("localhost",)

#: How long an HTTP request waits for the broker (connect, send) before it gives up: a
#: message it could not send is left to the sweeper, and the caller told so.
BROKER_TIMEOUT_S = 1.0


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_host(host: str, keys: list[ApiKey]) -> None:
    """Without API keys the server is open to whoever can connect: loopback only."""
    if not keys and not is_loopback(host):
        raise ValueError(
            f"no API keys are configured, so the server listens on 127.0.0.1 only and will not"
            f" bind {host}: set SCOREGATE_API_KEYS (create entries with `scoregate api-key"
            " NAME --scope submit --scope read --scope review`) or drop --host"
        )


def load_keys(settings: Settings) -> list[ApiKey]:
    return parse_keys(settings.secret("api_keys"))


def production_service() -> ApiService:
    """The service on the configured database and broker (or the embedded default).

    With a broker its messages go through :func:`publishing_app`: a request never waits
    more than about :data:`BROKER_TIMEOUT_S` for a broker that is down.
    """
    from scoregate.pipelines.api import client_context
    from scoregate.pipelines.dispatch import CeleryDispatcher

    ctx, inline = client_context()
    if inline is None:
        ctx = dataclasses.replace(ctx, dispatcher=CeleryDispatcher(publishing_app(ctx.settings)))
    return ApiService(ctx, inline)


def warm_up(service: ApiService) -> float:
    """Score one short request, which loads the models (the first ``POST /v1/score`` is
    then as fast as the next); returns the seconds it took."""
    started = time.perf_counter()
    service.score(ScoreRequest(query="Is the server ready?", content="The models are loaded."))
    return time.perf_counter() - started


def publishing_app(settings: Settings) -> Any:
    """A Celery app for an HTTP server: a worker's, but connecting, sending and retrying
    give up after about :data:`BROKER_TIMEOUT_S` (a worker's wait out a blip of ~10 s),
    and with no result backend (``SCOREGATE_RESULT_BACKEND`` is the workers').
    """
    from scoregate.workers.app import create_app

    app = create_app(settings)
    app.conf.update(
        # The server reads no task's result; with a result backend set (for the workers),
        # every send would subscribe to that task's result, and a Redis backend that is
        # down then holds the request ~40 s and fails it: 500, the job recorded unknown to
        # its caller. Without one, a broker outage is the ~1 s deferred answer.
        result_backend=None,
        broker_connection_timeout=BROKER_TIMEOUT_S,
        redis_socket_connect_timeout=BROKER_TIMEOUT_S,
        broker_transport_options={
            **app.conf.broker_transport_options,
            "socket_connect_timeout": BROKER_TIMEOUT_S / 2,
            "socket_timeout": BROKER_TIMEOUT_S,  # a broker that accepts and never answers
        },
        task_publish_retry_policy={
            "max_retries": 1,
            "interval_start": 0.1,
            "interval_step": 0,
            "interval_max": 0.1,
        },
    )
    return app


def broker_reachable(app: Any) -> bool:
    """Whether ``app``'s broker takes a connection within about :data:`BROKER_TIMEOUT_S`."""
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_S
            )
    except Exception as exc:  # a probe: any failure means unreachable
        log.warning("broker unreachable: %s", one_line(exc))
        return False
    return True


def run(app: Any, host: str, port: int) -> None:
    """Serve ``app`` with uvicorn, its logs in ``SCOREGATE_LOG_FORMAT`` (timestamped text,
    or JSON lines)."""
    import logging

    import uvicorn

    log_format = get_settings().log_format
    if log_format == "json":
        logging.captureWarnings(True)  # Python's warnings as JSON lines, like every record
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="info",
        log_config=uvicorn_log_config(log_format),
        server_header=False,
    )
