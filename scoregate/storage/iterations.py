"""Iterations and the track join: start, record tracks, claim fusion, fuse, decide."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, case, false, select, update
from sqlalchemy.orm import Session

from scoregate.storage._sql import (
    NotFound,
    check_one_of,
    chunks,
    dialect_insert,
    expire_matching,
    guarded_update,
    insert_ignore,
    select_in,
)
from scoregate.storage.recovery import recorded_tracks
from scoregate.storage.tables import (
    ITERATION_STATUSES,
    TERMINAL_JOB_STATUSES,
    TRACK_STATUSES,
    Iteration,
    Job,
    TrackResult,
    utcnow,
)


def _at(job_id: str, n: int) -> list[ColumnElement[bool]]:
    return [Iteration.job_id == job_id, Iteration.n == n]


def _update_iteration(
    session: Session, job_id: str, n: int, *guards: ColumnElement[bool], **values: Any
) -> bool:
    """UPDATE iteration ``n`` of a job where ``guards`` hold; True if the row changed."""
    where = [*_at(job_id, n), *guards]
    return guarded_update(session, Iteration, where, {"job_id": job_id, "n": n}, **values) == 1


#: Columns of ``iterations`` copied from the fused ``ScoreResult`` for querying.
_RESULT_COLUMNS = (
    "score",
    "score_100",
    "band",
    "action",
    "calibrated",
    "components",
    "weights",
    "reasons",
)


def _check_tracks(expected_tracks: Sequence[str]) -> None:
    if not expected_tracks or len(set(expected_tracks)) != len(expected_tracks):
        raise ValueError(f"expected_tracks must be distinct and non-empty: {expected_tracks!r}")


def _iteration_row(
    job_id: str,
    n: int,
    content: str,
    request: dict[str, Any],
    expected_tracks: Sequence[str],
    now: datetime,
) -> dict[str, Any]:
    """The values of a new iteration row, waiting for its tracks."""
    return {
        "job_id": job_id,
        "n": n,
        "content": content,
        "request": request,
        "status": "scoring",
        "expected_tracks": list(expected_tracks),
        "created_at": now,
        "updated_at": now,
        "published_at": now,
    }


def start_iteration(
    session: Session,
    *,
    job_id: str,
    n: int,
    content: str,
    request: dict[str, Any],
    expected_tracks: Sequence[str],
) -> tuple[Iteration, bool]:
    """Create iteration ``n`` of a job, once; a duplicate start returns the existing row.

    Raises ``current_iteration`` to ``n``. A newly created iteration moves a job that is
    not finished (accepted, completed, rejected, failed, cancelled) to ``running``.

    Returns:
        The iteration and whether this call created it.

    Raises:
        NotFound: the job does not exist.
        ValueError: ``expected_tracks`` is empty or repeats a track.
    """
    _check_tracks(expected_tracks)
    if session.get(Job, job_id) is None:
        raise NotFound(f"job {job_id} does not exist")
    row = _iteration_row(job_id, n, content, request, expected_tracks, utcnow())
    stmt = dialect_insert(session, Iteration).values(**row)
    stmt = stmt.on_conflict_do_nothing(index_elements=["job_id", "n"])
    created = insert_ignore(session, stmt)
    _advance_jobs(session, job_ids=[job_id], n=n, created=created)
    iteration = session.scalars(select(Iteration).where(*_at(job_id, n))).one()
    return iteration, created


def start_iterations(
    session: Session,
    *,
    starts: Sequence[tuple[str, str, dict[str, Any]]],
    n: int,
    expected_tracks: Sequence[str],
) -> set[str]:
    """:func:`start_iteration` for many jobs at once: iteration ``n`` of each job in
    ``starts`` (job id, content, request), in one INSERT and at most two job UPDATEs per
    chunk of jobs, not three statements per job (the submit path).

    Returns:
        The ids of the jobs whose iteration this call created (a duplicate start is left
        out, as with :func:`start_iteration`).

    Raises:
        ValueError: ``expected_tracks`` is empty or repeats a track, or a job repeats.
        sqlalchemy.exc.IntegrityError: a job does not exist (foreign key).
    """
    _check_tracks(expected_tracks)
    ids = [job_id for job_id, _, _ in starts]
    if len(set(ids)) != len(ids):
        raise ValueError("start_iterations: a job appears twice")
    if not starts:
        return set()
    now = utcnow()
    rows = [
        _iteration_row(job_id, n, content, request, expected_tracks, now)
        for job_id, content, request in starts
    ]
    stmt = dialect_insert(session, Iteration).on_conflict_do_nothing(index_elements=["job_id", "n"])
    if session.get_bind().dialect.insert_returning:
        # One statement: SQLAlchemy sends the rows as multi-row VALUES ("insertmanyvalues").
        created = set(session.execute(stmt.returning(Iteration.job_id), rows).scalars())
    else:  # pragma: no cover - SQLite before 3.35
        created = {
            cast(str, row["job_id"]) for row in rows if insert_ignore(session, stmt.values(**row))
        }
    for advanced, new in ((created, True), (set(ids) - created, False)):
        for chunk in chunks(sorted(advanced)):
            _advance_jobs(session, job_ids=chunk, n=n, created=new)
    return created


def _advance_jobs(session: Session, *, job_ids: Sequence[str], n: int, created: bool) -> None:
    """Raise ``current_iteration`` to ``n`` (and move a job that a created iteration
    restarts to ``running``) in one UPDATE."""
    values: dict[str, Any] = {
        "current_iteration": case((Job.current_iteration < n, n), else_=Job.current_iteration)
    }
    if created:
        values["status"] = case(
            (Job.status.in_(sorted(TERMINAL_JOB_STATUSES)), Job.status), else_="running"
        )
    guarded_update(session, Job, [Job.id.in_(job_ids)], {"id": set(job_ids)}, **values)


def get_iteration(session: Session, *, job_id: str, n: int) -> Iteration | None:
    """Return iteration ``n`` of a job, or None."""
    return session.scalars(select(Iteration).where(*_at(job_id, n))).one_or_none()


def get_iterations(
    session: Session, *, refs: Collection[tuple[str, int]]
) -> dict[tuple[str, int], Iteration]:
    """Return the iterations named by ``refs`` (job id, n) that exist, in one query."""
    wanted = set(refs)
    stmt = select(Iteration).execution_options(populate_existing=True)
    rows = select_in(session, stmt, Iteration.job_id, {job_id for job_id, _ in wanted})
    return {(it.job_id, it.n): it for (it,) in rows if (it.job_id, it.n) in wanted}


def record_track(
    session: Session,
    *,
    job_id: str,
    n: int,
    track: str,
    payload: dict[str, Any],
    status: str = "ok",
    score: float | None = None,
    elapsed_ms: float = 0.0,
    expected: Sequence[str] | None = None,
) -> bool:
    """Record one track's result and say whether this call must enqueue fusion.

    The join of the parallel tracks: the first delivery of a track inserts its row and
    counts it; a redelivery changes nothing. Call it as the transaction's last write and
    enqueue fusion after the commit when it returns True.

    Args:
        expected: the iteration's expected tracks when the caller has them already
            (``expected_tracks_of``, one query for a batch); read here otherwise.

    Returns:
        True exactly once per iteration: for the call that saw every expected track landed
        and claimed fusion.

    Raises:
        NotFound: the iteration was never started.
        ValueError: ``track`` is not one of the iteration's expected tracks, or a bad status.
    """
    check_one_of(status, TRACK_STATUSES, "track status")
    if expected is None:
        expected = _expected_tracks(session, job_id=job_id, n=n)
    if track not in expected:
        raise ValueError(f"track {track!r} is not expected for {job_id}/{n}: {expected}")
    stmt = dialect_insert(session, TrackResult).values(
        job_id=job_id,
        n=n,
        track=track,
        status=status,
        score=score,
        payload=payload,
        elapsed_ms=elapsed_ms,
        created_at=utcnow(),
    )
    stmt = stmt.on_conflict_do_nothing(index_elements=["job_id", "n", "track"])
    if insert_ignore(session, stmt):
        landed = _count_landed(session, job_id, n)
        if landed is not None and landed < len(expected):
            return False  # not the last track: nothing to claim yet
    return _claim(session, job_id=job_id, n=n, need=len(expected))


def _count_landed(session: Session, job_id: str, n: int) -> int | None:
    """Add one landed track; the new count where the dialect returns it, else None."""
    values = {"landed_tracks": Iteration.landed_tracks + 1}
    if not session.get_bind().dialect.update_returning:
        _update_iteration(session, job_id, n, **values)
        return None
    table: Any = Iteration.__table__
    stmt = update(table).where(*_at(job_id, n)).values(**values).returning(table.c.landed_tracks)
    landed = session.execute(stmt).scalar_one_or_none()
    expire_matching(session, Iteration, {"job_id": job_id, "n": n}, ["landed_tracks"])
    return None if landed is None else int(landed)


def expected_tracks_of(
    session: Session, *, refs: Collection[tuple[str, int]]
) -> dict[tuple[str, int], list[str]]:
    """The expected tracks of many iterations in one narrow query, by (job id, n)."""
    wanted = set(refs)
    stmt = select(Iteration.job_id, Iteration.n, Iteration.expected_tracks)
    rows = select_in(session, stmt, Iteration.job_id, {job_id for job_id, _ in wanted})
    return {(j, n): list(e) for j, n, e in rows if (j, n) in wanted}


def awaiting_track(
    session: Session, *, refs: Collection[tuple[str, int]], track: str
) -> set[tuple[str, int]]:
    """Of ``refs`` (job id, n), the iterations still waiting for ``track``: in flight
    (``scoring`` or ``stuck``) and without its result. Two narrow queries, no content: a
    pool asks before its expensive scoring, so a message the sweeper re-published after
    the iteration was decided (or its track landed) costs nothing."""
    wanted = set(refs)
    job_ids = {job_id for job_id, _ in wanted}
    stmt = select(Iteration.job_id, Iteration.n).where(Iteration.status.in_(("scoring", "stuck")))
    open_ = {(j, n) for j, n in select_in(session, stmt, Iteration.job_id, job_ids)} & wanted
    return open_ - recorded_tracks(session, track=track, refs=open_)


def claim_fusion(session: Session, *, job_id: str, n: int, force: bool = False) -> bool:
    """Claim the right to enqueue fusion for an iteration; True for exactly one caller.

    Args:
        force: claim even though not every expected track has landed (a track timed out).
    """
    need = None if force else len(_expected_tracks(session, job_id=job_id, n=n))
    return _claim(session, job_id=job_id, n=n, need=need)


def _claim(session: Session, *, job_id: str, n: int, need: int | None) -> bool:
    guards = [Iteration.fusion_claimed == false()]
    if need is not None:
        guards.append(Iteration.landed_tracks >= need)
    return _update_iteration(session, job_id, n, *guards, fusion_claimed=True)


def _expected_tracks(session: Session, *, job_id: str, n: int) -> list[str]:
    expected = session.scalar(select(Iteration.expected_tracks).where(*_at(job_id, n)))
    if expected is None:
        raise NotFound(f"iteration {job_id}/{n} does not exist")
    return list(expected)


def track_results(session: Session, *, job_id: str, n: int) -> dict[str, TrackResult]:
    """Return the tracks recorded for an iteration, by track name."""
    stmt = select(TrackResult).where(TrackResult.job_id == job_id, TrackResult.n == n)
    return {row.track: row for row in session.scalars(stmt)}


def track_results_of(
    session: Session, *, refs: Collection[tuple[str, int]]
) -> dict[tuple[str, int], dict[str, TrackResult]]:
    """Return the tracks recorded for many iterations in one query, by (job id, n)."""
    out: dict[tuple[str, int], dict[str, TrackResult]] = {ref: {} for ref in refs}
    rows = select_in(session, select(TrackResult), TrackResult.job_id, {j for j, _ in out})
    for (row,) in rows:
        if (row.job_id, row.n) in out:
            out[(row.job_id, row.n)][row.track] = row
    return out


def complete_iteration(
    session: Session, *, job_id: str, n: int, result: dict[str, Any], timings: dict[str, Any]
) -> bool:
    """Write the fused result once (``scoring`` or ``stuck`` -> ``fused``).

    Args:
        result: the ``ScoreResult`` dump; its score, band, action and breakdown fill columns.
        timings: per-stage timings in milliseconds.

    Returns:
        True if this call wrote it; False if the iteration was already fused (or missing).
    """
    now = utcnow()
    columns = {key: result.get(key) for key in _RESULT_COLUMNS}
    return _update_iteration(
        session,
        job_id,
        n,
        Iteration.status.in_(["scoring", "stuck"]),
        **columns,
        result=result,
        timings=timings,
        status="fused",
        fusion_claimed=True,
        fused_at=now,
        published_at=now,
    )


def mark_decided(session: Session, *, job_id: str, n: int) -> bool:
    """Move a fused iteration to ``decided``; True for exactly one caller."""
    return _update_iteration(
        session, job_id, n, Iteration.status == "fused", status="decided", decided_at=utcnow()
    )


def set_iteration_status(
    session: Session, *, job_id: str, n: int, status: str, expect: Collection[str] | None = None
) -> bool:
    """Set an iteration's status (e.g. ``stuck`` or ``failed`` from the sweeper).

    Returns:
        True if it changed; False if missing or not in ``expect``.
    """
    check_one_of(status, ITERATION_STATUSES, "iteration status")
    guards = [] if expect is None else [Iteration.status.in_(list(expect))]
    return _update_iteration(session, job_id, n, *guards, status=status)


def stuck_iterations(
    session: Session,
    *,
    older_than: datetime,
    statuses: Collection[str] = ("scoring", "fused"),
    limit: int = 100,
) -> list[Iteration]:
    """Return iterations in ``statuses`` last published before ``older_than``, oldest first.

    An iteration still ``scoring`` is waiting on a track or on fusion; one ``fused`` but
    not ``decided`` is waiting on the controller. ``published_at`` is set when the
    iteration starts, when it is fused, and by :func:`touch_published` when re-sent.
    """
    stmt = (
        select(Iteration)
        .where(Iteration.status.in_(list(statuses)), Iteration.published_at < older_than)
        .order_by(Iteration.published_at)
        .limit(limit)
    )
    return list(session.scalars(stmt))


def touch_published(session: Session, *, job_id: str, n: int, at: datetime | None = None) -> bool:
    """Record that a message for the iteration was (re)published now (or ``at``)."""
    return _update_iteration(session, job_id, n, published_at=at or utcnow())


def bump_deliveries(session: Session, *, job_id: str, n: int) -> int:
    """Count one more delivery of the iteration's work and return the new count.

    Raises:
        NotFound: the iteration does not exist.
    """
    if not _update_iteration(session, job_id, n, deliveries=Iteration.deliveries + 1):
        raise NotFound(f"iteration {job_id}/{n} does not exist")
    return cast(int, session.scalar(select(Iteration.deliveries).where(*_at(job_id, n))))
