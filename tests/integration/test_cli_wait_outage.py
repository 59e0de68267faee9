"""``scoregate submit --wait`` on Redis + Postgres while the database refuses connections:
a short outage is waited out with one warning; one that lasts past ``--timeout`` prints
the job ids (``--json``: a whole document) before it exits 1. And, with the broker set,
the CLI refuses a database behind the code instead of reading it as empty."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from tests.conftest import require_service
from tests.integration.conftest import PG_ADMIN_URL, ROOT, fresh_database, service_env

pytestmark = [pytest.mark.integration]
DATABASE = "h_c_wait_outage"
#: Redis db 7: no worker consumes it, so a submitted job stays running until cancelled.
BROKER = "redis://127.0.0.1:6379/7"


@pytest.fixture
def env() -> Iterator[dict[str, str]]:
    import redis

    from scoregate.storage.db import dispose_engines, upgrade

    try:
        redis.Redis.from_url(BROKER).ping()
    except Exception as exc:
        require_service("Redis", exc)
    url = fresh_database(DATABASE)
    upgrade(url)
    dispose_engines()
    yield service_env(url, BROKER)
    redis.Redis.from_url(BROKER).flushdb()
    _admin("DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def _admin(statement: str) -> None:
    engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(statement.format(db=f'"{DATABASE}"')))
    engine.dispose()


@contextmanager
def database_closed() -> Iterator[None]:
    """No new connection to the test database, and its open ones cut, until the block ends."""
    _admin("ALTER DATABASE {db} WITH ALLOW_CONNECTIONS false")
    try:
        _admin(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{DATABASE}'"
        )
        yield
    finally:
        _admin("ALTER DATABASE {db} WITH ALLOW_CONNECTIONS true")


def _submit(env: dict[str, str], timeout: float) -> subprocess.Popen[str]:
    args = ["submit", "-q", "Name a fish", "-c", "Trout.", "--wait", "--json"]
    return subprocess.Popen(
        [sys.executable, "-m", "scoregate", *args, "--timeout", str(timeout)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _job_id(env: dict[str, str], proc: subprocess.Popen[str]) -> str:
    """The submitted job's id, once it is recorded (the CLI is then waiting)."""
    engine = sa.create_engine(env["SCOREGATE_DATABASE_URL"])
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            with engine.connect() as conn:
                ids = conn.execute(sa.text("SELECT id FROM jobs")).scalars().all()
            if ids:
                time.sleep(1.0)  # past the first reads of the wait
                return str(ids[0])
            time.sleep(0.2)
    finally:
        engine.dispose()
    proc.kill()
    raise AssertionError(f"no job recorded: {proc.communicate()}")


def test_a_database_outage_during_the_wait_is_waited_out(env):
    proc = _submit(env, timeout=60)
    job_id = _job_id(env, proc)
    with database_closed():
        time.sleep(4)
    cancel = subprocess.run(
        [sys.executable, "-m", "scoregate", "jobs", "cancel", job_id, "--actor", "it"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cancel.returncode == 0, cancel.stderr
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, err  # cancelled: final, not approved
    doc = json.loads(out)
    assert doc["jobs"][0]["status"] == "cancelled" and doc["pending"] == []
    [warning] = err.strip().splitlines()
    assert warning.startswith("warning: ") and DATABASE in warning


def test_an_outage_past_the_timeout_prints_the_ids_then_exits_1(env):
    proc = _submit(env, timeout=6)
    job_id = _job_id(env, proc)
    with database_closed():
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    doc = json.loads(out)
    assert doc["job_ids"] == [job_id] and doc["pending"] == [job_id]
    warning, error = err.strip().splitlines()
    assert warning.startswith("warning: ") and error.startswith("error: ")
    assert DATABASE in error


def test_jobs_list_with_a_broker_refuses_a_postgres_database_behind_the_code(env):
    from scoregate.storage.db import dispose_engines, redact_url, upgrade

    url = fresh_database(DATABASE)
    upgrade(url, "0002")
    dispose_engines()
    out = subprocess.run(
        [sys.executable, "-m", "scoregate", "jobs", "list"],
        env={**env, "SCOREGATE_DATABASE_URL": url},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1, out.stdout
    assert out.stdout == ""
    [line] = out.stderr.strip().splitlines()
    assert f"the database at {redact_url(url)} is at migration 0002" in line
