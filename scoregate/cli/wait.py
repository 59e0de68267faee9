"""``scoregate submit --wait``: poll the jobs until each has stopped, and the exit status
that tells their verdict.

A job has stopped when it is final or waits for a human. It is approved when it is
``accepted``, or ``completed`` (the loop off: scored once) with the final action
``accept``; a completed job whose gate said review, iterate or reject is not.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: Job statuses ``submit --wait`` stops waiting at (final, or waiting for a human).
WAIT_DONE = frozenset(
    {"accepted", "completed", "rejected", "escalated", "failed", "cancelled", "awaiting_review"}
)
#: Exit status when a job was still running at ``--timeout``.
TIMED_OUT = 1
#: Exit status when every job has stopped and one is not approved: a script can use the
#: answers only on 0. 2 is bad input, 3 a broker that did not take the jobs.
NOT_APPROVED_EXIT = 4


def final_action(job: dict[str, Any]) -> str | None:
    """The gate's action in the job's final result (``None`` before it has one)."""
    action = (job.get("final_result") or {}).get("action")
    return str(action) if action is not None else None


def approved(job: dict[str, Any]) -> bool:
    """Accepted, or completed with the final action ``accept``."""
    status = job.get("status")
    return status == "accepted" or (status == "completed" and final_action(job) == "accept")


def exit_status(jobs: list[dict[str, Any]]) -> int:
    """0 when every job is approved, 4 when every job has stopped and one is not, 1 when
    one is still running."""
    if any(job.get("status") not in WAIT_DONE for job in jobs):
        return TIMED_OUT
    if not all(approved(job) for job in jobs):
        return NOT_APPROVED_EXIT
    return 0


def wait_for(
    ids: list[str],
    timeout: float,
    *,
    poll_s: float = 0.5,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Read the jobs until every one has stopped or ``timeout`` passes; returns each job
    as last read, in the order of ``ids``. ``progress`` gets the number still running."""
    from scoregate.pipelines import api

    deadline = time.monotonic() + timeout
    jobs = {job_id: api.get_job(job_id) for job_id in ids}
    while True:
        running = [j for j in ids if jobs[j]["status"] not in WAIT_DONE]
        if progress is not None:
            progress(len(running))
        if not running or time.monotonic() >= deadline:
            return [jobs[j] for j in ids]
        time.sleep(poll_s)
        jobs.update({j: api.get_job(j) for j in running})
