"""The CLI's side of the 2026-12-01 operator and node-integrator reviews: ``submit --wait``
tells the gate's verdict by its exit status and output (the loop off included)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.cli.wait import exit_status
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels

runner = CliRunner()
SUBMIT = ["submit", "-q", "Write a helpful answer.", "-c"]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'wait.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "200")
    return {"ctx": ctx}


# --- 1. the loop off: `completed` is approved only with the action accept ------------------


@pytest.mark.parametrize(("content", "action"), [(BAD, "reject"), (MEH, "review")])
def test_a_completed_job_the_gate_did_not_accept_exits_4(env, content, action):
    out = runner.invoke(cli, [*SUBMIT, content, "--wait"])
    assert out.exit_code == 4, out.output
    job_id, line = out.stdout.strip().splitlines()
    assert line.startswith(f"{job_id} completed score=")
    assert line.endswith(f" action={action}")

    out = runner.invoke(cli, [*SUBMIT, content, "--wait", "--json"])
    assert out.exit_code == 4, out.output
    [state] = json.loads(out.stdout)["jobs"]
    assert (state["status"], state["action"]) == ("completed", action)


def test_a_completed_job_the_gate_accepted_exits_0(env):
    out = runner.invoke(cli, [*SUBMIT, GOOD, "--wait"])
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().splitlines()[-1].endswith(" completed score=0.99 action=accept")
    doc = json.loads(runner.invoke(cli, [*SUBMIT, GOOD, "--wait", "--json"]).stdout)
    assert doc["jobs"][0]["action"] == "accept" and doc["pending"] == []


def test_one_job_not_accepted_in_a_file_exits_4(env, tmp_path):
    path = tmp_path / "jobs.jsonl"
    lines = [{"request": {"query": "Write a helpful answer.", "content": c}} for c in (GOOD, BAD)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = runner.invoke(cli, ["submit", "--file", str(path), "--wait", "--json"])
    assert out.exit_code == 4, out.output
    assert [j["action"] for j in json.loads(out.stdout)["jobs"]] == ["accept", "reject"]


def test_a_job_waiting_for_a_human_has_no_action_yet(env):
    out = runner.invoke(cli, [*SUBMIT, MEH, "--gating", "--wait", "--json"])
    assert out.exit_code == 4, out.output
    [state] = json.loads(out.stdout)["jobs"]
    assert state["status"] == "awaiting_review" and state["action"] is None


@pytest.mark.parametrize(
    ("jobs", "code"),
    [
        ([{"status": "accepted", "final_result": None}], 0),  # a human approved it
        ([{"status": "completed", "final_result": {"action": "accept"}}], 0),
        ([{"status": "completed", "final_result": {"action": "iterate"}}], 4),
        ([{"status": "completed", "final_result": None}], 4),  # no verdict: not approved
        ([{"status": "failed"}, {"status": "running"}], 1),  # still running: a timeout
    ],
)
def test_exit_status_tells_the_verdict(jobs, code):
    assert exit_status(jobs) == code


def test_jobs_list_shows_the_final_action(env):
    job_ids = {}
    for content in (GOOD, BAD):
        job_ids[content] = runner.invoke(cli, [*SUBMIT, content]).stdout.strip()
    table = runner.invoke(cli, ["jobs", "list"]).stdout
    assert "action" in table.splitlines()[2]
    rows = {line.split("│")[1].strip(): line for line in table.splitlines() if "│" in line}
    assert "│ reject " in rows[job_ids[BAD]] and "│ accept " in rows[job_ids[GOOD]]
