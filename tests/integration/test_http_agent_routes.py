"""The HTTP-only orchestrator's routes on Postgres: the agent's answer and failure, cancel,
long-poll, keys with "/", several statuses (the in-process worker and fake models; the
database is real, so are its row locks and its text rules)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.storage import db
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.integration.conftest import REDIS_URL, fresh_database
from tests.server_client import AppClient

pytestmark = pytest.mark.integration

LOOP = {"threshold": 0.8, "max_iterations": 3}
HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("h_a1_http_agent_routes")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


@pytest.fixture
def env(pg: str) -> dict[str, Any]:
    tasks = {"agent": Recorder(returns=BAD), "on_pass": Recorder(), "on_exit": Recorder()}
    ctx, inline = embedded_context(
        Settings(database_url=SecretStr(pg)), models=FakeModels(SCORES), local_tasks=dict(tasks)
    )
    # The agent is the orchestrator's, answering over HTTP: its task is never run here.
    send = inline.send
    inline.send = lambda m: None if m.task == "agent" else send(m)
    app = create_app(ApiService(ctx, inline))
    return {"app": app, "client": AppClient(app), **tasks}


def submit(env: dict[str, Any], content: str, key: str | None = None, **extra: Any) -> str:
    body = {"request": {"query": f"q {uuid.uuid4().hex[:8]}", "content": content}, **extra}
    headers = {"Idempotency-Key": key} if key else {}
    r = env["client"].post("/v1/jobs", json=body, headers=headers)
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def test_an_http_only_orchestrator_runs_the_loop(env):
    client = env["client"]
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)
    state = client.get(f"/v1/jobs/{job_id}/status").json()
    assert (state["status"], state["current_iteration"]) == ("awaiting_agent", 1)
    # the feedback the agent task would get is in the job
    first = client.get(f"/v1/jobs/{job_id}").json()["iterations"][0]
    assert first["action"] == "reject" and first["reasons"]
    wrong = client.post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 3, "output": GOOD})
    assert wrong.status_code == 409 and wrong.json()["type"] == "/problems/not-waiting-for-agent"
    r = client.post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": GOOD})
    assert r.status_code == 202, r.text
    assert (r.json()["status"], r.json()["current_iteration"]) == ("accepted", 2)
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["final_result"]["action"] == "accept"
    assert "agent_result_refused" in [d["action"] for d in job["decisions"]]
    assert [c["iteration"] for c in env["on_pass"].calls] == [2]
    again = client.post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": BAD})
    assert again.status_code == 409, again.text


def test_agent_errors_over_http_escalate_the_job(env):
    client = env["client"]
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)
    outcomes = [
        client.post(
            f"/v1/jobs/{job_id}/agent-error",
            json={"iteration": 2, "error_type": "QuotaError", "message": "LLM quota exceeded"},
        ).json()["outcome"]
        for _ in range(2)
    ]
    assert outcomes == ["retried", "escalated"]
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "escalated" and "LLM quota exceeded" in job["failure_reason"]
    assert [c["reason"] for c in env["on_exit"].calls] == ["agent_failed"]


def test_cancel_over_http_on_postgres(env):
    client = env["client"]
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)
    r = client.post(f"/v1/jobs/{job_id}/cancel", json={"actor": "node", "note": "dead agent"})
    assert r.status_code == 200 and r.json()["previous_status"] == "awaiting_agent", r.text
    again = client.post(f"/v1/jobs/{job_id}/review", json={"verdict": "cancel"})
    assert again.status_code == 409 and again.json()["type"] == "/problems/job-final"
    assert "is cancelled" in again.json()["detail"]
    assert [c["reason"] for c in env["on_exit"].calls] == ["cancelled"]


def test_long_poll_on_postgres_returns_when_the_agent_answers(env):
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)

    async def go() -> tuple[httpx.Response, float]:
        transport = httpx.ASGITransport(app=env["app"])
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:

            async def poll() -> tuple[httpx.Response, float]:
                start = time.monotonic()
                r = await client.get(
                    f"/v1/jobs/{job_id}/status?wait=20&since_status=awaiting_agent"
                )
                return r, time.monotonic() - start

            async def answer() -> None:
                await asyncio.sleep(0.6)
                body = {"iteration": 2, "output": GOOD}
                await client.post(f"/v1/jobs/{job_id}/agent-result", json=body)

            polled, _ = await asyncio.gather(poll(), answer())
            return polled

    r, took = asyncio.run(go())
    # it returns at the first change: the answer being scored (running), or already decided
    assert r.json()["status"] in ("running", "accepted") and 0.5 < took < 10, r.json()
    if r.json()["status"] == "running":
        since = {"wait": 20, "since_status": "running"}
        r = env["client"].get(f"/v1/jobs/{job_id}/status", params=since)
    assert r.json()["status"] == "accepted"


def test_keys_with_a_slash_upper_case_ids_and_several_statuses_on_postgres(env):
    client = env["client"]
    key = f"tenant/{uuid.uuid4().hex[:6]}"
    job_id = submit(env, GOOD, key=key)
    waits = submit(env, BAD, loop=LOOP, **HOOKS)
    assert client.get(f"/v1/jobs/{key.replace('/', '%2F')}").json()["id"] == job_id
    assert client.get(f"/v1/jobs/{job_id.upper()}/status").json()["id"] == job_id
    page = client.get(
        "/v1/jobs", params={"status": ["completed", "awaiting_agent"], "limit": 200}
    ).json()["jobs"]
    ids = [j["id"] for j in page]
    assert ids.index(waits) < ids.index(job_id)  # newest first
    assert {j["status"] for j in page} <= {"completed", "awaiting_agent"}
    assert next(j for j in page if j["id"] == job_id)["action"] == "accept"
    empty = client.post(
        "/v1/jobs",
        json={"request": {"query": "q", "content": GOOD}},
        headers={"Idempotency-Key": ""},
    )
    assert empty.status_code == 422 and "empty" in empty.json()["detail"]


# --- with the real broker and a worker process: an external agent answering over HTTP -------------

RECIPE = "Give me a simple tomato pasta recipe for dinner, without any nuts."
FAITHFUL = (
    "Boil spaghetti in salted water. Meanwhile simmer chopped tomatoes with garlic "
    "and olive oil for fifteen minutes, then toss the pasta in the sauce and top it "
    "with basil and parmesan."
)
WITH_NUTS = "Boil spaghetti. Blend basil, pine nuts and parmesan into a pesto and toss it in."
NO_NUTS = {"kind": "not_regex", "value": r"\bnuts?\b", "flags": "i", "hard": True}


#: A broker database of this module's own: the session's other workers (another database's
#: jobs) share the default one, and would take this worker's messages and drop them.
LIVE_REDIS_URL = REDIS_URL.rsplit("/", 1)[0] + "/10"


@pytest.fixture(scope="module")
def live(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppClient]:
    """The production service on its own database and broker, and a worker of every
    scoring pool."""
    import redis

    from scoregate.server.serve import production_service
    from tests.integration.conftest import client_pointed_at, service_env, start_worker, stop

    url = fresh_database("h_a1_http_agent_live")
    db.upgrade(url)
    broker = redis.Redis.from_url(LIVE_REDIS_URL)
    broker.flushdb()
    env = service_env(url, LIVE_REDIS_URL)
    log = tmp_path_factory.mktemp("h_a1_worker") / "worker.log"
    proc = start_worker(env, "semantic,precision,reward,fusion,control", log, name="h_a1")
    try:
        with client_pointed_at(env):
            yield AppClient(create_app(production_service()))
    finally:
        stop(proc)
        db.get_engine(url).dispose()
        broker.flushdb()


def _poll(client: AppClient, job_id: str, until: set[str], timeout: float = 240) -> dict[str, Any]:
    """Long-poll the light form until the job reaches one of ``until``."""
    deadline = time.monotonic() + timeout
    state = client.get(f"/v1/jobs/{job_id}/status").json()
    while state["status"] not in until and time.monotonic() < deadline:
        since = {"since_status": state["status"], "since_iteration": state["current_iteration"]}
        state = client.get(f"/v1/jobs/{job_id}/status", params={"wait": 30, **since}).json()
    return dict(state)


@pytest.mark.model
def test_an_http_only_agent_answers_a_job_the_worker_scores(live):
    body = {
        "request": {"query": RECIPE, "content": WITH_NUTS, "constraints": [NO_NUTS]},
        "loop": {"threshold": 0.6, "max_iterations": 2},
        "agent": "external",
    }
    r = live.post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    state = _poll(live, job_id, {"awaiting_agent", "accepted", "completed", "escalated"})
    assert (state["status"], state["current_iteration"]) == ("awaiting_agent", 1), state
    job = live.get(f"/v1/jobs/{job_id}").json()
    # nothing went to the broker: the request is recorded, published, and on the job
    assert [(d["task"], d["queue"]) for d in job["dispatches"]] == [("external", "external")]
    assert job["dispatches"][0]["published_at"] is not None
    assert job["agent_request"]["iteration"] == 2
    assert any("nuts" in r for r in job["agent_request"]["feedback"]["reasons"]), job
    answer = {"iteration": 2, "output": {"content": FAITHFUL, "self_reported_confidence": "high"}}
    r = live.post(f"/v1/jobs/{job_id}/agent-result", json=answer)
    assert r.status_code == 202 and r.json()["outcome"] == "scoring", r.text
    state = _poll(live, job_id, {"accepted", "escalated", "rejected", "failed"})
    assert (state["status"], state["action"], state["current_iteration"]) == (
        "accepted",
        "accept",
        2,
    ), state
