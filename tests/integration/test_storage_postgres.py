"""Storage on a real Postgres: the migration, and exactly-once writes under concurrency."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.exc import IntegrityError

from scoregate.storage import db
from scoregate.storage import repository as repo
from scoregate.storage.tables import Base, Escalation
from tests.conftest import require_service

pytestmark = pytest.mark.integration

ADMIN_URL = os.environ.get(
    "SCOREGATE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
DATABASE = "scoregate_test_storage"
TRACKS = ["semantic", "precision", "reward"]
REQUEST = {"query": "q", "content": "c"}
THREADS = 8


def _ensure_database() -> str:
    try:
        admin = sa.create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            exists = conn.scalar(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": DATABASE}
            )
            if not exists:
                conn.execute(sa.text(f'CREATE DATABASE "{DATABASE}"'))
        admin.dispose()
    except sa.exc.OperationalError as exc:
        require_service("Postgres", exc)
    return (
        sa.engine.make_url(ADMIN_URL).set(database=DATABASE).render_as_string(hide_password=False)
    )


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    url = _ensure_database()
    yield url
    db.downgrade(url)
    db.get_engine(url).dispose()


@pytest.fixture
def url(pg_database: str) -> Iterator[str]:
    db.reset_for_tests(pg_database)
    yield pg_database


def _race(fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(fn, items))


def _job_with_iterations(url: str, count: int) -> str:
    with db.session_scope(url) as s:
        job = repo.create_job(s, request=REQUEST, policy={})
        for n in range(1, count + 1):
            repo.start_iteration(
                s, job_id=job.id, n=n, content="c", request=REQUEST, expected_tracks=TRACKS
            )
        return job.id


def test_migration_round_trips_and_matches_the_models(url: str) -> None:
    db.downgrade(url, "base")
    with db.get_engine(url).connect() as conn:
        assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}
    db.upgrade(url, "head")
    assert db.current_revision(url) == "0003"
    with db.get_engine(url).connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, Base.metadata) == []
        types = {c["name"]: c["type"] for c in sa.inspect(conn).get_columns("iterations")}
    assert str(types["result"]) == "JSONB" and types["created_at"].timezone


def test_join_fires_exactly_once_per_iteration_under_8_threads(url: str) -> None:
    iterations = 50
    job_id = _job_with_iterations(url, iterations)
    calls = [(n, t) for n in range(1, iterations + 1) for t in TRACKS * 2]
    random.Random(7).shuffle(calls)

    def deliver(call: tuple[int, str]) -> tuple[int, bool]:
        n, track = call
        with db.session_scope(url) as s:
            return n, repo.record_track(
                s, job_id=job_id, n=n, track=track, payload={"track": track}, score=0.5
            )

    fired = Counter(n for n, won in _race(deliver, calls) if won)
    assert fired == Counter(range(1, iterations + 1))
    with db.session_scope(url) as s:
        job = repo.get_job(s, job_id=job_id)
        assert {(it.landed_tracks, it.fusion_claimed) for it in job.iterations} == {(3, True)}
        assert len(job.track_results) == iterations * len(TRACKS)


def test_forced_claim_races_the_last_track(url: str) -> None:
    job_id = _job_with_iterations(url, 20)
    with db.session_scope(url) as s:
        for n in range(1, 21):
            for track in TRACKS[:2]:
                repo.record_track(s, job_id=job_id, n=n, track=track, payload={})
    calls = [(n, kind) for n in range(1, 21) for kind in ("track", "force", "force")]
    random.Random(3).shuffle(calls)

    def go(call: tuple[int, str]) -> tuple[int, bool]:
        n, kind = call
        with db.session_scope(url) as s:
            if kind == "force":
                return n, repo.claim_fusion(s, job_id=job_id, n=n, force=True)
            return n, repo.record_track(s, job_id=job_id, n=n, track="reward", payload={})

    fired = Counter(n for n, won in _race(go, calls) if won)
    assert fired == Counter(range(1, 21))


def test_duplicate_starts_decisions_and_fusions_write_once(url: str) -> None:
    with db.session_scope(url) as s:
        job_id = repo.create_job(s, request=REQUEST, policy={}).id

    def start(_: int) -> bool:
        with db.session_scope(url) as s:
            return repo.start_iteration(
                s, job_id=job_id, n=1, content="c", request=REQUEST, expected_tracks=TRACKS
            )[1]

    def decide(_: int) -> bool:
        with db.session_scope(url) as s:
            return (
                repo.append_decision(
                    s,
                    job_id=job_id,
                    n=1,
                    action="accept",
                    rationale="r",
                    dedupe_key=f"{job_id}:1:decide",
                )
                is not None
            )

    def complete(_: int) -> bool:
        with db.session_scope(url) as s:
            return repo.complete_iteration(s, job_id=job_id, n=1, result={"score": 0.5}, timings={})

    def decided(_: int) -> bool:
        with db.session_scope(url) as s:
            return repo.mark_decided(s, job_id=job_id, n=1)

    for fn in (start, decide, complete, decided):
        assert sum(_race(fn, list(range(THREADS * 2)))) == 1, fn.__name__


def test_one_open_escalation_and_one_resolver(url: str) -> None:
    job_id = _job_with_iterations(url, 1)

    def open_one(i: int) -> int:
        with db.session_scope(url) as s:
            return repo.open_escalation(s, job_id=job_id, n=1, kind="review", reason=str(i)).id

    def resolve(i: int) -> bool:
        with db.session_scope(url) as s:
            return (
                repo.resolve_escalation(s, job_id=job_id, status="approved", actor=f"user{i}")
                is not None
            )

    assert len(set(_race(open_one, list(range(THREADS * 2))))) == 1
    assert sum(_race(resolve, list(range(THREADS * 2)))) == 1
    with pytest.raises(IntegrityError), db.session_scope(url) as s:
        repo.open_escalation(s, job_id=job_id, n=1, kind="review", reason="again")
        s.add(Escalation(job_id=job_id, n=1, kind="review", reason="twice"))
        s.flush()


def test_create_jobs_bulk_with_keys_seen_before(url: str) -> None:
    specs = [
        {"request": REQUEST, "policy": {}, "idempotency_key": f"k{i % 150}"} for i in range(300)
    ]
    with db.session_scope(url) as s:
        first = repo.create_jobs(s, jobs=specs[:150])
    with db.session_scope(url) as s:
        again = repo.create_jobs(s, jobs=specs)
        assert len(repo.list_jobs(s, limit=1000)) == 150
    assert [j.id for j in again] == [j.id for j in first] * 2


def test_timestamps_come_back_in_utc_whatever_the_session_zone(url: str) -> None:
    tokyo = sa.engine.make_url(url).update_query_dict({"options": "-c timezone=Asia/Tokyo"})
    tokyo_url = tokyo.render_as_string(hide_password=False)
    with db.session_scope(tokyo_url) as s:
        job = repo.create_job(s, request=REQUEST, policy={})
        s.flush()
        raw = s.execute(sa.text("SELECT created_at FROM jobs")).scalar_one()
    assert raw.utcoffset() == timedelta(hours=9)
    with db.session_scope(tokyo_url) as s:
        loaded = repo.get_job(s, job_id=job.id)
        assert loaded.created_at.tzinfo is UTC and loaded.created_at == raw
    db.get_engine(tokyo_url).dispose()
