"""Hooks and agent tasks go to their own queues and every send is recorded (dispatches)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError
from typer.testing import CliRunner

from scoregate.config.settings import _POOL_QUEUES, Settings
from scoregate.pipelines.context import POOLS
from scoregate.pipelines.dispatch import CeleryDispatcher, Message
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3}
HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


def _env(tmp_path: Path, **settings: Any) -> dict[str, Any]:
    url = f"sqlite:///{tmp_path / 'd.db'}"
    cfg = Settings(database_url=SecretStr(url), **settings)
    tasks = {"agent": Recorder(), "on_pass": Recorder(), "on_exit": Recorder()}
    ctx, inline = embedded_context(cfg, models=FakeModels(SCORES), local_tasks=dict(tasks))
    return {"ctx": ctx, "inline": inline, "url": url, **tasks}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    return _env(tmp_path)


def _sent(env: dict[str, Any], task: str) -> list[Message]:
    return [m for m in env["inline"].sent if m.task == task]


def test_a_hook_without_a_queue_goes_to_the_hooks_queue_and_is_recorded(env):
    job = _job(env, _submit(env, GOOD, loop=LOOP, **HOOKS))
    assert job["status"] == "accepted"
    (msg,) = _sent(env, "on_pass")
    assert msg.queue == "hooks"  # not `control`, whose workers discard unknown tasks
    (row,) = job["dispatches"]
    assert (row["kind"], row["role"], row["task"], row["queue"], row["n"]) == (
        "hook",
        "on_pass",
        "on_pass",
        "hooks",
        1,
    )
    assert row["celery_task_id"] == msg.task_id and row["sent_at"]


def test_an_agent_without_a_queue_goes_to_the_agents_queue_with_both_callbacks(env):
    drafts = iter([GOOD])
    env["agent"].returns = lambda **kw: next(drafts)
    job = _job(env, _submit(env, BAD, loop=LOOP, **HOOKS))
    assert job["status"] == "accepted"
    (ask,) = _sent(env, "agent")
    assert ask.queue == "agents"
    assert ask.link is not None and ask.link.task == "scoregate.control.agent_result"
    assert ask.link.kwargs == {"job_id": job["id"], "iteration": 2}
    assert ask.link_error is not None and ask.link_error.task == "scoregate.control.agent_error"
    assert ask.link_error.queue == "control"
    rows = [(d["kind"], d["role"], d["queue"], d["n"]) for d in job["dispatches"]]
    assert rows == [("agent", "agent", "agents", 2), ("hook", "on_pass", "hooks", 2)]
    assert job["dispatches"][0]["celery_task_id"] == ask.task_id


def test_a_queue_given_is_used_and_the_defaults_are_settings(tmp_path):
    env = _env(tmp_path, hooks_queue="myhooks", agent_queue="myagents")
    env["agent"].returns = BAD
    agent = {"task": "agent", "queue": "gpu-agents"}
    job_id = _submit(env, BAD, loop=LOOP, agent=agent, on_loop_exit="on_exit")
    assert _job(env, job_id)["status"] == "escalated"
    assert {m.queue for m in _sent(env, "agent")} == {"gpu-agents"}
    assert {m.queue for m in _sent(env, "on_exit")} == {"myhooks"}


@pytest.mark.parametrize("role", ["agent", "on_pass", "on_loop_exit", "research"])
@pytest.mark.parametrize("pool", ["control", "fusion"])
def test_a_hook_or_agent_routed_to_a_pool_queue_is_refused_at_submit(env, role, pool):
    body = {**HOOKS, "research": "agent", role: {"task": "agent", "queue": pool}}
    with pytest.raises(ValueError, match=f"{role} task 'agent' is routed to queue '{pool}'"):
        _submit(env, GOOD, loop=LOOP, **body)


def test_a_pool_queue_is_refused_as_a_default_queue():
    with pytest.raises(ValidationError, match="SCOREGATE_HOOKS_QUEUE='control' names a"):
        Settings(hooks_queue="control")
    with pytest.raises(ValidationError, match="SCOREGATE_AGENT_QUEUE='reward'"):
        Settings(agent_queue="reward")


def test_the_settings_know_every_pool():
    assert _POOL_QUEUES == set(POOLS)


class _FakeApp:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def signature(self, name: str, **options: Any) -> tuple[str, dict[str, Any]]:
        return (name, options)

    def send_task(self, name: str, **options: Any) -> None:
        self.sent.append((name, options))


def test_celery_dispatch_sends_the_recorded_task_id_and_the_error_callback():
    app = _FakeApp()
    err = Message("scoregate.control.agent_error", {"job_id": "j", "iteration": 2}, "control")
    CeleryDispatcher(app).send(Message("a.b", {"x": 1}, "agents", link_error=err, task_id="t-1"))
    ((name, options),) = app.sent
    assert name == "a.b" and options["task_id"] == "t-1" and options["queue"] == "agents"
    assert options["link_error"] == (err.task, {"kwargs": err.kwargs, "queue": "control"})


def test_jobs_show_lists_the_dispatches(env, monkeypatch):
    from scoregate.cli import app
    from scoregate.config.settings import get_settings
    from scoregate.pipelines.api import client_context

    job_id = _submit(env, GOOD, loop=LOOP, **HOOKS)
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", env["url"])
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    client_context.cache_clear()
    try:
        out = CliRunner().invoke(app, ["jobs", "show", job_id])
        as_json = CliRunner().invoke(app, ["jobs", "show", job_id, "--json"])
    finally:
        get_settings.cache_clear()
        client_context.cache_clear()
    assert out.exit_code == 0, out.output
    assert "dispatches" in out.output
    line = next(ln for ln in out.output.splitlines() if "on_pass" in ln and "hooks" in ln)
    assert _job(env, job_id)["dispatches"][0]["celery_task_id"][:8] in line
    (row,) = json.loads(as_json.stdout)["dispatches"]
    assert (row["kind"], row["role"], row["queue"]) == ("hook", "on_pass", "hooks")
