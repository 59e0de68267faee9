"""Seed-000 workflow YAML: per-task ``overlays.confidence_loop`` policies and agents.

A job selects a workflow task by ``task_name`` (``scoregate submit --task NAME``). The
task's ``agent_task`` is the Celery task the loop re-runs (as if the job gave ``agent=``);
its ``agent`` is the seed's role name (``architect``), a label recorded in the job's audit
trail, never a task name.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from scoregate.schemas.loop import LoopPolicy, TaskRef, task_ref_fields

log = logging.getLogger(__name__)


class MetricWeight(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    weight: float = Field(default=1.0, ge=0.0, allow_inf_nan=False)


class ConfidenceLoop(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = False
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    max_iterations: int = Field(default=3, ge=1, le=50)
    hil: bool = True
    gating: bool = False
    eval_metrics: list[MetricWeight] = Field(default_factory=list)

    def policy(self) -> LoopPolicy:
        weights = {m.name: m.weight for m in self.eval_metrics} or None
        return LoopPolicy(
            enabled=self.enabled,
            threshold=self.threshold,
            max_iterations=self.max_iterations,
            hil=self.hil,
            gating=self.gating,
            eval_metric_weights=weights,
        )


class Overlays(BaseModel):
    model_config = ConfigDict(extra="allow")

    confidence_loop: ConfidenceLoop = Field(default_factory=ConfidenceLoop)


class WorkflowTask(BaseModel):
    model_config = ConfigDict(extra="allow")

    #: The role that does the task (the seed's ``agent: architect``): a label.
    agent: str | None = None
    #: The Celery task the loop re-runs: ``NAME``, ``NAME@QUEUE`` or ``{task, queue}``.
    agent_task: TaskRef | None = None
    overlays: Overlays = Field(default_factory=Overlays)

    @field_validator("agent_task", mode="before")
    @classmethod
    def _task_text(cls, v: Any) -> Any:
        return task_ref_fields(v) if isinstance(v, str) else v


class Workflow(BaseModel):
    model_config = ConfigDict(extra="allow")

    tasks: dict[str, WorkflowTask] = Field(default_factory=dict)

    def task(self, task_name: str) -> WorkflowTask:
        if task_name not in self.tasks:
            known = ", ".join(sorted(self.tasks)) or "none"
            raise ValueError(f"workflow has no task {task_name!r} (known: {known})")
        return self.tasks[task_name]

    def policy_for(self, task_name: str) -> LoopPolicy:
        return self.task(task_name).overlays.confidence_loop.policy()

    def loops_without_agent(self) -> list[str]:
        """The tasks whose loop is on but that name no agent task to re-run."""
        return [
            name
            for name, task in sorted(self.tasks.items())
            if task.overlays.confidence_loop.enabled and task.agent_task is None
        ]


def no_agent_message(task_name: str) -> str:
    """What a loop without an agent task to re-run is told, at load and at submit."""
    return (
        f"no agent task for workflow task {task_name!r}: the loop cannot re-run it; give"
        f" tasks.{task_name}.agent_task (a Celery task name) in the workflow file, or an"
        " agent at submit (--agent, agent=)"
    )


def load_workflow(path: str | Path) -> Workflow:
    """Read and validate a workflow YAML; errors say which file and what is wrong.

    A task whose loop is on and that names no ``agent_task`` is logged as a warning (a
    job of it must give an agent at submit, or it is refused).
    """
    p = Path(path)
    try:
        data: Any = yaml.safe_load(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"workflow file {p} does not exist") from exc
    except yaml.YAMLError as exc:
        raise ValueError(f"{p} is not valid YAML: {exc}") from exc
    try:
        workflow = Workflow.model_validate(data or {})
    except ValidationError as exc:
        raise ValueError(f"{p}: invalid workflow: {exc}") from exc
    for name in workflow.loops_without_agent():
        log.warning("%s: %s", p, no_agent_message(name))
    return workflow
