"""The integrator's review of the HTTP API, the review queue and operations (twenty-third
session), in process: SQLite, fake models, the HTTP app on one embedded pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import agent_errors, api
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from tests.fakes import BAD, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

QUERY = "Write a helpful answer."
ROOT = Path(__file__).parents[2]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'review23.db'}"))
    tasks = {"on_exit": Recorder()}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    app = create_app(ApiService(ctx, inline))
    return {"ctx": ctx, "inline": inline, "app": app, "client": AppClient(app), **tasks}


def submit(env: dict[str, Any], content: str, **extra: Any) -> str:
    body = {"request": {"query": QUERY, "content": content}, **extra}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


# --- finding 1: a report sent again after it escalated or failed its job is a duplicate ---------


def _waiting_for_agent(env: dict[str, Any], *, hil: bool = True) -> str:
    loop = {"threshold": 0.8, "max_iterations": 3, "hil": hil}
    job_id = submit(env, BAD, agent="external", loop=loop, on_loop_exit="on_exit")
    assert api.get_job(job_id)["status"] == "awaiting_agent"
    return job_id


def _audit(job_id: str) -> list[tuple[str, str]]:
    return [(d["action"], d["rationale"]) for d in api.get_job(job_id)["decisions"]]


#: how the report names itself: in the body's task_id, or in the Idempotency-Key header
KEYED = {
    "body task_id": lambda key: ({"task_id": key}, {}),
    "Idempotency-Key header": lambda key: ({}, {"Idempotency-Key": key}),
}


@pytest.mark.parametrize("hil", [True, False], ids=["escalated", "failed"])
@pytest.mark.parametrize("how", KEYED)
def test_a_report_resent_after_it_ended_the_wait_is_a_duplicate(env, how, hil):
    job_id = _waiting_for_agent(env, hil=hil)
    url = f"/v1/jobs/{job_id}/agent-error"

    def send(key: str) -> Any:
        extra, headers = KEYED[how](key)
        body = {"iteration": 2, "error_type": "TimeoutError", "message": "slow", **extra}
        return env["client"].post(url, json=body, headers=headers)

    assert send("first").json()["outcome"] == "retried"
    last = send("second")
    ended = "escalated" if hil else "failed"
    assert last.status_code == 202 and last.json()["outcome"] == ended, last.text
    trail = _audit(job_id)
    exits = len(env["on_exit"].calls)
    # the answer to the report that ended the wait was lost: the client sends it again
    for key in ("second", "first"):
        again = send(key)
        assert again.status_code == 202, again.text
        assert again.json()["outcome"] == "duplicate", again.text
        assert again.json()["status"] == ended
    assert _audit(job_id) == trail  # nothing more noted, no "(ignored: ...)" line
    assert len(env["on_exit"].calls) == exits
    # a report of a failure not seen before is still refused: the job waits for no agent
    other = send("third")
    assert other.status_code == 409, other.text
    assert other.json()["type"].endswith("/not-waiting-for-agent")


def test_the_celery_errback_resent_after_the_job_failed_is_a_duplicate(env):
    job_id = _waiting_for_agent(env, hil=False)
    ctx = env["ctx"]

    def report(task_id: str) -> Any:
        body = {"job_id": job_id, "iteration": 2, "error_type": "E", "message": "m"}
        return agent_errors.parse_report({**body, "task_id": task_id})

    assert agent_errors.record_agent_error(ctx, report("c1")) == "retried"
    assert agent_errors.record_agent_error(ctx, report("c2")) == "failed"
    trail = _audit(job_id)
    assert agent_errors.record_agent_error(ctx, report("c2")) == "duplicate"
    assert _audit(job_id) == trail
    assert agent_errors.record_agent_error(ctx, report("c3")) == "ignored"
