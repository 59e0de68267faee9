"""Finding 7: once a human resolves a job, its record no longer reads as a failure:
approved, ``failure_reason`` is cleared; rejected, it names the reviewer; who decided is
on the escalation and the audit trail. (``escalated`` waits for a human: not final.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.cancel import CANCELLABLE
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import BAD, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}
LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 2}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'v.db'}"))
    tasks = {name: Recorder(BAD) for name in ("agent", "on_pass", "on_exit")}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    return {"ctx": ctx, "inline": inline, **tasks}


def _raise(**_: Any) -> str:
    raise RuntimeError("model quota exhausted")


@pytest.mark.parametrize("agent_raises", [False, True])
def test_an_approved_job_has_no_failure_reason_and_names_its_reviewer(env, agent_raises):
    if agent_raises:
        env["agent"].returns = _raise
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    before = _job(env, job_id)
    assert before["status"] == "escalated" and before["failure_reason"]
    api.review(job_id, "approve", "alice", "checked by hand")
    job = _job(env, job_id)
    assert job["status"] == "accepted" and job["failure_reason"] is None
    (esc,) = job["escalations"]
    assert esc["status"] == "approved" and esc["resolved_by"] == "alice"
    assert (job["decisions"][-1]["action"], job["decisions"][-1]["actor"]) == ("approve", "alice")


def test_a_rejected_job_says_who_rejected_it(env):
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    api.review(job_id, "reject", "bob", "off topic")
    job = _job(env, job_id)
    assert job["status"] == "rejected"
    assert job["failure_reason"] == "rejected by bob: off topic"


def test_escalated_is_not_final():
    assert "escalated" in CANCELLABLE
    text = (Path(__file__).parents[2] / "docs" / "reliability.md").read_text()
    assert "(`completed`, `accepted`, `rejected`, `escalated`," not in text
