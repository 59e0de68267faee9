"""Finding 1: a Python integrator can read the text scoregate accepted.

``scoregate.get_job(..., include_content=True)`` carries each iteration's text, and the
``on_pass`` hook is given the accepted iteration's text as ``content`` (whether the loop
or a human accepted it); the job's ``request`` stays the original submission.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

import scoregate
from scoregate.pipelines import api
from tests.fakes import BAD, GOOD, Recorder, embedded_client
from tests.fakes import submit_job as _submit

HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}
LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 2}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    tasks = {name: Recorder() for name in ("agent", "on_pass", "on_exit")}
    ctx, inline = embedded_client(tmp_path, monkeypatch, tasks)
    return {"ctx": ctx, "inline": inline, **tasks}


def test_get_job_with_content_returns_the_accepted_text(env):
    env["agent"].returns = GOOD
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    job = scoregate.get_job(job_id[:8], include_content=True)
    assert job["status"] == "accepted"
    assert [it["content"] for it in job["iterations"]] == [BAD, GOOD]
    assert job["iterations"][job["current_iteration"] - 1]["content"] == GOOD
    assert job["request"]["content"] == BAD  # the original submission, not the answer
    assert "content" not in scoregate.get_job(job_id)["iterations"][0]  # off by default
    assert "include_content" in inspect.signature(scoregate.get_job).parameters


def test_on_pass_gets_the_accepted_text_from_the_loop(env):
    env["agent"].returns = GOOD
    _submit(env, BAD, loop=LOOP, **HOOKS)
    (call,) = env["on_pass"].calls
    assert call["content"] == GOOD and call["iteration"] == 2


def test_on_pass_gets_the_accepted_text_from_a_human_approve(env):
    env["agent"].returns = BAD
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    assert scoregate.get_job(job_id)["status"] == "escalated"
    api.review(job_id, "approve", "alice")
    (call,) = env["on_pass"].calls
    assert call["content"] == BAD and call["iteration"] == 2 and call["action"] == "accept"
