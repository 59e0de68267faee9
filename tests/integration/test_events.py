"""Micro-batched tasks on the real event stream: what Flower and `celery events` see.

A worker serving every pool (fake models) on Redis database 9; a celery
``EventReceiver`` in this process records every task event while one job runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

import scoregate
from tests.integration.conftest import (
    ROOT,
    client_pointed_at,
    fresh_database,
    service_env,
    stop,
    wait_final,
)

pytestmark = [pytest.mark.integration]

REDIS_URL = os.environ.get("SCOREGATE_TEST_EVENTS_REDIS_URL", "redis://127.0.0.1:6379/9")
BATCHED = (
    "scoregate.semantic.score",
    "scoregate.precision.score",
    "scoregate.reward.score",
    "scoregate.fusion.fuse",
    "scoregate.control.decide",
)


class Events:
    """Every task event of the stream, by task id, read by a background receiver."""

    def __init__(self, app: Any) -> None:
        self.by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.stream: list[dict[str, Any]] = []
        self.workers_seen = threading.Event()
        self._app = app
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _on(self, event: dict[str, Any]) -> None:
        self.stream.append(event)
        if event["type"].startswith("task-"):
            self.by_task[event["uuid"]].append(event)
        elif event["type"] == "worker-heartbeat":
            self.workers_seen.set()

    def _run(self) -> None:
        with self._app.connection() as conn:
            receiver = self._app.events.Receiver(conn, handlers={"*": self._on})
            while not self._stop.is_set():
                try:
                    receiver.capture(limit=None, timeout=0.5, wakeup=False)
                except TimeoutError:
                    continue

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def of(self, name: str) -> dict[str, list[dict[str, Any]]]:
        """Events of the tasks named ``name`` (names travel on received and sent events)."""
        ids = {
            uuid
            for uuid, events in self.by_task.items()
            if any(e.get("name") == name for e in events)
        }
        return {uuid: self.by_task[uuid] for uuid in ids}


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except Exception as exc:
        from tests.conftest import require_service

        require_service("Redis", exc)
    client.flushdb()
    pg_url = fresh_database("scoregate_events")
    from scoregate.storage.db import upgrade

    upgrade(pg_url)
    env = service_env(pg_url, REDIS_URL, SCOREGATE_TEST_FAKE_MODELS="1")
    log = tmp_path_factory.mktemp("events") / "worker.log"
    queues = "semantic,precision,reward,fusion,control"
    cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker", "-Q", queues]
    cmd += ["-c", "2", "-E", "-n", "all@%h", "--include", "tests.integration.faults", "-l", "INFO"]
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_ready(proc, log)
        with client_pointed_at(env):
            yield {"env": env, "log": log, "proc": proc}
    finally:
        stop(proc)
        client.flushdb()


def _wait_ready(proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-3000:]}")
        if "ready." in log.read_text(errors="replace"):
            return
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"worker not ready in 90s: {log.read_text()[-3000:]}")


def test_each_batched_message_is_received_started_and_succeeded_on_the_stream(worker):
    from scoregate.workers.app import get_app

    app = get_app()
    events = Events(app)
    events.start()
    try:
        assert events.workers_seen.wait(30), "no worker heartbeat on the event stream"
        job_id = scoregate.submit({"query": "Name a colour.", "content": "Blue is a colour."})
        assert wait_final(job_id, timeout=120)["status"] == "completed"
        # the events of a batched task may trail the job's result on a loaded machine;
        # the wait ends as soon as every one has arrived
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _all_final(events, job_id):
            time.sleep(0.3)
        # A malformed fusion message is refused: it must show as failed, not vanish.
        bad = app.send_task("scoregate.fusion.fuse", kwargs={"job_id": job_id, "n": "one"}).id
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not _kinds(events.by_task.get(bad, [])) >= {
            "task-failed"
        }:
            time.sleep(0.3)
        stats = app.control.inspect(timeout=5).stats() or {}
    finally:
        events.stop()

    for name in BATCHED:
        mine = {u: ev for u, ev in events.of(name).items() if _for_job(ev, job_id) and u != bad}
        assert len(mine) == 1, f"{name}: {len(mine)} task(s) of the job on the stream"
        (ev,) = mine.values()
        kinds = [e["type"] for e in ev]
        for kind in ("task-sent", "task-received", "task-started", "task-succeeded"):
            assert kind in kinds, f"{name}: no {kind} in {kinds}"
        succeeded = next(e for e in ev if e["type"] == "task-succeeded")
        assert succeeded["runtime"] > 0, f"{name}: runtime {succeeded['runtime']!r}"
        assert succeeded["hostname"].startswith("all@"), succeeded["hostname"]
    # What Flower shows: its state machine (celery.events.state) fed the same stream.
    state = app.events.State()
    for event in events.stream:
        state.event(event)
    for name in BATCHED:
        (uuid,) = [u for u, ev in events.of(name).items() if _for_job(ev, job_id) and u != bad]
        task = state.tasks[uuid]
        assert (task.state, task.name) == ("SUCCESS", name), (task.state, task.name)
        assert task.worker is not None and task.worker.hostname.startswith("all@")
    assert state.tasks[bad].state == "FAILURE"
    failed = [e for e in events.by_task[bad] if e["type"] == "task-failed"]
    assert failed and "refused message" in failed[0]["exception"], events.by_task[bad]
    (totals,) = [s["total"] for s in stats.values()]
    for name in BATCHED:
        assert totals.get(name, 0) >= 1, f"inspect stats counts no {name}: {totals}"


def _for_job(events: list[dict[str, Any]], job_id: str) -> bool:
    return any(job_id in str(e.get("kwargs", "")) for e in events)


def _kinds(events: list[dict[str, Any]]) -> set[str]:
    return {e["type"] for e in events}


def _all_final(events: Events, job_id: str) -> bool:
    for name in BATCHED:
        mine = [ev for ev in events.of(name).values() if _for_job(ev, job_id)]
        if not mine or not any(_kinds(ev) & {"task-succeeded", "task-failed"} for ev in mine):
            return False
    return True


def test_sweeps_run_but_stay_off_the_event_stream(worker):
    """The sweeper's housekeeping runs every interval (``inspect stats`` counts it) yet sends
    no task event, so Flower's task list shows the jobs' work only."""
    from scoregate.workers.app import get_app

    app = get_app()
    sweep = "scoregate.control.sweep"

    def swept() -> int:
        stats = app.control.inspect(timeout=5).stats() or {}
        return sum(s["total"].get(sweep, 0) for s in stats.values())

    events = Events(app)
    events.start()
    try:
        assert events.workers_seen.wait(30), "no worker heartbeat on the event stream"
        before = swept()
        deadline = time.monotonic() + 30  # the default interval is 10 s
        while time.monotonic() < deadline and swept() == before:
            time.sleep(1)
        after = swept()
        time.sleep(1)  # an event would trail the run by well under this
    finally:
        events.stop()
    assert after > before, "the sweeper did not run in 30 s"
    assert not events.of(sweep), "a sweep reached the event stream"
    assert not [e for e in events.stream if e.get("name") == sweep]
