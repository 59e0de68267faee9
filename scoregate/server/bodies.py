"""Request and response bodies of the HTTP API.

Submissions reuse the queue's own models (``ScoreRequest``, ``LoopPolicy``, ``TaskRef``,
``Hooks``), so a body the API accepts is one ``scoregate.control.submit`` accepts; the
pipeline's ``build_spec`` then applies the same allow-list and text checks as for Celery.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, field_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from scoregate.pipelines.validation import MAX_KEY_CHARS
from scoregate.schemas.details_doc import DecisionDetails, Documented
from scoregate.schemas.loop import (
    MAX_ERROR_MESSAGE_CHARS,
    AgentOutput,
    Hooks,
    LoopPolicy,
    TaskRef,
    TaskRefArg,
)
from scoregate.schemas.request import MAX_CONTENT_CHARS, ScoreRequest
from scoregate.schemas.result import Action, Band, ScoreResult, WeakFactor
from scoregate.storage.tables import JobStatus

IterationStatus = Literal["scoring", "fused", "decided", "failed", "stuck"]
#: What a call published: the broker took its messages, or they were left to the sweeper,
#: or it made none.
Published = Literal["queued", "deferred", "none"]
PUBLISHED_DOC = (
    "What this call published (the hooks, agent or research task, or next scores it"
    " started). queued: the broker took the messages; deferred: the broker did not take"
    " them, the change is recorded and the sweeper sends them once the broker is back"
    " (header X-Scoregate-Published too); none: this call published nothing."
)
#: A stored time as the API writes it: RFC 3339 in UTC, ``2026-12-01T12:00:00.123456Z``.
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


def rfc3339(value: str | datetime | None) -> str | None:
    """A stored time as the API writes it: RFC 3339 in UTC with ``Z``, to the
    microsecond (``2026-12-01T12:00:00.123456Z``); None stays None."""
    if value is None:
        return None
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    if when.tzinfo is None:
        raise ValueError(f"naive time {value!r}: the store keeps times in UTC, with their zone")
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _no_default(schema: dict[str, Any]) -> None:
    """Drop the schema's ``default``: the field is left out, not given a value."""
    schema.pop("default", None)


#: A task by name only (its default queue), as ``NAME@QUEUE``, or as
#: ``{"task": ..., "queue": ...}``.
TaskArg = TaskRefArg
ShortText = Annotated[str, Field(min_length=1, max_length=MAX_KEY_CHARS)]


class JobSubmission(BaseModel):
    """A job: the first iteration's request, the loop policy, the agent and the hooks."""

    model_config = ConfigDict(extra="forbid")

    request: ScoreRequest = Field(
        description="The first answer to score and the query it answers (as POST /v1/score"
        " takes it)."
    )
    loop: LoopPolicy | None = Field(
        default=None,
        description="The confidence loop. Absent: off, unless the job gives an `agent` (or"
        " its workflow task does); a loop giving `threshold` or `max_iterations` without"
        " `enabled` is on.",
    )
    agent: TaskArg | None = Field(
        default=None,
        description="The task the loop asks for the next answer (`NAME`, `NAME@QUEUE` or"
        ' `{task, queue}`; on SCOREGATE_ALLOWED_TASKS); `"external"`: an agent outside'
        " Celery that answers through POST /v1/jobs/{id}/agent-result. An agent turns the"
        " loop on unless `loop.enabled` is false.",
    )
    hooks: Hooks | None = Field(
        default=None,
        description="The same hooks as `on_pass`, `on_loop_exit` and `research`; one hook"
        " given in both places as two different tasks is refused.",
    )
    on_pass: TaskArg | None = Field(
        default=None,
        description="Called (a Celery task) when the job becomes `accepted`: the accept cut,"
        " the gate, or a person's approval; not for a `completed` job.",
    )
    on_loop_exit: TaskArg | None = Field(
        default=None,
        description="Called when the job leaves the loop without being accepted (ran out,"
        " agent failed, cancelled, rejected by a person), with `reason`.",
    )
    research: TaskArg | None = Field(
        default=None,
        description="The Celery task run for a low-confidence answer (gating) or a"
        " reviewer's research verdict; there is no HTTP form.",
    )
    task_name: ShortText | None = Field(
        default=None,
        description="The workflow file's task whose loop policy and agent the job takes.",
    )
    submitted_by: ShortText | None = Field(
        default=None,
        description=(
            "Who submits; default: the API key's name. With API keys, a different name is"
            " recorded beside the key's: 'bob (key ci)'."
        ),
    )
    idempotency_key: ShortText | None = Field(
        default=None,
        description="A second submit with the same key returns the first job. The same key"
        " as the Idempotency-Key header (UTF-8); no spaces at its start or end, which a"
        " header cannot carry.",
    )

    @field_validator("idempotency_key")
    @classmethod
    def _key_as_a_header_carries_it(cls, v: str | None) -> str | None:
        if v is not None and v != v.strip():
            raise ValueError(
                "idempotency_key has spaces at its start or end, which an Idempotency-Key"
                " header cannot carry (HTTP drops them, so the two would name two jobs):"
                " remove them"
            )
        return v


class JobAccepted(BaseModel):
    id: str
    status: JobStatus
    url: str
    #: True when the idempotency key named a job submitted before: nothing new was started.
    replayed: bool = False
    published: Published = Field(
        default="queued",
        description=(
            "What this call published. queued: the broker took the job's messages; deferred:"
            " the broker did not take them, the job is recorded and the sweeper publishes it"
            " once the broker is back (header X-Scoregate-Published too); none: a replay,"
            " this call published nothing (GET the job for where it stands)."
        ),
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="What the job will not do that its body suggests, e.g. an `on_pass` that"
        " is never sent because the loop and gating are off (the job is taken all the same).",
    )


class ReviewBody(BaseModel):
    """A reviewer's verdict on a job waiting for a human (``cancel``: on any job not final)."""

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


class ResearchQuotaLeft(BaseModel):
    remaining: int = Field(description="Research runs left in this clock hour (UTC).")
    limit: int = Field(description="Research runs a clock hour allows.")


class ReviewDone(BaseModel):
    id: str
    verdict: Literal["approve", "reject", "research", "cancel"]
    reviewer: str
    status: JobStatus
    published: Published = Field(description=PUBLISHED_DOC)
    research_quota: ResearchQuotaLeft | None = Field(
        default=None,
        description="Only with a research verdict (absent otherwise): the runs left this clock"
        " hour (the count starts again on the hour, UTC), as `scoregate review --research`"
        " prints them.",
    )


class CancelBody(BaseModel):
    """Who cancels and why; both optional (default: the API key's name, no note)."""

    model_config = ConfigDict(extra="forbid")

    actor: ShortText | None = Field(
        default=None,
        description=(
            "Who cancels; default: the API key's name. With API keys, a different name is"
            " recorded beside the key's: 'bob (key ci)'."
        ),
    )
    #: The same as ``actor``, as the review route names it; give one of them.
    reviewer: ShortText | None = None
    note: str | None = Field(default=None, max_length=10_000)


class Cancelled(BaseModel):
    id: str
    #: The status the job was cancelled from.
    previous_status: JobStatus
    actor: str
    status: JobStatus
    published: Published = Field(description=PUBLISHED_DOC)


def _as_sent(value: Any) -> Any:
    return value


class AgentResultBody(BaseModel):
    """The agent's next answer, as ``scoregate.control.agent_result`` takes it."""

    model_config = ConfigDict(extra="forbid")

    #: The iteration the answer is for: the one the job waits for (current_iteration + 1).
    iteration: int = Field(ge=2, le=1000, strict=True)
    #: The revised text, or ``{content, eval_metrics, self_reported_confidence}``. Any JSON
    #: value is taken, as the Celery task takes it: the agent step checks it, and one it
    #: cannot score counts as an agent failure (422), none at all (``undefined`` dropped by
    #: ``JSON.stringify``) included.
    output: Annotated[Any, PlainValidator(_as_sent, json_schema_input_type=str | AgentOutput)] = (
        None
    )
    #: The Celery task's deprecated alias of ``iteration``: refused here, saying so.
    n: SkipJsonSchema[Any] = None

    @field_validator("n", mode="before")
    @classmethod
    def _n_is_iteration(cls, value: Any) -> Any:
        if value is None:
            return None
        shown = value if isinstance(value, int) else "N"
        raise PydanticCustomError(
            "n_is_iteration",
            f"`n` is named `iteration` over HTTP (`n` is the Celery task's deprecated alias):"
            f' send {{"iteration": {shown}, "output": ...}}',
        )


class AgentErrorBody(BaseModel):
    """The agent failed to answer ``iteration``, as ``scoregate.control.agent_error``
    takes it (without ``job_id``: the path names the job)."""

    model_config = ConfigDict(extra="forbid")

    iteration: int = Field(ge=2, le=1000, strict=True)
    error_type: str = Field(default="Error", min_length=1, max_length=200)
    message: str = Field(default="", max_length=MAX_ERROR_MESSAGE_CHARS)
    task_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=255,
        description="An id of this failure (a Celery agent's task id; any unique string over"
        " HTTP, or the Idempotency-Key header): a report sent again with it counts once."
        " Without one, a retried POST counts as a second failure.",
    )


class AgentReplyTaken(BaseModel):
    id: str
    iteration: int
    #: The job's status once the answer (or error) was recorded.
    status: JobStatus
    current_iteration: int
    #: For an answer: ``scoring`` (taken) or ``duplicate`` (the iteration holds this
    #: answer already: nothing done); for an error report: ``retried``, ``escalated``,
    #: ``failed`` (what the job did) or ``duplicate`` (a ``task_id`` sent before).
    outcome: Literal["scoring", "duplicate", "retried", "escalated", "failed"]
    published: Published = Field(description=PUBLISHED_DOC)


APPROVED_DOC = (
    "Whether the job's answer may be used (gate on this): true when the job is `accepted`"
    " (an iteration reached the accept cut, the seed-002 gate let a high-confidence answer"
    " through, or a person approved it) or `completed` (the loop off) with the final"
    " `action` `accept`; false otherwise (not final yet, `rejected`, `failed`, `cancelled`,"
    " or `completed` with `review`, `iterate` or `reject`)."
)
REVIEWED_BY_DOC = (
    "The person who approved or rejected the job (the review's `resolved_by`); null when no"
    " person decided it. A person's approval leaves `action` as the score recommended it"
    " (e.g. `review`)."
)


class JobSummary(BaseModel):
    id: str
    status: JobStatus
    iteration: int
    created_at: Timestamp
    updated_at: Timestamp
    #: The final score and band; for a job not final yet (waiting for a human, say), its
    #: latest scored iteration's; null before any score.
    score: float | None = None
    band: Band | None = None
    #: The score's recommended action in the final result; null while the job is not
    #: final, or when it ended without a score. A person's approval does not change it:
    #: gate on ``approved``.
    action: Action | None = None
    approved: bool = Field(default=False, description=APPROVED_DOC)
    reviewed_by: str | None = Field(default=None, description=REVIEWED_BY_DOC)
    url: str


class JobPage(BaseModel):
    jobs: list[JobSummary]
    #: Pass as ``cursor`` to get the next page; null on the last page.
    next_cursor: str | None = None


class TrackRow(BaseModel):
    """One track's stored score for an iteration."""

    created_at: Timestamp
    status: Literal["ok", "failed", "timeout"]
    score: float | None
    #: The track's full output (``{"tracks": {name: TrackScore}}``).
    payload: dict[str, Any]
    elapsed_ms: float


class IterationOut(BaseModel):
    """One iteration: its fused score, the gate's action, reasons and the full breakdown."""

    n: int
    created_at: Timestamp
    updated_at: Timestamp
    expected_tracks: list[str]
    landed_tracks: int
    fusion_claimed: bool
    fused_at: Timestamp | None
    decided_at: Timestamp | None
    status: IterationStatus
    score: float | None
    score_100: int | None
    band: Band | None
    action: Action | None
    calibrated: float | None
    components: dict[str, float] | None
    weights: dict[str, float] | None
    reasons: list[str] | None
    #: The full breakdown (as ``POST /v1/score`` returns it); null before fusion.
    result: ScoreResult | None
    timings: dict[str, float] | None
    published_at: Timestamp | None
    deliveries: int
    tracks: dict[str, TrackRow]
    #: With ``?content=true``: the text scored (the accepted answer is that of iteration
    #: ``current_iteration``) and the request it was scored with, without its ``content``.
    content: str | None = None
    request: dict[str, Any] | None = None


class DecisionOut(BaseModel):
    """One line of the audit trail."""

    id: int
    created_at: Timestamp
    n: int
    tier: Literal["high", "medium", "low"] | None
    band: Band | None
    confidence: float | None
    #: complete, accept, iterate, exit, review, research, approve, reject, cancel,
    #: agent_error, agent_result_refused, submit_refused, fail, escalate...
    action: str
    rationale: str
    actor: str
    quota_used: int | None
    quota_remaining: int | None
    #: A plain dict; its keys, by ``action``, are declared for clients in ``details_doc``.
    details: Annotated[dict[str, Any], Documented(DecisionDetails)] = Field(
        description="More about the decision; the keys depend on its action."
    )
    dedupe_key: str | None


class EscalationOut(BaseModel):
    """A hand-off to a human: ``escalation`` (the loop gave up) or ``review`` (the gate)."""

    id: int
    n: int
    created_at: Timestamp
    kind: Literal["escalation", "review"]
    reason: str
    status: Literal["open", "approved", "rejected", "research", "cancelled"]
    resolved_at: Timestamp | None
    resolved_by: str | None
    note: str | None


class DispatchOut(BaseModel):
    """A hook or agent task scoregate sent for the job (through Celery)."""

    id: int
    n: int
    kind: Literal["hook", "agent"]
    role: str
    task: str
    queue: str
    sent_at: Timestamp
    celery_task_id: str
    #: Null while the broker has not taken it (the sweeper sends it again).
    published_at: Timestamp | None


class SubmittedRequest(ScoreRequest):
    """The request a job was submitted with; its ``content`` (the first answer) is left
    out with ``?content=false``."""

    content: str = Field(default="", max_length=MAX_CONTENT_CHARS, json_schema_extra=_no_default)


class RefusedRequest(BaseModel):
    """An empty object: the job's body was refused when it was sent (through Celery, which
    leaves a failed job under its key); ``failure_reason`` says why."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"maxProperties": 0})


class AgentFeedback(BaseModel):
    """The verdict on the agent's last answer, as an agent task receives it (``feedback``)."""

    #: The iteration judged (the answer asked for is the next one).
    iteration: int
    score: float
    band: Band
    action: Action
    reasons: list[str]
    #: The constraints the answer broke: ``{kind, label, passed, hard, reason, inferred}``.
    failed_constraints: list[dict[str, Any]]
    weakest_factors: list[WeakFactor]


class AgentRequestOut(BaseModel):
    """What the agent is asked for while the job waits on it, as an agent task is sent it:
    for an external agent (``agent: "external"``), the request to answer through
    ``POST /v1/jobs/{id}/agent-result``."""

    #: The iteration the answer is for (send it as ``iteration``).
    iteration: int
    #: The job's query (that of its submitted request).
    query: str
    #: The last answer: the content of iteration ``iteration - 1`` (left out with
    #: ``?content=false``).
    previous_content: str = Field(default="", json_schema_extra=_no_default)
    feedback: AgentFeedback


class JobDetail(BaseModel):
    """A job with every iteration's breakdown, its decisions (the audit trail),
    escalations and dispatches."""

    id: str
    created_at: Timestamp
    updated_at: Timestamp
    status: JobStatus
    request: SubmittedRequest | RefusedRequest = Field(
        description="The submitted request (its `content` is the first answer); an empty"
        " object for a job whose body was refused when sent (`status` failed,"
        " `failure_reason` says why)."
    )
    policy: LoopPolicy
    agent: TaskRef | None
    hooks: Hooks
    current_iteration: int
    #: The final breakdown (its ``action`` is the score's recommendation, which a person's
    #: approval does not change: gate on ``approved``). Null until final.
    final_result: ScoreResult | None
    approved: bool = Field(description=APPROVED_DOC)
    reviewed_by: str | None = Field(description=REVIEWED_BY_DOC)
    failure_reason: str | None
    task_name: str | None
    submitted_by: str | None
    idempotency_key: str | None
    iterations: list[IterationOut]
    decisions: list[DecisionOut]
    escalations: list[EscalationOut]
    dispatches: list[DispatchOut]
    #: Set while the job waits on its agent: the iteration to answer and the feedback.
    agent_request: AgentRequestOut | None


class JobState(BaseModel):
    """The light form of a job, for polling: where it stands and its verdict."""

    id: str
    status: JobStatus
    current_iteration: int
    updated_at: Timestamp
    #: ``final_result.action``: the score's recommendation; null while not final. A
    #: person's approval does not change it: gate on ``approved``.
    action: Action | None
    approved: bool = Field(description=APPROVED_DOC)
    reviewed_by: str | None = Field(description=REVIEWED_BY_DOC)
    final_result: ScoreResult | None
    failure_reason: str | None
    url: str


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: str
    broker: str
    mode: Literal["embedded", "celery"]
    #: The scoregate package's version (``scoregate --version``).
    version: str
