"""A hook the broker did not take is sent again by the sweeper (dispatches are an outbox).

A human approves an escalated job while the broker is down: the job is accepted, and its
on_pass hook was lost for good (the sweeper re-sent only track, fusion, decision and agent
messages, and the dispatch read as sent). Now the dispatch keeps the hook's kwargs and
records when the broker took it; the sweeper sends what it never took, with the same id.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import control, steps
from scoregate.pipelines.dispatch import PublishError
from scoregate.pipelines.embedded import embedded_context
from scoregate.pipelines.sweeper import sweep
from scoregate.storage import repository as repo
from tests.fakes import BAD, SCORES, FakeModels, Recorder


class _DownDispatcher:
    def send(self, message: Any) -> None:
        raise PublishError("cannot publish: Connection refused")

    def send_many(self, messages: Any) -> None:
        raise PublishError(f"cannot publish {len(messages)} message(s): Connection refused")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    tasks = {"agent": Recorder(returns=BAD), "on_pass": Recorder()}
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'o.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    body = {
        "request": {"query": "Write a helpful answer.", "content": BAD},
        "loop": {"enabled": True, "max_iterations": 1},
        "agent": "agent",
        "on_pass": "on_pass",
    }
    (job_id,) = steps.submit_jobs(ctx, [steps.build_spec(ctx, body)])
    inline.drain()
    with ctx.session() as s:
        assert repo.get_job(s, job_id=job_id).status == "escalated"
    return {"ctx": ctx, "inline": inline, "job_id": job_id, **tasks}


def _hook_dispatches(env: dict[str, Any]) -> list[Any]:
    with env["ctx"].session() as s:
        rows = repo.dispatches_of(s, job_id=env["job_id"])
        return [(d.role, d.celery_task_id, d.published_at) for d in rows if d.kind == "hook"]


def test_an_approval_while_the_broker_is_down_fires_on_pass_once_it_is_back(env, caplog):
    down = dataclasses.replace(env["ctx"], dispatcher=_DownDispatcher())
    control.review(down, env["job_id"], "approve", "ann", None)
    assert "left to the sweeper" in caplog.text
    assert env["on_pass"].calls == []
    [(role, task_id, published)] = _hook_dispatches(env)
    assert role == "on_pass" and published is None
    # while the broker is still down the hook stays unpublished
    assert sweep(down, older_than_s=0) == 1 and _hook_dispatches(env)[0][2] is None

    assert sweep(env["ctx"], older_than_s=0) == 1
    env["inline"].drain()
    assert [c["job_id"] for c in env["on_pass"].calls] == [env["job_id"]]
    assert env["on_pass"].calls[0]["action"] == "accept"
    [(_, same_id, published)] = _hook_dispatches(env)
    assert same_id == task_id and published is not None
    assert sweep(env["ctx"], older_than_s=0) == 0  # sent once, not again


def test_a_hook_the_broker_took_is_recorded_as_published(env):
    control.review(env["ctx"], env["job_id"], "approve", "ann", None)
    env["inline"].drain()
    assert len(env["on_pass"].calls) == 1
    [(_, _, published)] = _hook_dispatches(env)
    assert published is not None
    assert sweep(env["ctx"], older_than_s=0) == 0


def test_a_hook_younger_than_the_sweep_age_is_left_alone(env):
    down = dataclasses.replace(env["ctx"], dispatcher=_DownDispatcher())
    control.review(down, env["job_id"], "approve", "ann", None)
    assert sweep(env["ctx"], older_than_s=3600) == 0
    assert env["on_pass"].calls == []
