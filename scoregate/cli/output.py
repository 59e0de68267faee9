"""The CLI's ``--json`` documents (models in :mod:`scoregate.schemas.output`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from scoregate.schemas.output import (
    JobListOutput,
    JobOutput,
    JobState,
    JobSummary,
    ScoreOutput,
    SubmitOutput,
    dump,
)
from scoregate.schemas.result import ScoreResult


class WaitedJob(JobState):
    """A job's state when ``submit --wait`` returned, with the gate's verdict."""

    action: str | None = Field(
        default=None,
        description="The final result's action (accept, review, iterate, reject); null"
        " while the job has none (running, or waiting for a human).",
    )


class WaitedSubmit(SubmitOutput):
    """``scoregate submit --wait --json``."""

    jobs: list[WaitedJob] | None = Field(  # type: ignore[assignment]
        default=None, description="With --wait: each job's state when the wait ended."
    )


def score_json(result: ScoreResult) -> str:
    return dump(ScoreOutput.model_validate(result.model_dump()))


def jobs_list_json(rows: list[dict[str, Any]]) -> str:
    return dump(JobListOutput(jobs=[JobSummary.model_validate(r) for r in rows]))


def job_json(job: dict[str, Any]) -> str:
    return dump(JobOutput.model_validate(job))


def submit_json(
    ids: list[str], jobs: list[dict[str, Any]] | None = None, pending: list[str] | None = None
) -> str:
    """The submit document: the ids, and after ``--wait`` each job as last read and the
    ids of those still running (``pending``)."""
    if jobs is None:
        return dump(SubmitOutput(job_ids=ids, pending=pending or []))
    from scoregate.cli.wait import WAIT_DONE, final_action
    from scoregate.reports.render import latest_score

    states = [
        WaitedJob(
            id=job["id"], status=job["status"], score=latest_score(job), action=final_action(job)
        )
        for job in jobs
    ]
    if pending is None:
        pending = [s.id for s in states if s.status not in WAIT_DONE]
    return dump(WaitedSubmit(job_ids=ids, jobs=states, pending=pending))
