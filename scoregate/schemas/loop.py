"""Loop policy, agent and hooks of a job (seed 000 overlay, seed 002 gating)."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

TASK_NAME = r"^[A-Za-z_][A-Za-z0-9_.:-]{0,199}$"
QUEUE_NAME = r"^[A-Za-z0-9_.:-]{1,100}$"


def _absent_is_not_false(schema: dict[str, Any]) -> None:
    """No ``default`` in the schema: an absent ``enabled`` is not ``false`` (a client that
    fills in declared defaults would turn every loop off)."""
    schema.pop("default", None)


class LoopPolicy(BaseModel):
    """The confidence-loop overlay; off by default (seed 000)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Strict, as the request's numbers: ``true`` or ``"0.8"`` is refused, not read as 1.0
    # or 0.8 (a threshold of 1.0 would send every job to a human); an int is a valid float.
    enabled: bool = Field(
        default=False,
        strict=True,
        description="Whether the loop runs. Leave it out rather than send the default: absent,"
        " the loop is on when the job gives `threshold`, `max_iterations` or an `agent`, and"
        " off otherwise; `false` keeps it off even then.",
        json_schema_extra=_absent_is_not_false,
    )
    #: The score the loop passes at. ``None``: the accept cut of the scoring config (one
    #: threshold model); a number moves this job's accept cut, and its band, with it.
    threshold: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        strict=True,
        allow_inf_nan=False,
        description="The score the loop accepts at; null: the scoring config's accept cut. A"
        " number moves this job's accept cut, and its band, with it.",
    )
    max_iterations: int = Field(
        default=3,
        ge=1,
        le=50,
        strict=True,
        description="Answers scored at most (the first included) before the loop gives up.",
    )
    #: On exhaustion, open an escalation for a human instead of only firing on_loop_exit.
    hil: bool = Field(
        default=True,
        strict=True,
        description="When the loop gives up (or the agent keeps failing): true, a person"
        " decides (`escalated`); false, the job is `rejected` (or `failed`).",
    )
    #: Seed-002 tiers: medium waits for a human, low triggers research.
    gating: bool = Field(
        default=False,
        strict=True,
        description="Seed 002's confidence gate: a high tier proceeds, medium waits for a"
        " person, low runs the research task; with the loop on, medium and low answers under"
        " the cut go to research or a person, not back to the agent (README, `gating`).",
    )
    #: Per-metric weights from the workflow YAML (``eval_metrics``), by metric name.
    eval_metric_weights: dict[str, float] | None = Field(
        default=None,
        description="Weights of the agent's eval metrics, by name (the workflow file's"
        " `eval_metrics`).",
    )

    @field_validator("eval_metric_weights")
    @classmethod
    def _weights(cls, v: dict[str, float] | None) -> dict[str, float] | None:
        for name, w in (v or {}).items():
            if not math.isfinite(w) or w < 0:
                raise ValueError(f"eval_metrics weight for {name!r} must be finite and >= 0")
        return v


#: The agent "task" that names no Celery task: the agent runs outside Celery, reads the
#: feedback from the job (its last ``agent`` dispatch) and sends its next answer through
#: ``POST /v1/jobs/{id}/agent-result`` or ``scoregate.control.agent_result``.
EXTERNAL_AGENT = "external"


class TaskRef(BaseModel):
    """A Celery task by name, on a queue; checked against the allow-list before use."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str = Field(pattern=TASK_NAME)
    queue: str | None = Field(default=None, pattern=QUEUE_NAME)

    @property
    def external(self) -> bool:
        """An agent outside Celery (:data:`EXTERNAL_AGENT`): nothing is published to it."""
        return self.task == EXTERNAL_AGENT


def task_ref_fields(text: str) -> dict[str, str]:
    """``NAME`` or ``NAME@QUEUE`` (the CLI's and the workflow file's short form) as the
    fields of a :class:`TaskRef`."""
    task, _, queue = text.partition("@")
    return {"task": task, "queue": queue} if queue else {"task": task}


def _task_from_text(value: Any) -> Any:
    """``NAME`` or ``NAME@QUEUE`` (as the CLI and the workflow file write a task) as a
    :class:`TaskRef`'s fields; anything else as it is."""
    if isinstance(value, str):
        task, at, queue = value.partition("@")
        return {"task": task, "queue": queue} if at else {"task": value}
    return value


#: A task as a job body may give it: ``{"task", "queue"}``, ``"NAME"`` or ``"NAME@QUEUE"``;
#: a bad one is refused at its part (``agent.task``, ``agent.queue``).
TaskRefArg = Annotated[
    TaskRef,
    BeforeValidator(
        _task_from_text,
        json_schema_input_type=TaskRef
        | Annotated[str, Field(pattern=TASK_NAME[:-1] + "(@" + QUEUE_NAME[1:-1] + ")?$")],
    ),
]


class Hooks(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    on_pass: TaskRefArg | None = None
    on_loop_exit: TaskRefArg | None = None
    research: TaskRefArg | None = None


#: The hooks a job may name at its top level (``on_pass``) or under ``hooks``.
HOOK_FIELDS: tuple[str, ...] = ("on_pass", "on_loop_exit", "research")


class HookGivenTwice(ValueError):
    """A job names one hook at its top level and under ``hooks``, as two different tasks:
    which one the caller meant cannot be told. ``role`` is the hook."""

    def __init__(self, role: str, top: str, nested: str) -> None:
        super().__init__(
            f"{role} is given twice, as {role!r} ({top}) and 'hooks.{role}' ({nested}):"
            f" two tasks for one hook; send one of them (or the same task in both)"
        )
        self.role = role


def _task_of(value: Any) -> tuple[Any, Any] | None:
    """A hook's ``(task, queue)`` as a job body gives it (a name, an object or a
    :class:`TaskRef`); None when absent, or not a shape the body's own checks take."""
    if isinstance(value, TaskRef):
        return value.task, value.queue
    if isinstance(value, str):
        return value, None
    if isinstance(value, dict):
        return value.get("task"), value.get("queue")
    return None


def _shown(ref: tuple[Any, Any]) -> str:
    task, queue = ref
    return f"{task!r} on queue {queue!r}" if queue else repr(task)


def check_hooks_given_once(body: Any) -> None:
    """Refuse a job body that names a hook both at its top level and under ``hooks`` as
    two different tasks (one was dropped before, without a word); the same task in both
    is taken.

    Raises:
        HookGivenTwice: naming the hook and both tasks.
    """
    if not isinstance(body, dict):
        return
    hooks = body.get("hooks")
    if isinstance(hooks, Hooks):
        hooks = {role: getattr(hooks, role) for role in HOOK_FIELDS}
    if not isinstance(hooks, dict):
        return
    for role in HOOK_FIELDS:
        top, nested = _task_of(body.get(role)), _task_of(hooks.get(role))
        if top is not None and nested is not None and top != nested:
            raise HookGivenTwice(role, _shown(top), _shown(nested))


def unsent_hooks(policy: LoopPolicy, hooks: Hooks) -> list[str]:
    """Why a job's hooks will (almost) never be sent, one line each: with the loop and
    gating off a job is scored once and ends ``completed``, and ``on_pass`` is sent only
    when a job becomes ``accepted``; ``on_loop_exit`` only if it is cancelled first."""
    if policy.enabled or policy.gating:
        return []
    off = (
        "with the loop and gating off the job is scored once and ends completed (its verdict"
        " is the job's `approved`)"
    )
    fix = "turn the loop on (a threshold, max_iterations or an agent) or gating, or poll the job"
    out = []
    if hooks.on_pass is not None:
        out.append(
            f"on_pass will not be sent: {off}, and on_pass is sent only when a job"
            f" becomes accepted; {fix}"
        )
    if hooks.on_loop_exit is not None:
        out.append(f"on_loop_exit is sent only if the job is cancelled before its score: {off}")
    return out


class AgentOutput(BaseModel):
    """What an agent task returns for the next iteration."""

    model_config = ConfigDict(extra="forbid")

    content: str
    eval_metrics: list[dict[str, Any]] | None = None
    self_reported_confidence: str | None = None


#: Longest error message an agent error report may carry (characters).
MAX_ERROR_MESSAGE_CHARS = 10_000


class AgentErrorReport(BaseModel):
    """Body of ``scoregate.control.agent_error``: the agent task for ``iteration`` raised.

    Sent by Celery (the agent task's ``link_error``) or by a client in any language.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    job_id: str = Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")
    #: The iteration the agent was asked for (``iteration`` of the agent task's kwargs).
    iteration: int = Field(ge=2, le=1000)
    #: The exception's class name, e.g. ``TimeoutError``.
    error_type: str = Field(default="Error", min_length=1, max_length=200)
    message: str = Field(default="", max_length=MAX_ERROR_MESSAGE_CHARS)
    #: The failed agent task's Celery id: a redelivered report is recorded once.
    task_id: str | None = Field(default=None, min_length=1, max_length=255)


DecisionKind = Literal["complete", "accept", "iterate", "exit", "review", "research"]
