"""The ops review's finding 3 (twenty-second session): a pool worker whose database has not
answered since it started (a database that does not exist, say) reports `ready` by design
(a start order must not matter), but the health surfaces now say it: its
``scoregate_config`` answer carries ``database``, ``scoregate workers`` marks it and exits 1,
``--host`` narrows the check to one container (compose's healthcheck), and the retry line
of such a fault says to check the URL instead of calling it transient."""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.cli import workers as cli_workers
from scoregate.config.settings import get_settings
from scoregate.storage.db import dispose_engines
from scoregate.workers import batch_runner, startup

pytestmark = pytest.mark.usefixtures("fresh_settings")

runner = CliRunner()
BROKER = "redis://127.0.0.1:6399/0"
#: Nothing listens on port 1: refused at once, no server needed.
REFUSED = "postgresql+psycopg://app@127.0.0.1:1/scoregate"
COMPOSE = Path(__file__).resolve().parents[2] / "docker" / "compose.yaml"


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Any:
    for name in ("SCOREGATE_DATABASE_URL", "SCOREGATE_BROKER_URL", "SCOREGATE_SCORING_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    startup.SCHEMA_UNCHECKED.clear()
    startup.WAITING_FOR_DATABASE.clear()
    monkeypatch.setattr(startup, "_database_fault", "")
    yield
    startup.SCHEMA_UNCHECKED.clear()
    startup.WAITING_FOR_DATABASE.clear()
    dispose_engines()


def _instance(*queues: str) -> SimpleNamespace:
    consumed = SimpleNamespace(consume_from=dict.fromkeys(queues, 1))
    return SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=consumed)))


def _down_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", REFUSED)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    get_settings.cache_clear()
    startup._check_database(instance=_instance("fusion"))  # starts, one ERROR line


# --- the worker's answer ------------------------------------------------------------------


def test_the_config_answer_says_the_database_has_not_answered_until_it_does(monkeypatch):
    _down_at_start(monkeypatch)
    answer = startup.scoregate_config(None)
    assert answer["database"].startswith("database unreachable at postgresql+psycopg://")
    monkeypatch.setattr(startup, "start_schema_watch", lambda settings: None)
    startup._watch_schema()  # ready: the watch takes over from the start-up flag
    startup.WAITING_FOR_DATABASE.set()  # as the real start_schema_watch does
    assert "database" in startup.scoregate_config(None)
    answers = iter([None, (None, None)])  # down once more, then it answers, current
    stop = threading.Event()
    assert not startup.watch_schema(
        get_settings(), lambda code: None, every=0, stopping=stop, verdict=lambda s: next(answers)
    )
    assert "database" not in startup.scoregate_config(None)


def test_a_worker_whose_database_answered_at_start_says_nothing_of_it(monkeypatch):
    assert "database" not in startup.scoregate_config(None)


# --- scoregate workers --------------------------------------------------------------------


@pytest.fixture
def pinged(monkeypatch):
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    get_settings.cache_clear()
    seen: dict[str, Any] = {"live": {}, "configs": {}}
    monkeypatch.setattr(cli_workers, "live_workers", lambda timeout: seen["live"])
    monkeypatch.setattr(cli_workers, "worker_configs", lambda timeout: seen["configs"])
    return seen


GOOD = {"path": "packaged default", "digest": "aaaa", "version": "0.2.1"}
FAULT = (
    "database unreachable at postgresql+psycopg://postgres@db/rev_ops_nope:"
    ' database "rev_ops_nope" does not exist; ...'
)


def test_workers_flags_a_worker_without_its_database_and_exits_1(pinged):
    pinged["live"].update({"good@vm": ["fusion"], "bad@vm": ["fusion"]})
    pinged["configs"].update({"good@vm": GOOD, "bad@vm": {**GOOD, "database": FAULT}})
    out = runner.invoke(cli, ["workers", "--require", "fusion"])
    assert out.exit_code == 1, out.output  # was 0: a worker that records nothing was "ready"
    assert out.stdout.splitlines() == [
        "bad@vm\tfusion\tconfig aaaa (packaged default)\tscoregate 0.2.1\tdatabase unreachable",
        "good@vm\tfusion\tconfig aaaa (packaged default)\tscoregate 0.2.1",
    ]
    [line] = out.stderr.strip().splitlines()
    assert line == f"error: bad@vm has not reached its database since it started: {FAULT}"
    listed = json.loads(runner.invoke(cli, ["workers", "--json"]).stdout)
    assert listed["bad@vm"]["config"]["database"] == FAULT


def test_workers_host_checks_one_container(pinged):
    pinged["live"].update({"fusion@c1": ["fusion"], "fusion@c2": ["fusion"]})
    pinged["configs"].update({"fusion@c1": GOOD, "fusion@c2": {**GOOD, "database": FAULT}})
    ok = runner.invoke(cli, ["workers", "--host", "c1"])
    assert ok.exit_code == 0 and ok.stdout.startswith("fusion@c1\t") and "c2" not in ok.stdout
    assert runner.invoke(cli, ["workers", "--host", "c2"]).exit_code == 1
    none = runner.invoke(cli, ["workers", "--host", "c3"])
    assert none.exit_code == 1 and "no worker on host c3 answered" in none.stderr


def test_the_compose_healthcheck_runs_that_check(pinged, monkeypatch):
    check = yaml.safe_load(COMPOSE.read_text())["x-scoregate"]["healthcheck"]["test"]
    assert check[0] == "CMD-SHELL"
    command = check[1].replace("$$HOSTNAME", "c1").replace('"', "").split(">")[0].split()
    assert command[:2] == ["scoregate", "workers"] and "--host" in command
    pinged["live"].update({"fusion@c1": ["fusion"]})
    pinged["configs"].update({"fusion@c1": GOOD})
    assert runner.invoke(cli, command[1:]).exit_code == 0
    pinged["configs"]["fusion@c1"] = {**GOOD, "database": FAULT}
    assert runner.invoke(cli, command[1:]).exit_code == 1


def test_worker_configs_keeps_the_database_answer(monkeypatch):
    class _Control:
        def broadcast(self, *a: Any, **k: Any) -> list[dict[str, Any]]:
            return [{"w@h": {**GOOD, "database": FAULT}}, {"v@h": {"path": "p", "digest": "d"}}]

    worker_app = importlib.import_module("scoregate.workers.app")  # the package's `app` is Celery's
    monkeypatch.setattr(worker_app, "get_app", lambda: SimpleNamespace(control=_Control()))
    found = cli_workers.worker_configs(1.0)
    assert found["w@h"]["database"] == FAULT and "database" not in found["v@h"]


# --- the retry line -----------------------------------------------------------------------


def test_a_database_that_does_not_exist_is_not_called_a_transient_fault():
    gone = OperationalError("SELECT 1", {}, Exception('database "rev_ops_nope" does not exist'))
    refused = OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
    assert batch_runner.fault_kind(gone).startswith("database fault (check SCOREGATE_DATABASE_URL")
    assert batch_runner.fault_kind(refused) == "transient fault"
    assert batch_runner.fault_kind(ConnectionError("redis away")) == "transient fault"
