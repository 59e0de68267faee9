"""Docs review, finding 4: research past the hourly quota is refused, clearly (CLI exit 1,
HTTP 429), and the quota left is shown where research is offered (seed 002)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.pipelines.publish import RESEARCH_SUBJECT
from scoregate.server import ApiService, create_app
from tests.fakes import MEH, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit
from tests.server_client import AppClient

runner = CliRunner()
_TOKENS = itertools.count()
EXCEEDED = re.compile(
    r"research quota exceeded: 5 per hour, next slot in \d+ min; approve or reject instead"
)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'quota.db'}"))
    tasks = {"research": Recorder(returns=MEH)}  # research, then review again
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=tasks)
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.setenv("USER", "alice")
    client = AppClient(create_app(ApiService(ctx, inline)))
    return {"ctx": ctx, "inline": inline, "client": client}


def _waiting(env: dict[str, Any]) -> str:
    job_id = _submit(env, MEH, loop={"gating": True}, research="research")
    assert _job(env, job_id)["status"] == "awaiting_review"
    return job_id


def _use_quota(env: dict[str, Any], runs: int) -> None:
    """Research runs of other jobs this hour (each its own slot)."""
    for _ in range(runs):
        token = f"elsewhere-{next(_TOKENS)}"
        assert env["ctx"].quota.acquire(RESEARCH_SUBJECT, 5, token=token).allowed


def test_cli_review_research_shows_the_quota_left(env):
    _use_quota(env, 1)
    out = runner.invoke(cli, ["review", _waiting(env), "--research"])
    assert out.exit_code == 0, out.output
    assert "research by alice ->" in out.output
    assert "research quota: 3/5 remaining this hour" in out.output


def test_cli_research_past_the_quota_is_an_error_and_changes_nothing(env):
    _use_quota(env, 5)
    job_id = _waiting(env)
    before = _job(env, job_id)["decisions"]
    out = runner.invoke(cli, ["review", job_id, "--research"])
    assert out.exit_code == 1, out.output
    assert EXCEEDED.search(" ".join(out.output.split())), out.output
    job = _job(env, job_id)
    assert job["status"] == "awaiting_review" and job["decisions"] == before
    assert runner.invoke(cli, ["review", job_id, "--approve"]).exit_code == 0  # still open


def test_http_research_past_the_quota_is_429(env):
    _use_quota(env, 5)
    job_id = _waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "research"})
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert EXCEEDED.search(r.json()["detail"]) and int(r.headers["Retry-After"]) > 0
    assert _job(env, job_id)["status"] == "awaiting_review"


def test_the_review_page_shows_the_quota_and_hides_research_when_none_is_left(env):
    job_id = _waiting(env)
    _use_quota(env, 2)
    page = env["client"].get(f"/review/{job_id}").text
    assert 'value="research"' in page and "research quota: 3/5 remaining this hour" in page
    _use_quota(env, 3)
    page = env["client"].get(f"/review/{job_id}").text
    assert 'value="research"' not in page
    assert "research quota: 0/5 remaining this hour; approve or reject instead" in page
