"""The ops review's findings (twenty-second session).

1. With ``SCOREGATE_LOG_FORMAT=json`` every refusal of a worker to start, and of
   ``scoregate serve``, is one JSON record on stderr (a multi-line YAML error included);
   in text mode each is one ``error:`` line, never ``scoregate:``.
2. With a broker but no ``SCOREGATE_DATABASE_URL`` (a misspelt one), ``serve`` and every
   command that reads, writes or migrates jobs refuse (exit 2) as a worker does, naming the
   misspelt variable, and leave no SQLite file behind; they used to say "run `scoregate db
   upgrade`" of a private SQLite file no worker reads.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import get_settings
from scoregate.pipelines import api
from scoregate.workers import reliability, startup
from tests.json_lines import json_records

pytestmark = pytest.mark.usefixtures("fresh_settings")

runner = CliRunner()
BROKER = "redis://127.0.0.1:6399/0"
MISSPELT = "SCOREGATE_DATABSE_URL"
BROKEN_YAML = "actions:\n  accept: 0.5\n  review: [0.7\n"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No scoregate variable but those a test sets; HOME is the test's, so the embedded
    default database (``~/.local/share/scoregate/scoregate.db``) would be made there."""
    for name in (
        "SCOREGATE_DATABASE_URL",
        "SCOREGATE_BROKER_URL",
        "SCOREGATE_LOG_FORMAT",
        "SCOREGATE_SCORING_CONFIG",
        "SCOREGATE_API_KEYS",
        MISSPELT,
    ):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    api.client_context.cache_clear()  # the CLI's context, made once per process
    yield home
    api.client_context.cache_clear()


@pytest.fixture
def no_celery(monkeypatch: pytest.MonkeyPatch) -> None:
    def started(argv: list[str]) -> int:
        raise AssertionError(f"the worker started: {argv}")

    monkeypatch.setattr("scoregate.cli.workers.run_celery", started)


def json_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_LOG_FORMAT", "json")
    get_settings.cache_clear()


def misspelt_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    monkeypatch.setenv(MISSPELT, "postgresql+psycopg://postgres@127.0.0.1:5432/rev_ops")
    get_settings.cache_clear()


def one_refusal(text: str, logger: str) -> dict[str, Any]:
    """The only line of ``text``, a JSON ERROR record of ``logger``."""
    [record] = json_records(text)
    assert record["level"] == "ERROR" and record["logger"] == logger, record
    return record


def no_database_file(home: Path) -> bool:
    return not any(p.is_file() for p in home.rglob("*"))


# --- 1. a worker's refusals in JSON mode ---------------------------------------------------


def test_a_worker_refuses_a_setting_as_one_json_record(monkeypatch, no_celery):
    json_mode(monkeypatch)
    monkeypatch.setenv("SCOREGATE_BATCH_SIZE", "abc")
    result = runner.invoke(cli, ["worker", "--pool", "fusion", "-n", "t@%h"])
    assert result.exit_code == 2
    record = one_refusal(result.stderr, "scoregate.workers.startup")
    assert record["message"].startswith("SCOREGATE_BATCH_SIZE='abc': Input should be")
    assert result.stdout == ""


def test_a_worker_refuses_broken_yaml_as_one_json_record(monkeypatch, tmp_path, no_celery):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN_YAML)
    json_mode(monkeypatch)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", f"sqlite:///{tmp_path / 'x.db'}")
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", str(bad))
    result = runner.invoke(cli, ["worker", "--pool", "fusion"])
    assert result.exit_code == 2
    message = one_refusal(result.stderr, "scoregate.workers.startup")["message"]
    assert message.startswith(f"invalid configuration: {bad} is not valid YAML")
    assert "review: [0.7" in message and "\n" in message  # the YAML's context, whole


def test_a_worker_refuses_a_misspelt_database_before_celery_as_one_record(monkeypatch, no_celery):
    json_mode(monkeypatch)
    misspelt_database(monkeypatch)
    result = runner.invoke(cli, ["worker", "--pool", "fusion"])
    assert result.exit_code == 2
    message = one_refusal(result.stderr, "scoregate.workers.startup")["message"]
    assert message.startswith("SCOREGATE_DATABASE_URL is not set: a worker needs the database")
    assert message.endswith(f"did you mean SCOREGATE_DATABASE_URL? {MISSPELT} is set")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["worker"], "Missing option '--pool'"),
        (["worker", "--pool", "nope"], "unknown pool 'nope'"),
    ],
)
def test_a_worker_refuses_its_command_line_as_one_record(monkeypatch, no_celery, args, says):
    json_mode(monkeypatch)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert says in one_refusal(result.stderr, "scoregate.workers.startup")["message"]


def test_a_worker_without_a_broker_is_one_record(monkeypatch, no_celery):
    json_mode(monkeypatch)
    result = runner.invoke(cli, ["worker", "--pool", "fusion"])
    assert result.exit_code == 2
    message = one_refusal(result.stderr, "scoregate.workers.startup")["message"]
    assert message.startswith("SCOREGATE_BROKER_URL is not set: a worker needs a broker")


def test_text_mode_refusals_all_start_error(monkeypatch, tmp_path, no_celery):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN_YAML)
    monkeypatch.setenv("SCOREGATE_BATCH_SIZE", "abc")
    first = runner.invoke(cli, ["worker", "--pool", "fusion"])
    monkeypatch.delenv("SCOREGATE_BATCH_SIZE")
    get_settings.cache_clear()
    no_broker = runner.invoke(cli, ["worker", "--pool", "fusion"])
    misspelt_database(monkeypatch)
    database = runner.invoke(cli, ["worker", "--pool", "fusion"])
    for result in (first, no_broker, database):
        assert result.exit_code == 2
        assert result.stderr.startswith("error: ") and "scoregate: " not in result.stderr


def test_the_workers_own_start_up_refusals_are_records_too(monkeypatch, capsys):
    """``celery -A scoregate.workers worker`` refuses in Celery's start-up hook."""
    json_mode(monkeypatch)
    misspelt_database(monkeypatch)
    queues = SimpleNamespace(consume_from={"reward": 1})
    instance = SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=queues)))
    with pytest.raises(SystemExit) as info:
        startup._check_database(instance=instance)
    assert info.value.code == startup.EXIT_CONFIG
    message = one_refusal(capsys.readouterr().err, "scoregate.workers.startup")["message"]
    assert message.endswith(f"{MISSPELT} is set") and not message.startswith("scoregate:")


def test_the_hooks_text_refusal_starts_error(monkeypatch, capsys):
    misspelt_database(monkeypatch)
    with pytest.raises(SystemExit) as info:
        startup.refuse(startup.missing_database_line(get_settings()) or "")
    assert info.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: SCOREGATE_DATABASE_URL is not set")
    assert str(info.value).startswith("SCOREGATE_DATABASE_URL is not set")


def test_a_broken_config_met_by_celerys_worker_init_is_one_record_and_exit_2(
    monkeypatch, tmp_path, capsys
):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN_YAML)
    json_mode(monkeypatch)
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", str(bad))
    with pytest.raises(SystemExit, match="invalid configuration: .*is not valid YAML") as info:
        reliability._check_config()
    assert info.value.code == 2  # was 1 (a SystemExit with a message), after a CRITICAL line
    out = capsys.readouterr()
    one_refusal(out.err, "scoregate.workers.startup")


# --- 1. serve's refusals in JSON mode ------------------------------------------------------


def test_serve_refuses_a_scoring_config_as_one_json_record(monkeypatch, tmp_path, logging_restored):
    conflict = tmp_path / "conflict.yaml"
    conflict.write_text("actions:\n  accept: 0.5\n  review: 0.7\n")
    json_mode(monkeypatch)
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", str(conflict))
    monkeypatch.setattr("scoregate.server.serve.run", lambda *a: pytest.fail("it listened"))
    result = runner.invoke(cli, ["serve", "--port", "8391", "--no-load-models"])
    assert result.exit_code == 2
    found = json_records(result.stderr)
    assert all(r["logger"] == "scoregate.server.startup" for r in found), found
    refusal = found[-1]
    assert refusal["level"] == "ERROR"
    assert refusal["message"].startswith(f"scoring config {conflict}: actions:")


def test_serve_refuses_its_command_line_as_one_json_record(monkeypatch, logging_restored):
    json_mode(monkeypatch)
    result = runner.invoke(cli, ["serve", "--port", "0"])
    assert result.exit_code == 2
    message = one_refusal(result.stderr, "scoregate.server.startup")["message"]
    assert "--port" in message


# --- 2. a client with a broker needs the shared database ----------------------------------


def test_serve_with_a_broker_and_a_misspelt_database_url_refuses(
    monkeypatch, _environment, logging_restored
):
    misspelt_database(monkeypatch)
    monkeypatch.setattr(
        "scoregate.server.serve.production_service", lambda: pytest.fail("a service was made")
    )
    result = runner.invoke(cli, ["serve", "--port", "8391", "--no-load-models"])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(
        "error: SCOREGATE_DATABASE_URL is not set, but SCOREGATE_BROKER_URL is: `scoregate"
        " serve` needs the database the workers share"
    )
    assert line.endswith(f"did you mean SCOREGATE_DATABASE_URL? {MISSPELT} is set")
    assert "run `scoregate db upgrade`" not in line
    assert no_database_file(_environment)
    json_mode(monkeypatch)
    again = runner.invoke(cli, ["serve", "--port", "8391", "--no-load-models"])
    assert again.exit_code == 2
    message = one_refusal(again.stderr, "scoregate.server.startup")["message"]
    assert message.endswith(f"{MISSPELT} is set")


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["submit", "-q", "hi", "-c", "hello"], "submit"),
        (["jobs", "list"], "jobs list"),
        (["jobs", "show", "abc"], "jobs show"),
        (["jobs", "cancel", "abc"], "jobs cancel"),
        (["review", "abc", "--approve"], "review"),
        (["sweep"], "sweep"),
        (["report"], "report"),
        (["db", "upgrade"], "db upgrade"),
        (["db", "status"], "db status"),
    ],
)
def test_a_client_command_with_a_broker_needs_the_shared_database(
    monkeypatch, _environment, args, command
):
    misspelt_database(monkeypatch)
    result = runner.invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert f"`scoregate {command}` needs the database the workers share" in result.stderr
    assert result.stderr.rstrip().endswith(f"{MISSPELT} is set")
    assert "run `scoregate db upgrade`" not in result.stderr  # not told to migrate a private file
    assert no_database_file(_environment)  # nothing made under ~/.local/share


def test_the_embedded_default_without_a_broker_and_a_named_database_with_one_still_work(
    monkeypatch, _environment, tmp_path
):
    from scoregate.storage.db import dispose_engines, upgrade

    assert runner.invoke(cli, ["jobs", "list"]).exit_code == 0  # no broker: embedded
    url = f"sqlite:///{tmp_path / 'named.db'}"
    upgrade(url)
    dispose_engines()
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    get_settings.cache_clear()
    result = runner.invoke(cli, ["db", "status"])
    assert result.exit_code == 0, result.output
    dispose_engines()


def test_the_line_names_no_close_variable_when_there_is_none(monkeypatch):
    from scoregate.config.settings import missing_database

    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    line = missing_database(get_settings(), "`scoregate serve`", environ={})
    assert line is not None and "did you mean" not in line and "\n" not in line
    assert json.dumps(line)  # one line, fit for a record


# --- 4. the --debug hint says where the flag goes ------------------------------------------


def test_the_debug_hint_names_the_flag_before_the_command(monkeypatch, tmp_path):
    (tmp_path / "a-directory").mkdir()  # SQLite cannot open a directory as its file
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", f"sqlite:///{tmp_path}/a-directory")
    get_settings.cache_clear()
    out = runner.invoke(cli, ["jobs", "list"])
    assert out.exit_code == 1, out.output
    # was "(--debug shows the traceback)", and `scoregate jobs list --debug` is no option
    assert out.stderr.rstrip().endswith("(`scoregate --debug jobs ...` shows the traceback)")
    assert runner.invoke(cli, ["--debug", "jobs", "list"]).exception is not None


def test_the_debug_hint_of_a_setup_error_names_its_command(monkeypatch):
    monkeypatch.setenv("SCOREGATE_DEVICE", "gpu")
    get_settings.cache_clear()
    out = runner.invoke(cli, ["report"])
    assert out.exit_code == 2, out.output
    assert out.stderr.rstrip().endswith("(`scoregate --debug report ...` shows the traceback)")


# --- 5. a misspelt SCOREGATE_BROKER_URL is named; a client does not go embedded on it ------

TYPO = "SCOREGATE_BROKR_URL"


@pytest.fixture
def misspelt_broker_env(monkeypatch, tmp_path) -> str:
    """The fleet's database named (a migrated SQLite file here), the broker variable
    misspelt, Redis set on purpose (a name close to the broker's that must not count)."""
    from scoregate.storage.db import dispose_engines, upgrade

    url = f"sqlite:///{tmp_path / 'fleet.db'}"
    upgrade(url)
    dispose_engines()
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.setenv("SCOREGATE_REDIS_URL", "redis://127.0.0.1:6399/1")
    monkeypatch.setenv(TYPO, BROKER)
    get_settings.cache_clear()
    return url


def _jobs_in(url: str) -> int:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM jobs")).scalar_one())
    finally:
        engine.dispose()


def test_a_worker_names_a_misspelt_broker_variable(monkeypatch, no_celery, misspelt_broker_env):
    result = runner.invoke(cli, ["worker", "--pool", "fusion"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: SCOREGATE_BROKER_URL is not set: a worker needs")
    assert result.stderr.rstrip().endswith(f"did you mean SCOREGATE_BROKER_URL? {TYPO} is set")
    json_mode(monkeypatch)
    again = runner.invoke(cli, ["worker", "--pool", "fusion"])
    message = one_refusal(again.stderr, "scoregate.workers.startup")["message"]
    assert message.endswith(f"{TYPO} is set")


def test_the_workers_own_no_broker_refusal_names_it_too(monkeypatch, misspelt_broker_env, capsys):
    with pytest.raises(SystemExit) as info:
        startup._refuse_memory_broker(conf=SimpleNamespace(broker_url="memory://"))
    assert info.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(f"{TYPO} is set")


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["submit", "-q", "Name a planet", "-c", "Saturn is a planet."], "submit"),
        (["jobs", "list"], "jobs list"),
        (["sweep"], "sweep"),
    ],
)
def test_a_client_does_not_go_embedded_on_a_misspelt_broker(misspelt_broker_env, args, command):
    result = runner.invoke(cli, args)
    assert result.exit_code == 2, result.output  # submit was exit 4 after scoring in-process
    [line] = result.stderr.splitlines()
    assert line == (
        f"error: SCOREGATE_BROKER_URL is not set, but {TYPO} is: did you mean"
        f" SCOREGATE_BROKER_URL? Without it `scoregate {command}` would score in this process"
        " (the embedded default), not on the workers; rename it to SCOREGATE_BROKER_URL, or"
        " unset it to run embedded"
    )
    assert _jobs_in(misspelt_broker_env) == 0


def test_serve_does_not_serve_embedded_on_a_misspelt_broker(
    monkeypatch, misspelt_broker_env, logging_restored
):
    monkeypatch.setattr(
        "scoregate.server.serve.production_service", lambda: pytest.fail("a service was made")
    )
    result = runner.invoke(cli, ["serve", "--port", "8391", "--no-load-models"])
    assert result.exit_code == 2  # was: "mode: embedded", scoring in the API process
    assert "`scoregate serve` would score in this process" in result.stderr
    json_mode(monkeypatch)
    again = runner.invoke(cli, ["serve", "--port", "8391", "--no-load-models"])
    assert one_refusal(again.stderr, "scoregate.server.startup")["message"].startswith(
        f"SCOREGATE_BROKER_URL is not set, but {TYPO} is"
    )


def test_workers_names_a_misspelt_broker(misspelt_broker_env):
    result = runner.invoke(cli, ["workers"])
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith(f"did you mean SCOREGATE_BROKER_URL? {TYPO} is set")


def test_only_a_typo_counts_not_a_neighbour():
    from scoregate.config.settings import Settings, misspelt_broker, near_variable

    settings = Settings()
    for environ in (
        {"SCOREGATE_REDIS_URL": BROKER},  # a setting of its own, close in name (0.82)
        {"SCOREGATE_TEST_BROKER_URL": BROKER},  # a test harness's (0.89)
        {"CELERY_BROKER_URL": BROKER},
        {},
    ):
        assert misspelt_broker(settings, "`scoregate submit`", environ) is None, environ
    for typo in ("SCOREGATE_BROKR_URL", "SCOREGATE_BORKER_URL", "scoregate_broker_uri"):
        assert misspelt_broker(settings, "x", {typo: BROKER}) is not None, typo
    assert near_variable("SCOREGATE_DATABASE_URL", {"SCOREGATE_REDIS_URL": "r"}) is None


# --- 6. a shutdown line that cannot be written never cancels the shutdown -----------------


@pytest.fixture
def closed_pipe() -> Iterator[Any]:
    """A stream whose reader went away: every write fails with EPIPE (SIGPIPE is ignored
    in Python)."""
    import os

    read, write = os.pipe()
    os.close(read)
    stream = os.fdopen(write, "w")
    yield stream
    try:
        stream.close()
    except OSError:
        pass


@pytest.fixture
def celery_say_restored() -> Iterator[None]:
    from celery.apps import worker

    saved = worker.safe_say
    yield
    worker.safe_say = saved


def test_say_json_to_a_closed_pipe_loses_the_line_and_does_not_raise(closed_pipe):
    from scoregate.logs import say_json

    say_json("worker: Warm shutdown (MainProcess)", closed_pipe)  # raised BrokenPipeError


def test_text_mode_celery_say_to_a_closed_pipe_does_not_raise(
    monkeypatch, closed_pipe, celery_say_restored
):
    from celery.apps import worker

    from scoregate.logs import json_before_worker_logging

    original = getattr(worker, "_scoregate_safe_say", None) or worker.safe_say  # Celery's own
    with pytest.raises(BrokenPipeError):  # as it was
        original("worker: Warm shutdown (MainProcess)", closed_pipe)
    json_before_worker_logging()  # text mode: the celeryd_init receiver guards it
    worker.safe_say("worker: Warm shutdown (MainProcess)", closed_pipe)
    json_before_worker_logging()  # twice: still one guard around Celery's own
    assert worker._scoregate_safe_say is original


def test_the_sigterm_handler_still_asks_the_worker_to_stop(
    monkeypatch, closed_pipe, celery_say_restored
):
    """Celery's own warm shutdown handler, with stdout a closed pipe: the stop flag is set."""
    from celery.apps import worker as celery_worker
    from celery.worker import state

    from scoregate.logs import json_before_worker_logging

    json_before_worker_logging()
    monkeypatch.setattr(sys, "__stdout__", closed_pipe)
    monkeypatch.setattr(state, "should_stop", None)
    fake = SimpleNamespace(hostname="w@h")
    handler: dict[str, Any] = {}
    signals_type = type(celery_worker.platforms.signals)  # `signals[SIG] = handler`
    monkeypatch.setattr(signals_type, "__setitem__", lambda _, sig, fn: handler.update(fn=fn))
    celery_worker._shutdown_handler(fake, sig="SIGTERM", how="Warm", exitcode=0)
    handler["fn"]()
    assert state.should_stop == 0  # was never set: the raise left the worker running
