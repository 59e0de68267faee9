"""Finding 9: ``scoregate submit --wait`` tells accept from escalate by its exit status:
0 accepted (or completed with action accept), 4 not approved (awaiting review, escalated,
rejected, failed, cancelled, or completed with another action), 5 a wait that timed out."""

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
from tests.fakes import BAD, GOOD, SCORES, FakeModels

runner = CliRunner()
QUERY = ["submit", "-q", "Write a helpful answer.", "-c"]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'w.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "200")
    return {"ctx": ctx}


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_an_escalated_job_exits_4(env, as_json):
    out = runner.invoke(cli, [*QUERY, BAD, "--max-iterations", "1", "--wait", *as_json])
    assert out.exit_code == 4, out.output
    assert "escalated" in out.stdout


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_a_rejected_job_exits_4(env, tmp_path, as_json):
    loop = {"enabled": True, "max_iterations": 1, "hil": False}  # runs out: rejected
    path = tmp_path / "jobs.jsonl"  # hil has no CLI flag: a JSONL job gives it
    body = {"request": {"query": "Write a helpful answer.", "content": BAD}, "loop": loop}
    path.write_text(json.dumps(body) + "\n")
    out = runner.invoke(cli, ["submit", "--file", str(path), "--wait", *as_json])
    assert out.exit_code == 4, out.output
    assert "rejected" in out.stdout


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_an_accepted_or_completed_job_exits_0(env, as_json):
    out = runner.invoke(cli, [*QUERY, GOOD, "--max-iterations", "1", "--wait", *as_json])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, [*QUERY, GOOD, "--wait", *as_json])
    assert out.exit_code == 0, out.output
