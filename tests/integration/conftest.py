"""Real services for the integration tests: Postgres, Redis, Celery worker processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get(
    "SCOREGATE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("SCOREGATE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
FINAL = {"accepted", "completed", "rejected", "escalated", "failed", "cancelled", "awaiting_review"}


def fresh_database(name: str) -> str:
    """Drop and create database ``name`` next to the admin URL's; returns its URL."""
    import sqlalchemy as sa

    try:
        admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
    except Exception as exc:  # any connection problem means: no Postgres here
        require_service("Postgres", exc)
    return str(sa.engine.make_url(PG_ADMIN_URL).set(database=name))


def reachable_redis(url: str) -> str:
    """``url``, once its Redis answers a ping (else the test is skipped or, in CI, fails)."""
    import redis

    try:
        redis.Redis.from_url(url).ping()
    except Exception as exc:
        require_service("Redis", exc)
    return url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    import redis

    client = redis.Redis.from_url(reachable_redis(REDIS_URL))
    client.flushdb()
    yield REDIS_URL
    client.flushdb()


#: scoregate's own Redis keys (research quota, delivery counters, caches); the broker's
#: keys (queues, ``_kombu.*`` bindings) are left alone: a session's worker still uses them.
SCOREGATE_KEYS = "scoregate:*"


def drop_scoregate_keys(url: str) -> int:
    """Delete scoregate's keys from the test Redis db; returns how many went."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=SCOREGATE_KEYS, count=500))
    if keys:
        client.delete(*keys)
    return len(keys)


@pytest.fixture(autouse=True)
def fresh_redis_keys(request: pytest.FixtureRequest) -> None:
    """Tests sharing the Redis db start clean: no quota used, no delivery counted, no
    cached vector left by an earlier test (per test, not per session)."""
    if "redis_url" in request.fixturenames:
        drop_scoregate_keys(request.getfixturevalue("redis_url"))


@pytest.fixture(scope="session")
def pg_url() -> str:
    from scoregate.storage.db import upgrade

    url = fresh_database("scoregate_it")
    upgrade(url)
    return url


def service_env(pg_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env.update(
        {
            "SCOREGATE_BROKER_URL": redis_url,
            "SCOREGATE_DATABASE_URL": pg_url,
            "SCOREGATE_ALLOWED_TASKS": "testagent.write,testagent.on_pass,testagent.on_loop_exit",
            "SCOREGATE_BATCH_INTERVAL_S": "0.05",
            "SCOREGATE_TORCH_THREADS": "1",
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": str(ROOT),
            **extra,
        }
    )
    return env


def start_worker(
    env: dict[str, str], queues: str, log: Path, concurrency: int = 2, name: str = "it"
) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "scoregate.workers",
        "worker",
        "-Q",
        queues,
        "-c",
        str(concurrency),
        "-E",
        "-n",
        f"{name}@%h",
        "--include",
        "tests.integration.agent_app",
        "--prefetch-multiplier",
        "64",
        "-l",
        "INFO",
    ]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-3000:]}")
        if "ready." in log.read_text(errors="replace"):
            return proc
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"worker not ready in 90s: {log.read_text()[-3000:]}")


def pool_worker(
    env: dict[str, str], queues: str, log: Path, name: str, *, cli: bool = False
) -> subprocess.Popen[bytes]:
    """One worker process of ``queues`` named ``name@%h``, through ``celery worker`` or
    (``cli``: one pool) ``scoregate worker``, which must hand on Celery's exit status."""
    if cli:
        cmd = [sys.executable, "-m", "scoregate", "worker", "--pool", queues, "-c", "1"]
    else:
        cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker", "-Q", queues]
        cmd += ["-c", "1", "-l", "INFO"]
    cmd += ["-n", f"{name}@%h"]
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def stack(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """One worker process tree serving every pool and the test agent's queue."""
    env = service_env(pg_url, redis_url)
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    proc = start_worker(env, "semantic,precision,reward,fusion,control,agents", log)
    with client_pointed_at(env):
        yield {"env": env, "log": log, "proc": proc}
    stop(proc)


@contextmanager
def client_pointed_at(env: dict[str, str], skip: tuple[str, ...] = ()) -> Iterator[None]:
    """This process's ``SCOREGATE_*`` settings from ``env`` (less ``skip``), then back."""
    saved = {k: v for k, v in os.environ.items() if k.startswith("SCOREGATE_")}
    os.environ.update(
        {k: v for k, v in env.items() if k.startswith("SCOREGATE_") and k not in skip}
    )
    clear_caches()
    try:
        yield
    finally:
        for key in [k for k in os.environ if k.startswith("SCOREGATE_")]:
            del os.environ[key]
        os.environ.update(saved)
        clear_caches()


def clear_caches() -> None:
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.pipelines.api import client_context
    from scoregate.workers.app import get_app
    from scoregate.workers.runtime import get_context, redis_client

    for fn in (get_settings, get_scoring_config, client_context, get_context, redis_client):
        fn.cache_clear()
    # A new app: the old one's producer pool stays connected to the previous broker URL.
    get_app.cache_clear()


def wait_final(job_id: str, timeout: float = 180.0) -> dict[str, Any]:
    import scoregate

    deadline = time.monotonic() + timeout
    job = scoregate.get_job(job_id)
    while job["status"] not in FINAL and time.monotonic() < deadline:
        time.sleep(0.3)
        job = scoregate.get_job(job_id)
    return job
