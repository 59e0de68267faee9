"""``scoregate serve``: choose the address, build the service and run uvicorn."""

from __future__ import annotations

import ipaddress
from typing import Any

from scoregate.config.settings import Settings
from scoregate.server.auth import ApiKey, parse_keys
from scoregate.server.service import ApiService

LOOPBACK_NAMES = ("localhost",)


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
    """The service on the configured database and broker (or the embedded default)."""
    from scoregate.pipelines.api import client_context

    ctx, inline = client_context()
    return ApiService(ctx, inline)


def run(app: Any, host: str, port: int) -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="info", server_header=False)
