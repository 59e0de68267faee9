"""Jobs: create (idempotently, one or many), set status, read, list, serialise."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session, selectinload

from scoregate.storage._sql import (
    check_one_of,
    chunks,
    dialect_insert,
    guarded_update,
    insert_ignore,
    select_in,
)
from scoregate.storage.tables import (
    JOB_STATUSES,
    TERMINAL_JOB_STATUSES,
    Base,
    Escalation,
    Iteration,
    Job,
    new_id,
    utcnow,
)


def _job_row(
    *,
    request: dict[str, Any],
    policy: dict[str, Any],
    agent: dict[str, Any] | None = None,
    hooks: dict[str, Any] | None = None,
    task_name: str | None = None,
    submitted_by: str | None = None,
    idempotency_key: str | None = None,
    job_id: str | None = None,
) -> dict[str, Any]:
    now = utcnow()
    return {
        "id": job_id or new_id(),
        "created_at": now,
        "updated_at": now,
        "status": "pending",
        "request": request,
        "policy": policy,
        "agent": agent,
        "hooks": hooks or {},
        "current_iteration": 0,
        "task_name": task_name,
        "submitted_by": submitted_by,
        "idempotency_key": idempotency_key,
    }


def create_job(
    session: Session,
    *,
    request: dict[str, Any],
    policy: dict[str, Any],
    agent: dict[str, Any] | None = None,
    hooks: dict[str, Any] | None = None,
    task_name: str | None = None,
    submitted_by: str | None = None,
    idempotency_key: str | None = None,
    job_id: str | None = None,
) -> Job:
    """Create a pending job, or return the one already holding ``idempotency_key`` or ``job_id``.

    Args:
        request: the ``ScoreRequest`` dump of iteration 1.
        policy: the loop policy.
        agent: ``{task, queue}`` of the agent task the loop re-enqueues, if any.
        hooks: ``{on_pass, on_loop_exit, research}`` task names.
        idempotency_key: client-supplied; a second submit with it returns the first job.
        job_id: use this id instead of a new UUID.
    """
    row = _job_row(
        request=request,
        policy=policy,
        agent=agent,
        hooks=hooks,
        task_name=task_name,
        submitted_by=submitted_by,
        idempotency_key=idempotency_key,
        job_id=job_id,
    )
    return _insert_jobs(session, [row])[0][0]


def create_jobs(session: Session, *, jobs: Sequence[Mapping[str, Any]]) -> list[Job]:
    """Create many jobs with one INSERT; each spec takes :func:`create_job`'s keywords.

    Returns:
        The jobs in input order; a spec whose ``idempotency_key`` or ``job_id`` already
        exists (in the database or earlier in ``jobs``) maps to the existing job.
    """
    return [job for job, _ in insert_jobs(session, jobs=jobs)]


def insert_jobs(session: Session, *, jobs: Sequence[Mapping[str, Any]]) -> list[tuple[Job, bool]]:
    """:func:`create_jobs`, each job with whether this call created it.

    "Created" is the database's answer (the rows its ``INSERT .. ON CONFLICT DO NOTHING``
    returned), so of two concurrent callers with one idempotency key exactly one is told
    it created the job; a spec named again later in ``jobs`` is not.
    """
    return _insert_jobs(session, [_job_row(**spec) for spec in jobs])


def _insert_jobs(session: Session, rows: list[dict[str, Any]]) -> list[tuple[Job, bool]]:
    if not rows:
        return []
    stmt = dialect_insert(session, Job).on_conflict_do_nothing()
    if session.get_bind().dialect.insert_executemany_returning:
        inserted = set(session.scalars(stmt.returning(Job.id), rows).all())
    else:  # SQLite before 3.35: one row at a time, each told by its row count
        inserted = {row["id"] for row in rows if insert_ignore(session, stmt.values(**row))}
    by_id, by_key = _load_jobs(session, rows)
    out = []
    for row in rows:
        key = row["idempotency_key"]
        job = by_key[key] if key is not None and key in by_key else by_id[row["id"]]
        out.append((job, row["id"] in inserted))
    return out


def _load_jobs(
    session: Session, rows: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Job], dict[str, Job]]:
    ids = [row["id"] for row in rows]
    keys = [row["idempotency_key"] for row in rows if row["idempotency_key"] is not None]
    by_id: dict[str, Job] = {}
    by_key: dict[str, Job] = {}
    for chunk in chunks(ids):
        by_id.update((j.id, j) for j in session.scalars(select(Job).where(Job.id.in_(chunk))))
    for chunk in chunks(keys):
        found = session.scalars(select(Job).where(Job.idempotency_key.in_(chunk)))
        by_key.update((cast(str, j.idempotency_key), j) for j in found)
    return by_id, by_key


def set_job_status(
    session: Session,
    *,
    job_id: str,
    status: str,
    final_result: dict[str, Any] | None = None,
    failure_reason: str | None = None,
    expect: Collection[str] | None = None,
    clear_failure_reason: bool = False,
) -> bool:
    """Set a job's status (and its final result or failure reason when given).

    Args:
        expect: only change a job whose current status is one of these (compare-and-set,
            e.g. so an accept cannot overwrite a concurrent cancel).
        clear_failure_reason: set the failure reason to NULL (a human approved the job).

    Returns:
        True if the job was updated; False if it does not exist or was not in ``expect``.
    """
    check_one_of(status, JOB_STATUSES, "job status")
    values: dict[str, Any] = {"status": status}
    if final_result is not None:
        values["final_result"] = final_result
    if failure_reason is not None or clear_failure_reason:
        values["failure_reason"] = failure_reason
    where = [Job.id == job_id]
    if expect is not None:
        where.append(Job.status.in_(list(expect)))
    return guarded_update(session, Job, where, {"id": job_id}, **values) == 1


def lock_job(session: Session, *, job_id: str) -> None:
    """Lock the job's row until the transaction ends (``SELECT .. FOR UPDATE``; SQLite,
    which has no row locks, runs one writer at a time). No such job: nothing to lock."""
    session.execute(select(Job.id).where(Job.id == job_id).with_for_update())


def get_job(session: Session, *, job_id: str) -> Job | None:
    """Return the job with its iterations, track results, decisions and escalations loaded."""
    if "\x00" in job_id:  # no id holds one, and Postgres refuses it in a query
        return None
    stmt = (
        select(Job)
        .where(Job.id == job_id)
        .options(
            selectinload(Job.iterations),
            selectinload(Job.track_results),
            selectinload(Job.decisions),
            selectinload(Job.escalations),
            selectinload(Job.dispatches),
        )
        .execution_options(populate_existing=True)
    )
    return session.scalars(stmt).one_or_none()


def job_id_for_key(session: Session, *, idempotency_key: str) -> str | None:
    """The id of the job holding ``idempotency_key``, if any."""
    return session.scalar(select(Job.id).where(Job.idempotency_key == idempotency_key))


def resolve_job_id(session: Session, ref: str) -> str | None:
    """The id of the job ``ref`` names: its id, its idempotency key (``celery:<message
    id>`` for a job sent without one), or the start of its id as the CLI prints it
    ("2a124beb", six hex digits or more) when that names one job; None if none. An id or
    id start is read in any case (a key is not: keys are case-sensitive).

    Raises:
        LookupError: the start of an id names more than one job.
    """
    if "\x00" in ref:
        return None
    if session.scalar(select(Job.id).where(Job.id == ref)) is not None:
        return ref
    by_key = job_id_for_key(session, idempotency_key=ref)
    if by_key is not None:
        return by_key
    # Ids are lower-case hex: an id or id start copied in upper case (a UI, a log) names
    # the same job. Keys are case-sensitive, so only the id lookups are folded.
    folded = ref.lower()
    if folded != ref and _ID.fullmatch(folded):
        if session.scalar(select(Job.id).where(Job.id == folded)) is not None:
            return folded
    if not re.fullmatch(r"[0-9a-f]{6,35}", folded):
        return None
    found = session.scalars(select(Job.id).where(Job.id.startswith(folded)).limit(2)).all()
    if len(found) > 1:
        raise LookupError(f"{ref!r} is the start of more than one job id: give more of it")
    return found[0] if found else None


#: A whole job id (a UUID as ``new_id`` writes it).
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def get_jobs(session: Session, *, job_ids: Collection[str]) -> dict[str, Job]:
    """Return the jobs that exist among ``job_ids``, by id: one query, no relationships."""
    stmt = select(Job).execution_options(populate_existing=True)
    return {job.id: job for (job,) in select_in(session, stmt, Job.id, job_ids)}


def list_jobs(
    session: Session, *, status: str | None = None, limit: int = 50, offset: int = 0
) -> list[Job]:
    """Return jobs newest first, optionally only those with ``status``."""
    stmt = select(Job).order_by(Job.created_at.desc(), Job.id.desc()).limit(limit).offset(offset)
    if status is not None:
        stmt = stmt.where(Job.status == status)
    return list(session.scalars(stmt))


def shown_scores(
    session: Session, jobs: Sequence[Job]
) -> dict[str, tuple[float | None, str | None]]:
    """Each job's ``(score, band)`` as a listing shows it: its final result's, or for a job
    not final yet (waiting for a human, an agent...) its latest scored iteration's, in one
    query (no iteration's content is loaded); ``(None, None)`` before any score."""
    open_ids = [j.id for j in jobs if not j.final_result]
    rows = session.execute(
        select(Iteration.job_id, Iteration.n, Iteration.score, Iteration.band)
        .where(Iteration.job_id.in_(open_ids), Iteration.score.is_not(None))
        .order_by(Iteration.job_id, Iteration.n)
    )
    latest = {job_id: (score, band) for job_id, _n, score, band in rows}
    return {
        j.id: (
            (j.final_result.get("score"), j.final_result.get("band"))
            if j.final_result
            else latest.get(j.id, (None, None))
        )
        for j in jobs
    }


def shown_final(status: str, final_result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A job's final result as the API shows it: None until the job is final. A job the
    loop escalated to a person holds the last iteration's result already (as the loop
    left it), while one escalated because its agent failed holds none: both show none
    until a person decides (the last scored iteration is in ``iterations``)."""
    return final_result if status in TERMINAL_JOB_STATUSES else None


def is_approved(status: str, final_result: Mapping[str, Any] | None) -> bool:
    """Whether a job's answer may be used: the one rule, with the loop on or off, the
    seed-002 gate on or off, and after a person's verdict.

    ``accepted`` is approved whoever decided: an iteration reached the accept cut, the gate
    let a high-confidence answer through, or a person approved it (the final result's
    ``action`` is then the score's recommendation, e.g. ``review``, not the person's
    verdict). ``completed`` (the loop off, scored once with no gate to decide) is approved
    only when the final ``action`` is ``accept``. Nothing else is: a job not final yet,
    ``rejected`` (a person's verdict included), ``failed`` or ``cancelled``.
    """
    if status == "accepted":
        return True
    return status == "completed" and (final_result or {}).get("action") == "accept"


def reviewers(session: Session, *, job_ids: Collection[str]) -> dict[str, str]:
    """Who approved or rejected each of ``job_ids`` that a person decided (its review's
    ``resolved_by``), in one query; a job no person decided is missing. A research or
    cancel verdict decides nothing here: the job goes on, or is cancelled."""
    stmt = select(Escalation.job_id, Escalation.resolved_by).where(
        Escalation.status.in_(("approved", "rejected"))
    )
    return {
        job_id: str(who)
        for job_id, who in select_in(session, stmt, Escalation.job_id, job_ids)
        if who is not None
    }


def job_to_dict(job: Job, *, detail: bool = True, include_content: bool = False) -> dict[str, Any]:
    """Return a job as a JSON-able dict; timestamps are ISO 8601 strings in UTC.

    Args:
        detail: add ``iterations`` (each with its breakdown, full ``result`` and ``tracks``
            by name), ``decisions``, ``escalations`` and ``dispatches``. Load the job with
            :func:`get_job` first, or each collection is fetched on access.
        include_content: add each iteration's ``content`` and ``request`` (may be large).
    """
    out = _columns(job)
    if not detail:
        return out
    tracks: dict[int, dict[str, Any]] = {}
    for row in job.track_results:
        tracks.setdefault(row.n, {})[row.track] = _columns(row, skip=_TRACK_SKIP)
    skip = _ITERATION_SKIP[:2] if include_content else _ITERATION_SKIP
    out["iterations"] = [
        {**_columns(it, skip=skip), "tracks": tracks.get(it.n, {})} for it in job.iterations
    ]
    out["decisions"] = [_columns(d, skip=("job_id",)) for d in job.decisions]
    out["escalations"] = [_columns(e, skip=("job_id",)) for e in job.escalations]
    out["dispatches"] = [_columns(d, skip=("job_id", "kwargs")) for d in job.dispatches]
    return out


_ITERATION_SKIP = ("id", "job_id", "content", "request")
_TRACK_SKIP = ("id", "job_id", "n", "track")


def _columns(obj: Base, skip: Collection[str] = ()) -> dict[str, Any]:
    attrs = inspect(obj).mapper.column_attrs
    return {a.key: _jsonable(getattr(obj, a.key)) for a in attrs if a.key not in skip}


def _jsonable(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
