"""A worker's start-up edges: the schema checked once a database that was down answers, an
explicit SQLite file checked like Postgres, a node name another worker uses, the outage
hint that does not blame the URL for a restart, and the version beside the config digest."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from scoregate._version import __version__
from scoregate.cli import app as cli
from scoregate.cli import workers as cli_workers
from scoregate.cli.errors import describe
from scoregate.config.settings import get_settings
from scoregate.storage.db import dispose_engines, upgrade
from scoregate.workers import startup

pytestmark = pytest.mark.usefixtures("fresh_settings")

BROKER = "redis://127.0.0.1:6379/5"
#: Nothing listens on port 1: the connection is refused at once, no server needed.
REFUSED = "postgresql+psycopg://app:Hunter2x@127.0.0.1:1/scoregate"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Any:
    """No database or broker unless a test names one (an integration fixture may have left
    them in os.environ), no flag left from a test before, no engine left after."""
    for name in ("SCOREGATE_DATABASE_URL", "SCOREGATE_BROKER_URL", "SCOREGATE_SCORING_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    startup.SCHEMA_UNCHECKED.clear()
    yield
    startup.SCHEMA_UNCHECKED.clear()
    dispose_engines()


def _instance(*queues: str) -> SimpleNamespace:
    consumed = SimpleNamespace(consume_from=dict.fromkeys(queues, 1))
    return SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=consumed)))


def _point(monkeypatch: pytest.MonkeyPatch, database: str, broker: str | None = BROKER) -> None:
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", database)
    if broker:
        monkeypatch.setenv("SCOREGATE_BROKER_URL", broker)
    get_settings.cache_clear()


# --- 1. a database down at start: its schema checked once it answers -----------------------


def test_a_pool_worker_on_a_database_that_is_down_starts_and_keeps_its_check_for_later(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _point(monkeypatch, REFUSED)
    startup._check_database(instance=_instance("reward"))  # no SystemExit: it starts
    assert startup.SCHEMA_UNCHECKED.is_set()
    [line] = [r for r in caplog.records if "database unreachable at" in r.getMessage()]
    assert line.levelno == logging.ERROR
    started: list[Any] = []
    monkeypatch.setattr(startup, "start_schema_watch", started.append)
    from celery import signals

    signals.worker_ready.send(sender=None)  # the worker reports ready: the watch starts
    assert len(started) == 1 and not startup.SCHEMA_UNCHECKED.is_set()
    signals.worker_ready.send(sender=None)
    assert len(started) == 1  # once


def test_a_worker_of_no_pool_keeps_no_check_for_later(monkeypatch: pytest.MonkeyPatch) -> None:
    _point(monkeypatch, REFUSED)
    startup._check_database(instance=_instance("agents"))
    assert not startup.SCHEMA_UNCHECKED.is_set()


def test_the_watch_waits_for_the_database_then_stops_the_worker_on_an_old_schema(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusal = (
        "scoregate: the database at postgresql+psycopg://x@h/db is at migration 0002, older"
        " than this scoregate's 0003; back it up and run `scoregate db upgrade`"
    )
    answers: list[tuple[str | None, str | None] | None] = [None, None, (refusal, None)]
    stopped: list[int] = []
    assert startup.watch_schema(
        get_settings(),
        stopped.append,
        every=0.01,
        stopping=threading.Event(),
        verdict=lambda _s: answers.pop(0),
    )
    assert stopped == [startup.EXIT_CONFIG] and answers == []  # asked until it answered
    [record] = [r for r in caplog.records if r.name == startup.log.name]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == refusal.removeprefix("scoregate: ") + (
        ": this worker stops (exit 2)"
    )


def test_the_watch_lets_a_current_or_newer_schema_be(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=startup.log.name)
    stopped: list[int] = []
    kwargs: dict[str, Any] = {"every": 0.01, "stopping": threading.Event()}
    assert not startup.watch_schema(
        get_settings(), stopped.append, verdict=lambda _s: (None, None), **kwargs
    )
    assert not startup.watch_schema(
        get_settings(), stopped.append, verdict=lambda _s: (None, "at migration 0099"), **kwargs
    )
    assert stopped == []
    levels = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == startup.log.name]
    assert levels == [
        (logging.INFO, "the database answers now; its schema is this scoregate's"),
        (logging.WARNING, "at migration 0099"),
    ]


def test_the_watch_gives_up_when_the_worker_stops() -> None:
    stopping = threading.Event()
    stopping.set()
    asked: list[Any] = []
    assert not startup.watch_schema(
        get_settings(), asked.append, stopping=stopping, verdict=lambda s: asked.append(s)
    )
    assert asked == []


def test_the_verdict_is_none_while_the_database_is_down_and_the_refusal_once_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _point(monkeypatch, REFUSED)
    assert startup.schema_verdict(get_settings()) is None
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    _point(monkeypatch, url)
    refusal, warning = startup.schema_verdict(get_settings()) or (None, None)
    assert warning is None and refusal is not None
    assert "is at migration 0002, older than this scoregate's" in refusal


def test_stopping_the_worker_makes_its_event_loop_exit_with_the_code() -> None:
    from celery.exceptions import WorkerShutdown
    from celery.worker import state

    try:
        startup.stop_consuming(startup.EXIT_CONFIG)
        with pytest.raises(WorkerShutdown) as info:
            state.maybe_shutdown()  # what the event loop calls on every turn
        assert info.value.code == startup.EXIT_CONFIG
    finally:
        state.should_stop = None


# --- 2. an explicit SQLite file is schema-checked -----------------------------------------------


def test_a_sqlite_database_at_an_older_migration_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    dispose_engines()
    _point(monkeypatch, url)
    with pytest.raises(SystemExit) as info:
        startup._check_database(instance=_instance("fusion", "control"))
    assert info.value.code == startup.EXIT_CONFIG
    [line] = capsys.readouterr().err.splitlines()
    assert "is at migration 0002, older than this scoregate's" in line
    assert line.endswith("run `scoregate db upgrade`")


def test_a_sqlite_file_that_does_not_exist_is_refused_and_not_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sub" / "none.db"
    _point(monkeypatch, f"sqlite:///{path}")
    with pytest.raises(SystemExit) as info:
        startup._check_database(instance=_instance("reward"))
    assert info.value.code == startup.EXIT_CONFIG
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        f"error: the database at sqlite:///{path} has no scoregate tables (the file does"
        " not exist); run `scoregate db upgrade`, or check SCOREGATE_DATABASE_URL"
    )
    assert not path.exists() and not path.parent.exists()


def test_an_empty_sqlite_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    _point(monkeypatch, f"sqlite:///{path}")
    with pytest.raises(SystemExit):
        startup._check_database(instance=_instance("reward"))
    assert "has no scoregate tables; run `scoregate db upgrade`" in capsys.readouterr().err


def test_a_current_sqlite_file_passes_and_a_worker_of_no_pool_is_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    upgrade(url)
    dispose_engines()
    _point(monkeypatch, url)
    startup._check_database(instance=_instance("reward"))
    _point(monkeypatch, f"sqlite:///{tmp_path / 'nowhere.db'}")
    startup._check_database(instance=_instance("agents"))  # no pool: nothing it reads
    assert not (tmp_path / "nowhere.db").exists()


# --- 3. a node name another live worker answers to ----------------------------------------------


class _Control:
    """``app.control`` answering ``broadcast`` with ``replies`` (or raising ``fails``)."""

    def __init__(self, replies: list[dict[str, Any]], fails: Exception | None = None) -> None:
        self.replies, self.fails = replies, fails
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def broadcast(self, command: str, **kwargs: Any) -> list[dict[str, Any]]:
        self.calls.append((command, kwargs))
        if self.fails is not None:
            raise self.fails
        return self.replies


def _mine() -> dict[str, Any]:
    return startup.scoregate_node(None)


def test_a_node_name_only_this_worker_answers_to_is_no_clash(
    caplog: pytest.LogCaptureFixture,
) -> None:
    control = _Control([{"fusion@h": _mine()}])
    assert startup.check_node_name(SimpleNamespace(control=control), "fusion@h") is None
    assert control.calls == [
        (
            "scoregate_node",
            {
                "destination": ["fusion@h"],
                "reply": True,
                "timeout": startup.NAME_CHECK_TIMEOUT_S,
                "limit": startup.NAME_CHECK_ANSWERS,  # not Celery's one answer per destination
            },
        )
    ]
    assert startup.NAME_CHECK_TIMEOUT_S <= 2.0
    assert not caplog.records


def test_a_node_name_another_worker_answers_to_is_one_warning_naming_the_fix(
    caplog: pytest.LogCaptureFixture,
) -> None:
    other = {"instance": "another-process"}
    control = _Control([{"fusion@h": other}, {"fusion@h": _mine()}])
    line = startup.check_node_name(SimpleNamespace(control=control), "fusion@h")
    assert line is not None
    assert line.startswith("node name fusion@h is taken: another live worker answers to it")
    assert "`scoregate worker --name NAME`" in line and "-n NAME@%h" in line
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.getMessage() == line


def test_an_older_worker_under_the_name_counts_as_another() -> None:
    older = {"error": "KeyError('scoregate_node')"}  # a scoregate without the command
    line = startup.name_clash_line("c@h", [{"c@h": older}, {"c@h": "?"}])
    assert line is not None and "2 other live workers answer to it on this broker" in line


def test_a_broker_that_does_not_answer_the_name_check_is_no_clash(
    caplog: pytest.LogCaptureFixture,
) -> None:
    control = _Control([], fails=OSError("Connection refused"))
    assert startup.check_node_name(SimpleNamespace(control=control), "c@h") is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_name_check_runs_beside_the_ready_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    from celery import signals

    asked = threading.Event()
    seen: list[tuple[Any, str]] = []

    def check(app: Any, hostname: str) -> None:
        seen.append((app, hostname))
        asked.set()

    class Consumer:  # the signal's sender: hashable, as Celery's consumer is
        app = object()
        hostname = "control@h"

    monkeypatch.setattr(startup, "check_node_name", check)
    app = Consumer.app
    signals.worker_ready.send(sender=Consumer())
    assert asked.wait(5) and seen == [(app, "control@h")]


# --- 4. the outage hint: wait for a restart, check the URL only when it looks wrong -------------


@pytest.mark.parametrize(
    ("message", "names_the_url"),
    [
        ('connection to server at "127.0.0.1", port 5432 failed: Connection refused', False),
        ("connection timeout expired", False),
        ("server closed the connection unexpectedly", False),
        ("FATAL:  the database system is starting up", False),
        ('FATAL:  database "sg" is not currently accepting connections', False),
        ("SSL SYSCALL error: EOF detected", False),  # no known words: a connection error
        ("failed to resolve host 'db.example': [Errno -2] Name or service not known", True),
        ('FATAL:  password authentication failed for user "app"', True),
        ('FATAL:  database "scoregate" does not exist', True),
        ('FATAL:  role "nobody" does not exist', True),
    ],
)
def test_the_outage_hint_names_the_url_only_when_it_looks_wrong(
    message: str, names_the_url: bool
) -> None:
    line = describe(OperationalError("SELECT 1", {}, Exception(message)), "postgresql://u@h/x")
    assert ("SCOREGATE_DATABASE_URL" in line) is names_the_url, line
    assert ("wait if it is restarting" in line) is not names_the_url, line
    assert message in line and "\n" not in line
    assert ("SCOREGATE_DATABASE_URL" in startup.outage_fix(message)) is names_the_url


def test_a_statement_error_keeps_the_url_hint() -> None:
    from sqlalchemy.exc import IntegrityError

    line = describe(IntegrityError("INSERT", {}, Exception("duplicate key")), "sqlite:///x")
    assert line.endswith("; check SCOREGATE_DATABASE_URL")


def test_a_worker_facing_a_restart_is_told_to_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    _point(monkeypatch, REFUSED, broker=None)
    line = startup.database_line(get_settings())
    assert line is not None and line.startswith("database unreachable at ")
    assert line.endswith(": wait if it is restarting, or check that the database server is up")
    assert "SCOREGATE_DATABASE_URL" not in line and "Hunter2x" not in line


# --- 5. the version beside the digest -----------------------------------------------------------


def test_the_start_up_line_names_the_version_beside_the_digest(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=startup.log.name)
    conf = SimpleNamespace(broker_url="amqp://guest@127.0.0.1//", broker_transport_options={})
    monkeypatch.setenv("SCOREGATE_BROKER_URL", conf.broker_url)
    startup._configure(instance=_instance("reward"), conf=conf)
    [line] = [r.getMessage() for r in caplog.records if "scoring config: " in r.getMessage()]
    assert line.startswith(f"scoregate {__version__}, scoring config: packaged default (digest ")
    answer = startup.scoregate_config(None)
    assert answer["version"] == __version__ and line.endswith(f"(digest {answer['digest']})")


class _App:
    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.control = _Control(replies)


def test_workers_shows_each_workers_version_and_unknown_for_an_older_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib

    worker_app = importlib.import_module("scoregate.workers.app")  # the module, not the app
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    replies = [
        {"new@h": {"path": "packaged default", "digest": "aaaa", "version": "0.2.0"}},
        {"old@h": {"path": "packaged default", "digest": "aaaa"}},  # before the version
    ]
    monkeypatch.setattr(worker_app, "get_app", lambda: _App(replies))
    monkeypatch.setattr(
        cli_workers, "live_workers", lambda timeout: {"new@h": ["fusion"], "old@h": ["control"]}
    )
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        "new@h\tfusion\tconfig aaaa (packaged default)\tscoregate 0.2.0",
        "old@h\tcontrol\tconfig aaaa (packaged default)\tscoregate unknown",
    ]
    listed = json.loads(runner.invoke(cli, ["workers", "--json"]).stdout)
    assert listed["new@h"]["config"]["version"] == "0.2.0"
    assert listed["old@h"]["config"]["version"] == "unknown"


# --- after the review: the hint read whole, SQLite's faults, the watch's own engine -------------


def test_the_hint_is_read_from_the_whole_message_not_the_shown_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """libpq lists every address it tried: the cause can sit past the 300 characters the
    line shows, and must still choose the hint."""
    tail = 'FATAL:  password authentication failed for user "app"'
    message = "connection to server at " + ", ".join(["10.0.0.1"] * 60) + " failed: " + tail

    class Engine:
        def connect(self) -> Any:
            raise OperationalError("SELECT 1", {}, Exception(message))

        def dispose(self) -> None:
            pass

    monkeypatch.setattr("sqlalchemy.create_engine", lambda *a, **kw: Engine())
    _point(monkeypatch, REFUSED, broker=None)
    line = startup.database_line(get_settings())
    assert line is not None and tail not in line  # cut in what is shown...
    assert line.endswith("check SCOREGATE_DATABASE_URL"), line  # ...read whole for the hint


def test_a_sqlite_fault_of_no_known_cause_gets_a_file_hint_not_a_server_one() -> None:
    for message in ("database is locked", "attempt to write a readonly database"):
        line = describe(OperationalError("SELECT 1", {}, Exception(message)), "sqlite:///x.db")
        assert "check the file SCOREGATE_DATABASE_URL names" in line, line
        assert "database server" not in line, line


def test_the_schema_watch_reads_on_its_own_engine_and_leaves_the_shared_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoregate.storage import db

    url = f"sqlite:///{tmp_path / 'live.db'}"
    upgrade(url)
    _point(monkeypatch, url)
    shared = db.get_engine(url)
    assert startup.schema_verdict(get_settings()) == (None, None)
    assert db.get_engine(url) is shared  # a running task's engine was not thrown away
