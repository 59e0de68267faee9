"""An agent's answer sent again over HTTP, on Postgres: identical answers sent together are
taken once (the others are replays), a different one is refused and audited (the server as
``scoregate serve`` runs it with a broker: a fake dispatcher, the database real)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.storage import db
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels
from tests.integration.conftest import fresh_database
from tests.server_client import AppClient
from tests.unit.test_http_edges import BrokerUp
from tests.unit.test_http_routes_review import together

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("h_d_http_agent_replay")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


@pytest.fixture
def served(pg: str) -> dict[str, Any]:
    ctx, inline = embedded_context(Settings(database_url=SecretStr(pg)), models=FakeModels(SCORES))
    broker = BrokerUp()
    app = create_app(ApiService(dataclasses.replace(ctx, dispatcher=broker)))
    embedded = AppClient(create_app(ApiService(ctx, inline)))
    return {"app": app, "client": AppClient(app), "embedded": embedded, "broker": broker}


def waiting(served: dict[str, Any]) -> str:
    """A job that waits for its agent's answer to iteration 2 (scored in process; the
    agent answers over HTTP)."""
    body = {
        "request": {"query": f"q {uuid.uuid4().hex[:8]}", "content": BAD},
        "loop": {"threshold": 0.8, "max_iterations": 3},
        "agent": "external",
    }
    r = served["embedded"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    job_id = str(r.json()["id"])
    assert served["client"].get(f"/v1/jobs/{job_id}/status").json()["status"] == "awaiting_agent"
    return job_id


def test_identical_answers_sent_together_are_taken_once(served):
    job_id = waiting(served)
    answer = {"json": {"iteration": 2, "output": GOOD}}
    replies = [
        r
        for r, _ in together(
            served["app"], *[(0, "POST", f"/v1/jobs/{job_id}/agent-result", answer)] * 8
        )
    ]
    assert sorted(r.status_code for r in replies) == [200] * 7 + [202], [r.text for r in replies]
    assert sorted(r.json()["outcome"] for r in replies) == ["duplicate"] * 7 + ["scoring"]
    assert len(served["broker"].sent) == 3  # iteration 2's track tasks, once
    job = served["client"].get(f"/v1/jobs/{job_id}").json()
    assert len(job["iterations"]) == 2
    assert "agent_result_refused" not in [d["action"] for d in job["decisions"]]


def test_a_different_answer_for_a_taken_iteration_is_refused_and_audited(served):
    job_id = waiting(served)
    url = f"/v1/jobs/{job_id}/agent-result"
    assert served["client"].post(url, json={"iteration": 2, "output": GOOD}).status_code == 202
    again = served["client"].post(url, json={"iteration": 2, "output": GOOD})
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate", again.text
    other = served["client"].post(url, json={"iteration": 2, "output": MEH})
    assert other.status_code == 409, other.text
    assert "holds another answer" in other.json()["detail"]
    job = served["client"].get(f"/v1/jobs/{job_id}").json()
    refused = [d for d in job["decisions"] if d["action"] == "agent_result_refused"]
    assert [d["n"] for d in refused] == [2], refused
