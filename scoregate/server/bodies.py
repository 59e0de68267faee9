"""Request and response bodies of the HTTP API.

Submissions reuse the queue's own models (``ScoreRequest``, ``LoopPolicy``, ``TaskRef``,
``Hooks``), so a body the API accepts is one ``scoregate.control.submit`` accepts; the
pipeline's ``build_spec`` then applies the same allow-list and text checks as for Celery.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scoregate.pipelines.validation import MAX_KEY_CHARS
from scoregate.schemas.loop import TASK_NAME, Hooks, LoopPolicy, TaskRef
from scoregate.schemas.request import ScoreRequest

#: A task by name only (its default queue) or as ``{"task": ..., "queue": ...}``.
TaskArg = TaskRef | Annotated[str, Field(pattern=TASK_NAME)]
ShortText = Annotated[str, Field(min_length=1, max_length=MAX_KEY_CHARS)]


class JobSubmission(BaseModel):
    """A job: the first iteration's request, the loop policy, the agent and the hooks."""

    model_config = ConfigDict(extra="forbid")

    request: ScoreRequest
    loop: LoopPolicy | None = None
    agent: TaskArg | None = None
    hooks: Hooks | None = None
    on_pass: TaskArg | None = None
    on_loop_exit: TaskArg | None = None
    research: TaskArg | None = None
    task_name: ShortText | None = None
    submitted_by: ShortText | None = Field(
        default=None,
        description=(
            "Who submits; default: the API key's name. With API keys, a different name is"
            " recorded beside the key's: 'bob (key ci)'."
        ),
    )
    idempotency_key: ShortText | None = Field(
        default=None, description="A second submit with the same key returns the first job."
    )


class JobAccepted(BaseModel):
    id: str
    status: str
    url: str
    #: True when the idempotency key named a job submitted before: nothing new was started.
    replayed: bool = False


class ReviewBody(BaseModel):
    """A reviewer's verdict on a job waiting for a human."""

    model_config = ConfigDict(extra="forbid")

    verdict: Literal["approve", "reject", "research", "cancel"]
    note: str | None = Field(default=None, max_length=10_000)
    reviewer: ShortText | None = Field(
        default=None,
        description=(
            "Who decides; default: the API key's name. With API keys, a different name is"
            " recorded beside the key's: 'bob (key alice)'."
        ),
    )


class ReviewDone(BaseModel):
    id: str
    verdict: str
    reviewer: str
    status: str


class JobSummary(BaseModel):
    id: str
    status: str
    iteration: int
    created_at: str
    updated_at: str
    #: The final score and band; for a job not final yet (waiting for a human, say), its
    #: latest scored iteration's; null before any score.
    score: float | None = None
    band: str | None = None
    url: str


class JobPage(BaseModel):
    jobs: list[JobSummary]
    #: Pass as ``cursor`` to get the next page; null on the last page.
    next_cursor: str | None = None


class JobDetail(BaseModel):
    """A job with every iteration's breakdown, its decisions (the audit trail) and
    escalations."""

    model_config = ConfigDict(extra="allow")

    id: str
    status: str
    current_iteration: int
    iterations: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    escalations: list[dict[str, Any]]


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: str
    broker: str
    mode: Literal["embedded", "celery"]
