"""What every pipeline step needs, built once per process."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.orm import Session

from scoregate.config.scoring_yaml import ScoringConfig
from scoregate.config.settings import Settings
from scoregate.pipelines.dispatch import Dispatcher
from scoregate.pipelines.workflow import Workflow
from scoregate.schemas.loop import EXTERNAL_AGENT, TaskRef
from scoregate.scoring.engine import ModelProvider
from scoregate.storage.quota import QuotaStore


class BytesCache(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...


#: Task names of the pipeline, routed by their middle part to one queue per pool.
SUBMIT = "scoregate.control.submit"
SEMANTIC = "scoregate.semantic.score"
PRECISION = "scoregate.precision.score"
REWARD = "scoregate.reward.score"
FUSE = "scoregate.fusion.fuse"
DECIDE = "scoregate.control.decide"
AGENT_RESULT = "scoregate.control.agent_result"
AGENT_ERROR = "scoregate.control.agent_error"
REVIEW = "scoregate.control.review"
SWEEP = "scoregate.control.sweep"

POOLS: tuple[str, ...] = ("semantic", "precision", "reward", "fusion", "control")
TRACK_TASKS: dict[str, str] = {"semantic": SEMANTIC, "precision": PRECISION, "reward": REWARD}
EXPECTED_TRACKS: list[str] = list(TRACK_TASKS)


def queue_of(task_name: str) -> str:
    """``scoregate.<pool>.<verb>`` runs on the queue named after its pool."""
    parts = task_name.split(".")
    if len(parts) == 3 and parts[0] == "scoregate" and parts[1] in POOLS:
        return parts[1]
    raise ValueError(f"{task_name!r} is not a scoregate pipeline task")


@dataclass
class PipelineContext:
    """Settings, scoring config, storage, dispatcher, models and quota for the steps."""

    settings: Settings
    config: ScoringConfig
    dispatcher: Dispatcher
    session: Callable[[], AbstractContextManager[Session]]
    quota: QuotaStore
    models_factory: Callable[[], ModelProvider] | None = None
    workflow: Workflow | None = None
    #: In-process callables standing in for allow-listed tasks (embedded default only).
    local_tasks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: Track results of (track, query, content) already scored, e.g. Redis with a TTL.
    pair_cache: BytesCache | None = None
    _models: ModelProvider | None = None

    @property
    def models(self) -> ModelProvider:
        if self._models is None:
            if self.models_factory is None:
                raise RuntimeError("this process has no model provider (not a model pool)")
            self._models = self.models_factory()
        return self._models

    def check_allowed(self, ref: TaskRef | None, role: str) -> None:
        """Refuse task names that are not on the allow-list (nor registered locally)."""
        if ref is None:
            return
        if ref.external and role == "agent":
            if ref.queue is not None:
                raise ValueError(
                    f"agent {EXTERNAL_AGENT!r} is answered over HTTP or agent_result, not"
                    f" consumed from a queue: drop the queue {ref.queue!r}"
                )
            return  # nothing is published: no task to allow
        if ref.external:
            raise ValueError(
                f"{role} task {EXTERNAL_AGENT!r} is not a task: only the agent may be"
                f" {EXTERNAL_AGENT!r} (answered over HTTP); give the {role} a Celery task name"
                " on SCOREGATE_ALLOWED_TASKS"
            )
        allowed = set(self.settings.allowed_tasks) | set(self.local_tasks)
        if ref.task not in allowed:
            raise ValueError(
                f"{role} task {ref.task!r} is not allowed: add it to SCOREGATE_ALLOWED_TASKS"
                " (comma-separated Celery task names)"
            )
