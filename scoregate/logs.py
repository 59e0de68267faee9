"""Log records for production: ``SCOREGATE_LOG_FORMAT`` is ``text`` (the default) or ``json``.

In ``json`` every record is one JSON object on one line, with ``ts`` (RFC 3339, UTC, ``Z``),
``level``, ``logger``, ``message``, for an exception ``exc_type`` and ``exc`` (the traceback,
as one string), and the fields the caller passed with ``extra=``. ``scoregate serve`` gets
its uvicorn ``log_config`` from :func:`uvicorn_log_config`; a worker's Celery loggers get
the formatter through :func:`install_celery_logging`. In ``text`` records keep Celery's and
uvicorn's look (uvicorn's with a timestamp), and :func:`one_line` keeps a database error's
message on the line that logs it.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any

from scoregate.config.settings import get_settings

#: The attributes every ``LogRecord`` has; any other attribute came from ``extra=``.
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",  # uvicorn's copy of the message with terminal colours
}

#: SQLAlchemy's pointer to its error pages, appended to each of its errors.
_BACKGROUND = re.compile(r"\s*\(Background on this error at: [^)]*\)")
#: Postgres marks the error's position with a line holding only ``^``.
_CARET = re.compile(r"^\s*\^\s*$")

#: uvicorn's access record's arguments, in order, under the names a JSON line gives them.
_ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")

#: Text mode: uvicorn's formats, each after a timestamp.
_TEXT_DEFAULT = "%(asctime)s %(levelprefix)s %(message)s"
_TEXT_ACCESS = '%(asctime)s %(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'


def one_line(exc: BaseException, limit: int = 1000) -> str:
    """``exc``'s message on one line, at most ``limit`` characters, for a log line.

    SQLAlchemy's message spans lines (the driver's words, ``[SQL: ...]``, ``[parameters:
    ...]``, ``(Background on this error at: ...)``): the lines are joined with ``"; "``,
    a bracketed part's own lines with a space, and the link and Postgres's ``^`` marker
    dropped. An empty message gives the exception's type name.
    """
    parts: list[str] = []
    for raw in _BACKGROUND.sub("", str(exc)).splitlines():
        line = raw.strip()
        if not line or _CARET.match(line):
            continue
        if parts and parts[-1].startswith("[") and not parts[-1].endswith("]"):
            parts[-1] += " " + line
        else:
            parts.append(line)
    text = "; ".join(parts) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: A driver's words for a database host that does not resolve.
HOST_FAULTS = (
    "could not translate host name",
    "failed to resolve host",
    "name or service not known",
    "nodename nor servname",
)
#: A driver's words that say the database URL itself is wrong (its host, a login or a
#: database the server does not know), not a database restarting.
URL_FAULTS = (
    "authentication failed",
    "access denied",
    "does not exist",
    "unknown database",
    *HOST_FAULTS,
    "invalid dsn",
    "invalid connection option",
)
#: The fix of a database that refused or timed out a connection: most often a restart, so
#: the URL is named only where :data:`URL_FAULTS` say it looks wrong itself. The CLI's and
#: the workers' lines both say it.
OUTAGE_HINT = "wait if it is restarting, or check that the database server is up"


def _exc_type(exc_type: type[BaseException]) -> str:
    """The name a traceback's last line gives: qualified, but bare for a builtin."""
    module = exc_type.__module__
    if module in ("builtins", "__main__"):
        return exc_type.__qualname__
    return f"{module}.{exc_type.__qualname__}"


def log_time(created: float) -> str:
    """``created`` (seconds since the epoch) as RFC 3339 in UTC: ``2026-12-01T09:30:05.123Z``."""
    moment = datetime.fromtimestamp(created, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _safe(value: Any) -> str:
    """``str(value)``, or what can be said of a value whose ``__str__`` raises."""
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__} that cannot be shown>"


def _finite(value: Any) -> Any:
    """NaN and infinities as strings: strict JSON parsers refuse the bare words."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _dumps(doc: dict[str, Any]) -> str:
    return json.dumps(_finite(doc), default=_safe, allow_nan=False)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines inside are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        """Never raises: a record whose message or fields cannot be written still gives
        one JSON line (a raise would make logging print a multi-line traceback)."""
        try:
            message = record.getMessage()
        except Exception:  # "bad %s %s" % (1,): the template and its arguments as given
            message = f"{_safe(record.msg)} % {_safe(record.args)}"
        doc: dict[str, Any] = {
            "ts": log_time(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        try:
            doc.update(self.fields(record))
        except Exception as exc:
            doc["log_error"] = f"fields: {_safe(exc)}"
        if record.exc_info and record.exc_info[0] is not None:
            doc["exc_type"] = _exc_type(record.exc_info[0])
            if not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            doc["exc"] = record.exc_text
        if record.stack_info:
            doc["stack"] = self.formatStack(record.stack_info)
        extra = {k: v for k, v in vars(record).items() if k not in _RECORD_FIELDS and k not in doc}
        try:
            return _dumps({**doc, **extra})
        except Exception as exc:  # a field that refers to itself, keys not strings, ...
            doc["log_error"] = f"extra fields left out: {_safe(exc)}"
            return _dumps(doc)

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        """Fields a subclass adds from the record (none here)."""
        return {}


class JsonAccessFormatter(JsonFormatter):
    """uvicorn's access log: the request's parts as fields too (``client``, ``method``,
    ``path``, ``http_version``, ``status``)."""

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        args = record.args
        if isinstance(args, tuple) and len(args) == len(_ACCESS_FIELDS):
            return dict(zip(_ACCESS_FIELDS, args, strict=True))
        return {}


class JsonTaskFormatter(JsonFormatter):
    """Celery's task logger: the running task's ``task_id`` and ``task_name`` too."""

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        from celery._state import get_current_task

        task = get_current_task()
        if task is None or not task.request:
            return {}
        return {"task_id": task.request.id, "task_name": task.name}


def json_logs() -> bool:
    """Whether ``SCOREGATE_LOG_FORMAT`` asks for JSON lines."""
    return get_settings().log_format == "json"


def uvicorn_log_config(log_format: str) -> dict[str, Any]:
    """The ``log_config`` ``scoregate serve`` gives uvicorn: its error and access logs with
    timestamps (``text``) or as JSON lines (``json``), and a handler on the root logger in
    the same format, so scoregate's, SQLAlchemy's and alembic's records look alike."""
    if log_format == "json":
        formatters: dict[str, Any] = {
            "default": {"()": "scoregate.logs.JsonFormatter"},
            "access": {"()": "scoregate.logs.JsonAccessFormatter"},
        }
    else:
        formatters = {
            "default": {"()": "uvicorn.logging.DefaultFormatter", "fmt": _TEXT_DEFAULT},
            "access": {"()": "uvicorn.logging.AccessFormatter", "fmt": _TEXT_ACCESS},
        }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters,
        "handlers": {
            "default": {
                "formatter": "default",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
            },
            "access": {
                "formatter": "access",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
            },
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            "scoregate.server": {"level": "INFO"},  # e.g. an abandoned /v1/score call
        },
        "root": {"handlers": ["default"]},
    }


def start_json_logging() -> None:
    """JSON lines from a process's first record: :func:`uvicorn_log_config`'s handlers on
    the root and uvicorn's loggers now, and Python's warnings as records (``py.warnings``).

    ``scoregate serve`` calls it before its start-up lines and the models' loading, which
    come before uvicorn applies the same config: those are JSON lines on stderr too.
    """
    import logging.config

    logging.config.dictConfig(uvicorn_log_config("json"))
    logging.captureWarnings(True)


def json_on_celery_logger(logger: logging.Logger | None = None, **_: Any) -> None:
    """Celery's ``after_setup_logger`` receiver: with ``SCOREGATE_LOG_FORMAT=json`` the
    root logger's handlers (and the multiprocessing logger's) write JSON lines."""
    if logger is None or not json_logs():
        return
    from celery.utils.log import get_multiprocessing_logger

    _format_handlers(logger, JsonFormatter())
    mp_logger = get_multiprocessing_logger()
    if mp_logger is not None:
        _format_handlers(mp_logger, JsonFormatter())


def json_on_celery_task_logger(logger: logging.Logger | None = None, **_: Any) -> None:
    """Celery's ``after_setup_task_logger`` receiver: the task logger (which does not
    propagate) writes JSON lines with the task's id and name."""
    if logger is not None and json_logs():
        _format_handlers(logger, JsonTaskFormatter())


def json_before_worker_logging(**_: Any) -> None:
    """Celery's ``celeryd_init`` receiver (sent before the worker checks its privileges and
    sets up logging): with JSON logs, Python's warnings become log records (logger
    ``py.warnings``), and until Celery installs its handlers the root logger writes JSON
    lines to stderr, so the root-user warning a container prints is one JSON line too. In
    either format a shutdown line that cannot be written (stdout a closed pipe) never
    cancels the shutdown (:func:`say_json`, :func:`_celery_say_that_never_raises`)."""
    if not json_logs():
        _celery_say_that_never_raises()
        return
    logging.captureWarnings(True)
    _json_celery_say()
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()  # stderr; Celery replaces it at its log set-up
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)


def json_asked() -> bool:
    """Whether ``SCOREGATE_LOG_FORMAT`` says ``json``: from the settings, or, when they
    cannot be read (the refusal to write is then of them), from the environment alone."""
    try:
        return get_settings().log_format == "json"
    except ValueError:
        for name, value in os.environ.items():
            if name.upper() == "SCOREGATE_LOG_FORMAT":
                return value.strip().lower() == "json"
        return False


#: The prefixes a start-up refusal's message may carry: a text line gets ``error:`` only.
_REFUSAL_PREFIXES = ("scoregate: ", "error: ")
#: The logger of a worker's start-up refusals, and of ``scoregate serve``'s.
WORKER_START_LOGGER = "scoregate.workers.startup"
SERVE_START_LOGGER = "scoregate.server.startup"


def refusal_line(message: str, logger: str, *, json_mode: bool | None = None) -> str:
    """A start-up refusal as written: one JSON record (level ``ERROR``, the message whole,
    its newlines escaped) with ``SCOREGATE_LOG_FORMAT=json``, else ``error: MESSAGE``.

    A worker or ``serve`` that will not start says why in the one line a log shipper
    most needs (a crash-looping container): a multi-line message (a YAML error's context)
    is still one record."""
    for prefix in _REFUSAL_PREFIXES:
        message = message.removeprefix(prefix)
    if json_asked() if json_mode is None else json_mode:
        doc = {"ts": log_time(time.time()), "level": "ERROR", "logger": logger}
        return _dumps({**doc, "message": message})
    return f"error: {message}"


def refuse_start(message: str, logger: str = WORKER_START_LOGGER, stream: Any = None) -> None:
    """Write :func:`refusal_line` on ``stream`` (stderr) at once, before the exit."""
    out = stream if stream is not None else sys.stderr
    print(refusal_line(message, logger), file=out, flush=True)


def say_json(message: str, stream: Any = None) -> None:
    """What Celery prints rather than logs ("worker: Warm shutdown (MainProcess)", the
    second Ctrl+C's warning), as one JSON record on the stream it chose. Celery calls it
    from a signal handler: no logging lock is taken, the line goes out in one ``write``."""
    text = str(message).strip()
    if not text:
        return
    doc = {
        "ts": log_time(time.time()),
        "level": "WARNING" if "terminat" in text else "INFO",
        "logger": "celery.apps.worker",
        "message": text,
    }
    out = stream if stream is not None else sys.__stderr__
    try:
        fileno = out.fileno() if out is not None else None
    except (AttributeError, OSError, ValueError):  # closed, or not a real file
        return
    if fileno is None:
        return
    try:
        os.write(fileno, (_dumps(doc) + "\n").encode())
    except OSError:  # a pipe whose reader went away (EPIPE): the line is lost, not the stop
        return


def _json_celery_say() -> None:
    """Celery's worker module prints its shutdown lines with ``safe_say``, looked up when a
    signal comes: in JSON mode that name now writes :func:`say_json`'s records."""
    from celery.apps import worker

    worker.safe_say = say_json


def _celery_say_that_never_raises() -> None:
    """Text mode: Celery's own ``safe_say``, but a write that fails (stdout a pipe whose
    reader went away: EPIPE) loses the line instead of raising. Celery writes the
    "Warm shutdown" line from the SIGTERM handler before it sets the flag that stops the
    worker: a raise there cancelled the shutdown, and the worker took messages on."""
    from celery.apps import worker

    original = getattr(worker, "_scoregate_safe_say", None) or worker.safe_say
    worker._scoregate_safe_say = original

    def safe_say(msg: str, f: Any = sys.__stderr__) -> None:
        try:
            original(msg, f)
        except OSError:
            return

    worker.safe_say = safe_say


def _format_handlers(logger: logging.Logger, formatter: logging.Formatter) -> None:
    for handler in logger.handlers:
        if not isinstance(handler, logging.NullHandler):
            handler.setFormatter(formatter)


def install_celery_logging() -> None:
    """Connect the JSON formatter to Celery's logging signals (once, however often called).

    Celery sends them after it set up its handlers, in a worker and in beat; with
    ``SCOREGATE_LOG_FORMAT=text`` the receivers leave Celery's format as it is."""
    from celery import signals

    signals.celeryd_init.connect(
        json_before_worker_logging, weak=False, dispatch_uid="scoregate.logs.early"
    )
    signals.after_setup_logger.connect(
        json_on_celery_logger, weak=False, dispatch_uid="scoregate.logs.root"
    )
    signals.after_setup_task_logger.connect(
        json_on_celery_task_logger, weak=False, dispatch_uid="scoregate.logs.task"
    )
