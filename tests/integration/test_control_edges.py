"""An agent task that raises reaches its job within seconds, through a real worker.

Two agents fail: one in scoregate's own worker (Celery calls ``agent_error`` in place,
with the exception) and one in an orchestrator's own Celery app that knows nothing of
scoregate (Celery sends ``agent_error`` the failed task's id; the exception is read from
the shared result backend). The sweeper's agent timeout is 10 minutes here, so only the
error callback can have told the jobs. The loop-exit hook is given without a queue: it
runs from the default hooks queue.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import redis

import scoregate
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL as BASE_REDIS_URL
from tests.integration.conftest import (
    ROOT,
    client_pointed_at,
    fresh_database,
    service_env,
    start_worker,
    stop,
    wait_final,
)

pytestmark = [pytest.mark.integration, pytest.mark.model]

QUERY = "Write a short haiku about autumn leaves falling in a quiet park."
OFF_TOPIC = "The quarterly tax report is attached; the invoices are due on Friday."
LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3, "hil": False}
AGENT_TIMEOUT_S = 600


#: A Redis database of its own: the session's shared worker (``stack``) must not take
#: these jobs' messages into its own Postgres database.
REDIS_URL = os.environ.get(
    "SCOREGATE_TEST_CONTROL_EDGES_REDIS_URL", BASE_REDIS_URL.rsplit("/", 1)[0] + "/13"
)


@pytest.fixture(scope="module")
def edges_redis() -> Iterator[str]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except Exception as exc:
        require_service("Redis", exc)
    client.flushdb()
    yield REDIS_URL
    client.flushdb()


@pytest.fixture(scope="module")
def edges_stack(
    edges_redis: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    from scoregate.storage.db import upgrade

    pg_url = fresh_database("scoregate_it_control_edges")
    upgrade(pg_url)
    env = service_env(
        pg_url,
        edges_redis,
        SCOREGATE_RESULT_BACKEND=edges_redis,
        SCOREGATE_ALLOWED_TASKS="testagent.fail,testagent.on_loop_exit,orchestrator.write",
        SCOREGATE_AGENT_TIMEOUT_S=str(AGENT_TIMEOUT_S),
        SCOREGATE_AGENT_ERROR_RETRIES="1",
    )
    logs = tmp_path_factory.mktemp("edges")
    worker = start_worker(
        env, "semantic,precision,reward,fusion,control,agents,hooks", logs / "worker.log"
    )
    foreign = _start_foreign(env, logs / "foreign.log")
    try:
        with client_pointed_at(env):
            yield {"env": env, "redis": edges_redis}
    finally:
        stop(foreign)
        stop(worker)


def _start_foreign(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "celery", "-A", "tests.integration.foreign_agent", "worker"]
    cmd += ["-Q", "orchestrator", "-c", "1", "-n", "orchestrator@%h", "-l", "INFO"]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"orchestrator worker exited: {log.read_text()[-3000:]}")
        if "ready." in log.read_text(errors="replace"):
            return proc
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"orchestrator worker not ready in 60s: {log.read_text()[-3000:]}")


def _errors(job: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in job["decisions"] if d["action"] == "agent_error"]


def _seconds(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def _check_failed_with(job: dict[str, Any], error_type: str, message: str) -> float:
    assert job["status"] == "failed", job
    errors = _errors(job)
    assert len(errors) == 2  # the first error, and the one after the retry
    assert {e["details"]["error_type"] for e in errors} == {error_type}
    assert message in errors[0]["rationale"] and message in job["failure_reason"]
    agents = [d for d in job["dispatches"] if d["kind"] == "agent"]
    assert len(agents) == 2 and all(d["queue"] != "control" for d in agents)
    assert [e["details"]["task_id"] for e in errors] == [d["celery_task_id"] for d in agents]
    latency = _seconds(agents[0]["sent_at"], errors[0]["created_at"])
    assert latency < AGENT_TIMEOUT_S  # the error callback told it, not the sweeper
    return latency


def _hooks(redis_url: str, job_id: str) -> list[dict[str, Any]]:
    client = redis.Redis.from_url(redis_url)
    return [json.loads(x) for x in client.lrange(f"testhooks:{job_id}", 0, -1)]


def test_agents_that_raise_reach_their_jobs_within_seconds(edges_stack, capsys):
    request = {"query": QUERY, "content": OFF_TOPIC}
    exit_hook = "testagent.on_loop_exit"  # no queue: SCOREGATE_HOOKS_QUEUE ("hooks")
    in_place = scoregate.submit(
        request, loop=LOOP, agent={"task": "testagent.fail"}, on_loop_exit=exit_hook
    )
    foreign = scoregate.submit(
        request,
        loop=LOOP,
        agent={"task": "orchestrator.write", "queue": "orchestrator"},
        on_loop_exit=exit_hook,
    )
    job = wait_final(in_place, timeout=300)
    first = _check_failed_with(job, "ValueError", "no draft for iteration 2")
    assert job["dispatches"][0]["queue"] == "agents"  # SCOREGATE_AGENT_QUEUE
    other = wait_final(foreign, timeout=120)
    second = _check_failed_with(other, "LookupError", "lost the context of job")
    # The hook given without a queue ran (from the hooks queue), told why the loop ended.
    deadline = time.monotonic() + 30
    while len(_hooks(edges_stack["redis"], in_place)) < 3 and time.monotonic() < deadline:
        time.sleep(0.3)
    calls = _hooks(edges_stack["redis"], in_place)
    assert [c["kind"] for c in calls] == ["agent", "agent", "on_loop_exit"]
    assert calls[-1] == {"kind": "on_loop_exit", "reason": "agent_failed"}
    hook_row = next(d for d in job["dispatches"] if d["kind"] == "hook")
    assert (hook_row["role"], hook_row["queue"]) == ("on_loop_exit", "hooks")
    with capsys.disabled():
        print(
            f"\nagent raised -> error on the job: {first:.2f} s (in scoregate's worker),"
            f" {second:.2f} s (orchestrator's own app, via the result backend)"
        )


def test_the_submit_task_gives_a_client_its_job_id_even_when_refused(edges_stack):
    from scoregate.workers.app import get_app

    app = get_app()
    good = {"request": {"query": QUERY, "content": OFF_TOPIC}}
    sent = app.send_task("scoregate.control.submit", kwargs={"body": good}, queue="control")
    job_id = sent.get(timeout=60)
    assert wait_final(job_id, timeout=120)["status"] == "completed"
    bad = {"request": {"query": QUERY}}  # no content, and no idempotency key
    refused = app.send_task("scoregate.control.submit", kwargs={"body": bad}, queue="control")
    failed_id = refused.get(timeout=60)
    job = scoregate.get_job(f"celery:{refused.id}")
    assert job["id"] == failed_id and job["status"] == "failed"
    assert "content: Field required" in job["failure_reason"]
