"""Loop policy, agent and hooks of a job (seed 000 overlay, seed 002 gating)."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

TASK_NAME = r"^[A-Za-z_][A-Za-z0-9_.:-]{0,199}$"
QUEUE_NAME = r"^[A-Za-z0-9_.:-]{1,100}$"


class LoopPolicy(BaseModel):
    """The confidence-loop overlay; off by default (seed 000)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = False
    #: The score the loop passes at. ``None``: the accept cut of the scoring config (one
    #: threshold model); a number moves this job's accept cut, and its band, with it.
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    max_iterations: int = Field(default=3, ge=1, le=50)
    #: On exhaustion, open an escalation for a human instead of only firing on_loop_exit.
    hil: bool = True
    #: Seed-002 tiers: medium waits for a human, low triggers research.
    gating: bool = False
    #: Per-metric weights from the workflow YAML (``eval_metrics``), by metric name.
    eval_metric_weights: dict[str, float] | None = None

    @field_validator("eval_metric_weights")
    @classmethod
    def _weights(cls, v: dict[str, float] | None) -> dict[str, float] | None:
        for name, w in (v or {}).items():
            if not math.isfinite(w) or w < 0:
                raise ValueError(f"eval_metrics weight for {name!r} must be finite and >= 0")
        return v


class TaskRef(BaseModel):
    """A Celery task by name, on a queue; checked against the allow-list before use."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str = Field(pattern=TASK_NAME)
    queue: str | None = Field(default=None, pattern=QUEUE_NAME)


class Hooks(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    on_pass: TaskRef | None = None
    on_loop_exit: TaskRef | None = None
    research: TaskRef | None = None


class AgentOutput(BaseModel):
    """What an agent task returns for the next iteration."""

    model_config = ConfigDict(extra="forbid")

    content: str
    eval_metrics: list[dict[str, Any]] | None = None
    self_reported_confidence: str | None = None


DecisionKind = Literal["complete", "accept", "iterate", "exit", "review", "research"]
