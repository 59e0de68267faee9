"""Storage on a temp-file SQLite database, migrated by Alembic (not ``create_all``)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from scoregate.storage import db
from scoregate.storage import repository as repo
from scoregate.storage.tables import Base, Escalation

TRACKS = ["semantic", "precision", "reward"]
REQUEST = {"query": "write a haiku", "content": "an old silent pond"}


@pytest.fixture
def url(tmp_path):
    u = f"sqlite:///{tmp_path / 'nested' / 'scoregate.db'}"
    db.upgrade(u)
    yield u
    db.get_engine(u).dispose()


@pytest.fixture
def s(url):
    session = db.get_sessionmaker(url)()
    yield session
    session.rollback()
    session.close()


def new_job(s, **kw):
    return repo.create_job(s, request=REQUEST, policy={"max_iterations": 3}, **kw)


def started(s, n=1, tracks=TRACKS):
    job = new_job(s)
    repo.start_iteration(
        s, job_id=job.id, n=n, content="c", request=REQUEST, expected_tracks=tracks
    )
    return job


def record(s, job, track, n=1, **kw):
    return repo.record_track(
        s, job_id=job.id, n=n, track=track, payload={"name": track, "score": 0.5}, score=0.5, **kw
    )


def fuse(s, job, n=1, score=0.9):
    result = {
        "score": score,
        "score_100": round(score * 100),
        "band": "GREEN",
        "action": "accept",
        "calibrated": score,
        "components": {"semantic": score},
        "weights": {"semantic": 1.0},
        "reasons": ["ok"],
        "tracks": {},
    }
    return repo.complete_iteration(s, job_id=job.id, n=n, result=result, timings={"fusion": 1.5})


# --- schema and engine ----------------------------------------------------------------------


def test_migration_creates_exactly_the_models_schema(url):
    with db.get_engine(url).connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, Base.metadata) == []
    assert db.current_revision(url) == "0003"


def test_migration_round_trips(url):
    db.downgrade(url)
    with db.get_engine(url).connect() as conn:
        assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
    assert db.current_revision(url) is None
    db.upgrade(url)
    db.upgrade(url)  # already at head: a no-op
    assert db.current_revision(url) == "0003"


def test_sqlite_pragmas_are_set_on_every_connection(url):
    with db.get_engine(url).connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == db.SQLITE_BUSY_TIMEOUT_MS


def test_engine_is_cached_per_url_and_forgotten_on_dispose(url):
    engine = db.get_engine(url)
    assert db.get_engine(url) is engine
    db.dispose_engines(close=False)
    assert db.get_engine(url) is not engine


def test_postgres_urls_use_psycopg_and_passwords_are_redacted():
    assert db.resolve_url("postgresql://u:pw@h/d").startswith("postgresql+psycopg://u:pw@")
    assert "pw" not in db.redact_url("postgresql+psycopg://u:pw@h/d")


def test_session_scope_commits_or_rolls_back(url):
    with db.session_scope(url) as s:
        kept = new_job(s).id
    with pytest.raises(RuntimeError), db.session_scope(url) as s:
        lost = new_job(s).id
        raise RuntimeError("boom")
    with db.session_scope(url) as s:
        assert repo.get_job(s, job_id=kept) is not None
        assert repo.get_job(s, job_id=lost) is None


def test_savepoints_roll_back_only_the_nested_part(s):
    kept = new_job(s).id
    with pytest.raises(IntegrityError), s.begin_nested():
        s.execute(text("INSERT INTO jobs (id) VALUES ('x')"))
    assert repo.get_job(s, job_id=kept) is not None


# --- jobs -----------------------------------------------------------------------------------


def test_create_job_defaults_and_utc_timestamps(s):
    job = new_job(s, agent={"task": "a.write", "queue": "agents"})
    s.commit()
    s.expire_all()
    job = repo.get_job(s, job_id=job.id)
    assert (job.status, job.current_iteration, job.hooks, job.final_result) == (
        "pending",
        0,
        {},
        None,
    )
    assert len(job.id) == 36
    assert job.created_at.tzinfo is UTC
    assert abs(datetime.now(UTC) - job.created_at) < timedelta(minutes=1)


def test_naive_datetimes_are_refused(s):
    with pytest.raises(Exception, match="naive datetime"):
        repo.stuck_iterations(s, older_than=datetime(2030, 1, 1))


def test_create_job_is_idempotent_on_key_and_id(s):
    first = new_job(s, idempotency_key="k1")
    assert new_job(s, idempotency_key="k1").id == first.id
    assert new_job(s, job_id=first.id).id == first.id
    assert new_job(s).id != first.id


def test_create_jobs_keeps_order_and_dedupes(s):
    existing = new_job(s, idempotency_key="old")
    specs = [
        {"request": REQUEST, "policy": {}, "idempotency_key": k}
        for k in ("a", "old", None, "a", "b")
    ]
    jobs = repo.create_jobs(s, jobs=specs)
    assert jobs[1].id == existing.id
    assert jobs[0].id == jobs[3].id
    assert len({j.id for j in jobs}) == 4
    assert [j.idempotency_key for j in jobs] == ["a", "old", None, "a", "b"]
    assert repo.create_jobs(s, jobs=[]) == []


def test_set_job_status_compare_and_set(s):
    job = new_job(s)
    assert repo.set_job_status(s, job_id=job.id, status="cancelled")
    assert not repo.set_job_status(s, job_id=job.id, status="accepted", expect=["running"])
    assert job.status == "cancelled"
    assert repo.set_job_status(
        s,
        job_id=job.id,
        status="failed",
        failure_reason="why",
        final_result={"score": 0.1},
        expect=["cancelled"],
    )
    assert (job.status, job.failure_reason, job.final_result) == ("failed", "why", {"score": 0.1})
    assert not repo.set_job_status(s, job_id="missing", status="failed")
    with pytest.raises(ValueError, match="job status"):
        repo.set_job_status(s, job_id=job.id, status="done")


def test_list_jobs_newest_first_with_status_filter(s):
    ids = [new_job(s).id for _ in range(3)]
    repo.set_job_status(s, job_id=ids[0], status="accepted")
    assert [j.id for j in repo.list_jobs(s)] == ids[::-1]
    assert [j.id for j in repo.list_jobs(s, status="accepted")] == [ids[0]]
    assert [j.id for j in repo.list_jobs(s, limit=1, offset=1)] == [ids[1]]


# --- iterations -----------------------------------------------------------------------------


def test_start_iteration_is_idempotent_and_advances_the_job(s):
    job = new_job(s)
    it, created = repo.start_iteration(
        s, job_id=job.id, n=1, content="c", request=REQUEST, expected_tracks=TRACKS
    )
    assert created and (it.status, it.landed_tracks, it.fusion_claimed) == ("scoring", 0, False)
    assert (job.status, job.current_iteration) == ("running", 1)
    repo.set_job_status(s, job_id=job.id, status="awaiting_review")
    again, created = repo.start_iteration(
        s, job_id=job.id, n=1, content="other", request=REQUEST, expected_tracks=TRACKS
    )
    assert not created and again.id == it.id and again.content == "c"
    assert job.status == "awaiting_review"  # a duplicate start changes nothing


def test_start_iterations_starts_many_jobs_at_once_like_start_iteration(s):
    fresh, seen, done = new_job(s), new_job(s), new_job(s)
    repo.start_iteration(
        s, job_id=seen.id, n=1, content="kept", request=REQUEST, expected_tracks=TRACKS
    )
    repo.set_job_status(s, job_id=seen.id, status="awaiting_review")
    repo.set_job_status(s, job_id=done.id, status="cancelled")
    starts = [(j.id, f"content of {j.id}", REQUEST) for j in (fresh, seen, done)]
    created = repo.start_iterations(s, starts=starts, n=1, expected_tracks=TRACKS)
    assert created == {fresh.id, done.id}  # seen had its iteration 1: a duplicate start
    assert [(j.status, j.current_iteration) for j in (fresh, seen, done)] == [
        ("running", 1),
        ("awaiting_review", 1),  # a duplicate start changes nothing
        ("cancelled", 1),  # a finished job stays finished
    ]
    it = repo.get_iteration(s, job_id=fresh.id, n=1)
    assert (it.content, it.status, it.expected_tracks) == (
        f"content of {fresh.id}",
        "scoring",
        TRACKS,
    )
    assert repo.get_iteration(s, job_id=seen.id, n=1).content == "kept"
    assert repo.start_iterations(s, starts=starts, n=1, expected_tracks=TRACKS) == set()
    assert repo.start_iterations(s, starts=[], n=1, expected_tracks=TRACKS) == set()


def test_start_iterations_refuses_bad_input(s):
    job = new_job(s)
    with pytest.raises(ValueError, match="expected_tracks"):
        repo.start_iterations(s, starts=[(job.id, "c", REQUEST)], n=1, expected_tracks=[])
    with pytest.raises(ValueError, match="appears twice"):
        repo.start_iterations(s, starts=[(job.id, "c", REQUEST)] * 2, n=1, expected_tracks=TRACKS)
    with pytest.raises(IntegrityError):  # no such job: the foreign key refuses it
        repo.start_iterations(s, starts=[("nope", "c", REQUEST)], n=1, expected_tracks=TRACKS)


def test_current_iteration_never_goes_back_and_finished_jobs_stay_finished(s):
    job = started(s, n=2)
    repo.set_job_status(s, job_id=job.id, status="cancelled")
    repo.start_iteration(
        s, job_id=job.id, n=1, content="c", request=REQUEST, expected_tracks=TRACKS
    )
    assert (job.current_iteration, job.status) == (2, "cancelled")


def test_start_iteration_refuses_bad_input(s):
    with pytest.raises(repo.NotFound):
        repo.start_iteration(s, job_id="nope", n=1, content="", request={}, expected_tracks=TRACKS)
    job = new_job(s)
    for tracks in ([], ["reward", "reward"]):
        with pytest.raises(ValueError, match="expected_tracks"):
            repo.start_iteration(
                s, job_id=job.id, n=1, content="", request={}, expected_tracks=tracks
            )


# --- the join -------------------------------------------------------------------------------

DELIVERIES = sorted(
    set(itertools.permutations(["semantic", "precision", "reward", "semantic", "reward"]))
)


def test_join_fires_exactly_once_whatever_the_order_and_duplicates(s):
    job = new_job(s)
    for n, order in enumerate(DELIVERIES, start=1):
        repo.start_iteration(
            s, job_id=job.id, n=n, content="c", request=REQUEST, expected_tracks=TRACKS
        )
        fired = [record(s, job, track, n=n) for track in order]
        seen = [len(set(order[: i + 1])) for i in range(len(order))]
        assert fired == [count == 3 and seen.index(3) == i for i, count in enumerate(seen)]
        assert repo.get_iteration(s, job_id=job.id, n=n).landed_tracks == 3
    assert len(DELIVERIES) == 30


def test_redelivered_track_keeps_the_first_result(s):
    job = started(s)
    record(s, job, "semantic")
    repo.record_track(
        s, job_id=job.id, n=1, track="semantic", payload={"second": True}, status="failed"
    )
    row = repo.track_results(s, job_id=job.id, n=1)["semantic"]
    assert (row.status, row.score, row.payload) == ("ok", 0.5, {"name": "semantic", "score": 0.5})


def test_failed_and_timed_out_tracks_count_as_landed(s):
    job = started(s)
    assert not record(s, job, "semantic", status="failed")
    assert not record(s, job, "precision", status="timeout")
    assert record(s, job, "reward")
    assert set(repo.track_results(s, job_id=job.id, n=1)) == set(TRACKS)


def test_record_track_refuses_unknown_tracks_and_iterations(s):
    job = started(s, tracks=["reward"])
    with pytest.raises(ValueError, match="not expected"):
        record(s, job, "semantic")
    with pytest.raises(repo.NotFound):
        record(s, job, "reward", n=2)
    with pytest.raises(ValueError, match="track status"):
        record(s, job, "reward", status="weird")


def test_forced_claim_wins_once_and_late_tracks_do_not_fire(s):
    job = started(s)
    record(s, job, "semantic")
    assert not repo.claim_fusion(s, job_id=job.id, n=1)
    assert repo.claim_fusion(s, job_id=job.id, n=1, force=True)
    assert not repo.claim_fusion(s, job_id=job.id, n=1, force=True)
    assert not record(s, job, "precision")
    assert not record(s, job, "reward")


def test_loaded_iteration_sees_the_join_updates(s):
    job = started(s)
    it = repo.get_iteration(s, job_id=job.id, n=1)
    for track in TRACKS:
        record(s, job, track)
    assert (it.landed_tracks, it.fusion_claimed) == (3, True)


def test_join_without_returning_as_on_sqlite_before_3_35(s, monkeypatch):
    monkeypatch.setattr(s.get_bind().dialect, "insert_returning", False)
    job = new_job(s)
    for _ in range(2):
        repo.start_iteration(
            s, job_id=job.id, n=1, content="c", request=REQUEST, expected_tracks=TRACKS
        )
    assert [record(s, job, t) for t in TRACKS * 2] == [False, False, True, False, False, False]
    assert (
        repo.append_decision(s, job_id=job.id, n=1, action="a", rationale="", dedupe_key="k")
        is not None
    )
    assert (
        repo.append_decision(s, job_id=job.id, n=1, action="a", rationale="", dedupe_key="k")
        is None
    )


def test_join_is_exactly_once_across_threads(url):
    with db.session_scope(url) as s:
        job_id = new_job(s).id
        for n in range(1, 11):
            repo.start_iteration(
                s, job_id=job_id, n=n, content="c", request=REQUEST, expected_tracks=TRACKS
            )
    calls = [(n, t) for n in range(1, 11) for t in TRACKS * 2]

    def deliver(call):
        n, track = call
        with db.session_scope(url) as s:
            return n, repo.record_track(s, job_id=job_id, n=n, track=track, payload={})

    with ThreadPoolExecutor(4) as pool:
        fired = Counter(n for n, won in pool.map(deliver, calls) if won)
    assert fired == Counter(range(1, 11))


# --- fusion and decisions -------------------------------------------------------------------


def test_complete_iteration_writes_once(s):
    job = started(s)
    assert fuse(s, job, score=0.9)
    assert not fuse(s, job, score=0.1)
    it = repo.get_iteration(s, job_id=job.id, n=1)
    assert (it.status, it.score, it.score_100, it.band, it.action) == (
        "fused",
        0.9,
        90,
        "GREEN",
        "accept",
    )
    assert it.result["score"] == 0.9 and it.timings == {"fusion": 1.5}
    assert it.fused_at is not None and it.fusion_claimed


def test_a_stuck_iteration_can_still_be_fused(s):
    job = started(s)
    assert repo.set_iteration_status(s, job_id=job.id, n=1, status="stuck", expect=["scoring"])
    assert not repo.set_iteration_status(s, job_id=job.id, n=1, status="failed", expect=["scoring"])
    assert fuse(s, job)


def test_mark_decided_only_once_and_only_after_fusion(s):
    job = started(s)
    assert not repo.mark_decided(s, job_id=job.id, n=1)
    fuse(s, job)
    assert repo.mark_decided(s, job_id=job.id, n=1)
    assert not repo.mark_decided(s, job_id=job.id, n=1)
    assert repo.get_iteration(s, job_id=job.id, n=1).decided_at is not None


def test_decision_dedupe_key_writes_once(s):
    job = started(s)
    first = repo.append_decision(
        s,
        job_id=job.id,
        n=1,
        action="accept",
        rationale="high",
        tier="high",
        band="GREEN",
        confidence=0.93,
        quota_used=1,
        quota_remaining=4,
        details={"a": 1},
        dedupe_key="k",
    )
    assert first is not None and first.id and first.details == {"a": 1}
    assert (
        repo.append_decision(
            s, job_id=job.id, n=1, action="accept", rationale="again", dedupe_key="k"
        )
        is None
    )
    for _ in range(2):
        repo.append_decision(
            s, job_id=job.id, n=1, action="cancel", rationale="by me", actor="alice"
        )
    assert [d.action for d in repo.get_job(s, job_id=job.id).decisions] == [
        "accept",
        "cancel",
        "cancel",
    ]
    with pytest.raises(ValueError, match="tier"):
        repo.append_decision(s, job_id=job.id, n=1, action="x", rationale="", tier="top")


def test_at_most_one_open_escalation_per_job(s):
    job = started(s)
    first = repo.open_escalation(s, job_id=job.id, n=1, kind="review", reason="amber")
    again = repo.open_escalation(s, job_id=job.id, n=1, kind="escalation", reason="other")
    assert again.id == first.id and again.kind == "review"
    assert repo.open_escalation_for(s, job_id=job.id).id == first.id
    resolved = repo.resolve_escalation(
        s, job_id=job.id, status="approved", actor="bob", note="fine"
    )
    assert (resolved.status, resolved.resolved_by, resolved.note) == ("approved", "bob", "fine")
    assert resolved.resolved_at is not None
    assert repo.resolve_escalation(s, job_id=job.id, status="rejected", actor="eve") is None
    assert repo.open_escalation_for(s, job_id=job.id) is None
    second = repo.open_escalation(s, job_id=job.id, n=2, kind="escalation", reason="loop")
    assert second.id != first.id
    with pytest.raises(ValueError, match="resolution"):
        repo.resolve_escalation(s, job_id=job.id, status="open", actor="x")


def test_the_database_itself_refuses_a_second_open_escalation(s):
    job = started(s)
    repo.open_escalation(s, job_id=job.id, n=1, kind="review", reason="r")
    with pytest.raises(IntegrityError), s.begin_nested():
        s.add(Escalation(job_id=job.id, n=1, kind="review", reason="r2"))
        s.flush()


# --- sweeper --------------------------------------------------------------------------------


def test_stuck_iterations_touch_and_deliveries(s):
    job = started(s)
    later = datetime.now(UTC) + timedelta(minutes=1)
    assert [it.n for it in repo.stuck_iterations(s, older_than=later)] == [1]
    eastern = timezone(timedelta(hours=-5))
    assert repo.touch_published(s, job_id=job.id, n=1, at=later.astimezone(eastern))
    assert repo.stuck_iterations(s, older_than=later) == []
    assert [it.n for it in repo.stuck_iterations(s, older_than=later + timedelta(seconds=1))]
    assert [repo.bump_deliveries(s, job_id=job.id, n=1) for _ in range(2)] == [1, 2]
    with pytest.raises(repo.NotFound):
        repo.bump_deliveries(s, job_id=job.id, n=9)
    fuse(s, job)
    soon = later + timedelta(minutes=5)
    assert [it.status for it in repo.stuck_iterations(s, older_than=soon)] == ["fused"]
    repo.mark_decided(s, job_id=job.id, n=1)
    assert repo.stuck_iterations(s, older_than=soon) == []


# --- calibration ----------------------------------------------------------------------------


def test_verdicts_and_calibration_maps(s):
    job = started(s)
    repo.add_verdict(s, job_id=job.id, n=1, score=0.8, accepted=True, actor="bob")
    repo.add_verdict(s, job_id=job.id, n=1, score=0.3, accepted=False)
    assert [(v.score, v.accepted) for v in repo.list_verdicts(s)] == [(0.8, True), (0.3, False)]
    assert len(repo.list_verdicts(s, limit=1)) == 1
    assert repo.list_verdicts(s, since=datetime.now(UTC) + timedelta(hours=1)) == []
    assert repo.latest_calibration_map(s) is None
    repo.save_calibration_map(s, kind="isotonic", params={"x": [0, 1]}, n_samples=2)
    repo.save_calibration_map(
        s, kind="platt", params={"a": 1.0}, n_samples=2, ece_before=0.2, ece_after=0.05
    )
    assert repo.latest_calibration_map(s).version == 2
    assert repo.latest_calibration_map(s, kind="isotonic").params == {"x": [0, 1]}


# --- the job as a dict ----------------------------------------------------------------------


def test_job_to_dict_is_json_with_every_iteration_and_the_audit_trail(url):
    with db.session_scope(url) as s:
        job = started(s)
        for track in TRACKS:
            record(s, job, track)
        fuse(s, job)
        repo.append_decision(s, job_id=job.id, n=1, action="review", rationale="amber")
        repo.open_escalation(s, job_id=job.id, n=1, kind="review", reason="amber")
        job_id = job.id
    with db.session_scope(url) as s:
        data = repo.job_to_dict(repo.get_job(s, job_id=job_id))
        summary = repo.job_to_dict(repo.get_job(s, job_id=job_id), detail=False)
        full = repo.job_to_dict(repo.get_job(s, job_id=job_id), include_content=True)
    json.dumps(data)
    assert data["id"] == job_id and data["request"] == REQUEST
    assert data["created_at"].endswith("+00:00")
    (it,) = data["iterations"]
    assert it["n"] == 1 and it["score"] == 0.9 and it["result"]["band"] == "GREEN"
    assert set(it["tracks"]) == set(TRACKS)
    assert it["tracks"]["reward"]["payload"] == {"name": "reward", "score": 0.5}
    assert "content" not in it and full["iterations"][0]["content"] == "c"
    assert [d["action"] for d in data["decisions"]] == ["review"]
    assert [e["status"] for e in data["escalations"]] == ["open"]
    assert "iterations" not in summary and summary["status"] == "running"


def test_storage_import_opens_no_engine():
    code = (
        "import scoregate.storage, scoregate.storage.repository as r;"
        "from scoregate.storage import db; assert not db._engines"
    )
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", code], check=True)


def test_forked_child_forgets_the_parents_engines(url):
    import os

    engine = db.get_engine(url)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(write, b"1" if db.get_engine(url) is not engine else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    assert db.get_engine(url) is engine


def test_iteration_rows_cascade_with_their_job(s):
    job = started(s)
    record(s, job, "reward")
    s.execute(text("DELETE FROM jobs WHERE id = :id"), {"id": job.id})
    assert s.scalar(text("SELECT count(*) FROM track_results")) == 0
    assert s.scalar(text("SELECT count(*) FROM iterations")) == 0
