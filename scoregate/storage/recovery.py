"""Queries for recovery: jobs waiting on a lost agent, track results already recorded."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from scoregate.storage._sql import select_in
from scoregate.storage.tables import Iteration, Job, TrackResult

#: Job statuses in which the loop waits for the agent (or research task) to answer.
WAITING_ON_AGENT: tuple[str, ...] = ("awaiting_agent", "researching")


def position(status: str, iteration: int) -> str:
    """Where a job stands, for a message about an answer that came at the wrong time:
    "waiting for iteration 2", "completed at iteration 3"."""
    if status in WAITING_ON_AGENT:
        return f"waiting for iteration {iteration + 1}"
    return f"{status} at iteration {iteration}"


def stale_agent_waits(
    session: Session, *, older_than: datetime, limit: int = 100
) -> list[Iteration]:
    """Return decided iterations whose job still waits on the agent since before ``older_than``.

    The iteration is the job's current one: the agent was asked for ``n + 1`` when it was
    decided (``decided_at``) or re-asked by the sweeper (``published_at``), and nothing
    came back. Oldest first.
    """
    stmt = (
        select(Iteration)
        .join(Job, Job.id == Iteration.job_id)
        .where(
            Job.status.in_(WAITING_ON_AGENT),
            Iteration.n == Job.current_iteration,
            Iteration.status == "decided",
            Iteration.decided_at < older_than,
            Iteration.published_at < older_than,
        )
        .order_by(Iteration.published_at)
        .limit(limit)
    )
    return list(session.scalars(stmt))


def recorded_tracks(
    session: Session, *, track: str, refs: Collection[tuple[str, int]]
) -> set[tuple[str, int]]:
    """Return which of the ``(job_id, n)`` iterations already hold a result for ``track``."""
    wanted = set(refs)
    stmt = select(TrackResult.job_id, TrackResult.n).where(TrackResult.track == track)
    rows = select_in(session, stmt, TrackResult.job_id, {job_id for job_id, _ in wanted})
    return {(job_id, n) for job_id, n in rows} & wanted
