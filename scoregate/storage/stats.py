"""Read-only queries for reports, re-thresholding and calibration, over a time window."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from scoregate.storage.tables import Decision, Iteration, Job, Verdict

#: Job statuses that still move without a human; a report counts the others as finished.
IN_PROGRESS = ("pending", "running", "awaiting_agent", "researching")


class FusedScore(NamedTuple):
    """One fused iteration, as stored."""

    job_id: str
    n: int
    score: float
    band: str
    action: str
    previous_score: float | None
    fused_at: datetime


def _between(column: Any, since: datetime, until: datetime | None) -> list[ColumnElement[bool]]:
    where = [column >= since]
    if until is not None:
        where.append(column < until)
    return where


def fused_scores(
    session: Session, *, since: datetime, until: datetime | None = None
) -> list[FusedScore]:
    """Iterations fused in ``[since, until)``, oldest first."""
    stmt = (
        select(
            Iteration.job_id,
            Iteration.n,
            Iteration.score,
            Iteration.band,
            Iteration.action,
            Iteration.request["previous_score"].as_float(),
            Iteration.fused_at,
        )
        .where(Iteration.score.is_not(None), *_between(Iteration.fused_at, since, until))
        .order_by(Iteration.fused_at, Iteration.id)
    )
    return [FusedScore(*row) for row in session.execute(stmt)]


def decision_counts(
    session: Session, *, since: datetime, until: datetime | None = None
) -> dict[str, int]:
    """Audit-trail decisions made in the window, by action."""
    stmt = (
        select(Decision.action, func.count())
        .where(*_between(Decision.created_at, since, until))
        .group_by(Decision.action)
    )
    return {action: int(count) for action, count in session.execute(stmt)}


def exit_reasons(
    session: Session, *, since: datetime, until: datetime | None = None
) -> dict[str, int]:
    """Loop exits (``exit`` decisions) in the window, by exit reason."""
    reason = Decision.details["exit_reason"].as_string()
    stmt = (
        select(reason, func.count())
        .where(Decision.action == "exit", *_between(Decision.created_at, since, until))
        .group_by(reason)
    )
    return {str(r or "unknown"): int(count) for r, count in session.execute(stmt)}


def iterations_per_job(
    session: Session, *, since: datetime, until: datetime | None = None
) -> tuple[list[int], int]:
    """Iterations of each finished job created in the window; and how many are in progress."""
    window = _between(Job.created_at, since, until)
    finished = select(Job.current_iteration).where(
        Job.status.not_in(IN_PROGRESS), Job.current_iteration > 0, *window
    )
    running = select(func.count()).select_from(Job).where(Job.status.in_(IN_PROGRESS), *window)
    return [int(n) for n in session.scalars(finished)], int(session.scalar(running) or 0)


def calibration_pairs(
    session: Session, *, since: datetime | None = None
) -> tuple[list[float], list[bool]]:
    """(score, accepted) of every verdicted iteration; a later verdict on it wins."""
    stmt = select(Verdict.job_id, Verdict.n, Verdict.score, Verdict.accepted).order_by(Verdict.id)
    if since is not None:
        stmt = stmt.where(Verdict.created_at >= since)
    latest: dict[tuple[str, int], tuple[float, bool]] = {}
    for job_id, n, score, accepted in session.execute(stmt):
        latest[(job_id, n)] = (float(score), bool(accepted))
    return [s for s, _ in latest.values()], [a for _, a in latest.values()]
