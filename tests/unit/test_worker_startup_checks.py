"""A worker's start-up checks of its database and config, and a schema older than the code
met at run time: one line, never a retry as if the database were only away."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.exc import ProgrammingError

from scoregate.config.settings import Settings, get_scoring_config, get_settings
from scoregate.storage.db import dispose_engines, get_engine, upgrade
from scoregate.workers import batch_runner, reliability, startup
from scoregate.workers import control as control_tasks

pytestmark = pytest.mark.usefixtures("fresh_settings")


@pytest.fixture(autouse=True)
def _no_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """No database or broker named unless a test names one: a session fixture of the
    integration tests (run first in CI) may still hold them in this process's environment."""
    monkeypatch.delenv("SCOREGATE_DATABASE_URL", raising=False)
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)


BROKER = "redis://127.0.0.1:6379/14"


@pytest.fixture(autouse=True)
def _no_engines() -> Any:
    yield
    dispose_engines()


@pytest.fixture(autouse=True)
def _schema_log_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reliability, "_schema_logged_at", None)


# --- no shared database ---------------------------------------------------------------------


def test_a_worker_with_a_broker_needs_the_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    line = startup.missing_database_line(get_settings(), environ={})
    assert line is not None and "SCOREGATE_DATABASE_URL is not set" in line
    assert "did you mean" not in line and "\n" not in line


def test_a_misspelt_database_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    environ = {"SCOREGATE_DATABSE_URL": "postgresql://x@h/db", "SCOREGATE_BROKER_URL": BROKER}
    line = startup.missing_database_line(get_settings(), environ=environ)
    assert line is not None
    assert line.endswith("did you mean SCOREGATE_DATABASE_URL? SCOREGATE_DATABSE_URL is set")


def test_no_refusal_with_the_database_url_or_without_a_broker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert startup.missing_database_line(Settings()) is None  # the embedded default
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", "postgresql://x@h/db")
    assert startup.missing_database_line(get_settings()) is None


def test_the_refusal_exits_2_before_anything_else(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    queues = SimpleNamespace(consume_from={"reward": 1})
    instance = SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=queues)))
    with pytest.raises(SystemExit) as info:
        startup._check_database(instance=instance)
    assert info.value.code == startup.EXIT_CONFIG
    assert "SCOREGATE_DATABASE_URL is not set" in capsys.readouterr().err


# --- the schema against the code --------------------------------------------------------------


def _database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, revision: str) -> str:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    upgrade(url, revision)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    return url


def test_a_database_at_an_older_migration_is_refused_with_both_revisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _database(tmp_path, monkeypatch, "0002")
    refusal, warning = startup.schema_lines(get_settings())
    assert warning is None and refusal is not None
    assert "is at migration 0002, older than this scoregate's 0003" in refusal
    assert refusal.endswith("back it up and run `scoregate db upgrade`")


def test_a_database_at_the_code_s_migration_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _database(tmp_path, monkeypatch, "head")
    assert startup.schema_lines(get_settings()) == (None, None)


def test_a_database_migrated_by_a_newer_scoregate_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _database(tmp_path, monkeypatch, "head")
    with get_engine(url).begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    refusal, warning = startup.schema_lines(get_settings())
    assert refusal is None and warning is not None
    assert "at migration 0099, which this scoregate (at 0003) does not know" in warning


# --- a schema fault at run time ---------------------------------------------------------------


def test_a_missing_sqlite_table_is_a_schema_fault_not_a_transient_one(tmp_path: Path) -> None:
    engine = get_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    with pytest.raises(ProgrammingError) as info, engine.connect() as conn:
        conn.execute(text("SELECT * FROM iterations"))
    assert "no such table: iterations" in str(info.value)
    assert not isinstance(info.value, reliability.TRANSIENT_ERRORS)
    assert isinstance(info.value, reliability.SCHEMA_ERRORS)


class _PgError(Exception):
    """What psycopg raises: the message, and the SQLSTATE."""

    def __init__(self, message: str, sqlstate: str) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def _undefined_column(*_: Any) -> None:
    raise ProgrammingError(
        "SELECT", {}, _PgError("column dispatches.kwargs does not exist", "42703")
    )


def _no_privilege(*_: Any) -> None:
    raise ProgrammingError("SELECT", {}, _PgError("permission denied for table jobs", "42501"))


@pytest.mark.parametrize(
    ("raise_it", "schema"),
    [(_undefined_column, True), (_no_privilege, False)],
)
def test_only_a_missing_table_or_column_is_a_schema_fault(raise_it: Any, schema: bool) -> None:
    from scoregate.storage.db import is_schema_fault

    with pytest.raises(ProgrammingError) as info:
        raise_it()
    assert is_schema_fault(info.value) is schema


def test_a_programming_error_that_is_not_the_schema_takes_the_per_item_path(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A lost GRANT or a bug is no `db upgrade` matter: each job fails with its error."""
    task, failed, out = _batch_of_two(monkeypatch, _no_privilege)
    assert len(failed) == 2 and set(out["failed"]) == {"a", "b"}
    assert not [r for r in caplog.records if "scoregate db" in r.getMessage()]


class _Task:
    name = "scoregate.fusion.fuse"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.app = SimpleNamespace(send_task=lambda name, **kw: self.sent.append(kw))


def _batch_of_two(
    monkeypatch: pytest.MonkeyPatch, handler: Any
) -> tuple[_Task, list[Any], dict[str, Any]]:
    """Run a batch of two messages through ``handler``: the task (what it re-sent), the
    jobs failed, and the batch's report."""
    monkeypatch.setattr(batch_runner, "skip_recorded", lambda name, items: items)
    guard = reliability.DeliveryGuard(None, limit=3)
    monkeypatch.setattr(batch_runner, "delivery_guard", lambda: guard)
    failed: list[Any] = []
    monkeypatch.setattr(batch_runner, "_fail_item", lambda *a: failed.append(a))
    task = _Task()
    requests = [
        SimpleNamespace(id=t, args=(), kwargs={"job_id": f"j{t}", "n": 1}, request_dict={})
        for t in "ab"
    ]
    return task, failed, batch_runner.run_batch(task, requests, ("job_id", "n"), handler)


def test_a_batch_on_an_old_schema_is_not_retried_and_logs_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    task, failed, out = _batch_of_two(monkeypatch, _undefined_column)
    assert task.sent == [] and failed == []  # no retry, no job failed on that schema
    assert set(out["failed"]) == {"a", "b"}
    lines = [r for r in caplog.records if "scoregate db" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR and lines[0].exc_info is None
    assert "column dispatches.kwargs does not exist" in lines[0].getMessage()


def test_the_sweeper_on_an_old_schema_logs_one_line_then_stays_quiet(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ctx = SimpleNamespace(settings=Settings(database_url=SecretStr("sqlite://")))
    monkeypatch.setattr(control_tasks, "get_context", lambda: ctx)
    monkeypatch.setattr(control_tasks.control, "sweep", _undefined_column)
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        assert control_tasks.sweep.apply().get() == 0
    lines = [r for r in caplog.records if "scoregate db" in r.getMessage()]
    assert [r.levelno for r in lines] == [logging.ERROR, logging.DEBUG, logging.DEBUG]
    assert all(r.exc_info is None for r in lines)
    assert "Traceback" not in caplog.text


# --- the scoring config a worker runs -----------------------------------------------------------


def test_the_config_digest_follows_the_effective_content_not_the_file(tmp_path: Path) -> None:
    from scoregate.config.scoring_yaml import config_digest, load_scoring_config

    packaged = config_digest(load_scoring_config())
    a, b, c = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    a.write_text("actions:\n  accept: 0.99\n  review: 0.7\n")
    b.write_text("actions:\n  review: 0.7\n  accept: 0.99\n")
    c.write_text("actions:\n  accept: 0.98\n")  # the packaged value: no change in effect
    assert config_digest(load_scoring_config(str(a))) == config_digest(load_scoring_config(str(b)))
    assert config_digest(load_scoring_config(str(a))) != packaged
    assert config_digest(load_scoring_config(str(c))) == packaged
    assert len(packaged) == 12


def test_a_worker_says_which_config_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoregate.config.scoring_yaml import config_digest, load_scoring_config

    assert reliability.config_identity()["path"] == "packaged default"
    overlay = tmp_path / "o.yaml"
    overlay.write_text("actions:\n  accept: 0.99\n")
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", str(overlay))
    get_settings.cache_clear()
    get_scoring_config.cache_clear()
    identity = reliability.config_identity()
    assert identity == {
        "path": str(overlay),
        "digest": config_digest(load_scoring_config(str(overlay))),
    }
    # `celery inspect scoregate_config`
    assert startup.scoregate_config(None) == {**identity, "version": startup.__version__}


# --- the sweep's task lines ----------------------------------------------------------------------


@pytest.fixture
def quiet_loggers(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in startup.TASK_LINE_LOGGERS:
        monkeypatch.setattr(logging.getLogger(name), "filters", [])
    startup.quiet_sweeps()
    startup.quiet_sweeps()  # once is enough: no second filter


@pytest.mark.usefixtures("quiet_loggers")
def test_a_sweep_that_did_nothing_logs_its_task_lines_at_debug(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from celery.app import trace

    caplog.set_level(logging.INFO)

    def line(logger: str, fmt: str, name: str, **more: Any) -> None:
        context = {"id": "t1", "name": name, "runtime": 0.01, "args": "()", "kwargs": "{}", **more}
        logging.getLogger(logger).info(fmt, context, extra={"data": context})

    sweep, decide = "scoregate.control.sweep", "scoregate.control.decide"
    line("celery.worker.strategy", trace.LOG_RECEIVED, sweep, eta=None)
    line("celery.app.trace", trace.LOG_SUCCESS, sweep, return_value="0")
    assert caplog.records == []
    line("celery.app.trace", trace.LOG_SUCCESS, sweep, return_value="3")  # it re-published
    line("celery.worker.strategy", trace.LOG_RECEIVED, decide, eta=None)
    line("celery.app.trace", trace.LOG_SUCCESS, decide, return_value="None")
    assert [r.getMessage() for r in caplog.records] == [
        "Task scoregate.control.sweep[t1] succeeded in 0.01s: 3",
        "Task scoregate.control.decide[t1] received",
        "Task scoregate.control.decide[t1] succeeded in 0.01s: None",
    ]
    assert len(logging.getLogger("celery.app.trace").filters) == 1
    caplog.clear()
    line("celery.app.trace", trace.LOG_RETRY, sweep, exc="Retry in 1s: OperationalError()")
    assert [r.levelno for r in caplog.records] == [logging.INFO]  # a fault stays in sight
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    line("celery.app.trace", trace.LOG_SUCCESS, sweep, return_value="0")
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]


# --- the metrics endpoint's address and the compose stop grace ----------------------------------


def test_worker_metrics_listen_on_loopback_unless_a_host_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scoregate.workers import telemetry as worker_metrics

    served: list[tuple[int, str]] = []
    monkeypatch.setattr(worker_metrics, "start_metrics_server", lambda *a: served.append(a))
    monkeypatch.setenv("SCOREGATE_METRICS_PORT", "9808")
    worker_metrics._serve()
    monkeypatch.setenv("SCOREGATE_METRICS_HOST", "0.0.0.0")
    get_settings.cache_clear()
    worker_metrics._serve()
    assert served == [(9808, "127.0.0.1"), (9808, "0.0.0.0")]


def test_an_exposed_metrics_endpoint_says_it_has_no_authentication(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import prometheus_client

    from scoregate.workers import telemetry as worker_metrics

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    listening: list[tuple[int, str]] = []
    monkeypatch.setattr(
        prometheus_client,
        "start_http_server",
        lambda port, addr, registry: listening.append((port, addr)),
    )
    caplog.set_level(logging.INFO, logger=worker_metrics.__name__)
    worker_metrics.start_metrics_server(9808, "127.0.0.1")
    assert caplog.messages[-1] == "Prometheus metrics on http://127.0.0.1:9808/metrics"
    worker_metrics.start_metrics_server(9808, "0.0.0.0")
    assert caplog.messages[-1] == (
        "Prometheus metrics on http://0.0.0.0:9808/metrics"
        " (no authentication: anyone who reaches this address reads them)"
    )
    assert listening == [(9808, "127.0.0.1"), (9808, "0.0.0.0")]


def test_compose_gives_model_pools_time_to_finish_their_batch() -> None:
    import yaml

    compose = Path(__file__).resolve().parents[2] / "docker" / "compose.yaml"
    services = yaml.safe_load(compose.read_text())["services"]
    grace = {name: str(s.get("stop_grace_period", "10s")) for name, s in services.items()}
    assert grace["semantic"] == grace["precision"] == "120s"
    assert grace["reward"] == grace["fusion"] == grace["control"] == "30s"
    assert services["fusion"]["environment"]["SCOREGATE_METRICS_HOST"] == "0.0.0.0"
