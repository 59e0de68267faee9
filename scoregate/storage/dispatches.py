"""Dispatches: the hook and agent tasks sent for a job, and the Celery id each went with."""

from __future__ import annotations

from sqlalchemy import func, select
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
) -> Dispatch:
    """Record one task about to be published (in the transaction that decided to send it).

    Args:
        n: the iteration it is about (a hook's decided one; the one an agent is asked for).
        kind: ``hook`` or ``agent``.
        role: ``on_pass``, ``on_loop_exit``, ``agent`` or ``research``.
        celery_task_id: the id the message is published with.
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
    )
    session.add(row)
    session.flush()
    return row


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
