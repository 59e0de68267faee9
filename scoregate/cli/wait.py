"""``scoregate submit --wait``: poll the jobs until each has stopped, and the exit status
that tells their verdict.

A job has stopped when it is final or waits for a human. It is approved when it is
``accepted``, or ``completed`` (the loop off: scored once) with the final action
``accept``; a completed job whose gate said review, iterate or reject is not.

A database read that fails for a while (a restart, a fail-over) is retried with backoff
until the timeout: the jobs are recorded and go on without this client.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: Job statuses ``submit --wait`` stops waiting at (final, or waiting for a human).
WAIT_DONE = frozenset(
    {"accepted", "completed", "rejected", "escalated", "failed", "cancelled", "awaiting_review"}
)
#: Exit status when every job has stopped and one is not approved: a script can use the
#: answers only on 0. 1 is a database error (as for every command), 2 bad input, 3 a
#: broker that did not take the jobs.
NOT_APPROVED_EXIT = 4
#: Exit status when a job was still running at ``--timeout``.
TIMED_OUT = 5
#: The longest pause between two reads of a database that fails.
MAX_BACKOFF_S = 5.0


class WaitAborted(Exception):
    """The database could not be read (for good, or until the timeout)."""

    def __init__(self, jobs: dict[str, dict[str, Any]], cause: BaseException) -> None:
        super().__init__(str(cause))
        #: Each job as last read (a job never read is missing).
        self.jobs = jobs
        self.cause = cause


def final_action(job: dict[str, Any]) -> str | None:
    """The gate's action in the job's final result (``None`` before it has one)."""
    action = (job.get("final_result") or {}).get("action")
    return str(action) if action is not None else None


def approved(job: dict[str, Any]) -> bool:
    """Accepted, or completed with the final action ``accept``."""
    status = job.get("status")
    return status == "accepted" or (status == "completed" and final_action(job) == "accept")


def exit_status(jobs: list[dict[str, Any]]) -> int:
    """0 when every job is approved, 4 when every job has stopped and one is not, 5
    (:data:`TIMED_OUT`) when one is still running."""
    if any(job.get("status") not in WAIT_DONE for job in jobs):
        return TIMED_OUT
    if not all(approved(job) for job in jobs):
        return NOT_APPROVED_EXIT
    return 0


def is_transient(exc: BaseException) -> bool:
    """A database error a later read may not meet: the server away, restarting, the
    connection lost or no pooled connection free; not a missing table or column (no wait
    brings those back), nor anything else."""
    from sqlalchemy.exc import InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from scoregate.cli.errors import MISSING_SCHEMA

    if not isinstance(exc, (OperationalError, InterfaceError, PoolTimeout)):
        return False
    text = f"{type(getattr(exc, 'orig', None)).__name__} {exc}".lower()
    return not any(marker in text for marker in MISSING_SCHEMA)


def wait_for(
    ids: list[str],
    timeout: float,
    *,
    poll_s: float = 0.5,
    progress: Callable[[int], None] | None = None,
    on_retry: Callable[[BaseException], None] | None = None,
) -> list[dict[str, Any]]:
    """Read the jobs until every one has stopped or ``timeout`` passes; returns each job
    as last read, in the order of ``ids``. ``progress`` gets the number still running;
    ``on_retry`` gets each transient database error before its retry.

    Raises:
        WaitAborted: a database error that is not transient, or a transient one that
            lasted until the timeout.
    """
    from scoregate.cli.errors import is_database_error
    from scoregate.pipelines import api

    deadline = time.monotonic() + timeout
    jobs: dict[str, dict[str, Any]] = {}
    backoff = poll_s
    while True:
        unread = [j for j in ids if j not in jobs or jobs[j]["status"] not in WAIT_DONE]
        try:
            jobs.update({j: api.get_job(j) for j in unread})
        except Exception as exc:
            if not is_database_error(exc):
                raise
            if not is_transient(exc) or time.monotonic() >= deadline:
                raise WaitAborted(jobs, exc) from exc
            if on_retry is not None:
                on_retry(exc)
            backoff = min(backoff * 2, MAX_BACKOFF_S)
            time.sleep(max(0.0, min(backoff, deadline - time.monotonic())))
            continue
        backoff = poll_s
        running = [j for j in ids if jobs[j]["status"] not in WAIT_DONE]
        if progress is not None:
            progress(len(running))
        if not running or time.monotonic() >= deadline:
            return [jobs[j] for j in ids]
        time.sleep(poll_s)
