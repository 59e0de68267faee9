"""Finding 10: the HTTP API reads a job reference as the CLI and Python API do: its id,
its idempotency key, or the start of its id; an ambiguous start is a 409, not a job."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.storage import repository as repo
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

QUERY = "Write a helpful answer."


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'h.db'}"))
    tasks = {"agent": Recorder(BAD), "on_pass": Recorder()}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    return {"ctx": ctx, "client": AppClient(create_app(ApiService(ctx, inline))), **tasks}


def _post(env: dict[str, Any], content: str, **extra: Any) -> str:
    body = {"request": {"query": QUERY, "content": content}, **extra}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def test_a_job_is_read_by_its_id_start_and_by_its_key(env):
    job_id = _post(env, GOOD, idempotency_key="order-77")
    for ref in (job_id, job_id[:8], "order-77"):
        r = env["client"].get(f"/v1/jobs/{ref}")
        assert r.status_code == 200, (ref, r.text)
        assert r.json()["id"] == job_id
    assert env["client"].get("/v1/jobs/order-78").status_code == 404


def test_review_takes_an_id_start(env):
    loop = {"enabled": True, "max_iterations": 1}
    job_id = _post(env, BAD, loop=loop, agent="agent", on_pass="on_pass")
    r = env["client"].post(f"/v1/jobs/{job_id[:8]}/review", json={"verdict": "approve"})
    assert r.status_code == 200, r.text
    assert r.json()["id"] == job_id and r.json()["status"] == "accepted"


def test_an_ambiguous_id_start_is_a_409(env):
    with env["ctx"].session() as s:
        for suffix in ("1", "2"):
            repo.create_job(s, request={}, policy={}, job_id="abcdef00" + suffix * 24)
    r = env["client"].get("/v1/jobs/abcdef00")
    assert r.status_code == 409
    assert "more than one job" in r.json()["detail"]
    r = env["client"].post("/v1/jobs/abcdef00/review", json={"verdict": "approve"})
    assert r.status_code == 409
