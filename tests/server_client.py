"""A synchronous wrapper over httpx's ASGI transport, for the API tests (unit and integration)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx


class AppClient:
    """Calls an ASGI app in process, one event loop per call."""

    def __init__(self, app: Any, headers: dict[str, str] | None = None) -> None:
        self.app = app
        self.headers = headers or {}

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://testserver", headers=self.headers
            ) as client:
                return await client.request(method, url, **kwargs)

        return asyncio.run(go())

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)
