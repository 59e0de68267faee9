"""``SCOREGATE_LOG_FORMAT`` and ``scoregate.logs``: JSON lines, one-line database errors,
``serve``'s uvicorn log config and the Celery logging signals."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import exc as sa_exc

from scoregate.config.settings import Settings, SettingsError, get_settings
from scoregate.logs import (
    JsonAccessFormatter,
    JsonFormatter,
    JsonTaskFormatter,
    install_celery_logging,
    log_time,
    one_line,
    say_json,
    uvicorn_log_config,
)

RFC3339_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@pytest.fixture
def log_format(monkeypatch: pytest.MonkeyPatch, fresh_settings: None) -> Iterator[Any]:
    """Set ``SCOREGATE_LOG_FORMAT`` (or unset it with ``None``) for this test."""

    def set_format(value: str | None) -> None:
        if value is None:
            monkeypatch.delenv("SCOREGATE_LOG_FORMAT", raising=False)
        else:
            monkeypatch.setenv("SCOREGATE_LOG_FORMAT", value)
        get_settings.cache_clear()

    set_format(None)
    yield set_format


def _record(
    msg: str = "hello %s", *args: Any, exc_info: Any = None, extra: Any = None
) -> logging.LogRecord:
    return logging.getLogger("scoregate.test").makeRecord(
        "scoregate.test",
        logging.WARNING,
        __file__,
        1,
        msg,
        args or ("world",),
        exc_info,
        extra=extra,
    )


def _logged(formatter: logging.Formatter, emit: Any) -> list[str]:
    """The lines a logger of its own writes with ``formatter`` while ``emit(logger)`` runs."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.Logger("scoregate.test.capture", logging.DEBUG)
    logger.addHandler(handler)
    emit(logger)
    return stream.getvalue().splitlines()


# --- the JSON formatter ---------------------------------------------------------------------


def test_a_json_record_has_the_documented_fields():
    line = JsonFormatter().format(_record())
    doc = json.loads(line)
    assert doc["level"] == "WARNING"
    assert doc["logger"] == "scoregate.test"
    assert doc["message"] == "hello world"
    assert RFC3339_Z.match(doc["ts"]), doc["ts"]
    assert "exc" not in doc and "exc_type" not in doc


def test_the_timestamp_is_rfc3339_in_utc_with_z():
    assert log_time(0.0) == "1970-01-01T00:00:00.000Z"
    assert log_time(1_796_117_405.1234) == "2026-12-01T09:30:05.123Z"


def test_every_record_is_one_line_exceptions_and_multiline_messages_included():
    def emit(logger: logging.Logger) -> None:
        logger.info("first\nsecond\nthird")
        try:
            raise ValueError("bad value\non two lines")
        except ValueError:
            logger.exception("failed: %s", "step")
        logger.error("with a stack", stack_info=True)

    lines = _logged(JsonFormatter(), emit)
    assert len(lines) == 3, lines
    docs = [json.loads(line) for line in lines]
    assert docs[0]["message"] == "first\nsecond\nthird"
    assert docs[1]["exc_type"] == "ValueError"
    assert docs[1]["exc"].startswith("Traceback (most recent call last):")
    assert docs[1]["exc"].endswith("ValueError: bad value\non two lines")
    assert docs[1]["message"] == "failed: step"
    assert "test_every_record_is_one_line" in docs[2]["stack"]


def test_a_library_exception_type_is_qualified():
    error = sa_exc.OperationalError("SELECT 1", {}, Exception("gone"))
    record = _record(exc_info=(type(error), error, None))
    assert json.loads(JsonFormatter().format(record))["exc_type"] == (
        "sqlalchemy.exc.OperationalError"
    )


def test_extra_fields_are_kept_and_cannot_replace_the_standard_ones():
    record = _record(extra={"job_id": "j-1", "n": 2, "when": object(), "ts": "forged"})
    doc = json.loads(JsonFormatter().format(record))
    assert doc["job_id"] == "j-1" and doc["n"] == 2
    assert doc["when"].startswith("<object object")  # not JSON: its str()
    assert RFC3339_Z.match(doc["ts"])
    assert list(doc)[:4] == ["ts", "level", "logger", "message"]


def test_an_extra_field_that_cannot_be_written_leaves_the_line_without_extras():
    loop: dict[str, Any] = {}
    loop["self"] = loop
    doc = json.loads(JsonFormatter().format(_record(extra={"loop": loop})))
    assert doc["message"] == "hello world" and "loop" not in doc


def test_uvicorns_colour_copy_of_the_message_is_left_out():
    record = _record(extra={"color_message": "\x1b[1mhello\x1b[0m %s"})
    assert "color_message" not in json.loads(JsonFormatter().format(record))


def test_an_access_record_gives_the_request_as_fields():
    doc = json.loads(JsonAccessFormatter().format(_access_record()))
    assert doc["message"] == '127.0.0.1:54302 - "POST /v1/jobs HTTP/1.1" 202'
    assert (doc["client"], doc["method"], doc["path"], doc["status"]) == (
        "127.0.0.1:54302",
        "POST",
        "/v1/jobs",
        202,
    )


def test_a_task_record_names_its_task():
    from celery import Celery

    app = Celery("logs-test", set_as_current=False)

    @app.task(name="logs_test.work")
    def work() -> list[str]:
        return _logged(JsonTaskFormatter(), lambda logger: logger.warning("inside"))

    result = work.apply(task_id="t-42")
    doc = json.loads(result.get()[0])
    assert (doc["task_id"], doc["task_name"]) == ("t-42", "logs_test.work")
    outside = json.loads(_logged(JsonTaskFormatter(), lambda logger: logger.warning("out"))[0])
    assert "task_id" not in outside


# --- one_line -------------------------------------------------------------------------------


def _db_error() -> sa_exc.OperationalError:
    driver = Exception(
        'connection failed: connection to server at "10.0.0.5", port 5432 failed:'
        " Connection refused\n\tIs the server running on that host and accepting TCP/IP"
        " connections?"
    )
    return sa_exc.OperationalError("SELECT jobs.id\nFROM jobs\nWHERE jobs.id = %(id)s", {}, driver)


def test_a_database_error_is_one_line_without_the_background_link():
    exc = _db_error()
    assert "\n" in str(exc) and "Background on this error" in str(exc)  # the finding
    line = one_line(exc)
    assert "\n" not in line and "Background" not in line
    assert line == (
        '(builtins.Exception) connection failed: connection to server at "10.0.0.5", port'
        " 5432 failed: Connection refused; Is the server running on that host and accepting"
        " TCP/IP connections?; [SQL: SELECT jobs.id FROM jobs WHERE jobs.id = %(id)s]"
    )


def test_postgres_position_marker_is_dropped():
    driver = Exception('syntax error at or near "%"\nLINE 2: from t where a = %(x)s\n      ^')
    line = one_line(sa_exc.ProgrammingError("select *\nfrom t", {}, driver))
    assert line == (
        '(builtins.Exception) syntax error at or near "%"; LINE 2: from t where a = %(x)s;'
        " [SQL: select * from t]"
    )


def test_one_line_of_a_plain_or_empty_message():
    assert one_line(ValueError("plain")) == "plain"
    assert one_line(TimeoutError()) == "TimeoutError"
    long = one_line(ValueError("x" * 5000), limit=100)
    assert len(long) == 100 and long.endswith("...")


# --- the setting ----------------------------------------------------------------------------


def test_the_log_format_is_text_unless_set(log_format: Any):
    assert Settings().log_format == "text"
    log_format(" JSON ")
    assert get_settings().log_format == "json"


def test_an_unknown_log_format_is_one_line_naming_the_choices(log_format: Any):
    log_format("xml")
    with pytest.raises(SettingsError) as caught:
        get_settings()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("SCOREGATE_LOG_FORMAT='xml' is not a log format")
    assert "text" in message and "json" in message


# --- serve's uvicorn log config -------------------------------------------------------------


def _configured(log_format: str) -> dict[str, logging.Formatter]:
    """Apply ``serve``'s log config; the formatter of each of its handlers, by logger."""
    logging.config.dictConfig(uvicorn_log_config(log_format))

    def formatter(name: str) -> logging.Formatter:
        handler = logging.getLogger(name).handlers[0]
        assert handler.formatter is not None
        return handler.formatter

    return {n: formatter(n) for n in ("root", "uvicorn", "uvicorn.access")}


def _access_record() -> logging.LogRecord:
    return logging.getLogger("uvicorn.access").makeRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:54302", "POST", "/v1/jobs", "1.1", 202),
        None,
    )


def test_serve_text_access_log_has_a_timestamp(logging_restored: None):
    formatters = _configured("text")
    line = formatters["uvicorn.access"].format(_access_record())
    assert re.match(
        r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO: +127\.0\.0\.1:54302 - "POST /v1/jobs'
        r' HTTP/1\.1" 202',
        line,
    ), line
    started = formatters["uvicorn"].format(_record("Started server process [%d]", 42))
    assert re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING: +Started", started)


def test_serve_json_logs_every_logger_as_json(logging_restored: None):
    formatters = _configured("json")
    assert isinstance(formatters["uvicorn.access"], JsonAccessFormatter)
    assert json.loads(formatters["uvicorn.access"].format(_access_record()))["status"] == 202
    for name in ("root", "uvicorn"):  # scoregate's, SQLAlchemy's and alembic's propagate
        assert type(formatters[name]) is JsonFormatter
    assert logging.getLogger("uvicorn.access").propagate is False  # not twice


def test_serve_gives_uvicorn_the_configured_log_config(
    log_format: Any, monkeypatch: pytest.MonkeyPatch
):
    import uvicorn

    from scoregate.server import serve

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    log_format("json")
    serve.run(object(), "127.0.0.1", 8000)
    formatters = calls[0]["log_config"]["formatters"]
    assert formatters["access"]["()"] == "scoregate.logs.JsonAccessFormatter"
    log_format(None)
    serve.run(object(), "127.0.0.1", 8000)
    assert "%(asctime)s" in calls[1]["log_config"]["formatters"]["access"]["fmt"]


# --- Celery's logging signals ---------------------------------------------------------------


@pytest.fixture
def celery_signals() -> Iterator[Any]:
    from celery import signals

    install_celery_logging()
    install_celery_logging()  # once, however often called
    yield signals
    signals.after_setup_logger.disconnect(dispatch_uid="scoregate.logs.root")
    signals.after_setup_task_logger.disconnect(dispatch_uid="scoregate.logs.task")


def _celery_logger(name: str) -> logging.Logger:
    from celery.app.log import TaskFormatter

    logger = logging.Logger(name)
    handler = logging.StreamHandler(io.StringIO())
    handler.setFormatter(TaskFormatter("[%(asctime)s: %(levelname)s] %(message)s"))
    logger.addHandler(handler)
    logger.addHandler(logging.NullHandler())
    return logger


def test_json_reaches_celerys_loggers_through_its_signals(celery_signals: Any, log_format: Any):
    log_format("json")
    root, task = _celery_logger("root-like"), _celery_logger("celery.task")
    receivers = celery_signals.after_setup_logger.send(sender=None, logger=root, loglevel=20)
    assert len(receivers) == 1
    celery_signals.after_setup_task_logger.send(sender=None, logger=task, loglevel=20)
    assert type(root.handlers[0].formatter) is JsonFormatter
    assert type(task.handlers[0].formatter) is JsonTaskFormatter
    stream = root.handlers[0].stream  # type: ignore[attr-defined]
    root.warning("sweeper: %d stuck", 3, extra={"job_id": "j-9"})
    doc = json.loads(stream.getvalue())
    assert (doc["message"], doc["job_id"]) == ("sweeper: 3 stuck", "j-9")


def test_text_leaves_celerys_format_alone(celery_signals: Any, log_format: Any):
    from celery.app.log import TaskFormatter

    root = _celery_logger("root-like")
    celery_signals.after_setup_logger.send(sender=None, logger=root, loglevel=20)
    assert type(root.handlers[0].formatter) is TaskFormatter


def test_a_step_line_carries_its_fields_as_json(caplog: pytest.LogCaptureFixture):
    from scoregate.pipelines.steplog import step

    with caplog.at_level(logging.INFO, logger="scoregate.steps"):
        step("job-1", 2, "fusion", 0.7734, 3.4, "band AMBER")
    (record,) = caplog.records
    doc = json.loads(JsonFormatter().format(record))
    assert doc["message"] == "job job-1 iteration 2: fusion score 0.773 band AMBER (3 ms)"
    assert (doc["job_id"], doc["iteration"], doc["step"], doc["score"], doc["ms"]) == (
        "job-1",
        2,
        "fusion",
        0.7734,
        3,
    )


class _Unshowable:
    def __str__(self) -> str:
        raise RuntimeError("no")

    __repr__ = __str__


@pytest.mark.parametrize(
    ("msg", "args", "extra", "where"),
    [
        ("x", (), {"d": {(1, 2): 3}}, "log_error"),  # keys that are not strings
        ("bad %s %s", (1,), None, "message"),  # a template with too few arguments
        ("x", (), {"obj": _Unshowable()}, "obj"),  # an object whose str() raises
        ("%s", (_Unshowable(),), None, "message"),
    ],
)
def test_a_record_that_cannot_be_written_as_is_is_still_one_json_line(msg, args, extra, where):
    record = logging.getLogger("scoregate.test").makeRecord(
        "scoregate.test", logging.INFO, __file__, 1, msg, args, None, extra=extra
    )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    doc = json.loads(line)
    assert doc["level"] == "INFO" and where in doc, doc


def test_non_finite_numbers_are_written_as_strings_strict_parsers_read():
    record = _record(extra={"score": float("nan"), "deep": {"top": [float("inf")]}})
    line = JsonFormatter().format(record)
    assert "NaN" not in line.replace('"nan"', "") and "Infinity" not in line
    doc = json.loads(line, parse_constant=lambda c: pytest.fail(f"bare {c}"))
    assert doc["score"] == "nan" and doc["deep"] == {"top": ["inf"]}


def test_a_workers_early_warnings_are_json_lines(log_format: Any, capsys: Any):
    """Celery warns of a root user before it sets up logging: in JSON mode that warning is
    a JSON line too (celeryd_init comes first)."""
    import warnings

    from celery import signals
    from celery.apps import worker

    log_format("json")
    install_celery_logging()
    root = logging.getLogger()
    saved, said = list(root.handlers), worker.safe_say
    root.handlers.clear()
    logging.captureWarnings(False)  # from a clean state: another test may have left it on
    try:
        signals.celeryd_init.send(sender="w@h", instance=None, conf=None, options={})
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.warn("running as root", RuntimeWarning, stacklevel=1)
        lines = capsys.readouterr().err.splitlines()
        says_json = worker.safe_say is say_json
    finally:
        logging.captureWarnings(False)
        root.handlers[:] = saved
        worker.safe_say = said
    docs = [json.loads(line) for line in lines]
    assert docs and docs[-1]["logger"] == "py.warnings" and "running as root" in docs[-1]["message"]
    assert says_json  # and Celery's printed shutdown lines become records


@pytest.mark.parametrize(
    ("said", "level"),
    [
        ("worker: Warm shutdown (MainProcess)", "INFO"),
        ("worker: Hitting Ctrl+C again will terminate all running tasks!", "WARNING"),
        ("worker: Hitting Ctrl+C again will initiate cold shutdown, terminating all", "WARNING"),
        ("line one\nline two", "INFO"),
    ],
)
def test_what_celery_prints_is_one_json_record_on_its_stream(said: str, level: str, tmp_path):
    """Celery's ``safe_say`` writes "\\nmessage\\n" to the file it is given; the JSON
    replacement writes one record on that same file, newlines escaped."""
    path = tmp_path / "out"
    with path.open("w") as stream:
        say_json(said, stream)
    lines = path.read_text().splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    assert doc["message"] == said.strip() and doc["level"] == level
    assert doc["logger"] == "celery.apps.worker" and doc["ts"].endswith("Z")


def test_a_stream_that_cannot_be_written_loses_the_line_quietly():
    """A signal handler must not raise: a closed stream or one with no file is skipped."""
    say_json("worker: Warm shutdown (MainProcess)", io.StringIO())  # no fileno
    closed = open(os.devnull, "w")
    closed.close()
    say_json("worker: Warm shutdown (MainProcess)", closed)


def test_in_text_mode_early_warnings_are_left_alone(log_format: Any):
    from celery import signals

    log_format("text")
    install_celery_logging()
    import warnings

    root = logging.getLogger()
    before, shown_by = list(root.handlers), warnings.showwarning
    signals.celeryd_init.send(sender="w@h", instance=None, conf=None, options={})
    assert root.handlers == before
    assert warnings.showwarning is shown_by  # warnings not routed into logging
    from celery.apps import worker

    assert worker.safe_say is not say_json  # Celery's printed lines as they were
