"""Finding 8: naming an agent turns the loop on, as a threshold or max_iterations does,
in the Python API, the CLI and HTTP alike; ``"enabled": false`` keeps it off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

import scoregate
from scoregate.config.settings import Settings
from scoregate.pipelines import api, steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

REQUEST = {"query": "Write a helpful answer.", "content": BAD}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'a.db'}"))
    agent = Recorder(GOOD)
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks={"w": agent})
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    client = AppClient(create_app(ApiService(ctx, inline)))
    return {"ctx": ctx, "agent": agent, "client": client}


def test_python_agent_alone_loops(env):
    job = scoregate.get_job(scoregate.submit(REQUEST, agent="w"))
    assert job["policy"]["enabled"] is True
    assert len(env["agent"].calls) == 1 and job["status"] == "accepted"


def test_http_agent_alone_loops(env):
    r = env["client"].post("/v1/jobs", json={"request": REQUEST, "agent": "w"})
    assert r.status_code == 202, r.text
    assert scoregate.get_job(r.json()["id"])["policy"]["enabled"] is True


def test_cli_agent_alone_loops(env):
    # what `scoregate submit --agent w` sends: a loop of flags that never names enabled
    spec = steps.build_spec(
        env["ctx"], {"request": REQUEST, "loop": {"gating": False}, "agent": "w"}
    )
    assert spec.policy.enabled is True


def test_enabled_false_keeps_it_off(env):
    job = scoregate.get_job(scoregate.submit(REQUEST, agent="w", loop={"enabled": False}))
    assert job["policy"]["enabled"] is False and env["agent"].calls == []
