"""Docs review, finding 2: a job selects a workflow task (``task_name``, ``submit --task``)
and the task's ``agent_task`` is the agent its loop re-runs; ``agent`` is a recorded label."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import SecretStr
from typer.testing import CliRunner

import scoregate
from scoregate.cli import app as cli
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.pipelines.workflow import Workflow, load_workflow
from tests.fakes import BAD, GOOD, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

WORKFLOW = """
tasks:
  design-l1:
    agent: architect
    agent_task: agent
    overlays:
      confidence_loop:
        enabled: true
        threshold: 0.80
        max_iterations: 3
  gated:
    agent_task: agent@agents
    overlays:
      confidence_loop: {enabled: true, gating: true}
  no-agent:
    agent: architect
    overlays:
      confidence_loop: {enabled: true, threshold: 0.8}
"""


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    path = tmp_path / "workflow.yaml"
    path.write_text(WORKFLOW)
    settings = Settings(
        database_url=SecretStr(f"sqlite:///{tmp_path / 'wf.db'}"), workflow_config=path
    )
    agent = Recorder(GOOD)
    ctx, inline = embedded_context(
        settings, models=FakeModels(SCORES), local_tasks={"agent": agent, "other": Recorder(GOOD)}
    )
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "200")
    return {"ctx": ctx, "inline": inline, "agent": agent}


def _request(content: str = BAD) -> dict[str, str]:
    return {"query": "Design the module.", "content": content}


def test_a_workflow_task_reruns_its_agent_task_from_python(env):
    job = _job(env, scoregate.submit(_request(), task_name="design-l1"))
    assert job["status"] == "accepted" and len(job["iterations"]) == 2
    assert len(env["agent"].calls) == 1, "the workflow's agent_task was re-run"
    assert job["agent"] == {"task": "agent", "queue": None}
    first = job["decisions"][0]
    assert first["action"] == "workflow_task"
    assert (
        first["rationale"] == "workflow task 'design-l1' (agent architect): the loop re-runs agent"
    )


def test_submit_task_selects_the_workflow_task_from_the_cli(env):
    out = runner.invoke(
        cli, ["submit", "-q", "Design the module.", "-c", BAD, "--task", "design-l1"]
    )
    assert out.exit_code == 0, out.output
    job = _job(env, out.stdout.split()[-1])
    assert job["task_name"] == "design-l1" and job["status"] == "accepted"
    assert job["policy"]["threshold"] == 0.8 and len(env["agent"].calls) == 1


def test_the_job_own_agent_wins_over_the_workflow_one(env):
    job = _job(env, scoregate.submit(_request(), task_name="design-l1", agent="other"))
    assert job["agent"]["task"] == "other" and env["agent"].calls == []


def test_cli_flags_left_out_keep_the_workflow_policy(env):
    out = runner.invoke(cli, ["submit", "-q", "q", "-c", GOOD, "--task", "gated"])
    assert out.exit_code == 0, out.output
    job = _job(env, out.stdout.split()[-1])
    assert job["policy"]["gating"] is True, "the CLI's default --no-gating dropped the workflow's"
    assert job["agent"] == {"task": "agent", "queue": "agents"}  # agent_task: NAME@QUEUE


def test_a_loop_without_an_agent_task_is_refused_at_submit(env):
    said = "no agent task for workflow task 'no-agent': the loop cannot re-run it"
    with pytest.raises(ValueError, match=re.escape(said)):
        scoregate.submit(_request(), task_name="no-agent")
    out = runner.invoke(cli, ["submit", "-q", "q", "-c", BAD, "--task", "no-agent"])
    assert out.exit_code == 2 and said in " ".join(out.output.split())
    assert api.list_jobs() == []
    # given an agent at submit, or with its loop turned off, the task is usable
    assert (
        _job(env, scoregate.submit(_request(), task_name="no-agent", agent="agent"))["status"]
        == "accepted"
    )
    off = scoregate.submit(_request(GOOD), task_name="no-agent", loop={"enabled": False})
    assert _job(env, off)["status"] == "completed"


def test_a_loop_without_an_agent_task_is_said_at_load(tmp_path, caplog):
    path = tmp_path / "w.yaml"
    path.write_text(WORKFLOW)
    with caplog.at_level(logging.WARNING, logger="scoregate.pipelines.workflow"):
        load_workflow(path)
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: no agent task for workflow task 'no-agent': the loop cannot re-run it; give"
        " tasks.no-agent.agent_task (a Celery task name) in the workflow file, or an agent at"
        " submit (--agent, agent=)"
    ]


def test_the_readme_workflow_example_names_an_agent_task_for_its_loop():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("A workflow file", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    workflow = Workflow.model_validate(yaml.safe_load(block))
    assert workflow.loops_without_agent() == []
    task = workflow.task("design-l1")
    assert task.agent == "architect" and task.agent_task is not None
    assert "--task design-l1" in readme and "task_name=" in readme
