"""A pool worker refuses a database it cannot use, at start, in one line (exit 2), and
starts (naming the fault) when the database is only away: real worker processes on real
Redis and Postgres."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.integration.conftest import (
    fresh_database,
    pool_worker,
    reachable_redis,
    service_env,
    stop,
)

pytestmark = pytest.mark.integration

REDIS_DB = "redis://127.0.0.1:6379/14"


def _worker(
    env: dict[str, str], queues: str, log: Path, *, cli: bool = False
) -> subprocess.Popen[bytes]:
    return pool_worker(env, queues, log, f"refusal-{queues}", cli=cli)


def _exit_of(proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> int:
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        raise AssertionError(
            f"the worker did not refuse to start: {log.read_text()[-3000:]}"
        ) from None


def _wait_ready(proc: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + 90
    while "ready." not in (text := log.read_text(errors="replace")):
        assert proc.poll() is None, text[-3000:]
        assert time.monotonic() < deadline, text[-3000:]
        time.sleep(0.3)
    return text


@pytest.fixture
def redis_db() -> str:
    return reachable_redis(REDIS_DB)


@pytest.fixture(scope="module")
def own_db() -> str:
    """A migrated database of this module's own (not the shared ``scoregate_it``)."""
    from scoregate.storage.db import dispose_engines, upgrade

    url = fresh_database("h_b_workers")
    upgrade(url)
    dispose_engines()
    return url


def test_a_worker_refuses_a_database_at_an_older_migration(tmp_path, redis_db):
    from scoregate.storage.db import dispose_engines, upgrade

    url = fresh_database("h_b_old_schema")
    upgrade(url, "0002")
    dispose_engines()
    log = tmp_path / "w.log"
    proc = _worker(service_env(url, redis_db, SCOREGATE_SWEEPER="0"), "fusion,control", log)
    assert _exit_of(proc, log) == 2
    text = log.read_text()
    refusals = [line for line in text.splitlines() if "scoregate db upgrade" in line]
    assert len(refusals) == 1, text
    assert "at migration 0002, older than this scoregate's 0003" in refusals[0]
    assert "ready." not in text and "Traceback" not in text


def test_a_worker_warns_of_a_database_migrated_by_a_newer_scoregate_and_starts(tmp_path, redis_db):
    from scoregate.storage.db import dispose_engines, upgrade

    url = fresh_database("h_b_new_schema")
    upgrade(url)
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    dispose_engines()
    log = tmp_path / "w.log"
    proc = _worker(service_env(url, redis_db, SCOREGATE_SWEEPER="0"), "reward", log)
    try:
        text = _wait_ready(proc, log)
    finally:
        stop(proc)
    warned = [line for line in text.splitlines() if "at migration 0099" in line]
    assert len(warned) == 1 and "WARNING" in warned[0], text


@pytest.mark.parametrize("cli", [False, True], ids=["celery-worker", "scoregate-worker"])
def test_a_worker_with_a_broker_and_no_database_url_refuses_and_names_the_typo(
    tmp_path, redis_db, cli
):
    env = service_env("unused", redis_db)
    del env["SCOREGATE_DATABASE_URL"]
    env["SCOREGATE_DATABSE_URL"] = "postgresql://postgres@127.0.0.1:5432/test"
    env["HOME"] = str(tmp_path)
    log = tmp_path / "w.log"
    proc = _worker(env, "reward", log, cli=cli)
    assert _exit_of(proc, log) == 2
    text = log.read_text()
    assert "SCOREGATE_DATABASE_URL is not set: a worker needs the database" in text
    assert "did you mean SCOREGATE_DATABASE_URL? SCOREGATE_DATABSE_URL is set" in text
    assert not (tmp_path / ".local" / "share" / "scoregate" / "scoregate.db").exists()


def test_a_worker_on_an_unreachable_database_says_so_once_and_keeps_running(tmp_path, redis_db):
    url = "postgresql+psycopg://postgres@127.0.0.1:1/h_b_nowhere"
    log = tmp_path / "w.log"
    proc = _worker(service_env(url, redis_db, SCOREGATE_SWEEPER="0"), "reward", log)
    try:
        text = _wait_ready(proc, log)
        time.sleep(2)
        assert proc.poll() is None, log.read_text()[-3000:]
    finally:
        stop(proc)
    errors = [line for line in text.splitlines() if "database unreachable at" in line]
    assert len(errors) == 1 and "ERROR" in errors[0], text
    assert "127.0.0.1:1/h_b_nowhere" in errors[0]


def test_a_semantic_worker_without_its_model_refuses_to_start(tmp_path, redis_db, own_db):
    overlay = tmp_path / "badmodel.yaml"
    overlay.write_text(f"semantic:\n  model: {tmp_path / 'no-such-model'}\n")
    env = service_env(own_db, redis_db, SCOREGATE_SCORING_CONFIG=str(overlay))
    log = tmp_path / "w.log"
    proc = _worker(env, "semantic", log)
    assert _exit_of(proc, log) == 2
    text = log.read_text()
    assert "error: the semantic pool needs the semantic model: model '" in text
    assert "ready." not in text and "Traceback" not in text


@pytest.mark.model
def test_a_semantic_worker_process_loads_its_model_before_its_first_batch(
    tmp_path, redis_db, own_db
):
    log = tmp_path / "w.log"
    proc = _worker(service_env(own_db, redis_db), "semantic", log)
    try:
        _wait_ready(proc, log)
        deadline = time.monotonic() + 240
        while "semantic: models loaded in" not in (text := log.read_text(errors="replace")):
            assert proc.poll() is None and time.monotonic() < deadline, text[-3000:]
            time.sleep(0.5)
    finally:
        stop(proc)
    assert "Timed out waiting for UP message" not in text  # a slow load is not killed
    assert "cannot load the models" not in text


def test_a_worker_logs_its_scoring_config_and_answers_it_to_inspect(tmp_path, redis_db, own_db):
    from celery import Celery

    from scoregate._version import __version__

    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("actions:\n  accept: 0.99\n")
    env = service_env(
        own_db, redis_db, SCOREGATE_SCORING_CONFIG=str(overlay), SCOREGATE_SWEEPER="0"
    )
    log = tmp_path / "w.log"
    proc = _worker(env, "fusion", log)
    try:
        text = _wait_ready(proc, log)
        client = Celery(broker=redis_db)
        replies = client.control.broadcast("scoregate_config", reply=True, timeout=5)
        client.close()
        listing = subprocess.run(
            [sys.executable, "-m", "scoregate", "workers", "--json", "--timeout", "5"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        stop(proc)
    lines = [line for line in text.splitlines() if "scoring config: " in line]
    assert len(lines) == 1 and f"scoring config: {overlay} (digest " in lines[0], text
    digest = lines[0].rsplit("(digest ", 1)[1].rstrip(")")
    assert len(digest) == 12
    mine = [a for r in replies for node, a in r.items() if node.startswith("refusal-fusion@")]
    assert mine == [{"path": str(overlay), "digest": digest, "version": __version__}]
    # and `scoregate workers` shows it (other tests' workers may share the broker db)
    listed = json.loads(listing.stdout)
    [node] = [n for n in listed if n.startswith("refusal-fusion@")]
    assert listed[node] == {"queues": ["fusion"], "config": mine[0]}, listing.stdout


def test_a_control_worker_s_idle_sweeps_stay_out_of_its_info_log(tmp_path, redis_db, own_db):
    from celery import Celery

    env = service_env(own_db, redis_db, SCOREGATE_SWEEP_INTERVAL_S="1")
    log = tmp_path / "w.log"
    proc = _worker(env, "control", log)
    try:
        _wait_ready(proc, log)
        time.sleep(4)
        client = Celery(broker=redis_db)
        stats = client.control.inspect(timeout=5).stats() or {}
        client.close()
    finally:
        stop(proc)
    mine = [s for node, s in stats.items() if node.startswith("refusal-control@")]
    assert mine and mine[0]["total"].get("scoregate.control.sweep", 0) >= 3  # they ran
    assert "scoregate.control.sweep[" not in log.read_text()
