"""Delivery under faults, without servers: the delivery counter, poison messages, retries,
batches whose worker died, the sweeper's limits, and a broker that refuses to publish."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import fakeredis
import pytest
import redis
from billiard.einfo import ExceptionInfo
from billiard.exceptions import WorkerLostError
from celery_batches import SimpleRequest
from pydantic import SecretStr
from sqlalchemy.exc import OperationalError

from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines import control, steps
from scoregate.pipelines.dispatch import PublishError
from scoregate.pipelines.embedded import embedded_context
from scoregate.storage import repository as repo
from scoregate.workers import batch_runner, batching, reliability, runtime
from scoregate.workers import control as control_tasks
from scoregate.workers import fusion as fusion_tasks
from scoregate.workers.reliability import DeliveryGuard
from tests.fakes import FakeModels, Recorder
from tests.fakes import job_dict as _job

GOOD, BAD = "a faithful answer", "a wrong answer"
LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'd.db'}"), max_deliveries=3)
    agent = Recorder()
    ctx, inline = embedded_context(
        settings, models=FakeModels({GOOD: 0.97, BAD: 0.1}), local_tasks={"agent": agent}
    )
    guard = DeliveryGuard(fakeredis.FakeRedis(), limit=3)
    for module in (control_tasks, fusion_tasks, runtime):
        monkeypatch.setattr(module, "get_context", lambda: ctx)
    monkeypatch.setattr(reliability, "delivery_guard", lambda: guard)
    monkeypatch.setattr(batch_runner, "delivery_guard", lambda: guard)
    return {"ctx": ctx, "inline": inline, "guard": guard, "agent": agent}


def _start(env: dict[str, Any], content: str = GOOD, **body: Any) -> str:
    """Record a job and its first iteration; its messages wait in the queue."""
    spec = steps.build_spec(env["ctx"], {"request": {"query": "q", "content": content}, **body})
    return steps.submit_jobs(env["ctx"], [spec])[0]


# --- the delivery counter -----------------------------------------------------------------------


def test_the_counter_counts_executions_that_never_finished():
    client = fakeredis.FakeRedis()
    guard = DeliveryGuard(client, limit=2)
    guard.begin(["a", "b"])
    guard.end(["b"])  # b finished; a's worker died
    guard.begin(["a"])
    assert guard.deaths(["a", "b", "c"]) == [2, 0, 0]
    assert guard.start("a") == 2 and guard.start("c") == 0  # counted, and deaths so far
    assert 0 < client.ttl(reliability.DELIVERY_PREFIX + "a") <= guard.ttl_s


def test_the_counter_degrades_to_no_count_when_redis_is_down(caplog, monkeypatch):
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens
    get_settings.cache_clear()
    reliability.delivery_guard.cache_clear()
    try:
        guard = reliability.delivery_guard()
        started = time.monotonic()
        guard.begin(["a"])
        assert guard.deaths(["a"]) == [0]
        assert time.monotonic() - started < 2  # no retries, and quiet after the first error
    finally:
        get_settings.cache_clear()
        reliability.delivery_guard.cache_clear()
    assert caplog.text.count("delivery counter unavailable") == 1


def test_a_message_that_killed_its_workers_is_refused_and_its_job_failed(env):
    job_id = _start(env)
    env["guard"].begin(["fuse-1"] * 3)  # three workers died under this message
    result = fusion_tasks.fuse.apply(kwargs={"job_id": job_id, "n": 1}, task_id="fuse-1")
    assert result.successful()  # acked: the worker goes on serving
    job = _job(env, job_id)
    assert job["status"] == "failed"
    assert "delivered 3 times and the worker died each time" in job["failure_reason"]
    assert "SCOREGATE_MAX_DELIVERIES=3" in job["failure_reason"]
    assert env["guard"].deaths(["fuse-1"]) == [0]


def test_fusion_refuses_a_message_with_an_unknown_argument(env, caplog):
    job_id = _start(env)
    fusion_tasks.fuse.apply(kwargs={"job_id": job_id, "n": 1, "force": True}, task_id="f-1")
    assert "scoregate.fusion.fuse[f-1]: refused message: unexpected argument(s): force" in (
        caplog.text
    )
    fusion_tasks.fuse.apply(kwargs={"job_id": job_id, "n": 1, "forced": True}, task_id="f-2")
    assert "[f-2]: refused" not in caplog.text


def test_a_message_under_the_limit_still_runs_and_the_count_is_cleared(env):
    job_id = _start(env)
    env["inline"].drain()
    env["guard"].begin(["decide-1"] * 2)
    control_tasks.decide.apply(kwargs={"job_id": job_id, "n": 1}, task_id="decide-1")
    assert _job(env, job_id)["status"] == "completed"
    assert env["guard"].deaths(["decide-1"]) == [0]


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"job_id": "j", "n": "two"}, "n must be an iteration number"),
        ({"job_id": {"$ne": 1}, "n": 1}, "job_id must be a job id string"),
        ({"job_id": "j", "n": 0}, "n must be between 1"),
        ({"job_id": "j"}, "missing field(s): n"),
        ({"job_id": "j", "n": 1, "extra": True}, "unexpected argument(s): extra"),
    ],
)
def test_a_malformed_message_is_logged_and_dropped(env, caplog, kwargs, reason):
    result = control_tasks.decide.apply(kwargs=kwargs, task_id="bad-1")
    assert result.successful()
    assert f"scoregate.control.decide[bad-1]: refused message: {reason}" in caplog.text


def test_transient_database_faults_are_retried_with_backoff(env, monkeypatch):
    calls = []

    def flaky(ctx, output, job_id, n):
        calls.append(n)
        if len(calls) < 3:
            raise OperationalError("SELECT 1", {}, ConnectionRefusedError("db down"))

    monkeypatch.setattr(control, "agent_result", flaky)
    control_tasks.agent_result.apply(kwargs={"output": "x", "job_id": "j", "n": 2})
    assert calls == [2, 2, 2]
    task = control_tasks.agent_result
    assert OperationalError in task.autoretry_for and redis.ConnectionError in task.autoretry_for
    assert task.retry_backoff and task.retry_jitter and task.max_retries == reliability.MAX_RETRIES


# --- micro-batches ------------------------------------------------------------------------------


def _request(task_id: str, retries: int = 0, **kwargs: Any) -> Any:
    return SimpleNamespace(id=task_id, args=(), kwargs=kwargs, request_dict={"retries": retries})


class _Task:
    name = "scoregate.semantic.score"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.app = SimpleNamespace(send_task=lambda name, **kw: self.sent.append(kw))


FIELDS = ("job_id", "n", "query", "content")


def _pair(task_id: str, content: str = "c", **extra: Any) -> Any:
    return _request(task_id, job_id=f"job-{task_id}", n=1, query="q", content=content, **extra)


def test_a_batch_drops_malformed_messages_and_scores_the_rest(env, caplog):
    batches: list[list[str]] = []
    requests = [_pair("a"), _request("b", job_id="x", n=1, query="q"), _pair("c")]
    batch_runner.run_batch(
        _Task(), requests, FIELDS, lambda items: batches.append([i["job_id"] for i in items])
    )
    assert batches == [["job-a", "job-c"]]
    assert "[b]: refused message: missing field(s): content" in caplog.text


def test_messages_that_were_under_a_dead_worker_are_scored_one_at_a_time(env):
    env["guard"].begin(["b", "c", "b"])  # b was under two dead workers, c under one
    batches: list[list[str]] = []
    requests = [_pair(t) for t in "abcd"]
    batch_runner.run_batch(
        _Task(), requests, FIELDS, lambda items: batches.append([i["job_id"][-1] for i in items])
    )
    assert batches == [["a", "d"], ["c"], ["b"]]  # the least suspect first
    assert env["guard"].deaths(list("abcd")) == [0, 0, 0, 0]


def test_a_poison_message_in_a_batch_fails_its_job_and_only_its_job(env):
    poison, healthy = _start(env), _start(env)
    env["guard"].begin(["p"] * 3)
    requests = [
        _request("p", job_id=poison, n=1, query="q", content=GOOD),
        _request("h", job_id=healthy, n=1, query="q", content=GOOD),
    ]
    scored: list[str] = []
    batch_runner.run_batch(
        _Task(), requests, FIELDS, lambda items: scored.extend(i["job_id"] for i in items)
    )
    assert scored == [healthy]
    assert _job(env, poison)["status"] == "failed"
    assert _job(env, healthy)["status"] == "running"


def test_a_transient_fault_republishes_the_batch_with_jittered_backoff(env):
    task = _Task()

    def down(items: list[dict[str, Any]]) -> None:
        raise OperationalError("INSERT", {}, ConnectionRefusedError("db down"))

    requests = [_pair("a"), _pair("b", retries=3), _pair("c", retries=reliability.MAX_RETRIES)]
    batch_runner.run_batch(task, requests, FIELDS, down)
    assert [(m["task_id"], m["retries"]) for m in task.sent] == [("a", 1), ("b", 4)]
    assert 0 <= task.sent[0]["countdown"] <= 1 and 0 <= task.sent[1]["countdown"] <= 8
    assert task.sent[0]["kwargs"]["job_id"] == "job-a"


def test_a_batch_that_fails_for_one_message_is_rescored_one_by_one(env, caplog):
    scored: list[str] = []

    def picky(items: list[dict[str, Any]]) -> None:
        if any(i["content"] == "boom" for i in items):
            raise RuntimeError("cannot score boom")
        scored.extend(i["job_id"] for i in items)

    batch_runner.run_batch(_Task(), [_pair("a"), _pair("b", "boom"), _pair("c")], FIELDS, picky)
    assert scored == ["job-a", "job-c"]
    assert "scoring them one by one" in caplog.text


def test_a_message_that_keeps_failing_fails_its_job_with_the_error(env):
    bad, good = _start(env), _start(env)
    requests = [
        _request("b", job_id=bad, n=1, query="q", content="boom"),
        _request("g", job_id=good, n=1, query="q", content=GOOD),
    ]

    def picky(items: list[dict[str, Any]]) -> None:
        if any(i["content"] == "boom" for i in items):
            raise RuntimeError("cannot score boom")

    batch_runner.run_batch(_Task(), requests, FIELDS, picky)
    job = _job(env, bad)
    assert job["status"] == "failed"
    assert job["failure_reason"] == (
        "scoregate.semantic.score failed: RuntimeError: cannot score boom"
    )
    assert _job(env, good)["status"] == "running"


class _Req:
    def __init__(self, task_id: str = "t") -> None:
        self.id = task_id
        self.name = "scoregate.semantic.score"
        self.task = SimpleNamespace(acks_late=True)
        self.outcome: str | None = None
        self.time_start: float | None = None
        self.events: list[tuple[str, dict[str, Any]]] = []

    def send_event(self, kind: str, **fields: Any) -> None:
        self.events.append((kind, fields))

    def on_accepted(self, pid: int, time_accepted: float) -> None:
        self.time_start = time.time() - 0.25
        self.send_event("task-started")

    def acknowledge(self) -> None:
        self.outcome = "ack"

    def reject(self, requeue: bool = False) -> None:
        self.outcome = "requeue" if requeue else "reject"


def _flush(monkeypatch: pytest.MonkeyPatch) -> tuple[list[_Req], dict[str, Any]]:
    task = batching.ReliableBatches()
    task.name = "scoregate.semantic.score"
    captured: dict[str, Any] = {}
    task._pool = SimpleNamespace(apply_async=lambda fn, args, **kw: captured.update(kw))
    monkeypatch.setattr(SimpleRequest, "from_request", staticmethod(lambda r: r))
    requests = [_Req("t1"), _Req("t2")]
    task.flush(requests)
    return requests, captured


def test_a_batch_whose_worker_process_died_is_requeued(monkeypatch, caplog):
    requests, callbacks = _flush(monkeypatch)
    try:
        raise WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL)")
    except WorkerLostError:
        callbacks["error_callback"](ExceptionInfo())
    assert [r.outcome for r in requests] == ["requeue", "requeue"]
    assert "worker lost (WorkerLostError) under 2 message(s): re-queued" in caplog.text


def test_a_batch_killed_by_the_hard_time_limit_is_requeued(monkeypatch, caplog):
    from billiard.exceptions import TimeLimitExceeded

    requests, callbacks = _flush(monkeypatch)
    try:
        raise TimeLimitExceeded(600)
    except TimeLimitExceeded:
        callbacks["error_callback"](ExceptionInfo())
    assert [r.outcome for r in requests] == ["requeue", "requeue"]
    assert "worker lost (TimeLimitExceeded)" in caplog.text


def test_a_batch_that_returned_or_raised_is_acked(monkeypatch):
    requests, callbacks = _flush(monkeypatch)
    callbacks["callback"](None)
    assert [r.outcome for r in requests] == ["ack", "ack"]
    requests, callbacks = _flush(monkeypatch)
    try:
        raise TimeoutError("a socket timeout, not a killed process")
    except TimeoutError:
        callbacks["error_callback"](ExceptionInfo())
    assert [r.outcome for r in requests] == ["ack", "ack"]


class _Pool:
    def __init__(self) -> None:
        self.batches: list[int] = []
        self.callbacks: list[Any] = []

    def apply_async(self, fn: Any, args: Any, **kw: Any) -> None:
        self.batches.append(len(args[1][0]))
        self.callbacks.append(kw["callback"])


def _adaptive(monkeypatch: pytest.MonkeyPatch, slots: int = 1) -> tuple[Any, _Pool]:
    task = batching.ReliableBatches()
    task.name, task.flush_every, task.max_wait_s = "scoregate.semantic.score", 4, 0.05
    pool = _Pool()
    monkeypatch.setattr(batching.ReliableBatches, "_pool_in_flight", {})
    task._pool, task._slots, task._waiting_since, task._seen = pool, slots, None, 0
    monkeypatch.setattr(SimpleRequest, "from_request", staticmethod(lambda r: r))
    return task, pool


def _buffer(task: Any, n: int) -> None:
    for _ in range(n):
        req = _Req()
        req.eta = None  # type: ignore[attr-defined]
        task._buffer.put(req)


def _tick(task: Any, times: int = 2) -> None:
    """Ticks of the flush timer (two: the buffer must stop growing between ticks)."""
    for _ in range(times):
        task._do_flush()


def test_an_idle_pool_gets_a_lone_message_once_it_stops_growing(monkeypatch):
    task, pool = _adaptive(monkeypatch)
    _buffer(task, 1)
    task._do_flush()
    assert pool.batches == []  # it just arrived: more may follow
    task._do_flush()
    assert pool.batches == [1]


def test_a_streaming_backlog_fills_the_batch_even_with_a_free_pool(monkeypatch):
    task, pool = _adaptive(monkeypatch)
    for _ in range(3):
        _buffer(task, 1)
        task._do_flush()
    assert pool.batches == []
    _buffer(task, 1)  # the fourth fills the batch (flush_every=4)
    task._do_flush()
    assert pool.batches == [4]


def test_a_busy_pool_lets_the_batch_grow_until_it_is_free(monkeypatch):
    task, pool = _adaptive(monkeypatch)
    _buffer(task, 1)
    _tick(task)
    _buffer(task, 2)
    _tick(task, 3)  # the first batch still runs: wait
    assert pool.batches == [1]
    pool.callbacks[0](None)  # it returned: the next tick sends what gathered
    task._do_flush()
    assert pool.batches == [1, 2]


def test_a_busy_pool_still_gets_a_full_batch_or_one_that_waited_too_long(monkeypatch):
    task, pool = _adaptive(monkeypatch)
    _buffer(task, 1)
    _tick(task)
    _buffer(task, 4)
    task._do_flush()
    assert pool.batches == [1, 4]  # full: sent although the pool is busy
    _buffer(task, 1)
    _tick(task)
    assert pool.batches == [1, 4]
    task._waiting_since -= task.max_wait_s
    task._do_flush()
    assert pool.batches == [1, 4, 1]  # waited max_wait_s: sent


def test_two_pool_processes_take_two_batches_before_the_buffer_waits(monkeypatch):
    task, pool = _adaptive(monkeypatch, slots=2)
    for _ in range(3):
        _buffer(task, 1)
        _tick(task)
    assert pool.batches == [1, 1]


def test_a_batch_the_pool_refuses_goes_back_to_the_broker_and_frees_its_slot(monkeypatch):
    task, pool = _adaptive(monkeypatch)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise ValueError("pool closed")

    pool.apply_async = refuse  # type: ignore[method-assign]
    requests = [_Req(), _Req()]
    with pytest.raises(ValueError, match="pool closed"):
        task.flush(requests)
    assert [r.outcome for r in requests] == ["requeue", "requeue"]
    assert task._in_flight == 0


def test_a_message_with_too_many_positional_arguments_is_refused(env, caplog):
    job_id = _start(env)
    fusion_tasks.fuse.apply(args=(job_id, 1, True, "extra"), task_id="f-9")
    assert "[f-9]: refused message: too many positional arguments: 4" in caplog.text
    fusion_tasks.fuse.apply(args=(job_id, 1, True), task_id="f-10")  # forced, by position
    assert "[f-10]: refused" not in caplog.text


def test_tasks_sharing_a_pool_share_its_free_processes(monkeypatch):
    fuse, pool = _adaptive(monkeypatch, slots=2)
    decide = batching.ReliableBatches()
    decide.name, decide.flush_every, decide.max_wait_s = "scoregate.control.decide", 4, 0.05
    decide._pool, decide._slots, decide._waiting_since, decide._seen = pool, 2, None, 0
    for task in (fuse, decide, decide):
        _buffer(task, 1)
        _tick(task)
    assert pool.batches == [1, 1]  # the third waits: both processes are taken


class _Timer:
    def __init__(self) -> None:
        self.started: list[float] = []

    def call_repeatedly(self, interval: float, fn: Any) -> str:
        self.started.append(interval)
        return f"timer-{len(self.started)}"


def _consumer(timer: _Timer) -> Any:
    return SimpleNamespace(
        pool=SimpleNamespace(apply_async=None),
        hostname="w@h",
        connection_errors=(),
        event_dispatcher=None,
        timer=timer,
    )


def test_a_restarted_consumer_gets_a_live_flush_timer(monkeypatch):
    """A lost broker connection clears the loop's timers; buffered messages must still flush."""
    task = fusion_tasks.fuse
    dead = SimpleNamespace(cancelled=False)
    dead.cancel = lambda: setattr(dead, "cancelled", True)
    monkeypatch.setattr(task, "_tref", dead, raising=False)
    timer = _Timer()
    task.Strategy(task, task.app, _consumer(timer))
    assert dead.cancelled
    # Nothing buffered: the next message starts the timer.
    assert task._tref is None and timer.started == []
    monkeypatch.setattr(task, "_tref", None)
    task._buffer.put("a buffered request")
    try:
        task.Strategy(task, task.app, _consumer(timer))
        assert task._tref == "timer-1" and timer.started == [task.flush_interval]
    finally:
        task._buffer.get_nowait()


def test_a_track_message_whose_result_is_stored_is_not_scored_again(env):
    job_id = _start(env)
    env["inline"].drain()
    scored: list[str] = []
    again = _request("dup", job_id=job_id, n=1, query="q", content=GOOD)
    batch_runner.run_batch(
        _Task(),
        [again, _pair("new")],
        FIELDS,
        lambda items: scored.extend(i["job_id"] for i in items),
    )
    assert scored == ["job-new"]


# --- the sweeper --------------------------------------------------------------------------------


def test_the_sweeper_gives_up_after_max_deliveries_and_says_why(env):
    job_id = _start(env)
    env["inline"].queue.clear()  # every message is lost, every time
    sent = []
    for _ in range(4):
        sent.append(control.sweep(env["ctx"], older_than_s=0))
        env["inline"].queue.clear()
    assert sent == [3, 3, 3, 0]
    job = _job(env, job_id)
    assert job["status"] == "failed"
    assert job["failure_reason"] == (
        "iteration 1 still waiting for the semantic, precision, reward track(s) after 3"
        " re-publications by the sweeper (SCOREGATE_MAX_DELIVERIES=3)"
    )
    assert job["iterations"][0]["status"] == "failed"


def test_behind_a_backlog_the_sweeper_republishes_without_giving_up(env, monkeypatch):
    job_id = _start(env)
    env["inline"].queue.clear()
    monkeypatch.setattr(env["inline"], "backlog", lambda queue: 40, raising=False)
    for _ in range(6):  # twice the limit: the messages may still be on their way
        assert control.sweep(env["ctx"], older_than_s=0) == 3
        env["inline"].queue.clear()
    assert _job(env, job_id)["status"] == "running"
    monkeypatch.setattr(env["inline"], "backlog", lambda queue: 0, raising=False)
    assert [control.sweep(env["ctx"], older_than_s=0) for _ in range(4)] == [3, 3, 3, 0]
    assert _job(env, job_id)["status"] == "failed"


def test_the_sweeper_waits_longer_after_each_republication(env, monkeypatch):
    # a worker retrying a database fault holds its message for minutes: five re-sends 30 s
    # apart gave up on the job in 4 minutes; a pool that is down got one more copy of
    # every job at every sweep
    from datetime import UTC, datetime, timedelta

    job_id = _start(env)
    env["inline"].queue.clear()
    age = 10.0

    def sweep_once() -> float:
        """Make the iteration look stuck, sweep, return when it will be looked at again."""
        with env["ctx"].session() as s:
            past = datetime.now(UTC) - timedelta(seconds=age + 1)
            repo.touch_published(s, job_id=job_id, n=1, at=past)
        before = datetime.now(UTC)
        assert control.sweep(env["ctx"], older_than_s=age) == 3
        env["inline"].queue.clear()
        with env["ctx"].session() as s:
            published = repo.get_iteration(s, job_id=job_id, n=1).published_at
        return (published - before).total_seconds()

    waits = [round(sweep_once()) for _ in range(3)]
    assert waits == [10, 30, 70]  # the age x 1, 3, 7
    monkeypatch.setattr(env["inline"], "backlog", lambda queue: 40, raising=False)
    assert round(sweep_once()) == 100  # behind a backlog: the longest wait, not counted
    with env["ctx"].session() as s:
        assert repo.get_iteration(s, job_id=job_id, n=1).deliveries == 3


def test_the_celery_dispatcher_reports_a_queue_backlog():
    from scoregate.pipelines.dispatch import CeleryDispatcher, Message
    from scoregate.workers.app import create_app

    dispatcher = CeleryDispatcher(create_app(Settings()))  # the in-memory broker
    for _ in range(2):
        dispatcher.send(Message("scoregate.control.sweep", {}, "backlog-probe"))
    assert dispatcher.backlog("backlog-probe") == 2
    assert dispatcher.backlog("no-such-queue") is None


def test_the_celery_dispatcher_sends_many_messages_through_one_producer():
    from scoregate.pipelines.dispatch import CeleryDispatcher, Message
    from scoregate.workers.app import create_app

    app = create_app(Settings())  # the in-memory broker: no publish batch, sent one by one
    dispatcher = CeleryDispatcher(app)
    dispatcher.send_many([Message("scoregate.control.sweep", {"i": i}, "many") for i in range(5)])
    dispatcher.send_many([])
    with app.connection_for_read() as conn:
        queue = conn.SimpleQueue("many")
        got = [queue.get(timeout=1) for _ in range(5)]
        queue.close()
    assert [m.payload[1]["i"] for m in got] == [0, 1, 2, 3, 4]  # order kept
    assert {m.content_type for m in got} == {"application/json"}


def test_a_publish_batch_cut_off_mid_flush_is_a_publish_error_left_to_the_sweeper(
    monkeypatch, caplog
):
    from kombu.exceptions import BatchPublishError

    from scoregate.pipelines.dispatch import CeleryDispatcher, Message
    from scoregate.pipelines.publish import publish
    from scoregate.workers.app import create_app

    app = create_app(Settings())

    def cut_off(*args: Any, **kwargs: Any) -> None:  # what kombu raises when Redis restarts
        raise BatchPublishError("Redis publish batch failed; delivery is uncertain")

    monkeypatch.setattr(app, "send_task", cut_off)
    dispatcher = CeleryDispatcher(app)
    messages = [Message("scoregate.control.sweep", {"i": i}, "cut") for i in range(3)]
    with pytest.raises(PublishError, match="cannot publish 3 message"):
        dispatcher.send_many(messages)
    # A pipeline step whose rows are committed logs it and carries on: no job fails.
    ctx = SimpleNamespace(dispatcher=dispatcher)
    with caplog.at_level(logging.ERROR):
        publish(ctx, messages)  # type: ignore[arg-type]
    assert "3 message(s) left to the sweeper" in caplog.text


def test_the_sweeper_asks_a_silent_agent_again(env, monkeypatch):
    drafts = iter([None, GOOD])  # the first answer is lost on the way back
    send = env["inline"].send

    def lossy(message: Any) -> None:
        if message.task == "agent" and next(drafts) is None:
            return
        send(message)

    env["inline"].send = lossy
    env["agent"].returns = GOOD
    job_id = _start(env, BAD, loop=LOOP, agent="agent")
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "awaiting_agent"
    monkeypatch.setattr(env["ctx"].settings, "agent_timeout_s", 1e-6)
    assert control.sweep(env["ctx"], older_than_s=3600) == 1
    env["inline"].drain()
    job = _job(env, job_id)
    assert job["status"] == "accepted" and [it["n"] for it in job["iterations"]] == [1, 2]
    assert env["agent"].calls[0]["iteration"] == 2


def test_a_silent_external_agent_fails_its_iteration_then_the_job_is_escalated(env, monkeypatch):
    """Nothing was sent to an external agent, so nothing is sent again: each wait that
    runs out is an agent failure (NoAnswer), retried as one, then escalated (hil)."""
    job_id = _start(env, BAD, loop=LOOP, agent="external")
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "awaiting_agent"
    monkeypatch.setattr(env["ctx"].settings, "agent_timeout_s", 1e-6)
    monkeypatch.setattr(env["ctx"].settings, "agent_error_retries", 1)
    for _ in range(2):
        time.sleep(0.01)
        assert control.sweep(env["ctx"], older_than_s=3600) == 0  # no message
        env["inline"].drain()
    job = _job(env, job_id)
    errors = [d for d in job["decisions"] if d["action"] == "agent_error"]
    assert [e["details"]["error_type"] for e in errors] == ["NoAnswer", "NoAnswer"]
    assert "no answer within" in errors[0]["rationale"]
    assert job["status"] == "escalated" and "re-publications" not in str(job["failure_reason"])


# --- publishing ---------------------------------------------------------------------------------


class _DownBroker:
    def __init__(self) -> None:
        self.tries = 0

    def send(self, message: Any) -> None:
        self.tries += 1
        raise PublishError(f"cannot publish {message.task}: Connection refused")

    def send_many(self, messages: Any) -> None:
        self.send(messages[0])


def test_a_broker_outage_after_the_commit_leaves_the_job_to_the_sweeper(env, caplog):
    broker = _DownBroker()
    inline, env["ctx"].dispatcher = env["ctx"].dispatcher, broker
    job_id = _start(env)
    assert broker.tries == 1  # gave up at once instead of timing out message after message
    assert "3 message(s) left to the sweeper" in caplog.text
    env["ctx"].dispatcher = inline
    assert control.sweep(env["ctx"], older_than_s=0) == 3
    inline.drain()
    assert _job(env, job_id)["status"] == "completed"


def test_the_worker_config_waits_for_the_broker_and_retries_publishing():
    conf = reliability.reliability_config(Settings())
    assert conf["broker_connection_max_retries"] is None
    assert conf["broker_connection_retry"] and conf["task_publish_retry"]
    assert conf["task_publish_retry_policy"]["max_retries"] >= 3


def test_a_worker_refuses_to_start_on_a_malformed_config(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "scoring.yaml"
    bad.write_text("fusion: [1, 2\n")
    monkeypatch.setattr(reliability, "get_settings", lambda: Settings(scoring_config=bad))
    import scoregate.config.settings as config

    monkeypatch.setattr(config, "get_scoring_config", lambda: config.load_scoring_config(bad))
    with pytest.raises(SystemExit, match="invalid configuration: .*is not valid YAML") as info:
        reliability._check_config()
    assert info.value.code == 2  # one refusal line (a JSON record in json mode), exit 2
    assert capsys.readouterr().err.startswith("error: invalid configuration: ")


# --- task events per message of a batch ---------------------------------------------------------


def test_run_batch_reports_which_messages_failed_or_were_retried(env):
    def picky(items: list[dict[str, Any]]) -> None:
        if any(i["content"] == "boom" for i in items):
            raise RuntimeError("cannot score boom")
        if any(i["content"] == "down" for i in items):
            raise OperationalError("INSERT", {}, ConnectionRefusedError("db down"))

    requests = [
        _pair("ok"),
        _pair("bad", "boom"),
        _request("malformed", job_id="x", n=1, query="q"),
        _pair("later", "down"),
    ]
    out = batch_runner.run_batch(_Task(), requests, FIELDS, picky)
    assert out["failed"] == {
        "bad": "RuntimeError: cannot score boom",
        "malformed": "refused message: missing field(s): content",
    }
    assert list(out["retried"]) == ["later"]
    assert "db down" in out["retried"]["later"]


def test_each_message_of_a_batch_gets_started_and_succeeded_or_failed_events(monkeypatch):
    requests, callbacks = _flush(monkeypatch)
    callbacks["accept_callback"](1234, time.monotonic())
    callbacks["callback"]({"failed": {"t2": "RuntimeError: boom"}, "retried": {}})
    kinds = [[kind for kind, _ in r.events] for r in requests]
    assert kinds == [["task-started", "task-succeeded"], ["task-started", "task-failed"]]
    assert requests[0].events[1][1]["runtime"] >= 0.25  # from when its batch started
    assert requests[1].events[1][1]["exception"] == "RuntimeError: boom"
    assert [r.outcome for r in requests] == ["ack", "ack"]


def test_a_batch_that_raised_fails_each_message_and_a_lost_one_too(monkeypatch):
    requests, callbacks = _flush(monkeypatch)
    callbacks["callback"](None)  # celery_batches returns None when the task raised
    assert [r.events[-1][0] for r in requests] == ["task-failed", "task-failed"]
    requests, callbacks = _flush(monkeypatch)
    try:
        raise WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL)")
    except WorkerLostError:
        callbacks["error_callback"](ExceptionInfo())
    assert [r.events[-1][0] for r in requests] == ["task-failed", "task-failed"]
    assert "WorkerLostError" in requests[0].events[-1][1]["exception"]


def test_a_buffered_batch_message_sends_task_received_and_is_counted(monkeypatch):
    from celery import signals
    from celery.worker import state

    task = batching.ReliableBatches()
    task.name = "scoregate.semantic.score"
    req = _Req("r1")
    req.task = task
    req.eta = req.expires = req.root_id = req.parent_id = None
    req.argsrepr, req.kwargsrepr, req.request_dict = "()", "{'job_id': 'j'}", {"retries": 2}
    signals.task_received.send(sender=None, request=req)
    assert req.events == [
        (
            "task-received",
            {
                "name": "scoregate.semantic.score",
                "args": "()",
                "kwargs": "{'job_id': 'j'}",
                "root_id": None,
                "parent_id": None,
                "retries": 2,
                "eta": None,
                "expires": None,
            },
        )
    ]
    assert req in state.reserved_requests
    state.task_ready(req)
    plain = _Req("r2")  # a plain task's request: Celery's own strategy sends its events
    signals.task_received.send(sender=None, request=plain)
    assert plain.events == []
