"""The CLI's ``--json`` documents (models in :mod:`scoregate.schemas.output`)."""

from __future__ import annotations

import time
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

#: Job statuses ``submit --wait`` stops waiting at (final, or waiting for a human).
WAIT_DONE = frozenset(
    {"accepted", "completed", "rejected", "escalated", "failed", "cancelled", "awaiting_review"}
)


def score_json(result: ScoreResult) -> str:
    return dump(ScoreOutput.model_validate(result.model_dump()))


def jobs_list_json(rows: list[dict[str, Any]]) -> str:
    return dump(JobListOutput(jobs=[JobSummary.model_validate(r) for r in rows]))


def job_json(job: dict[str, Any]) -> str:
    return dump(JobOutput.model_validate(job))


def submit_json(
    ids: list[str], *, wait: bool, timeout: float, poll_s: float = 0.5
) -> tuple[str, list[str]]:
    """The submit document, after waiting when asked; returns it and each job's status
    (none without ``wait``)."""
    if not wait:
        return dump(SubmitOutput(job_ids=ids)), []
    from scoregate.pipelines import api
    from scoregate.reports.render import latest_score

    deadline = time.monotonic() + timeout
    jobs = {j: api.get_job(j) for j in ids}
    while time.monotonic() < deadline and any(jobs[j]["status"] not in WAIT_DONE for j in ids):
        time.sleep(poll_s)
        jobs.update({j: api.get_job(j) for j in ids if jobs[j]["status"] not in WAIT_DONE})
    states = [JobState(id=j, status=jobs[j]["status"], score=latest_score(jobs[j])) for j in ids]
    pending = [s.id for s in states if s.status not in WAIT_DONE]
    return dump(SubmitOutput(job_ids=ids, jobs=states, pending=pending)), [s.status for s in states]
