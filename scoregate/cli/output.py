"""The CLI's ``--json`` documents (models in :mod:`scoregate.schemas.output`)."""

from __future__ import annotations

from typing import Any

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
        return dump(SubmitOutput(job_ids=ids, pending=pending))
    from scoregate.cli.wait import WAIT_DONE, final_action
    from scoregate.reports.render import latest_score

    states = [
        JobState(
            id=job["id"], status=job["status"], score=latest_score(job), action=final_action(job)
        )
        for job in jobs
    ]
    if pending is None:
        pending = [s.id for s in states if s.status not in WAIT_DONE]
    return dump(SubmitOutput(job_ids=ids, jobs=states, pending=pending))
