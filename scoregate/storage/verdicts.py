"""Reviewers' verdicts on scored iterations, and the calibration maps fitted to them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scoregate.storage.tables import (
    CalibrationMap,
    Verdict,
)


def add_verdict(
    session: Session, *, job_id: str, n: int, score: float, accepted: bool, actor: str = "system"
) -> Verdict:
    """Record whether a scored iteration was accepted, for calibration."""
    verdict = Verdict(job_id=job_id, n=n, score=score, accepted=accepted, actor=actor)
    session.add(verdict)
    session.flush()
    return verdict


def list_verdicts(
    session: Session, *, since: datetime | None = None, limit: int | None = None
) -> list[Verdict]:
    """Return verdicts oldest first, optionally only those created at or after ``since``."""
    stmt = select(Verdict).order_by(Verdict.id)
    if since is not None:
        stmt = stmt.where(Verdict.created_at >= since)
    if limit is not None:
        stmt = stmt.limit(limit)
    return list(session.scalars(stmt))


def save_calibration_map(
    session: Session,
    *,
    kind: str,
    params: dict[str, Any],
    n_samples: int,
    ece_before: float | None = None,
    ece_after: float | None = None,
) -> CalibrationMap:
    """Store a fitted calibration as the next version (a concurrent save fails on flush)."""
    version = (session.scalar(select(func.max(CalibrationMap.version))) or 0) + 1
    cal = CalibrationMap(
        version=version,
        kind=kind,
        params=params,
        n_samples=n_samples,
        ece_before=ece_before,
        ece_after=ece_after,
    )
    session.add(cal)
    session.flush()
    return cal


def latest_calibration_map(session: Session, *, kind: str | None = None) -> CalibrationMap | None:
    """Return the highest-version calibration map (of ``kind``, if given)."""
    stmt = select(CalibrationMap).order_by(CalibrationMap.version.desc()).limit(1)
    if kind is not None:
        stmt = stmt.where(CalibrationMap.kind == kind)
    return session.scalars(stmt).first()
