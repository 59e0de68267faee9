"""Reliability on real services: dead workers, a restarted broker, a database outage,
duplicate and poison messages, pickle on the wire, and a burst of 5,000 jobs.

Loopback only: Redis database 12 and a fresh Postgres database per stack. Every wait
has a deadline. Workers score with fake models (``faults.py``) except where the model
pool itself is under test; the load test's size comes from ``SCOREGATE_LOAD_JOBS``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

import scoregate
from scoregate.storage.db import upgrade
from tests.integration.conftest import (
    FINAL,
    ROOT,
    client_pointed_at,
    fresh_database,
    service_env,
)

pytestmark = [pytest.mark.integration, pytest.mark.reliability]

REDIS_URL = os.environ.get("SCOREGATE_TEST_RELIABILITY_REDIS_URL", "redis://127.0.0.1:6379/12")
LOAD_JOBS = int(os.environ.get("SCOREGATE_LOAD_JOBS", "5000"))
ALL_QUEUES = "semantic,precision,reward,fusion,control,agents"
#: Fast faults: fake models, a sweeper every 5 s for iterations stuck 8 s, 3 deliveries.
FAULTS = {
    "SCOREGATE_TEST_FAKE_MODELS": "1",
    "SCOREGATE_STUCK_AFTER_S": "8",
    "SCOREGATE_SWEEP_INTERVAL_S": "5",
    "SCOREGATE_VISIBILITY_TIMEOUT_S": "60",
    "SCOREGATE_MAX_DELIVERIES": "3",
}
REQUEST = {"query": "Summarise the report in three lines.", "content": "A short summary."}
#: In every database URL (loopback Postgres trusts and ignores it): it must never be shown.
SECRET = "s3cr3t-rel-pw"
PG_CONF = Path("/etc/postgresql")
PG_VERSION = sorted(os.listdir(PG_CONF))[-1] if PG_CONF.is_dir() and os.listdir(PG_CONF) else ""


class Stack:
    """A fresh database, a flushed Redis database and worker processes (own process groups)."""

    def __init__(self, name: str, tmp: Path, **env: str) -> None:
        url = sa.engine.make_url(fresh_database(f"scoregate_rel_{name}")).set(password=SECRET)
        self.db_url = url.render_as_string(hide_password=False)
        upgrade(self.db_url)
        self.redis = redis.Redis.from_url(REDIS_URL)
        self.redis.flushdb()
        self.env = service_env(self.db_url, REDIS_URL, **env)
        self.tmp = tmp
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.engine = sa.create_engine(self.db_url, poolclass=NullPool)

    def start(
        self, name: str, queues: str, concurrency: int = 1, beat: bool = False, **env: str
    ) -> None:
        log = self.tmp / f"{name}.log"
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
            "-n",
            f"{name}@%h",
            "--include",
            "tests.integration.faults",
            "-l",
            "INFO",
            "--prefetch-multiplier",
            "64",
            "--without-gossip",
            "--without-mingle",
        ]
        if beat:
            cmd += ["-B", "-s", str(self.tmp / f"{name}-beat")]
        proc = subprocess.Popen(
            cmd,
            env={**self.env, **env},
            cwd=ROOT,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs[name] = proc
        _until(lambda: "ready." in self.log(name) or proc.poll() is not None, 120, "worker up")
        assert proc.poll() is None, self.log(name)[-3000:]

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    def alive(self, name: str) -> bool:
        return self.procs[name].poll() is None

    def kill(self, name: str) -> None:
        """SIGKILL the worker and every process it started (pool children, beat)."""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait()

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.engine.dispose()

    def rows(self, sql: str) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.text(sql)))

    def final(self) -> int:
        statuses = ", ".join(f"'{s}'" for s in FINAL)
        return int(self.rows(f"SELECT count(*) FROM jobs WHERE status IN ({statuses})")[0][0])

    def audit(self) -> dict[str, Any]:
        """What a user would check: every job final, one iteration and decision each."""
        count = {
            t: self.rows(f"SELECT count(*) FROM {t}")[0][0]
            for t in ("jobs", "iterations", "track_results", "decisions")
        }
        repeated = self.rows(
            "SELECT job_id, n FROM decisions GROUP BY job_id, n HAVING count(*) > 1"
        )
        statuses = dict(self.rows("SELECT status, count(*) FROM jobs GROUP BY status"))
        failed = self.rows("SELECT failure_reason FROM jobs WHERE status = 'failed' LIMIT 5")
        audit = {**count, "statuses": statuses, "repeated_decisions": len(repeated)}
        # Why a job failed, so a red run says what to look at (its logs go with tmp_path).
        return {**audit, "failure_reasons": [r[0] for r in failed]} if failed else audit

    def rss_mb(self) -> dict[str, float]:
        """Resident memory of each worker with its pool children, in MiB."""
        return {
            name: _tree_rss(proc.pid) / 2**20
            for name, proc in self.procs.items()
            if proc.poll() is None
        }


def _tree_rss(root: int) -> int:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    tree, frontier = {root}, [root]
    while frontier:
        kids = [pid for pid, ppid in parents.items() if ppid in frontier and pid not in tree]
        tree.update(kids)
        frontier = kids
    total = 0
    for pid in tree:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += next(
            int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:")
        )
    return total


def _until(predicate: Callable[[], bool], timeout: float, what: str, every: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except sa.exc.OperationalError:
            pass  # the database is the thing being restarted
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@contextmanager
def stack_for(name: str, tmp: Path, **env: str) -> Iterator[Stack]:
    """A stack, with this process's client pointed at it (and back afterwards)."""
    stack = Stack(name, tmp, **env)
    with client_pointed_at(stack.env):
        try:
            yield stack
        finally:
            stack.stop()
            stack.redis.flushdb()


def _submit(count: int, chunk: int = 500, **request: Any) -> list[str]:
    ids: list[str] = []
    for start in range(0, count, chunk):
        size = min(chunk, count - start)
        ids += scoregate.submit_many([{**REQUEST, **request}] * size)
    return ids


def _send(task: str, kwargs: dict[str, Any], task_id: str | None = None) -> None:
    from scoregate.workers.app import get_app

    get_app().send_task(task, kwargs=kwargs, task_id=task_id, queue=task.split(".")[1])


def _publish_raw(body: Any, task_id: str, **options: Any) -> None:
    """Publish to the control queue by hand, as a client that ignores scoregate's rules."""
    from kombu.connection import Connection
    from kombu.entity import Queue

    with Connection(REDIS_URL) as conn:  # type: ignore[no-untyped-call]
        conn.Producer().publish(
            body,
            exchange="",
            routing_key="control",
            declare=[Queue("control")],  # type: ignore[no-untyped-call]
            headers={"task": "scoregate.control.submit", "id": task_id},
            **options,
        )


def _status(stack: Stack, key: str) -> str | None:
    rows = stack.rows(f"SELECT status FROM jobs WHERE idempotency_key = '{key}'")
    return str(rows[0][0]) if rows else None


def _queues_empty(stack: Stack) -> bool:
    return all(stack.redis.llen(q) == 0 for q in ALL_QUEUES.split(","))


def _assert_every_job_done_once(audit: dict[str, Any], jobs: int) -> None:
    assert audit["statuses"] == {"completed": jobs}, audit
    assert audit["iterations"] == jobs and audit["track_results"] == 3 * jobs, audit
    assert audit["decisions"] == jobs and audit["repeated_decisions"] == 0, audit


# --- one stack: wire security, bad messages, duplicates, poison ---------------------------------


@pytest.fixture(scope="class")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tmp = tmp_path_factory.mktemp("reliability-shared")
    env = {**FAULTS, "SCOREGATE_TEST_POISON": "POISON-PILL"}
    with stack_for("shared", tmp, **env) as stack:
        stack.start("all", ALL_QUEUES, concurrency=2)
        yield stack


class TestOneStack:
    def test_a_pickled_message_is_refused_logged_and_the_worker_keeps_serving(self, shared):
        body: Any = ((), {"body": {"request": REQUEST, "idempotency_key": "pickled"}}, {})
        _publish_raw(body, "pickle-1", serializer="pickle")
        _until(lambda: "untrusted content of type pickle" in shared.log("all"), 30, "refusal")
        job = scoregate.get_job(scoregate.submit(REQUEST))
        _until(lambda: scoregate.get_job(job["id"])["status"] == "completed", 60, "a job")
        assert shared.rows("SELECT count(*) FROM jobs WHERE idempotency_key = 'pickled'")[0][0] == 0
        assert shared.alive("all")

    def test_malformed_raw_messages_are_refused_and_the_worker_keeps_serving(self, shared):
        _send("scoregate.control.submit", {"body": "not a job"}, "raw-1")
        _send("scoregate.control.submit", {"body": {"request": {**REQUEST, "content": "\x00"}}})
        _send("scoregate.control.submit", {"request": REQUEST}, "raw-3")
        _send("scoregate.control.decide", {"job_id": "x", "n": "one"}, "raw-4")
        _send("scoregate.control.nope", {}, "raw-5")
        not_utf8 = b'{"body": "\xff\xfe"}'  # labelled JSON in UTF-8, and it is not
        _publish_raw(not_utf8, "raw-6", content_type="application/json", content_encoding="utf-8")
        good = {"request": REQUEST, "idempotency_key": "after-bad"}
        _send("scoregate.control.submit", {"body": good})
        _until(lambda: _status(shared, "after-bad") == "completed", 60, "the good job")
        log = shared.log("all")
        assert "submit[raw-1]: refused: invalid job: a job must be a JSON object, got str" in log
        assert "contains a NUL character" in log
        assert "submit[raw-3]: refused message: arguments do not match the task" in log
        assert "decide[raw-4]: refused message: n must be an iteration number" in log
        assert "Received unregistered task of type 'scoregate.control.nope'" in log
        assert "Can't decode message body: DecodeError(UnicodeDecodeError(" in log
        assert "'id': 'raw-6'" in log
        assert shared.alive("all")

    def test_the_same_message_delivered_twice_makes_one_iteration_and_one_decision(self, shared):
        body = {"request": {**REQUEST, "content": "delivered twice"}}
        for _ in range(2):
            _send("scoregate.control.submit", {"body": body}, "twice-1")
        key = "celery:twice-1"
        _until(lambda: _status(shared, key) in FINAL, 60, "the job")
        job_id = shared.rows(f"SELECT id FROM jobs WHERE idempotency_key = '{key}'")[0][0]
        ref = {"job_id": job_id, "n": 1}
        pair = {**ref, "query": REQUEST["query"], "content": "delivered twice"}
        for _ in range(2):  # every later message of the iteration, twice more
            _send("scoregate.semantic.score", pair, "twice-semantic")
            _send("scoregate.fusion.fuse", ref, "twice-fuse")
            _send("scoregate.control.decide", ref, "twice-decide")
        _until(lambda: _queues_empty(shared), 30, "the queues to drain")
        time.sleep(2)
        job = scoregate.get_job(job_id)
        assert [it["n"] for it in job["iterations"]] == [1]
        assert sorted(job["iterations"][0]["tracks"]) == ["precision", "reward", "semantic"]
        assert [d["action"] for d in job["decisions"]] == ["complete"]
        assert shared.rows(f"SELECT count(*) FROM jobs WHERE idempotency_key = '{key}'")[0][0] == 1

    def test_a_poison_message_fails_its_job_after_max_deliveries(self, shared):
        poison = scoregate.submit({**REQUEST, "content": "POISON-PILL"})
        healthy = _submit(3, content="healthy")
        _until(
            lambda: all(scoregate.get_job(j)["status"] in FINAL for j in [poison, *healthy]),
            120,
            "the poison job to fail",
        )
        job = scoregate.get_job(poison)
        assert job["status"] == "failed"
        assert (
            "message was delivered 3 times and the worker died each time" in (job["failure_reason"])
        )
        assert [d["action"] for d in job["decisions"]] == ["fail"]
        assert {scoregate.get_job(j)["status"] for j in healthy} == {"completed"}
        assert "exited with 'signal 9 (SIGKILL)'" in shared.log("all")
        assert "worker lost (WorkerLostError) under" in shared.log("all")
        assert shared.alive("all")

    def test_secrets_never_reach_logs_or_cli_output(self, shared):
        cli = [sys.executable, "-m", "scoregate.cli"]
        outputs = [
            subprocess.run(
                [*cli, *args], env=shared.env, cwd=ROOT, capture_output=True, text=True, timeout=120
            )
            for args in (["db", "upgrade"], ["jobs", "list"])
        ]
        assert all(out.returncode == 0 for out in outputs), outputs
        assert "postgres:***@127.0.0.1" in outputs[0].stdout
        for text in (shared.log("all"), *(o.stdout + o.stderr for o in outputs)):
            assert SECRET not in text


# --- faults: a dead model worker, Redis restarted, Postgres away --------------------------------


def test_sigkill_a_semantic_worker_mid_batch_every_job_still_finishes_once(tmp_path):
    jobs = 300
    with stack_for("kill", tmp_path, **{**FAULTS, "SCOREGATE_TEST_FAKE_MODELS": "0"}) as stack:
        stack.start(
            "core",
            "reward,fusion,control",
            concurrency=2,
            beat=True,
            SCOREGATE_TEST_FAKE_MODELS="1",
        )
        stack.start("precision", "precision", SCOREGATE_TEST_FAKE_MODELS="1")
        stack.start("semantic", "semantic")  # the real embedding model
        _submit(jobs, content="A summary of the quarterly report in three lines.")
        semantic = "SELECT count(*) FROM track_results WHERE track = 'semantic'"
        _until(lambda: stack.rows(semantic)[0][0] >= 20, 180, "semantic batches", every=0.1)
        stack.kill("semantic")
        at_kill = stack.rows(semantic)[0][0]
        stack.start("semantic-2", "semantic")
        _until(lambda: stack.final() == jobs, 300, "every job to finish", every=1)
        audit = stack.audit()
        print(f"\nSIGKILL: {at_kill}/{jobs} semantic results stored at the kill; {audit}")
        assert at_kill < jobs, "the worker finished before it was killed: nothing was tested"
        _assert_every_job_done_once(audit, jobs)


REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    "6379",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]


def _restart_redis() -> None:
    """Restart Redis empty (it keeps nothing on disk): every queued message is lost."""
    client = redis.Redis(host="127.0.0.1", port=6379)
    try:
        subprocess.run(["redis-cli", "shutdown", "nosave"], timeout=30, check=False)
        _until(lambda: not _pings(client), 30, "Redis to stop", every=0.2)
    finally:
        if not _pings(client):
            subprocess.run(REDIS_START, timeout=30, check=True)
        _until(lambda: _pings(client), 30, "Redis to start", every=0.2)


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def test_restart_redis_with_jobs_in_flight_every_job_finishes_after_the_sweeper(tmp_path):
    jobs = 300
    env = {**FAULTS, "SCOREGATE_TEST_BATCH_DELAY_S": "0.3"}
    with stack_for("redis", tmp_path, **env) as stack:
        stack.start("all", ALL_QUEUES, concurrency=2, beat=True)
        _submit(jobs)
        _until(lambda: stack.final() >= 30, 120, "some jobs to finish")
        _restart_redis()
        lost = jobs - stack.final()
        _until(lambda: stack.final() == jobs, 300, "every job to finish", every=1)
        audit = stack.audit()
        print(f"\nRedis restart: {lost}/{jobs} jobs in flight at the restart; {audit}")
        assert lost > 0, "every job finished before the restart: nothing was tested"
        assert "sweeper: re-publishing" in stack.log("all")
        assert stack.alive("all")
        _assert_every_job_done_once(audit, jobs)


def _postgres(action: str) -> None:
    mode = ["-m", "fast"] if action == "stop" else []
    cmd = ["pg_ctlcluster", "--skip-systemctl-redirect", *mode, PG_VERSION, "main", action]
    subprocess.run(cmd, timeout=60, check=True)


def test_stop_postgres_for_ten_seconds_under_load_no_job_lost_no_decision_twice(tmp_path):
    if not PG_VERSION or not Path("/usr/bin/pg_ctlcluster").exists():
        pytest.skip("needs a local Postgres cluster managed by pg_ctlcluster")
    jobs = 300
    env = {**FAULTS, "SCOREGATE_TEST_BATCH_DELAY_S": "0.2", "SCOREGATE_STUCK_AFTER_S": "15"}
    with stack_for("pg", tmp_path, **env) as stack:
        stack.start("all", ALL_QUEUES, concurrency=2, beat=True)
        _submit(jobs)
        _until(lambda: stack.final() >= 20, 120, "some jobs to finish")
        try:
            _postgres("stop")
            stopped = time.monotonic()
            time.sleep(10)
        finally:
            _postgres("start")
        down = time.monotonic() - stopped
        _until(lambda: stack.final() == jobs, 300, "every job to finish", every=1)
        audit = stack.audit()
        print(f"\nPostgres down {down:.1f}s under load; {audit}")
        log = stack.log("all")
        assert "Retry in" in log and "transient fault" in log
        assert SECRET not in log  # connection errors name the server, never the password
        assert stack.alive("all")
        _assert_every_job_done_once(audit, jobs)


# --- load ---------------------------------------------------------------------------------------


def test_a_burst_of_jobs_through_every_pool_all_final_and_memory_flat(tmp_path):
    warm, jobs = 64, LOAD_JOBS
    with stack_for("load", tmp_path) as stack:
        stack.start("semantic", "semantic")
        stack.start("precision", "precision")
        stack.start("reward", "reward")
        stack.start("control", "fusion,control,agents", concurrency=2, beat=True)
        _submit(warm)
        _until(lambda: stack.final() == warm, 300, "the warm-up jobs", every=1)
        before = stack.rss_mb()
        started = time.monotonic()
        _submit(jobs)
        submitted = time.monotonic() - started
        _until(lambda: stack.final() == warm + jobs, 540, "every job of the burst", every=2)
        drained = time.monotonic() - started
        after = stack.rss_mb()
        audit = stack.audit()
        figures = {
            "jobs": jobs,
            "submit_s": round(submitted, 1),
            "all_final_s": round(drained, 1),
            "jobs_per_s": round(jobs / drained, 1),
            "statuses": audit["statuses"],
            "rss_mb_before": {k: round(v) for k, v in before.items()},
            "rss_mb_after": {k: round(v) for k, v in after.items()},
        }
        print("\nload figures: " + json.dumps(figures))
        (tmp_path / "load-figures.json").write_text(json.dumps(figures, indent=2))
        assert sum(audit["statuses"].values()) == warm + jobs
        assert audit["repeated_decisions"] == 0
        for name, mb in after.items():  # flat: no growth with the number of jobs
            assert mb <= before[name] * 1.25 + 64, (name, before[name], mb)
