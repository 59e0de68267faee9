"""The ops review's finding 3 as real processes (twenty-second session): a pool worker whose
database does not exist starts (a start order must not matter) and answers a ping, but
``scoregate workers`` (and ``--host``, compose's healthcheck) marks it and exits 1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.integration.conftest import (
    PG_ADMIN_URL,
    ROOT,
    pool_worker,
    reachable_redis,
    service_env,
    stop,
)

pytestmark = pytest.mark.integration

REDIS_DB = os.environ.get("SCOREGATE_TEST_OPS_REDIS_URL", "redis://127.0.0.1:6379/11")
#: A database name nobody makes: the server answers, naming it missing.
NOWHERE_DB = "h_ops_no_such_database"


def test_a_worker_without_its_database_is_not_ready(tmp_path: Path) -> None:
    redis_url = reachable_redis(REDIS_DB)
    url = str(sa.engine.make_url(PG_ADMIN_URL).set(database=NOWHERE_DB))
    env = service_env(url, redis_url, SCOREGATE_SWEEPER="0")
    log = tmp_path / "w.log"
    proc = pool_worker(env, "fusion", log, "opshealth", cli=True)
    try:
        deadline = time.monotonic() + 90
        while "ready." not in (text := log.read_text(errors="replace")):
            assert proc.poll() is None, text[-3000:]
            assert time.monotonic() < deadline, text[-3000:]
            time.sleep(0.3)
        assert f'database "{NOWHERE_DB}" does not exist' in text  # started, naming the fault
        host = socket.gethostname()
        cli = [sys.executable, "-m", "scoregate", "workers", "--host", host, "--timeout", "3"]
        out = subprocess.run(cli, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    finally:
        stop(proc)
    assert out.returncode == 1, out.stdout + out.stderr  # was 0: ready, listed, every pool
    assert out.stdout.startswith(f"opshealth@{host}\tfusion\t")
    assert out.stdout.rstrip().endswith("\tdatabase unreachable")
    assert f"error: opshealth@{host} has not reached its database since it started" in out.stderr
    assert f'"{NOWHERE_DB}" does not exist' in out.stderr
