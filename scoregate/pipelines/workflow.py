"""Seed-000 workflow YAML: per-task ``overlays.confidence_loop`` policies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scoregate.schemas.loop import LoopPolicy, TaskRef


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

    agent: str | None = None
    agent_task: TaskRef | None = None
    overlays: Overlays = Field(default_factory=Overlays)


class Workflow(BaseModel):
    model_config = ConfigDict(extra="allow")

    tasks: dict[str, WorkflowTask] = Field(default_factory=dict)

    def policy_for(self, task_name: str) -> LoopPolicy:
        if task_name not in self.tasks:
            known = ", ".join(sorted(self.tasks)) or "none"
            raise ValueError(f"workflow has no task {task_name!r} (known: {known})")
        return self.tasks[task_name].overlays.confidence_loop.policy()


def load_workflow(path: str | Path) -> Workflow:
    """Read and validate a workflow YAML; errors say which file and what is wrong."""
    p = Path(path)
    try:
        data: Any = yaml.safe_load(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"workflow file {p} does not exist") from exc
    except yaml.YAMLError as exc:
        raise ValueError(f"{p} is not valid YAML: {exc}") from exc
    try:
        return Workflow.model_validate(data or {})
    except ValidationError as exc:
        raise ValueError(f"{p}: invalid workflow: {exc}") from exc
