"""Docs review, finding 5: ``submit --wait`` text shows the score a waiting job has."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import FakeModels

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'wait.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels())
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "200")
    return {"ctx": ctx}


def test_wait_text_shows_the_latest_score_of_a_job_waiting_for_review(env):
    args = ["submit", "-q", "Write a helpful answer.", "-c", "so-so", "--gating", "--wait"]
    doc = json.loads(runner.invoke(cli, [*args, "--json"]).stdout)
    [state] = doc["jobs"]
    assert state["status"] == "awaiting_review" and state["score"] is not None

    out = runner.invoke(cli, args)
    assert out.exit_code == 4, out.output  # waiting for a human: not approved (yet)
    job_id, line = out.stdout.strip().splitlines()[-2:]
    decide = f"(a person decides: scoregate review {job_id} --approve or --reject)"
    assert line == f"{job_id} awaiting_review score={state['score']:.2f} {decide}"
