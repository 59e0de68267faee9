"""The HTTP API on the real database and broker: Postgres, Redis, a Celery worker process.

The app runs in this process over httpx's ASGI transport; jobs it accepts are scored by a
real worker (real models) and every assertion reads what the API returns or what the
orchestrator's hook tasks recorded in Redis.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.server.serve import production_service
from scoregate.storage import db
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.integration.conftest import fresh_database
from tests.server_client import AppClient

pytestmark = pytest.mark.integration

RECIPE = "Give me a simple tomato pasta recipe for dinner, without any nuts."
FAITHFUL = (
    "Boil spaghetti in salted water. Meanwhile simmer chopped tomatoes with garlic "
    "and olive oil for fifteen minutes, then toss the pasta in the sauce and top it "
    "with basil and parmesan."
)
WITH_NUTS = "Boil spaghetti. Blend basil, pine nuts and parmesan into a pesto and toss it in."
NO_NUTS = {"kind": "not_regex", "value": r"\bnuts?\b", "flags": "i", "hard": True}
HOOKS = {
    "agent": {"task": "testagent.write", "queue": "agents"},
    "on_pass": {"task": "testagent.on_pass", "queue": "agents"},
    "on_loop_exit": {"task": "testagent.on_loop_exit", "queue": "agents"},
}
DONE = {"accepted", "completed", "rejected", "escalated", "failed", "cancelled"}


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("scoregate_http_api")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


@pytest.fixture
def embedded(pg: str) -> dict[str, Any]:
    """The app over Postgres with the in-process worker and fake models."""
    on_pass = Recorder()
    agent = Recorder(returns=BAD)
    ctx, inline = embedded_context(
        Settings(database_url=SecretStr(pg)),
        models=FakeModels(SCORES),
        local_tasks={"on_pass": on_pass, "agent": agent},
    )
    return {"client": AppClient(create_app(ApiService(ctx, inline))), "on_pass": on_pass}


def test_pages_of_jobs_on_postgres_cover_every_job_once(embedded):
    client = embedded["client"]
    tag = uuid.uuid4().hex[:8]
    ids = {
        client.post(
            "/v1/jobs", json={"request": {"query": f"q {tag} {i}", "content": GOOD}}
        ).json()["id"]
        for i in range(23)
    }
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 10, "status": "completed"}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/jobs", params=params).json()
        seen += [j["id"] for j in page["jobs"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert ids <= set(seen) and len(seen) == len(set(seen))


def test_review_over_http_on_postgres_resumes_and_records(embedded):
    client = embedded["client"]
    body = {
        "request": {"query": RECIPE, "content": BAD},
        "loop": {"enabled": True, "threshold": 0.8, "max_iterations": 2},
        "agent": "agent",
        "on_pass": "on_pass",
        "idempotency_key": f"it-{uuid.uuid4()}",
    }
    first = client.post("/v1/jobs", json=body)
    assert first.status_code == 202 and first.json()["status"] == "escalated"
    again = client.post("/v1/jobs", json=body)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    job_id = first.json()["id"]
    assert job_id in client.get("/review").text
    r = client.post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve", "reviewer": "it"})
    assert r.json()["status"] == "accepted"
    assert [c["job_id"] for c in embedded["on_pass"].calls] == [job_id]
    again = client.post(f"/v1/jobs/{job_id}/review", json={"verdict": "reject"})
    assert again.status_code == 409
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert [d["action"] for d in job["decisions"]][-1] == "approve"
    assert job["escalations"][-1]["resolved_by"] == "it"


def test_an_id_with_a_nul_is_no_job_on_postgres(embedded):
    # Postgres refuses NUL in a text parameter: it used to surface as a 500
    client = embedded["client"]
    for r in (
        client.get("/v1/jobs/a%00b"),
        client.post("/v1/jobs/a%00b/review", json={"verdict": "approve"}),
        client.get("/review/a%00b"),
    ):
        assert r.status_code == 404, r.text


# --- with the real broker and a worker process ------------------------------------------------


@pytest.fixture
def live(stack: dict[str, Any]) -> AppClient:
    """The app on the session's worker stack: its Postgres database and Redis broker."""
    return AppClient(create_app(production_service()))


def _wait(client: AppClient, job_id: str, timeout: float = 180.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    job = client.get(f"/v1/jobs/{job_id}").json()
    while job["status"] not in DONE and time.monotonic() < deadline:
        time.sleep(0.3)
        job = client.get(f"/v1/jobs/{job_id}").json()
    return dict(job)


def _hooks(redis_url: str, job_id: str, timeout: float = 30.0) -> list[dict[str, Any]]:
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + timeout
    while not client.llen(f"testhooks:{job_id}") and time.monotonic() < deadline:
        time.sleep(0.2)
    return [json.loads(x) for x in client.lrange(f"testhooks:{job_id}", 0, -1)]


@pytest.mark.model
def test_job_submitted_over_http_is_scored_by_the_worker(live, redis_url):
    assert live.get("/healthz").json()["mode"] == "celery"
    body = {
        "request": {"query": RECIPE, "content": FAITHFUL, "constraints": [NO_NUTS]},
        "loop": {"enabled": True, "threshold": 0.6, "max_iterations": 2},
        **HOOKS,
    }
    r = live.post("/v1/jobs", json=body)
    assert r.status_code == 202 and r.json()["status"] in ("pending", "running")
    job = _wait(live, r.json()["id"])
    assert job["status"] == "accepted", job
    assert set(job["iterations"][0]["tracks"]) >= {"semantic", "precision", "reward"}
    assert [h["kind"] for h in _hooks(redis_url, job["id"])] == ["on_pass"]
    assert "scoregate_" in live.get("/metrics").text


@pytest.mark.model
def test_escalated_job_approved_over_http_fires_on_pass_in_the_worker(live, redis_url):
    query = f"{RECIPE} (ref {uuid.uuid4().hex[:6]})"
    redis.Redis.from_url(redis_url).set(f"testagent:{query}", json.dumps([WITH_NUTS]))
    body = {
        "request": {"query": query, "content": WITH_NUTS, "constraints": [NO_NUTS]},
        "loop": {"enabled": True, "threshold": 0.6, "max_iterations": 2},
        **HOOKS,
    }
    job = _wait(live, live.post("/v1/jobs", json=body).json()["id"])
    assert job["status"] == "escalated", job
    r = live.post(f"/v1/jobs/{job['id']}/review", json={"verdict": "approve", "reviewer": "it"})
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
    kinds = [h["kind"] for h in _hooks(redis_url, job["id"])]
    deadline = time.monotonic() + 30
    while "on_pass" not in kinds and time.monotonic() < deadline:
        time.sleep(0.2)
        kinds = [h["kind"] for h in _hooks(redis_url, job["id"])]
    assert kinds.count("on_pass") == 1 and "on_loop_exit" in kinds
