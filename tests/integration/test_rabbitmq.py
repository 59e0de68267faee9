"""RabbitMQ as the broker: one binding per pool queue, stale bindings dropped, a job end to end.

Runs in a vhost of its own (created and deleted with ``rabbitmqctl``) on the RabbitMQ of
``SCOREGATE_TEST_RABBITMQ_URL`` (default ``amqp://guest:guest@127.0.0.1:5672//``), with
Postgres and without Redis: the worker must say what that turns off.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

import scoregate
from scoregate.pipelines.context import POOLS
from tests.conftest import require_service
from tests.integration.conftest import (
    ROOT,
    client_pointed_at,
    fresh_database,
    service_env,
    stop,
    wait_final,
)

pytestmark = [pytest.mark.integration]

RABBITMQ_URL = os.environ.get("SCOREGATE_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")
VHOST = "scoregate_it_rabbitmq"


def _ctl(*args: str) -> str:
    out = subprocess.run(
        ["rabbitmqctl", *args], capture_output=True, text=True, timeout=60, check=True
    )
    return out.stdout


def _in_vhost(url: str, vhost: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + vhost, "", ""))


@pytest.fixture(scope="module")
def vhost_url() -> Iterator[str]:
    from kombu import Connection

    try:
        with Connection(RABBITMQ_URL, connect_timeout=3) as conn:
            conn.ensure_connection(max_retries=1)
        if shutil.which("rabbitmqctl") is None:
            raise RuntimeError("rabbitmqctl is not installed (needed for a vhost of our own)")
        if VHOST in _ctl("list_vhosts", "name").split():
            _ctl("delete_vhost", VHOST)
        _ctl("add_vhost", VHOST)
        user = urlsplit(RABBITMQ_URL).username or "guest"
        _ctl("set_permissions", "-p", VHOST, user, ".*", ".*", ".*")
    except Exception as exc:
        require_service("RabbitMQ", exc)
    yield _in_vhost(RABBITMQ_URL, VHOST)
    _ctl("delete_vhost", VHOST)


def _bind_the_old_way(url: str) -> None:
    """Every pool queue bound to exchange ``control`` with key ``control`` (the old bug)."""
    from kombu import Connection, Exchange, Queue

    control = Exchange("control", type="direct")
    with Connection(url) as conn:
        for pool in POOLS:
            Queue(pool, control, routing_key="control")(conn.default_channel).declare()


def _bindings() -> list[dict[str, Any]]:
    out = _ctl(
        "list_bindings",
        "-p",
        VHOST,
        "source_name",
        "destination_name",
        "routing_key",
        "--formatter",
        "json",
    )
    return list(json.loads(out))


@pytest.fixture(scope="module")
def worker(vhost_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from scoregate.storage.db import upgrade

    _bind_the_old_way(vhost_url)
    pg_url = fresh_database("scoregate_rabbitmq")
    upgrade(pg_url)
    env = service_env(pg_url, vhost_url, SCOREGATE_TEST_FAKE_MODELS="1")
    log = tmp_path_factory.mktemp("rabbitmq") / "worker.log"
    cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker"]
    cmd += ["-Q", ",".join(POOLS), "-c", "2", "-E", "-n", "rmq@%h", "-l", "INFO"]
    cmd += ["--include", "tests.integration.faults"]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        _wait_for(log, "ready.", proc)
        with client_pointed_at(env):
            yield {"env": env, "log": log}
    finally:
        stop(proc)


def _wait_for(
    log: Path, text: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 90
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-3000:]}")
        if text in log.read_text(errors="replace"):
            return
        time.sleep(0.3)
    raise RuntimeError(f"no {text!r} in the worker log: {log.read_text()[-3000:]}")


def test_each_pool_queue_has_one_binding_and_a_job_completes(worker):
    # The stale bindings are dropped once the consumer runs: wait for its log line.
    _wait_for(worker["log"], "bound only to their own exchange", timeout=30)
    for pool in POOLS:
        # The default exchange's implicit binding ("" -> every queue) is not a declared one.
        declared = [
            (b["source_name"], b["routing_key"])
            for b in _bindings()
            if b["destination_name"] == pool and b["source_name"]
        ]
        assert declared == [(pool, pool)], f"{pool}: {declared}"
    job_id = scoregate.submit({"query": "Name a colour.", "content": "Blue is a colour."})
    job = wait_final(job_id, timeout=120)
    assert job["status"] == "completed", job.get("failure_reason")
    assert len(job["iterations"]) == 1 and len(job["decisions"]) == 1


def test_the_worker_says_in_one_line_what_is_off_without_redis(worker):
    lines = [line for line in worker["log"].read_text().splitlines() if "no Redis" in line]
    assert len(lines) == 1, lines
    for feature in ("poison-message protection", "research quota", "caches"):
        assert feature in lines[0]
