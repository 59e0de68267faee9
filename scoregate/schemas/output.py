"""What ``--json`` prints: one versioned model per command.

Every JSON document the CLI prints carries ``schema_version``; a change that removes or
renames a field, or changes its type, raises it. Adding a field does not (readers ignore
fields they do not know). The JSON Schemas in ``docs/json/`` are exported from these
models (``python -m scoregate.schemas.output docs/json``) and a test keeps them equal.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scoregate.schemas.result import ScoreResult

#: The version of every JSON document the CLI prints.
SCHEMA_VERSION: Literal[1] = 1

Version = Literal[1]
_VERSION_DOC = "Version of this document's shape; raised on any incompatible change."


class _Versioned(BaseModel):
    schema_version: Version = Field(default=SCHEMA_VERSION, description=_VERSION_DOC)


class _Open(BaseModel):
    """A stored record: fields added by a newer database schema pass through."""

    model_config = ConfigDict(extra="allow")


class ScoreOutput(ScoreResult):
    """``scoregate score --json``: the breakdown of one output, scored in process."""

    schema_version: Version = Field(default=SCHEMA_VERSION, description=_VERSION_DOC)


#: ``approved`` and ``reviewed_by``, as the HTTP API and ``scoregate.get_job`` give them.
APPROVED_DOC = (
    "Whether the job's answer may be used (gate on this): accepted (the accept cut, the"
    " seed-002 gate's auto-proceed, or a person's approval), or completed (the loop off)"
    " with action accept; false otherwise, a job not final yet included."
)
REVIEWED_BY_DOC = (
    "The person who approved or rejected the job; null when no person decided it (a"
    " person's approval leaves action as the score recommended it, e.g. review)."
)
_ACTION_DOC = (
    "The final result's action (accept, review, iterate, reject): the score's"
    " recommendation, which a person's approval does not change (see approved); null"
    " until the job has a final result."
)


class JobSummary(BaseModel):
    """One row of ``jobs list``."""

    id: str
    status: str
    iteration: int = Field(description="The job's current iteration (0 before the first).")
    score: float | None = Field(description="The final fused score, once the job has one.")
    band: str | None = Field(description="GREEN, AMBER or RED, once the job has a score.")
    action: str | None = Field(default=None, description=_ACTION_DOC)
    approved: bool = Field(default=False, description=APPROVED_DOC)
    reviewed_by: str | None = Field(default=None, description=REVIEWED_BY_DOC)
    created_at: datetime


class JobListOutput(_Versioned):
    """``scoregate jobs list --json``: the newest jobs first."""

    jobs: list[JobSummary]


class TrackRow(_Open):
    created_at: datetime
    status: str = Field(description="ok, failed or timeout.")
    score: float | None
    payload: dict[str, Any] = Field(description="The track's details and reasons.")
    elapsed_ms: float


class IterationRow(_Open):
    n: int
    status: str = Field(description="scoring, fused, decided, failed or stuck.")
    created_at: datetime
    score: float | None
    band: str | None
    action: str | None
    calibrated: float | None
    reasons: list[Any] | None
    result: dict[str, Any] | None = Field(description="The full breakdown (see score --json).")
    tracks: dict[str, TrackRow] = Field(description="Each track's stored result, by name.")


class DecisionRow(_Open):
    created_at: datetime
    n: int
    tier: str | None
    band: str | None
    confidence: float | None
    action: str
    rationale: str
    actor: str


class EscalationRow(_Open):
    n: int
    created_at: datetime
    kind: str
    reason: str
    status: str
    resolved_at: datetime | None
    resolved_by: str | None
    note: str | None


class DispatchRow(_Open):
    n: int = Field(description="A hook's decided iteration; the one an agent is asked for.")
    kind: str = Field(description="hook or agent.")
    role: str = Field(description="on_pass, on_loop_exit, agent or research.")
    task: str
    queue: str
    sent_at: datetime
    celery_task_id: str
    published_at: datetime | None = Field(
        default=None,
        description="When the broker took it; null while the sweeper still has to send it.",
    )


class JobOutput(_Versioned, _Open):
    """``scoregate jobs show ID --json``: the job, every iteration, decision and escalation."""

    id: str
    status: str
    created_at: datetime
    updated_at: datetime
    current_iteration: int
    request: dict[str, Any]
    policy: dict[str, Any]
    agent: dict[str, Any] | None
    hooks: dict[str, Any]
    final_result: dict[str, Any] | None
    approved: bool = Field(default=False, description=APPROVED_DOC)
    reviewed_by: str | None = Field(default=None, description=REVIEWED_BY_DOC)
    failure_reason: str | None
    task_name: str | None
    submitted_by: str | None
    idempotency_key: str | None
    iterations: list[IterationRow]
    decisions: list[DecisionRow]
    escalations: list[EscalationRow]
    dispatches: list[DispatchRow] = Field(
        default_factory=list, description="Every hook and agent task sent for the job."
    )


class JobState(BaseModel):
    """A submitted job's state when ``submit --wait`` returned."""

    id: str
    status: str
    score: float | None
    action: str | None = Field(
        default=None,
        description="The final result's action (accept, review, iterate, reject): the gate's"
        " verdict; null while the job has none (running, or waiting for a human).",
    )


class SubmitOutput(_Versioned):
    """``scoregate submit --json``: the ids of the jobs submitted, in input order."""

    job_ids: list[str]
    jobs: list[JobState] | None = Field(
        default=None, description="With --wait: each job's state when the wait ended."
    )
    pending: list[str] | None = Field(
        default=None,
        description="With --wait: the jobs neither final nor waiting for a human when it"
        " ended; when the broker did not take them: every job recorded. Null otherwise"
        " (without --wait nothing is known of them yet).",
    )


#: ``docs/json/<name>.schema.json`` -> the model it is exported from.
OUTPUTS: dict[str, type[BaseModel]] = {
    "score": ScoreOutput,
    "submit": SubmitOutput,
    "jobs-list": JobListOutput,
    "jobs-show": JobOutput,
}


def schema_text(model: type[BaseModel]) -> str:
    """The model's JSON Schema as written to ``docs/json`` (sorted keys, 2-space indent)."""
    return (
        json.dumps(model.model_json_schema(mode="serialization"), indent=2, sort_keys=True) + "\n"
    )


def write_schemas(directory: Path) -> list[Path]:
    """Export every output's JSON Schema into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in OUTPUTS.items():
        path = directory / f"{name}.schema.json"
        path.write_text(schema_text(model), encoding="utf-8")
        written.append(path)
    return written


def dump(model: BaseModel) -> str:
    """A document as the CLI prints it."""
    return model.model_dump_json(indent=2)


if __name__ == "__main__":  # python -m scoregate.schemas.output docs/json
    for path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/json")):
        print(path)
