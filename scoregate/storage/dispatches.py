"""Dispatches: the hook and agent tasks sent for a job, and the Celery id each went with."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from scoregate.storage._sql import check_one_of
from scoregate.storage.tables import DISPATCH_KINDS, Decision, Dispatch, utcnow


def record_dispatch(
    session: Session,
    *,
    job_id: str,
    n: int,
    kind: str,
    role: str,
    task: str,
    queue: str,
    celery_task_id: str,
    kwargs: dict[str, Any] | None = None,
) -> Dispatch:
    """Record one task about to be published (in the transaction that decided to send it).

    Args:
        n: the iteration it is about (a hook's decided one; the one an agent is asked for).
        kind: ``hook`` or ``agent``.
        role: ``on_pass``, ``on_loop_exit``, ``agent`` or ``research``.
        celery_task_id: the id the message is published with.
        kwargs: a hook's message kwargs, kept so that the sweeper can send it again if
            the broker does not take it (see :func:`unpublished_hooks`).
    """
    check_one_of(kind, DISPATCH_KINDS, "dispatch kind")
    row = Dispatch(
        job_id=job_id,
        n=n,
        kind=kind,
        role=role,
        task=task,
        queue=queue,
        celery_task_id=celery_task_id,
        sent_at=utcnow(),
        kwargs=kwargs,
    )
    session.add(row)
    session.flush()
    return row


def mark_published(session: Session, *, celery_task_ids: Collection[str]) -> None:
    """Record that the broker took the dispatches published with these task ids."""
    if celery_task_ids:
        session.execute(
            update(Dispatch)
            .where(Dispatch.celery_task_id.in_(list(celery_task_ids)))
            .where(Dispatch.published_at.is_(None))
            .values(published_at=utcnow())
        )


def unpublished_hooks(session: Session, *, older_than: datetime, limit: int) -> list[Dispatch]:
    """Hooks recorded before ``older_than`` that the broker has not taken, oldest first."""
    stmt = (
        select(Dispatch)
        .where(
            Dispatch.published_at.is_(None),
            Dispatch.kind == "hook",
            Dispatch.kwargs.is_not(None),
            Dispatch.sent_at < older_than,
        )
        .order_by(Dispatch.sent_at, Dispatch.id)
        .limit(limit)
    )
    return list(session.scalars(stmt))


def dispatches_of(session: Session, *, job_id: str) -> list[Dispatch]:
    """The job's dispatches, oldest first."""
    stmt = select(Dispatch).where(Dispatch.job_id == job_id).order_by(Dispatch.id)
    return list(session.scalars(stmt))


def find_dispatch(session: Session, *, celery_task_id: str) -> Dispatch | None:
    """The dispatch published with ``celery_task_id``, if scoregate sent it."""
    stmt = select(Dispatch).where(Dispatch.celery_task_id == celery_task_id)
    return session.scalars(stmt).one_or_none()


def count_decisions(session: Session, *, job_id: str, n: int, action: str) -> int:
    """How many audit entries of ``action`` the job has for iteration ``n``."""
    stmt = select(func.count(Decision.id)).where(
        Decision.job_id == job_id, Decision.n == n, Decision.action == action
    )
    return int(session.scalar(stmt) or 0)
