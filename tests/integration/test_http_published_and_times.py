"""The HTTP API as ``scoregate serve`` builds it, on Postgres and a real Redis broker (db 6,
no worker): a cancel says what it published (``queued``, or ``deferred`` with the broker on
a closed port), Postgres's times come out in RFC 3339 with ``Z``, ``?content=false`` leaves
the answer out and ``/healthz`` shows the version."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

import scoregate
from scoregate.server import create_app
from scoregate.server.serve import production_service
from scoregate.storage import db
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, client_pointed_at, fresh_database, service_env
from tests.server_client import AppClient

pytestmark = pytest.mark.integration

BROKER_URL = re.sub(r"/\d+$", "", REDIS_URL) + "/6"
ANSWER = "Boil the pasta, then toss it with tomatoes and basil."
BODY = {
    "request": {"query": "Give me a tomato pasta recipe.", "content": ANSWER},
    "on_loop_exit": "testagent.on_loop_exit",
}
RFC3339_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("scoregate_http_published_times")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


@dataclass
class Broker:
    url: str
    before: set[bytes]

    def new_keys(self) -> set[bytes]:
        import redis

        now = set(redis.Redis.from_url(self.url).keys("*")) - self.before
        # the queues' messages; kombu's bindings may be another test's, made meanwhile
        return {key for key in now if not key.startswith(b"_kombu")}


@pytest.fixture
def broker() -> Iterator[Broker]:
    """Redis db 6; the queues this test fills (messages nobody consumes) are deleted after
    it. Not flushed: another test may use db 6 at the same time."""
    import redis

    client = redis.Redis.from_url(BROKER_URL)
    try:
        client.ping()
    except Exception as exc:
        require_service("Redis", exc)
    made = Broker(BROKER_URL, set(client.keys("*")))
    yield made
    if made.new_keys():
        client.delete(*made.new_keys())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def submit_and_cancel(env: dict[str, str]) -> dict[str, Any]:
    with client_pointed_at(env):
        client = AppClient(create_app(production_service()))
        submitted = client.post("/v1/jobs", json=BODY)
        assert submitted.status_code == 202, submitted.text
        job_id = submitted.json()["id"]
        return {
            "submitted": submitted,
            "cancelled": client.post(f"/v1/jobs/{job_id}/cancel", json={"actor": "ops"}),
            "detail": client.get(f"/v1/jobs/{job_id}"),
            "light": client.get(f"/v1/jobs/{job_id}?content=false"),
            "status": client.get(f"/v1/jobs/{job_id}/status"),
            "list": client.get("/v1/jobs?limit=5"),
            "health": client.get("/healthz"),
        }


def test_a_cancel_on_a_real_broker_says_queued_and_times_end_in_z(pg, broker):
    got = submit_and_cancel(service_env(pg, broker.url))
    assert got["submitted"].json()["published"] == "queued"
    cancelled = got["cancelled"]
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["published"] == "queued"  # the on_loop_exit hook
    assert "X-Scoregate-Published" not in cancelled.headers
    assert broker.new_keys()  # the messages are on the broker
    detail = got["detail"].json()
    times = [
        detail["created_at"],
        detail["updated_at"],
        got["status"].json()["updated_at"],
        *(row["created_at"] for row in got["list"].json()["jobs"]),
        *(d["created_at"] for d in detail["decisions"]),
        *(d["sent_at"] for d in detail["dispatches"]),
        *(it["created_at"] for it in detail["iterations"]),
    ]
    assert len(times) >= 6 and all(RFC3339_Z.fullmatch(t) for t in times), times
    assert detail["request"]["content"] == ANSWER
    assert "content" not in got["light"].json()["request"]
    assert got["health"].json()["version"] == scoregate.__version__


def test_a_cancel_with_the_broker_down_says_deferred(pg, broker):
    down = f"redis://127.0.0.1:{closed_port()}/6"
    got = submit_and_cancel({**service_env(pg, broker.url), "SCOREGATE_BROKER_URL": down})
    assert got["submitted"].json()["published"] == "deferred"
    cancelled = got["cancelled"]
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["published"] == "deferred"
    assert cancelled.headers["X-Scoregate-Published"] == "deferred"
    assert got["health"].status_code == 503 and got["health"].json()["version"]
