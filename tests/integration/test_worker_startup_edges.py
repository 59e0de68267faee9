"""A worker's start-up edges with real worker processes on real Redis (db 5) and Postgres:
a database that appears only after the worker started is schema-checked then, an explicit
SQLite file is checked like Postgres, and a node name two workers share is one WARNING."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from scoregate.workers.startup import NAME_CHECK_TIMEOUT_S, RECHECK_EVERY_S
from tests.integration.conftest import (
    PG_ADMIN_URL,
    fresh_database,
    pool_worker,
    reachable_redis,
    service_env,
    stop,
)

pytestmark = pytest.mark.integration

REDIS_DB = "redis://127.0.0.1:6379/5"
#: The database the late tests' workers name; it does not exist when they start.
LATE = "h_w_late"


def _wait_for(proc: subprocess.Popen[bytes], log: Path, text: str, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    while text not in (seen := log.read_text(errors="replace")):
        assert proc.poll() is None, seen[-3000:]
        assert time.monotonic() < deadline, seen[-3000:]
        time.sleep(0.3)
    return seen


def _exit_of(proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> int:
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        raise AssertionError(f"the worker did not stop: {log.read_text()[-3000:]}") from None


@pytest.fixture
def redis_db() -> str:
    return reachable_redis(REDIS_DB)


def _admin(*statements: str) -> None:
    engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


@pytest.fixture
def late_database() -> Iterator[tuple[str, str]]:
    """(URL of database ``LATE``, which does not exist yet; URL of a database to make ready
    under another name and then rename to ``LATE``, so it appears whole at once)."""
    staging = fresh_database(f"{LATE}_staging")
    _admin(f'DROP DATABASE IF EXISTS "{LATE}" WITH (FORCE)')
    yield str(sa.engine.make_url(PG_ADMIN_URL).set(database=LATE)), staging
    _admin(
        f'DROP DATABASE IF EXISTS "{LATE}" WITH (FORCE)',
        f'DROP DATABASE IF EXISTS "{LATE}_staging" WITH (FORCE)',
    )


def _appear_at(staging: str, revision: str) -> None:
    """Migrate the staging database to ``revision``, then give it the late name."""
    from scoregate.storage.db import dispose_engines, upgrade

    upgrade(staging, revision)
    dispose_engines()
    _admin(f'ALTER DATABASE "{LATE}_staging" RENAME TO "{LATE}"')


@pytest.mark.parametrize("cli", [False, True], ids=["celery-worker", "scoregate-worker"])
def test_a_worker_started_before_its_database_stops_once_it_appears_at_an_old_migration(
    tmp_path, redis_db, late_database, cli
):
    url, staging = late_database
    log = tmp_path / "w.log"
    env = service_env(url, redis_db, SCOREGATE_SWEEPER="0")
    proc = pool_worker(env, "reward", log, "late", cli=cli)
    try:
        text = _wait_for(proc, log, "ready.")
        assert f'database "{LATE}" does not exist' in text  # started, naming the fault
        appeared = time.monotonic()
        _appear_at(staging, "0002")
        code = _exit_of(proc, log, timeout=60)
        took = time.monotonic() - appeared
    finally:
        if proc.poll() is None:
            stop(proc)
    text = log.read_text()
    assert code == 2, text[-3000:]
    lines = [line for line in text.splitlines() if "scoregate db upgrade" in line]
    assert len(lines) == 1, text[-3000:]
    assert "ERROR" in lines[0] and f"/{LATE} is at migration 0002, older than" in lines[0]
    assert lines[0].endswith("this worker stops (exit 2)")
    assert "Traceback" not in text
    assert took < 4 * RECHECK_EVERY_S  # tried every 5 s: it stops within a try or two


def test_a_worker_started_before_its_database_runs_on_once_it_appears_current(
    tmp_path, redis_db, late_database
):
    url, staging = late_database
    log = tmp_path / "w.log"
    proc = pool_worker(service_env(url, redis_db, SCOREGATE_SWEEPER="0"), "reward", log, "late-ok")
    try:
        _wait_for(proc, log, "ready.")
        _appear_at(staging, "head")
        text = _wait_for(proc, log, "its schema is this scoregate's", timeout=60)
        time.sleep(1)
        assert proc.poll() is None, text[-3000:]
    finally:
        stop(proc)
    assert "scoregate db upgrade" not in log.read_text()


@pytest.mark.parametrize("cli", [False, True], ids=["celery-worker", "scoregate-worker"])
def test_a_worker_refuses_a_sqlite_file_at_an_old_migration(tmp_path, redis_db, cli):
    from scoregate.storage.db import dispose_engines, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    dispose_engines()
    log = tmp_path / "w.log"
    proc = pool_worker(service_env(url, redis_db), "fusion", log, "sqlite-old", cli=cli)
    assert _exit_of(proc, log) == 2
    text = log.read_text()
    lines = [line for line in text.splitlines() if "scoregate db upgrade" in line]
    assert len(lines) == 1 and "is at migration 0002, older than" in lines[0], text[-3000:]
    assert "ready." not in text and "Traceback" not in text


def test_a_worker_refuses_a_sqlite_file_that_does_not_exist_and_makes_none(tmp_path, redis_db):
    path = tmp_path / "absent" / "scoregate.db"
    log = tmp_path / "w.log"
    proc = pool_worker(service_env(f"sqlite:///{path}", redis_db), "control", log, "sqlite-none")
    assert _exit_of(proc, log) == 2
    text = log.read_text()
    assert "has no scoregate tables (the file does not exist)" in text, text[-3000:]
    assert "ready." not in text and not path.exists()


def test_a_second_worker_under_a_taken_node_name_warns_once(tmp_path, redis_db):
    from scoregate.storage.db import dispose_engines, upgrade

    url = fresh_database("h_w_names")
    upgrade(url)
    dispose_engines()
    env = service_env(url, redis_db, SCOREGATE_SWEEPER="0")
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = pool_worker(env, "reward", first_log, "dup")
    second = None
    try:
        _wait_for(first, first_log, "ready.")
        time.sleep(3)  # the first worker's own check is over
        second = pool_worker(env, "reward", second_log, "dup")
        _wait_for(second, second_log, "ready.")
        ready = time.monotonic()
        text = _wait_for(second, second_log, "is taken", timeout=15)
        took = time.monotonic() - ready
    finally:
        for proc in (first, second):
            if proc is not None:
                stop(proc)
    warned = [line for line in text.splitlines() if "is taken" in line]
    assert len(warned) == 1 and "WARNING" in warned[0], text[-3000:]
    assert "node name dup@" in warned[0] and "another live worker" in warned[0]
    assert "scoregate worker --name NAME" in warned[0]
    assert "is taken" not in first_log.read_text()  # alone when it started
    assert took < 3 * NAME_CHECK_TIMEOUT_S
