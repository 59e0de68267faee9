"""Edges a real user meets at submit, at the agent's answer, at review and at cancel."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate import cli
from scoregate.cli import jobs as cli_jobs
from scoregate.config.settings import Settings
from scoregate.pipelines import api, control
from scoregate.pipelines.embedded import embedded_context
from scoregate.workers import control as control_tasks
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}
runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    url = f"sqlite:///{tmp_path / 's.db'}"
    settings = Settings(database_url=SecretStr(url))
    tasks = {"agent": Recorder(GOOD), "on_pass": Recorder(), "on_exit": Recorder()}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(control_tasks, "get_context", lambda: ctx)
    return {"ctx": ctx, "inline": inline, "url": url, **tasks}


@contextmanager
def _cli_on(env: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``scoregate`` command pointed at the test's database (embedded, no broker)."""
    from scoregate.config.settings import get_settings

    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", env["url"])
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    api.client_context.cache_clear()
    try:
        yield
    finally:
        get_settings.cache_clear()
        api.client_context.cache_clear()


def _actions(job: dict[str, Any]) -> list[str]:
    return [d["action"] for d in job["decisions"]]


# --- a loop given its limits is enabled ---------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "enabled"),
    [
        ({"threshold": 0.8}, True),
        ({"max_iterations": 2}, True),
        ({"threshold": 0.8, "enabled": False}, False),
        ({"gating": False}, True),  # no limits, but an agent: meant to run
        ({"gating": False, "enabled": False}, False),
    ],
)
def test_a_loop_with_a_threshold_or_max_iterations_is_enabled(env, loop, enabled):
    job = _job(env, _submit(env, BAD, loop=loop, **HOOKS))
    assert job["policy"]["enabled"] is enabled
    assert (job["status"] == "accepted") is enabled  # the agent's second answer passes
    assert (len(job["iterations"]) == 2) is enabled


def test_cli_submit_sends_only_the_loop_options_given(monkeypatch):
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(
        cli_jobs, "_submit_bodies", lambda api, bodies, options, as_json: seen.append(options) or []
    )
    out = runner.invoke(cli.app, ["submit", "-q", "q", "-c", "c", "--threshold", "0.9"])
    assert out.exit_code == 0, out.output
    assert seen[0]["loop"] == {"gating": False, "threshold": 0.9}
    runner.invoke(cli.app, ["submit", "-q", "q", "-c", "c", "--no-loop", "--max-iterations", "2"])
    assert seen[1]["loop"] == {"gating": False, "enabled": False, "max_iterations": 2}


# --- submit from another language ---------------------------------------------------------------


def test_the_submit_task_returns_the_job_id(env):
    body = {"request": {"query": "Write a helpful answer.", "content": GOOD}}
    job_id = control_tasks.submit.apply(kwargs={"body": body}, task_id="m-5").get()
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "completed"


def test_an_invalid_body_without_a_key_is_a_failed_job_found_by_its_message_id(env, monkeypatch):
    monkeypatch.setattr(api, "client_context", lambda: (env["ctx"], env["inline"]))
    body = {"request": {"query": "q"}, "loop": {"threshold": 2}}
    job_id = control_tasks.submit.apply(kwargs={"body": body}, task_id="m-7").get()
    job = api.get_job("celery:m-7")
    assert job["id"] == job_id and job["status"] == "failed"
    assert job["failure_reason"].startswith("invalid job: invalid request: content: Field required")
    assert _actions(job) == ["fail"]


# --- the agent's answer: iteration, and n as its deprecated alias ------------------------------


def _waiting(env: dict[str, Any], hooks: dict[str, str] = HOOKS) -> str:
    send = env["inline"].send
    env["inline"].send = lambda m: None if m.task == "agent" else send(m)
    job_id = _submit(env, BAD, loop={"threshold": 0.8}, **hooks)
    env["inline"].send = send
    assert _job(env, job_id)["status"] == "awaiting_agent"
    return job_id


@pytest.mark.parametrize("name", ["iteration", "n"])
def test_agent_result_takes_iteration_or_its_alias_n(env, name):
    job_id = _waiting(env)
    control_tasks.agent_result.apply(kwargs={"output": GOOD, "job_id": job_id, name: 2}).get()
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "accepted"


def test_an_agent_result_without_output_is_an_agent_failure_on_its_job(env):
    # JavaScript's JSON.stringify drops `output: undefined`: the job must hear of it now,
    # not wait for the agent timeout
    job_id = _waiting(env)
    kwargs = {"job_id": job_id, "iteration": 2}
    assert control_tasks.agent_result.apply(kwargs=kwargs).successful()
    env["inline"].drain()
    job = _job(env, job_id)
    assert "agent_error" in _actions(job)
    assert "rejected" in job["decisions"][_actions(job).index("agent_error")]["rationale"]


def test_agent_result_with_iteration_and_n_disagreeing_is_refused_on_the_record(env, caplog):
    job_id = _waiting(env)
    kwargs = {"output": GOOD, "job_id": job_id, "iteration": 2, "n": 3}
    assert control_tasks.agent_result.apply(kwargs=kwargs).successful()
    env["inline"].drain()
    job = _job(env, job_id)
    assert job["status"] == "awaiting_agent" and len(job["iterations"]) == 1
    assert _actions(job)[-1] == "agent_result_refused"
    assert "iteration=2 and n=3, which disagree" in job["decisions"][-1]["rationale"]
    assert "iteration=2 and n=3, which disagree" in caplog.text


def test_another_answer_for_the_iteration_taken_is_noted_and_the_same_one_is_not(env):
    job_id = _waiting(env)
    control.agent_result(env["ctx"], GOOD, job_id, 2)  # taken: iteration 2 is scored
    env["inline"].drain()
    before = _actions(_job(env, job_id))
    assert _job(env, job_id)["status"] == "accepted"
    control.agent_result(env["ctx"], GOOD, job_id, 2)  # the same answer again: no news
    assert _actions(_job(env, job_id)) == before
    control.agent_result(env["ctx"], MEH, job_id, 2)  # another one: refused, on the record
    job = _job(env, job_id)
    assert _actions(job) == [*before, "agent_result_refused"]
    assert [it["n"] for it in job["iterations"]] == [1, 2]


def test_an_answer_for_the_wrong_iteration_is_noted_on_the_job(env):
    job_id = _waiting(env)
    control.agent_result(env["ctx"], GOOD, job_id, 5)
    job = _job(env, job_id)
    assert job["status"] == "awaiting_agent"
    assert job["decisions"][-1]["rationale"] == (
        "agent answer for iteration 5 ignored: the job is waiting for iteration 2"
    )


# --- a broken regex or JSON Schema is the caller's mistake --------------------------------------

BROKEN = [
    ({"kind": "regex", "value": "(unclosed"}, "constraints[0] (regex): invalid pattern"),
    ({"kind": "not_regex", "value": "a{1000}{1000}"}, "reward.regex_max_unrolled"),
    ({"kind": "json_schema", "value": {"type": "nope"}}, "the schema itself is invalid"),
]


@pytest.mark.parametrize(("constraint", "message"), BROKEN)
def test_a_broken_constraint_is_refused_at_submit(env, constraint, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _submit_with(env, constraint)


def _submit_with(env: dict[str, Any], constraint: dict[str, Any]) -> str:
    from scoregate.pipelines import steps

    request = {"query": "q", "content": GOOD, "constraints": [constraint]}
    return steps.submit_jobs(env["ctx"], [steps.build_spec(env["ctx"], {"request": request})])[0]


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("regex=(unclosed", "invalid pattern '(unclosed'"),
        ('json_schema={"type": 5}', "the schema itself is invalid"),
    ],
)
def test_scoregate_score_refuses_a_broken_constraint_with_exit_2(flag, message):
    out = runner.invoke(cli.app, ["score", "-q", "q", "-c", "c", "--constraint", flag])
    assert out.exit_code == 2
    assert message in " ".join(out.output.split())


# --- review --research without a research task, and cancel --------------------------------------


def test_review_research_without_a_research_task_exits_1_and_changes_nothing(env, monkeypatch):
    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    assert _job(env, job_id)["status"] == "awaiting_review"
    with _cli_on(env, monkeypatch):
        out = runner.invoke(cli.app, ["review", job_id, "--research"])
    assert out.exit_code == 1
    assert "has no research task to run" in " ".join(out.output.split())
    job = _job(env, job_id)
    assert job["status"] == "awaiting_review" and job["escalations"][0]["status"] == "open"


def test_a_job_waiting_on_an_agent_that_does_not_exist_can_be_cancelled(env, monkeypatch):
    # no on_loop_exit: a cancel calls it, and the CLI's own embedded worker lacks the test's
    job_id = _waiting(env, {"agent": "agent", "on_pass": "on_pass"})
    with _cli_on(env, monkeypatch):
        out = runner.invoke(cli.app, ["jobs", "cancel", job_id, "--actor", "bob", "--note", "gone"])
    assert out.exit_code == 0, out.output
    assert f"job {job_id}: cancelled by bob (was awaiting_agent)" in out.output
    job = _job(env, job_id)
    assert job["status"] == "cancelled"
    last = job["decisions"][-1]
    assert (last["action"], last["actor"], last["rationale"]) == ("cancel", "bob", "gone")
    control.agent_result(env["ctx"], GOOD, job_id, 2)  # the agent turns up after all
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "cancelled" and len(job["iterations"]) == 1


def test_cancel_closes_an_open_review(env):
    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    from scoregate.pipelines.cancel import cancel

    assert cancel(env["ctx"], job_id, "alice") == "awaiting_review"
    job = _job(env, job_id)
    assert job["status"] == "cancelled" and job["escalations"][0]["status"] == "cancelled"
    assert job["decisions"][-1]["rationale"] == "cancelled by alice (was awaiting_review)"


@pytest.mark.parametrize("which", ["final", "missing"])
def test_cancel_of_a_final_or_unknown_job_exits_1(env, monkeypatch, which):
    final = _submit(env, GOOD, loop={"enabled": False}, **HOOKS) if which == "final" else None
    job_id = final or "no-such-job"
    with _cli_on(env, monkeypatch):
        out = runner.invoke(cli.app, ["jobs", "cancel", job_id])
    assert out.exit_code == 1
    text = " ".join(out.output.split())
    assert (
        ("is completed: only a job not final yet" in text)
        if which == "final"
        else ("no job 'no-such-job'" in text)
    )


def test_a_job_cancelled_mid_scoring_is_never_decided(env):
    from scoregate.pipelines.cancel import cancel
    from scoregate.pipelines.context import SEMANTIC

    held: list[Any] = []
    send = env["inline"].send
    env["inline"].send = lambda m: held.append(m) if m.task == SEMANTIC else send(m)
    job_id = _submit(env, GOOD, loop={"threshold": 0.8}, **HOOKS)
    was = _job(env, job_id)["status"]
    assert was not in ("accepted", "completed") and held
    assert cancel(env["ctx"], job_id, "carol") == was
    env["inline"].send = send
    for message in held:  # the semantic track lands after all
        send(message)
    env["inline"].drain()
    job = _job(env, job_id)
    assert job["status"] == "cancelled" and _actions(job) == ["cancel"]
    assert job["iterations"][0]["status"] == "failed" and env["on_pass"].calls == []
