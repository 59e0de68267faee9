"""Every pipeline message delivered twice: one iteration, one fusion, one decision each.

The in-process pipeline (SQLite, fake models) runs with a dispatcher that delivers every
``scoregate.*`` message twice, as a broker redelivering after a lost ack would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import control, steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.storage.tables import Decision, Iteration, Job, TrackResult
from scoregate.workers import base
from scoregate.workers import control as control_tasks
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3}
HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'idem.db'}"))
    tasks = {name: Recorder() for name in ("agent", "on_pass", "on_exit")}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(control_tasks, "get_context", lambda: ctx)
    return {"ctx": ctx, "inline": inline, **tasks}


def _deliver_twice(inline: Any) -> None:
    """Every pipeline message is enqueued twice (hooks and agents once: they are not ours)."""
    send = inline.send

    def twice(message: Any) -> None:
        send(message)
        if message.task.startswith("scoregate."):
            send(message)

    inline.send = twice


def _counts(env: dict[str, Any]) -> dict[str, int]:
    with env["ctx"].session() as s:
        return {m.__name__: s.query(m).count() for m in (Job, Iteration, TrackResult, Decision)}


def test_a_looping_job_with_every_message_twice_iterates_once_per_step(env):
    _deliver_twice(env["inline"])
    drafts = iter([BAD, GOOD])
    env["agent"].returns = lambda **kw: next(drafts)
    job = _job(env, _submit(env, BAD, loop=LOOP, **HOOKS))
    assert job["status"] == "accepted"
    assert [it["n"] for it in job["iterations"]] == [1, 2, 3]
    assert job["current_iteration"] == 3
    assert [d["action"] for d in job["decisions"]] == ["iterate", "iterate", "accept"]
    assert len(env["agent"].calls) == 2 and len(env["on_pass"].calls) == 1
    assert _counts(env) == {"Job": 1, "Iteration": 3, "TrackResult": 9, "Decision": 3}


def test_an_exhausted_loop_with_every_message_twice_escalates_once(env):
    _deliver_twice(env["inline"])
    env["agent"].returns = BAD
    job = _job(env, _submit(env, BAD, loop=LOOP, **HOOKS))
    assert job["status"] == "escalated"
    assert [d["action"] for d in job["decisions"]] == ["iterate", "iterate", "exit"]
    assert len(env["on_exit"].calls) == 1
    assert [e["status"] for e in job["escalations"]] == ["open"]


def test_every_message_of_a_finished_job_delivered_again_changes_nothing(env):
    job_id = _submit(env, GOOD, loop=LOOP, **HOOKS)
    before, job_before = _counts(env), _job(env, job_id)
    for message in list(env["inline"].sent):
        if message.task.startswith("scoregate."):
            env["inline"].send(message)
    env["inline"].drain()
    assert _counts(env) == before
    job = _job(env, job_id)
    assert job["status"] == job_before["status"] == "accepted"
    assert job["iterations"][0]["score"] == job_before["iterations"][0]["score"]
    assert len(env["on_pass"].calls) == 1


def test_a_sweep_racing_slow_messages_adds_no_row(env):
    spec = steps.build_spec(env["ctx"], {"request": {"query": "q", "content": GOOD}})
    job_id = steps.submit_jobs(env["ctx"], [spec])[0]
    assert control.sweep(env["ctx"], older_than_s=0) == 3  # the originals are still queued
    assert control.sweep(env["ctx"], older_than_s=0) == 3
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "completed"
    assert _counts(env) == {"Job": 1, "Iteration": 1, "TrackResult": 3, "Decision": 1}


def test_a_review_delivered_twice_is_applied_once(env):
    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    assert control.review(env["ctx"], job_id, "approve", "alice") == "accepted"
    with pytest.raises(ValueError, match="nothing is waiting for review"):
        control.review(env["ctx"], job_id, "approve", "alice")
    env["inline"].drain()
    job = _job(env, job_id)
    assert [d["action"] for d in job["decisions"]] == ["review", "approve"]
    assert len(env["on_pass"].calls) == 1


def test_the_celery_review_task_delivered_twice_does_not_fail_the_job(env):
    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    kwargs = {"job_id": job_id, "verdict": "reject", "actor": "bob"}
    first = control_tasks.review.apply(kwargs=kwargs, task_id="review-1")
    second = control_tasks.review.apply(kwargs=kwargs, task_id="review-1")
    assert first.get() == "rejected" and second.successful() and second.get() is None
    assert _job(env, job_id)["status"] == "rejected"


def test_a_raw_submit_message_delivered_twice_starts_one_job(env):
    body = {"request": {"query": "q", "content": GOOD}}
    first = control_tasks.submit.apply(kwargs={"body": body}, task_id="msg-1").get()
    second = control_tasks.submit.apply(kwargs={"body": body}, task_id="msg-1").get()
    env["inline"].drain()
    assert first == second
    assert _counts(env)["Job"] == 1 and _counts(env)["Decision"] == 1
    other = control_tasks.submit.apply(kwargs={"body": body}, task_id="msg-2").get()
    assert other != first  # a new message is a new job


def test_a_client_idempotency_key_wins_over_the_message_id(env):
    body = {"request": {"query": "q", "content": GOOD}, "idempotency_key": "order-1"}
    ids = {control_tasks.submit.apply(kwargs={"body": body}, task_id=t).get() for t in "ab"}
    assert len(ids) == 1


def test_an_agent_result_delivered_twice_starts_one_iteration(env):
    send = env["inline"].send
    env["inline"].send = lambda m: None if m.task == "agent" else send(m)  # answered below
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    assert _job(env, job_id)["status"] == "awaiting_agent"
    for _ in range(2):
        control_tasks.agent_result.apply(kwargs={"output": GOOD, "job_id": job_id, "n": 2})
    env["inline"].drain()
    job = _job(env, job_id)
    assert [it["n"] for it in job["iterations"]] == [1, 2]
    assert job["status"] == "accepted"
    assert [d["action"] for d in job["decisions"]] == ["iterate", "accept"]


def test_failing_a_job_twice_writes_one_audit_line_and_it_stays_failed(env):
    spec = steps.build_spec(env["ctx"], {"request": {"query": "q", "content": GOOD}})
    job_id = steps.submit_jobs(env["ctx"], [spec])[0]
    for _ in range(2):
        base.fail_job(env["ctx"], job_id, 1, "poison")
    env["inline"].drain()  # the iteration's messages still in flight change nothing
    job = _job(env, job_id)
    assert job["status"] == "failed" and job["failure_reason"] == "poison"
    assert [d["action"] for d in job["decisions"]] == ["fail"]
    assert control.sweep(env["ctx"], older_than_s=0) == 0
