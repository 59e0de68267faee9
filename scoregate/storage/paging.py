"""Paged job listings with an opaque keyset cursor, and the review queue.

A cursor names the last job of a page by ``(created_at, id)``; the next page starts
strictly after it, so pages stay stable while new jobs arrive (no OFFSET drift).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Collection
from datetime import datetime

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from scoregate.storage.tables import Escalation, Job

#: The most jobs one page may hold.
MAX_PAGE = 200


def encode_cursor(job: Job) -> str:
    """The opaque cursor that resumes a listing after ``job``."""
    raw = json.dumps([job.created_at.isoformat(), job.id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Read a cursor back; a ``ValueError`` says how to recover from a bad one."""
    bad = ValueError(
        f"cursor {cursor[:40]!r} is not one this API returned: pass the next_cursor of the"
        " previous page unchanged, or leave cursor out to start from the newest job"
    )
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        when, job_id = json.loads(raw)
        return datetime.fromisoformat(when), str(job_id)
    except (binascii.Error, ValueError, TypeError, UnicodeDecodeError):
        raise bad from None


def page_jobs(
    session: Session,
    *,
    status: str | Collection[str] | None = None,
    limit: int = 50,
    cursor: str | None = None,
) -> tuple[list[Job], str | None]:
    """One page of jobs, newest first, with ``status`` (one, or any of several; all jobs
    when None or empty); returns the jobs and the next page's cursor (or None)."""
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be between 1 and {MAX_PAGE}, got {limit}")
    stmt = select(Job).order_by(Job.created_at.desc(), Job.id.desc()).limit(limit + 1)
    statuses = [status] if isinstance(status, str) else list(status or ())
    if statuses:
        stmt = stmt.where(Job.status.in_(statuses))
    if cursor is not None:
        when, job_id = decode_cursor(cursor)
        stmt = stmt.where(or_(Job.created_at < when, and_(Job.created_at == when, Job.id < job_id)))
    jobs = list(session.scalars(stmt))
    more = len(jobs) > limit
    jobs = jobs[:limit]
    return jobs, encode_cursor(jobs[-1]) if more and jobs else None


def waiting_for_review(
    session: Session, *, limit: int = 100, offset: int = 0, kind: str | None = None
) -> list[tuple[Job, Escalation]]:
    """Jobs with an open escalation or review, longest waiting first (``offset`` skips that
    many; ``kind`` keeps one escalation kind)."""
    stmt = (
        select(Job, Escalation)
        .join(Escalation, Escalation.job_id == Job.id)
        .where(Escalation.status == "open")
        .order_by(Escalation.created_at.asc(), Escalation.id.asc())
        .offset(offset)
        .limit(limit)
    )
    if kind is not None:
        stmt = stmt.where(Escalation.kind == kind)
    return [(row[0], row[1]) for row in session.execute(stmt).all()]


def count_waiting(session: Session, *, kind: str | None = None) -> int:
    """How many jobs wait for a human (of one escalation kind, when given)."""
    stmt = select(func.count()).select_from(Escalation).where(Escalation.status == "open")
    if kind is not None:
        stmt = stmt.where(Escalation.kind == kind)
    return int(session.scalar(stmt) or 0)
