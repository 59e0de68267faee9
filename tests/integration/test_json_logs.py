"""``SCOREGATE_LOG_FORMAT=json`` in a real worker process: every record it writes, Celery's
and the task's included, is one JSON object per line (Redis db 6, no Postgres needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_service
from tests.integration.conftest import ROOT, stop

BROKER_URL = os.environ.get("SCOREGATE_TEST_JSON_LOGS_REDIS_URL", "redis://127.0.0.1:6379/6")
#: A queue of this run's own: a stray worker on db 6 cannot take its message.
QUEUE = f"logtest-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def broker() -> Iterator[str]:
    import redis

    client = redis.Redis.from_url(BROKER_URL)
    try:
        client.ping()
    except Exception as exc:
        require_service("Redis", exc)
    client.flushdb()
    yield BROKER_URL
    client.flushdb()


def _wait_for(path: Path, text: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in path.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError(f"no {text!r} in the worker's log: {path.read_text()[-3000:]}")


@pytest.fixture
def json_worker(broker: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A worker on :data:`QUEUE` only (no pool: no database, no models) with
    ``SCOREGATE_LOG_FORMAT=json``; its stderr (the log) and stdout (the banner) apart."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env.update(
        {
            "SCOREGATE_BROKER_URL": broker,
            "SCOREGATE_DATABASE_URL": f"sqlite:///{tmp_path / 'scoregate.db'}",
            "SCOREGATE_LOG_FORMAT": "json",
            "PYTHONPATH": str(ROOT),
            "PYTHONWARNINGS": "ignore",  # Python's warnings are not log records
        }
    )
    log, out = tmp_path / "worker.log", tmp_path / "worker.out"
    cmd = [  # `--quiet`, as `scoregate worker` in JSON mode: no start banner
        *(sys.executable, "-m", "celery", "-A", "scoregate.workers", "--quiet", "worker"),
        *("-Q", QUEUE, "-c", "1", "-n", "jsonlogs@%h", "-l", "INFO"),
        *("--include", "tests.integration.json_logs_app"),
    ]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=out.open("wb"), stderr=log.open("wb"))
    try:
        _wait_for(log, "ready.", proc, timeout=60)
        yield {"proc": proc, "log": log, "out": out}
    finally:
        stop(proc)


def _records(log: Path) -> list[dict[str, Any]]:
    """Every line of a worker's stream as a JSON record; fails on a line that is not one."""
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    records = []
    for line in lines:
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            raise AssertionError(f"not a JSON line in the worker's log: {line!r}") from None
    return records


def test_a_json_worker_writes_every_record_as_one_json_line(json_worker: dict[str, Any]):
    from celery import Celery

    sender = Celery("json-logs-test", broker=BROKER_URL, set_as_current=False)
    sender.send_task("logtest.fail_and_log", kwargs={"job_id": "job-7"}, queue=QUEUE)
    _wait_for(json_worker["log"], "succeeded", json_worker["proc"], timeout=30)
    stop(json_worker["proc"])  # its shutdown lines too

    records = _records(json_worker["log"])
    for record in records:
        assert {"ts", "level", "logger", "message"} <= set(record), record
        assert record["ts"].endswith("Z"), record
    by_logger = {r["logger"]: r for r in records}
    assert "scoregate.workers.startup" in by_logger  # scoregate's own start-up lines
    assert by_logger["celery.apps.worker"]["message"].endswith("ready.")
    assert by_logger["celery.worker.strategy"]["data"]["name"] == "logtest.fail_and_log"
    failed = by_logger["tests.integration.json_logs_app"]
    assert failed["level"] == "ERROR" and failed["message"] == "job job-7: could not do it"
    assert failed["job_id"] == "job-7"  # extra=
    assert failed["task_name"] == "logtest.fail_and_log" and failed["task_id"]
    assert failed["exc_type"] == "ValueError"
    assert failed["exc"].endswith("ValueError: first line\nsecond line")
    assert by_logger["celery.app.trace"]["message"].startswith("Task logtest.fail_and_log[")
    # what Celery prints rather than logs (its shutdown line, on stdout) is a record too
    said = _records(json_worker["out"])
    assert [r["message"] for r in said] == ["worker: Warm shutdown (MainProcess)"], said
    assert said[0]["logger"] == "celery.apps.worker" and said[0]["ts"].endswith("Z")
