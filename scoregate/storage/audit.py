"""The append-only audit trail (seed 002) and human escalations."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from scoregate.storage._sql import (
    check_one_of,
    dialect_insert,
    guarded_update,
    insert_ignore,
)
from scoregate.storage.tables import (
    ESCALATION_KINDS,
    ESCALATION_STATUSES,
    TIERS,
    Decision,
    Escalation,
    utcnow,
)

_OPEN = "status = 'open'"


def append_decision(
    session: Session,
    *,
    job_id: str,
    n: int,
    action: str,
    rationale: str,
    actor: str = "system",
    tier: str | None = None,
    band: str | None = None,
    confidence: float | None = None,
    quota_used: int | None = None,
    quota_remaining: int | None = None,
    details: dict[str, Any] | None = None,
    dedupe_key: str | None = None,
) -> Decision | None:
    """Append one line to the audit trail.

    Args:
        dedupe_key: a key unique to this decision (e.g. ``"{job}:{n}:control"``) so a
            redelivered task cannot write it twice.

    Returns:
        The new decision, or None when ``dedupe_key`` was already recorded.
    """
    check_one_of(tier, TIERS, "tier")
    row = {
        "job_id": job_id,
        "n": n,
        "action": action,
        "rationale": rationale,
        "actor": actor,
        "tier": tier,
        "band": band,
        "confidence": confidence,
        "quota_used": quota_used,
        "quota_remaining": quota_remaining,
        "details": dict(details or {}),
        "dedupe_key": dedupe_key,
        "created_at": utcnow(),
    }
    if dedupe_key is None:
        decision = Decision(**row)
        session.add(decision)
        session.flush()
        return decision
    stmt = dialect_insert(session, Decision).values(**row)
    if not insert_ignore(session, stmt.on_conflict_do_nothing(index_elements=["dedupe_key"])):
        return None
    return session.scalars(select(Decision).where(Decision.dedupe_key == dedupe_key)).one()


def open_escalation(session: Session, *, job_id: str, n: int, kind: str, reason: str) -> Escalation:
    """Open an escalation (``escalation`` or ``review``), or return the job's open one."""
    check_one_of(kind, ESCALATION_KINDS, "escalation kind")
    stmt = dialect_insert(session, Escalation).values(
        job_id=job_id, n=n, kind=kind, reason=reason, status="open", created_at=utcnow()
    )
    # The literal predicate lets Postgres infer the partial unique index.
    stmt = stmt.on_conflict_do_nothing(index_elements=["job_id"], index_where=text(_OPEN))
    for _ in range(3):
        session.execute(stmt)
        escalation = open_escalation_for(session, job_id=job_id)
        if escalation is not None:
            return escalation
        # The open one we collided with was resolved in between: try again.
    raise RuntimeError(f"could not open an escalation for job {job_id}")


def open_escalation_for(session: Session, *, job_id: str) -> Escalation | None:
    """Return the job's open escalation, if any."""
    stmt = select(Escalation).where(Escalation.job_id == job_id, Escalation.status == "open")
    return session.scalars(stmt).one_or_none()


def resolve_escalation(
    session: Session, *, job_id: str, status: str, actor: str, note: str | None = None
) -> Escalation | None:
    """Close the job's open escalation with ``status``; None if none is open.

    Of two concurrent resolvers, one gets the escalation and the other None.
    """
    check_one_of(status, [s for s in ESCALATION_STATUSES if s != "open"], "resolution")
    escalation = open_escalation_for(session, job_id=job_id)
    if escalation is None:
        return None
    where = [Escalation.id == escalation.id, Escalation.status == "open"]
    values = {"status": status, "resolved_by": actor, "note": note, "resolved_at": utcnow()}
    if guarded_update(session, Escalation, where, {"id": escalation.id}, **values) != 1:
        return None
    return escalation
