"""The HTTP API as ``scoregate serve`` builds it, with its database or its broker on a closed
port: 503s a retry policy understands, a health check that says which, and a submit that
neither stalls nor pretends its job was queued. (The shared services are never stopped.)"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import select

import scoregate
from scoregate.server import create_app
from scoregate.server.serve import production_service
from scoregate.storage import db
from scoregate.storage.tables import Job
from tests.integration.conftest import client_pointed_at, fresh_database, service_env
from tests.server_client import AppClient

pytestmark = pytest.mark.integration

BODY = {"request": {"query": "Give me a tomato pasta recipe.", "content": "Boil pasta."}}


def closed_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("scoregate_http_outages")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


def served() -> AppClient:
    """The app ``scoregate serve`` runs on this process's settings."""
    return AppClient(create_app(production_service()))


def test_database_on_a_closed_port_is_503_with_retry_after(redis_url, caplog):
    gone = f"postgresql+psycopg://postgres:s3cret@127.0.0.1:{closed_port()}/absent"
    with client_pointed_at(service_env(gone, redis_url)):
        client = served()
        health = client.get("/healthz")
        listed = client.get("/v1/jobs")
        posted = client.post("/v1/jobs", json=BODY)
    assert health.status_code == 503 and health.json()["database"] == "unreachable"
    assert health.json()["broker"] == "ok"
    for r in (listed, posted):
        assert r.status_code == 503, r.text
        assert r.headers["Retry-After"] == "5"
        detail = r.json()["detail"]
        assert detail.startswith("the database did not answer: try again in 5 s")
        assert "postgres" not in detail and "s3cret" not in r.text
    logged = " ".join(rec.getMessage() for rec in caplog.records)
    assert "Connection refused" in logged and "s3cret" not in logged
    assert not [rec for rec in caplog.records if rec.exc_info]  # no tracebacks


def test_broker_on_a_closed_port_defers_the_job_quickly_and_says_so(pg, redis_url):
    broker = f"redis://127.0.0.1:{closed_port()}/13"
    with client_pointed_at({**service_env(pg, redis_url), "SCOREGATE_BROKER_URL": broker}):
        client = served()
        key = f"outage-{uuid.uuid4()}"
        started = time.monotonic()
        r = client.post("/v1/jobs", json=BODY, headers={"Idempotency-Key": key})
        took = time.monotonic() - started
        health = client.get("/healthz")
    assert r.status_code == 202, r.text
    assert r.headers["X-Scoregate-Published"] == "deferred"
    assert took < 3.0, f"submit took {took:.1f}s with the broker down"
    assert health.status_code == 503
    assert health.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "unreachable",
        "mode": "celery",
        "version": scoregate.__version__,
    }
    # recorded, for the sweeper to publish
    with db.session_scope(pg) as s:
        assert s.scalar(select(Job.status).where(Job.idempotency_key == key)) == "running"


def test_a_broker_that_answers_is_ok(pg, redis_url):
    with client_pointed_at(service_env(pg, redis_url)):
        health = served().get("/healthz")
    assert health.status_code == 200, health.text
    assert health.json()["broker"] == "ok"
