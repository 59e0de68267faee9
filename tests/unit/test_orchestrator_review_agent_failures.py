"""Finding 2: every way a job ends or is resolved reaches the orchestrator.

An agent answer that is refused (not a string or an object, None, too long, a metric
outside [0, 1]) is an agent failure, as if the agent had raised: the same retry, then
escalation with ``hil`` on (or failure without), and ``on_loop_exit(reason=
"agent_failed")``, the refusal kept as the reason. A cancel and a human reject tell
``on_loop_exit`` too (``cancelled``, ``rejected_by_reviewer``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoregate.pipelines import api
from scoregate.pipelines.loop import EXIT_REASONS
from scoregate.schemas.request import MAX_CONTENT_CHARS
from tests.fakes import BAD, Recorder, embedded_client
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


def _loop(hil: bool = True) -> dict[str, Any]:
    return {"enabled": True, "threshold": 0.8, "max_iterations": 3, "hil": hil}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    tasks = {name: Recorder() for name in ("agent", "on_pass", "on_exit")}
    ctx, inline = embedded_client(tmp_path, monkeypatch, tasks)
    return {"ctx": ctx, "inline": inline, **tasks}


REFUSED = [
    (["a", "list", 3], "got list"),
    (None, "got NoneType"),
    ("x" * (MAX_CONTENT_CHARS + 1), "at most"),
    ({"content": "ok", "eval_metrics": [{"name": "coverage", "value": 1.7}]}, "1.7"),
]


@pytest.mark.parametrize(("output", "said"), REFUSED)
def test_a_refused_answer_is_retried_then_escalated_and_on_loop_exit_told(env, output, said):
    env["agent"].returns = output
    job = _job(env, _submit(env, BAD, loop=_loop(hil=True), **HOOKS))
    assert job["status"] == "escalated"
    assert len(env["agent"].calls) == 2  # SCOREGATE_AGENT_ERROR_RETRIES=1: asked again once
    actions = [d["action"] for d in job["decisions"]]
    assert actions == ["iterate", "agent_error", "agent_error", "escalate"]
    assert "agent output for iteration 2 rejected" in job["failure_reason"]
    assert said in job["failure_reason"]
    (esc,) = job["escalations"]
    assert esc["status"] == "open" and said in esc["reason"]
    assert [c["reason"] for c in env["on_exit"].calls] == ["agent_failed"]


def test_a_refused_answer_without_hil_fails_the_job_and_tells_on_loop_exit(env):
    env["agent"].returns = None
    job = _job(env, _submit(env, BAD, loop=_loop(hil=False), **HOOKS))
    assert job["status"] == "failed" and "got NoneType" in job["failure_reason"]
    assert [c["reason"] for c in env["on_exit"].calls] == ["agent_failed"]


def test_cancel_tells_on_loop_exit(env):
    job_id = _submit(env, BAD, loop=_loop(), on_loop_exit="on_exit")  # no agent: escalated
    api.cancel(job_id, "ops", "user closed the ticket")
    assert _job(env, job_id)["status"] == "cancelled"
    assert [c["reason"] for c in env["on_exit"].calls] == [
        "max_iterations_reached",
        "cancelled",
    ]
    assert env["on_exit"].calls[-1]["job_id"] == job_id


def test_a_human_reject_tells_on_loop_exit(env):
    env["agent"].returns = BAD
    job_id = _submit(env, BAD, loop=_loop(), **HOOKS)
    assert _job(env, job_id)["status"] == "escalated"
    api.review(job_id, "reject", "alice", "off topic")
    assert _job(env, job_id)["status"] == "rejected"
    reasons = [c["reason"] for c in env["on_exit"].calls]
    assert reasons == ["max_iterations_reached", "rejected_by_reviewer"]
    assert env["on_exit"].calls[-1]["iteration"] == 3


def test_one_vocabulary_of_exit_reasons():
    assert EXIT_REASONS == (
        "max_iterations_reached",
        "agent_failed",
        "cancelled",
        "rejected_by_reviewer",
    )
