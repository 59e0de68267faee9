"""An agent task that raises: its job hears of it at once, retries, then fails or escalates."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import agent_errors
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.loop import AgentErrorReport
from scoregate.workers import control as control_tasks
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


def _env(tmp_path: Path, **settings: Any) -> dict[str, Any]:
    cfg = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'e.db'}"), **settings)
    tasks = {"agent": Recorder(), "on_pass": Recorder(), "on_exit": Recorder()}
    ctx, inline = embedded_context(cfg, models=FakeModels(SCORES), local_tasks=dict(tasks))
    return {"ctx": ctx, "inline": inline, **tasks}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    return _env(tmp_path)


def _raise(**_: Any) -> str:
    raise RuntimeError("model quota exhausted")


def _loop(hil: bool = True) -> dict[str, Any]:
    return {"enabled": True, "threshold": 0.8, "max_iterations": 3, "hil": hil}


def _actions(job: dict[str, Any]) -> list[str]:
    return [d["action"] for d in job["decisions"]]


def test_the_exception_is_recorded_retried_once_then_the_job_fails(env):
    env["agent"].returns = _raise
    job = _job(env, _submit(env, BAD, loop=_loop(hil=False), **HOOKS))
    assert job["status"] == "failed"
    assert len(env["agent"].calls) == 2  # SCOREGATE_AGENT_ERROR_RETRIES=1: sent again once
    assert _actions(job) == ["iterate", "agent_error", "agent_error", "fail"]
    first = job["decisions"][1]
    assert first["n"] == 2 and first["details"]["error_type"] == "RuntimeError"
    assert first["rationale"] == (
        "agent task for iteration 2 raised RuntimeError: model quota exhausted"
    )
    assert "RuntimeError: model quota exhausted" in job["failure_reason"]
    assert "SCOREGATE_AGENT_ERROR_RETRIES=1" in job["failure_reason"]
    assert [c["reason"] for c in env["on_exit"].calls] == ["agent_failed"]
    # Both attempts are dispatches of their own, each with its Celery task id.
    agents = [d for d in job["dispatches"] if d["kind"] == "agent"]
    assert len(agents) == 2 and agents[0]["celery_task_id"] != agents[1]["celery_task_id"]
    ids = [d["details"]["task_id"] for d in job["decisions"] if d["action"] == "agent_error"]
    assert ids == [a["celery_task_id"] for a in agents]


def test_with_hil_on_the_job_escalates_to_a_human(env):
    env["agent"].returns = _raise
    job = _job(env, _submit(env, BAD, loop=_loop(hil=True), **HOOKS))
    assert job["status"] == "escalated"
    assert _actions(job)[-1] == "escalate"
    (esc,) = job["escalations"]
    assert esc["status"] == "open" and "RuntimeError" in esc["reason"]


def test_an_agent_that_fails_once_is_retried_and_the_loop_goes_on(env):
    answers = iter([RuntimeError("flaky"), GOOD])

    def agent(**_: Any) -> str:
        item = next(answers)
        if isinstance(item, Exception):
            raise item
        return item

    env["agent"].returns = agent
    job = _job(env, _submit(env, BAD, loop=_loop(), **HOOKS))
    assert job["status"] == "accepted"
    assert _actions(job) == ["iterate", "agent_error", "accept"]
    assert [it["n"] for it in job["iterations"]] == [1, 2]


def test_no_retries_configured_gives_up_at_the_first_error(tmp_path):
    env = _env(tmp_path, agent_error_retries=0)
    env["agent"].returns = _raise
    job = _job(env, _submit(env, BAD, loop=_loop(hil=False), **HOOKS))
    assert job["status"] == "failed" and len(env["agent"].calls) == 1


def _waiting_job(env: dict[str, Any]) -> str:
    send = env["inline"].send
    # The request to the agent is lost: the job waits for an answer.
    env["inline"].send = lambda m: None if m.task == "agent" else send(m)
    job_id = _submit(env, BAD, loop=_loop(hil=False), **HOOKS)
    env["inline"].send = send
    return job_id


def test_a_report_sent_twice_counts_once(env):
    job_id = _waiting_job(env)
    report = AgentErrorReport(job_id=job_id, iteration=2, error_type="E", task_id="t-1")
    assert agent_errors.record_agent_error(env["ctx"], report) == "retried"
    assert agent_errors.record_agent_error(env["ctx"], report) == "duplicate"
    assert _actions(_job(env, job_id)).count("agent_error") == 1


def test_a_report_for_an_iteration_not_waited_for_changes_nothing(env):
    job_id = _waiting_job(env)
    stale = AgentErrorReport(job_id=job_id, iteration=5, error_type="E", message="late")
    assert agent_errors.record_agent_error(env["ctx"], stale) == "ignored"
    job = _job(env, job_id)
    assert job["status"] == "awaiting_agent"
    assert "ignored: the job is waiting for iteration 2" in job["decisions"][-1]["rationale"]


def test_a_report_for_no_such_job_is_dropped(env):
    report = AgentErrorReport(job_id="nope", iteration=2)
    assert agent_errors.record_agent_error(env["ctx"], report) is None


# --- the boundary: what Celery and clients send -------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"iteration": 2}, "job_id: Field required"),
        ({"job_id": "j", "iteration": 1}, "iteration: Input should be greater than or equal to 2"),
        ({"job_id": "j", "iteration": "two"}, "iteration: Input should be a valid integer"),
        ({"job_id": "j", "iteration": 2, "traceback": "..."}, "traceback: Extra inputs"),
        ({"job_id": "j k", "iteration": 2}, "job_id: String should match pattern"),
        ({"job_id": "j", "iteration": 2, "message": "x" * 10_001}, "message: String should"),
    ],
)
def test_a_bad_report_is_refused_with_what_is_wrong(body, message):
    with pytest.raises(ValueError, match="invalid agent error") as info:
        agent_errors.parse_report(body)
    assert message in str(info.value)


def test_celery_s_three_ways_of_calling_the_error_callback():
    bound = {"job_id": "j", "iteration": 2}
    # A client in another language: keyword arguments only.
    body, here = agent_errors.report_body((), {**bound, "error_type": "E"}, None)
    assert body == {**bound, "error_type": "E"} and not here
    # A foreign worker: only the failed task's id; the exception from the result backend.
    body, here = agent_errors.report_body(("t-9",), bound, lambda tid: ("KeyError", "'k'"))
    assert (body["error_type"], body["message"], body["task_id"], here) == (
        "KeyError",
        "'k'",
        "t-9",
        False,
    )
    body, _ = agent_errors.report_body(("t-9",), bound, None)
    assert "SCOREGATE_RESULT_BACKEND" in body["message"]
    # The agent's own worker knows the task: called in place with the exception.
    request = SimpleNamespace(id="t-3")
    body, here = agent_errors.report_body((request, ValueError("bad"), None), bound, None)
    assert (body["error_type"], body["message"], body["task_id"], here) == (
        "ValueError",
        "bad",
        "t-3",
        True,
    )
    with pytest.raises(ValueError, match="keyword arguments job_id, iteration"):
        agent_errors.report_body((1, 2), bound, None)


def test_the_worker_task_records_a_client_report(env, monkeypatch):
    monkeypatch.setattr(control_tasks, "get_context", lambda: env["ctx"])
    job_id = _waiting_job(env)
    kwargs = {"job_id": job_id, "iteration": 2, "error_type": "IOError", "message": "disk"}
    assert control_tasks.agent_error.apply(kwargs=kwargs).get() == "retried"
    assert _job(env, job_id)["decisions"][-1]["details"]["message"] == "disk"


def test_the_worker_task_refuses_a_bad_report_and_keeps_serving(env, monkeypatch, caplog):
    monkeypatch.setattr(control_tasks, "get_context", lambda: env["ctx"])
    result = control_tasks.agent_error.apply(kwargs={"job_id": "j"})
    assert result.successful() and result.get() is None
    assert "refused message: invalid agent error: iteration: Field required" in caplog.text


def test_called_in_the_agent_s_worker_it_forwards_to_the_control_queue(monkeypatch):
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(control_tasks.app, "send_task", lambda name, **kw: sent.append((name, kw)))
    request = SimpleNamespace(id="t-4")
    control_tasks.agent_error(request, TimeoutError("slow"), None, job_id="j", iteration=3)
    ((name, options),) = sent
    assert name == "scoregate.control.agent_error" and options["queue"] == "control"
    assert options["kwargs"] == {
        "job_id": "j",
        "iteration": 3,
        "error_type": "TimeoutError",
        "message": "slow",
        "task_id": "t-4",
    }


def test_a_huge_exception_message_is_cut_to_the_report_s_limit(env):
    def agent(**_: Any) -> str:
        raise RuntimeError("x" * 50_000)

    env["agent"].returns = agent
    job = _job(env, _submit(env, BAD, loop=_loop(hil=False), **HOOKS))
    assert job["status"] == "failed"
    assert len(job["decisions"][1]["details"]["message"]) == 10_000


def test_an_agent_answer_that_killed_its_workers_fails_its_job(env, monkeypatch):
    import fakeredis

    from scoregate.workers import reliability, runtime
    from scoregate.workers.reliability import DeliveryGuard

    guard = DeliveryGuard(fakeredis.FakeRedis(), limit=3)
    monkeypatch.setattr(reliability, "delivery_guard", lambda: guard)
    for module in (control_tasks, runtime):
        monkeypatch.setattr(module, "get_context", lambda: env["ctx"])
    job_id = _waiting_job(env)
    guard.begin(["answer-1"] * 3)  # three workers died under this answer
    kwargs = {"output": GOOD, "job_id": job_id, "iteration": 2}
    assert control_tasks.agent_result.apply(kwargs=kwargs, task_id="answer-1").successful()
    job = _job(env, job_id)
    assert job["status"] == "failed" and "delivered 3 times" in job["failure_reason"]


def test_a_job_waiting_on_its_agent_lists_its_latest_score(env, monkeypatch):
    from scoregate.pipelines import api

    job_id = _waiting_job(env)
    monkeypatch.setattr(api, "client_context", lambda: (env["ctx"], env["inline"]))
    [listed] = [j for j in api.list_jobs() if j["id"] == job_id]
    first = _job(env, job_id)["iterations"][0]
    assert listed["status"] == "awaiting_agent"
    assert listed["score"] == first["score"] is not None and listed["band"] == first["band"]
