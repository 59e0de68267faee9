"""What a person running workers meets: step log lines, start-up checks, recovery timings,
queue declarations, `scoregate workers` and `submit` with the broker away."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines.dispatch import JobsNotPublished, PublishError
from scoregate.pipelines.embedded import embedded_context
from scoregate.workers import startup
from tests.fakes import GOOD, SCORES, FakeModels
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit

runner = CliRunner()


@pytest.fixture(autouse=True)
def _fresh_settings():
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'p.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    return {"ctx": ctx, "inline": inline}


def test_every_step_of_a_job_logs_one_info_line(env, caplog):
    caplog.set_level(logging.INFO, logger="scoregate.steps")
    job_id = _job(env, _submit(env, GOOD))["id"]
    lines = [r.getMessage() for r in caplog.records if r.name == "scoregate.steps"]
    score = r"score (\d\.\d{3}|-)(?: band \w+)? \(\d+ ms\)$"
    pattern = re.compile(rf"^job {job_id} iteration 1: (\w+(?: \w+)?) " + score)
    steps = [m.group(1) for line in lines if (m := pattern.match(line))]
    assert len(steps) == len(lines) == 5, lines
    assert sorted(steps[:3]) == ["precision", "reward", "semantic"]
    assert steps[3:] == ["fusion", "decide complete"]


# --- submit when the broker is away -------------------------------------------------------------


class _DownDispatcher:
    def send(self, message: Any) -> None:
        raise PublishError("cannot publish: Connection refused")

    def send_many(self, messages: Any) -> None:
        raise PublishError(f"cannot publish {len(messages)} message(s): Connection refused")


def test_submit_exits_3_and_says_the_sweeper_will_publish_when_the_broker_is_down(env, monkeypatch):
    from scoregate.pipelines import api

    down = dataclasses.replace(env["ctx"], dispatcher=_DownDispatcher())
    monkeypatch.setattr(api, "client_context", lambda: (down, None))
    out = runner.invoke(app, ["submit", "-q", "Name a colour.", "--content", "Blue."])
    assert out.exit_code == 3, out.output
    assert "broker unreachable: 1 job(s) recorded, will be published by the sweeper" in (out.output)
    job_id = out.stdout.strip().splitlines()[0]
    job = _job(env, job_id)  # recorded, its iteration waiting for the sweeper
    assert job["status"] == "running" and job["iterations"][0]["status"] == "scoring"


def test_submit_json_with_the_broker_down_still_prints_the_submit_document(env, monkeypatch):
    from scoregate.pipelines import api

    down = dataclasses.replace(env["ctx"], dispatcher=_DownDispatcher())
    monkeypatch.setattr(api, "client_context", lambda: (down, None))
    argv = ["submit", "-q", "Name a colour.", "--content", "Blue.", "--wait", "--json"]
    out = runner.invoke(app, argv)
    assert out.exit_code == 3, out.output
    document = json.loads(out.stdout)
    assert document["schema_version"] == 1 and len(document["job_ids"]) == 1
    assert document["pending"] == document["job_ids"]  # recorded, not published yet
    assert "broker unreachable: 1 job(s) recorded" in out.stderr


def test_the_worker_task_path_still_leaves_unpublished_jobs_to_the_sweeper(env, caplog):
    from scoregate.pipelines import steps

    down = dataclasses.replace(env["ctx"], dispatcher=_DownDispatcher())
    spec = steps.build_spec(down, {"request": {"query": "q", "content": "c"}})
    (job_id,) = steps.submit_jobs(down, [spec])
    assert "left to the sweeper" in caplog.text and _job(env, job_id)["status"] == "running"
    with pytest.raises(JobsNotPublished) as info:
        steps.submit_jobs(down, [spec], strict=True)
    (recorded,) = info.value.job_ids
    assert recorded != job_id and _job(env, recorded)["status"] == "running"


# --- starting a worker --------------------------------------------------------------------------


def test_scoregate_worker_refuses_to_start_without_a_broker(monkeypatch):
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    get_settings.cache_clear()
    out = runner.invoke(app, ["worker", "--pool", "control"])
    assert out.exit_code == 2
    assert "SCOREGATE_BROKER_URL is not set: a worker needs a broker" in out.output


def test_a_celery_worker_on_memory_refuses_to_start(monkeypatch, capsys):
    from celery import signals

    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    get_settings.cache_clear()
    conf = SimpleNamespace(broker_url="memory://")
    with pytest.raises(SystemExit) as info:
        signals.celeryd_init.send(sender="w@h", instance=None, conf=conf, options={})
    assert info.value.code == 2
    assert "SCOREGATE_BROKER_URL is not set" in capsys.readouterr().err
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/0")
    get_settings.cache_clear()
    conf = SimpleNamespace(broker_url="redis://127.0.0.1:6379/0")
    signals.celeryd_init.send(sender="w@h", instance=None, conf=conf, options={})


def test_without_redis_one_line_names_what_is_off():
    amqp = Settings(broker_url=SecretStr("amqp://guest:guest@127.0.0.1:5672//"))
    line = startup.redis_off_line(amqp)
    assert line is not None and "\n" not in line
    for feature in ("poison-message protection", "research quota", "caches"):
        assert feature in line
    assert startup.redis_off_line(Settings(broker_url=SecretStr("redis://h:6379/0"))) is None
    both = Settings(broker_url=amqp.broker_url, redis_url=SecretStr("redis://h:6379/1"))
    assert startup.redis_off_line(both) is None


def test_visibility_timeouts_are_sized_per_pool_with_their_own_unacked_keys():
    settings = Settings()
    semantic = startup.pool_transport_options(settings, ["semantic"])
    control = startup.pool_transport_options(settings, ["control"])
    every = startup.pool_transport_options(settings, list(startup.VISIBILITY_S))
    assert (semantic["visibility_timeout"], control["visibility_timeout"]) == (120, 90)
    assert semantic["unacked_key"] == "unacked:semantic" != control["unacked_key"]
    assert every["visibility_timeout"] == 120 and "unacked_key" not in every
    pinned = startup.pool_transport_options(Settings(visibility_timeout_s=600), ["control"])
    assert pinned["visibility_timeout"] == 600
    assert max(startup.VISIBILITY_S.values()) <= 120  # a lost message costs at most this


def test_a_worker_of_agent_or_hook_queues_keeps_a_running_agent_unacked_past_its_timeout():
    # 120 s (the pools' timeout) handed a 200 s agent to another worker, which ran it again
    settings = Settings(agent_timeout_s=600)
    tasks = startup.pool_transport_options(settings, [], other_queues=True)
    assert tasks["visibility_timeout"] == 600 + startup.AGENT_MARGIN_S
    assert tasks["unacked_key"] == "unacked:tasks"  # no pool worker restores them early
    mixed = startup.pool_transport_options(settings, ["control"], other_queues=True)
    assert mixed["visibility_timeout"] == 660 and "unacked_key" not in mixed
    assert startup.pool_transport_options(settings, ["control"])["visibility_timeout"] == 90
    pinned = Settings(agent_timeout_s=600, visibility_timeout_s=300)
    assert (
        startup.pool_transport_options(pinned, [], other_queues=True)["visibility_timeout"] == 300
    )


def test_a_worker_names_a_database_it_cannot_reach_at_start(monkeypatch):
    monkeypatch.setenv(
        "SCOREGATE_DATABASE_URL", "postgresql+psycopg://app:Hunter2x@127.0.0.1:1/scoregate"
    )
    get_settings.cache_clear()
    line = startup.database_line(get_settings())
    assert line is not None and line.startswith("database unreachable at ")
    assert "127.0.0.1:1/scoregate" in line and "Hunter2x" not in line
    assert "wait if it is restarting, or check that the database server is up" in line
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", "sqlite:////nonexistent/dir/x.db")
    get_settings.cache_clear()
    assert startup.database_line(get_settings()) is None  # a file is not probed


def test_two_workers_of_one_pool_can_be_told_apart(monkeypatch):
    from scoregate.workers.command import worker_argv

    argv = worker_argv("precision", name="precision-gpu1")
    assert argv[argv.index("-n") + 1] == "precision-gpu1@%h"
    argv = worker_argv("control", name="c2@box")
    assert argv[argv.index("-n") + 1] == "c2@box"
    assert worker_argv("control")[worker_argv("control").index("-n") + 1] == "control@%h"
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/0")
    get_settings.cache_clear()
    out = runner.invoke(app, ["worker", "--pool", "control", "--name", "bad name!"])
    assert out.exit_code == 2 and "node name 'bad name!'" in out.output


def test_the_sweeper_runs_in_every_control_worker_unless_switched_off(monkeypatch):
    assert startup.sweeper_on(Settings(), ["control"])
    assert startup.sweeper_on(Settings(), list(startup.VISIBILITY_S))  # --pool all
    assert not startup.sweeper_on(Settings(), ["semantic"])
    monkeypatch.setenv("SCOREGATE_SWEEPER", "0")
    assert not startup.sweeper_on(Settings(), ["control"])
    defaults = Settings()
    assert defaults.sweep_interval_s == 10 and defaults.stuck_after_s == 30


def test_a_sweep_tick_publishes_one_expiring_sweep_with_no_sent_event(caplog):
    from celery import Celery

    app = Celery("sweep-test", broker="memory://", set_as_current=False)
    app.conf.task_send_sent_event = True  # what -E deployments set: sweeps still send none
    sent_events: list[Any] = []
    with app.connection_for_write() as conn:
        queue = conn.SimpleQueue("control")
        original = app.amqp.send_task_message

        def spy(producer: Any, name: str, message: Any, **kw: Any) -> Any:
            sent_events.append(message.sent_event)
            return original(producer, name, message, **kw)

        app.amqp.send_task_message = spy
        startup.send_sweep(app, 10.0)
        got = queue.get(timeout=2)
        queue.close()
    assert got.headers["task"] == "scoregate.control.sweep"
    assert got.headers["expires"]  # unrun after one interval
    assert got.properties.get("expiration") in (10.0, "10000")
    assert sent_events == [None]  # no task-sent event: Flower never lists a sweep


def test_a_sweep_tick_survives_a_broker_error(caplog):
    def refuse(*a: Any, **kw: Any) -> None:
        raise ConnectionRefusedError("broker down")

    broken = SimpleNamespace(
        amqp=SimpleNamespace(create_task_message=refuse, send_task_message=refuse)
    )
    startup.send_sweep(broken, 10.0)
    assert "cannot publish the sweep (broker down)" in caplog.text


def test_the_sweep_task_sends_no_worker_events():
    from scoregate.workers import control

    assert control.sweep.send_events is False
    assert control.decide.send_events is True  # the jobs' own tasks stay on the stream


def test_the_upkeep_step_sweeps_at_once_then_on_a_timer_and_stops_with_the_consumer(
    monkeypatch,
):
    sent: list[str] = []
    timers: list[tuple[float, Any]] = []
    cancelled: list[bool] = []

    class Timer:
        def call_repeatedly(self, interval: float, fn: Any, args: Any) -> Any:
            timers.append((interval, fn))
            return SimpleNamespace(cancel=lambda: cancelled.append(True))

    unbound: list[list[str]] = []
    monkeypatch.setattr(startup, "drop_stale_bindings", lambda conn, pools: unbound.append(pools))
    queues = SimpleNamespace(consume_from={"control": 1, "fusion": 1})
    monkeypatch.setattr(
        startup, "send_sweep", lambda app, interval: sent.append("scoregate.control.sweep")
    )
    app = SimpleNamespace(amqp=SimpleNamespace(queues=queues))
    consumer = SimpleNamespace(app=app, connection=object(), timer=Timer())
    step = startup.Upkeep(SimpleNamespace())
    step.start(consumer)
    assert unbound == [["fusion", "control"]]
    assert sent == ["scoregate.control.sweep"] and timers[0][0] == 10.0
    step.stop(consumer)
    assert cancelled == [True]
    queues.consume_from = {"semantic": 1}
    sent.clear()
    startup.Upkeep(SimpleNamespace()).start(consumer)
    assert sent == []  # a worker that does not consume control sends no sweeps


def test_a_starting_worker_sizes_its_redis_timeout_and_says_what_is_off(monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="scoregate.workers.startup")
    queues = SimpleNamespace(consume_from={"semantic": 1})
    instance = SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=queues)))
    conf = SimpleNamespace(broker_url="redis://127.0.0.1:6379/0", broker_transport_options={})
    monkeypatch.setenv("SCOREGATE_BROKER_URL", conf.broker_url)
    get_settings.cache_clear()
    startup._configure(instance=instance, conf=conf)
    assert conf.broker_transport_options["visibility_timeout"] == 120
    assert conf.broker_transport_options["unacked_key"] == "unacked:semantic"
    assert "no Redis" not in caplog.text and "sweeper:" not in caplog.text
    caplog.clear()
    amqp = SimpleNamespace(broker_url="amqp://guest:guest@127.0.0.1//", broker_transport_options={})
    monkeypatch.setenv("SCOREGATE_BROKER_URL", amqp.broker_url)
    get_settings.cache_clear()
    queues.consume_from = {"control": 1}
    startup._configure(instance=instance, conf=amqp)
    assert amqp.broker_transport_options == {}  # Redis options only on Redis
    off = [r for r in caplog.records if "no Redis" in r.getMessage()]
    assert len(off) == 1 and off[0].levelno == logging.WARNING
    assert "sweeper: every 10 s" in caplog.text


# --- queue declarations -------------------------------------------------------------------------


def test_each_pool_queue_is_bound_once_to_its_own_exchange():
    from scoregate.workers.app import create_app

    app = create_app(Settings())
    queues = app.amqp.queues
    for pool in startup.VISIBILITY_S:
        queue = queues[pool]
        assert (queue.exchange.name, queue.exchange.type, queue.routing_key) == (
            pool,
            "direct",
            pool,
        )
        route = app.amqp.router.route({}, f"scoregate.{pool}.x")
        assert route["queue"].exchange.name == pool
    assert "Upkeep" in {step.__name__ for step in app.steps["consumer"]}


def test_stale_control_bindings_are_dropped_from_the_other_pool_queues():
    calls: list[dict[str, str]] = []

    class Channel:
        def queue_unbind(self, **kw: str) -> None:
            if kw["queue"] == "precision":
                raise RuntimeError("NOT_FOUND - no queue 'precision'")
            calls.append(kw)

        def close(self) -> None:
            pass

    connection = SimpleNamespace(channel=Channel)
    pools = ["semantic", "precision", "reward", "fusion", "control"]
    assert startup.drop_stale_bindings(connection, pools) == 3
    assert calls == [
        {"queue": pool, "exchange": "control", "routing_key": "control"}
        for pool in ("semantic", "reward", "fusion")
    ]


# --- scoregate workers --------------------------------------------------------------------------


def test_workers_lists_who_answers_and_exits_1_when_none(monkeypatch):
    from scoregate.cli import workers as cli_workers

    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/0")
    get_settings.cache_clear()
    answers = {"all@h": ["control", "fusion"], "semantic@g": ["semantic"]}
    monkeypatch.setattr(cli_workers, "live_workers", lambda timeout: answers)
    out = runner.invoke(app, ["workers"])
    assert out.exit_code == 0
    assert out.stdout.splitlines() == ["all@h\tcontrol,fusion", "semantic@g\tsemantic"]
    monkeypatch.setattr(cli_workers, "live_workers", lambda timeout: {})
    out = runner.invoke(app, ["workers", "--timeout", "0.5"])
    assert out.exit_code == 1 and "no worker answered within 0.5 s" in out.output
    monkeypatch.delenv("SCOREGATE_BROKER_URL")
    get_settings.cache_clear()
    assert runner.invoke(app, ["workers"]).exit_code == 2


def test_live_workers_pairs_pings_with_active_queues(monkeypatch):
    import importlib

    from scoregate.cli import workers as cli_workers

    app_module = importlib.import_module("scoregate.workers.app")  # the package shadows it
    inspector = SimpleNamespace(
        ping=lambda: {"a@h": {"ok": "pong"}, "b@h": {"ok": "pong"}},
        active_queues=lambda: {"a@h": [{"name": "semantic"}, {"name": "control"}]},
    )
    fake = SimpleNamespace(control=SimpleNamespace(inspect=lambda timeout: inspector))
    monkeypatch.setattr(app_module, "get_app", lambda: fake)
    assert cli_workers.live_workers(1.0) == {"a@h": ["control", "semantic"], "b@h": []}
