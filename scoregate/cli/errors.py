"""Database errors in the CLI: one line that says what failed and how to fix it.

Every ``scoregate`` command runs inside :class:`ScoregateGroup`; a database error
(anything SQLAlchemy raises, connection errors included) prints one line naming the
database URL without its password and exits 1. ``scoregate --debug COMMAND ...`` (the
group's option, before the command) re-raises it instead, with the full traceback.
"""

from __future__ import annotations

import sys
from typing import Any, cast

import typer
from rich.console import Console
from typer.core import TyperGroup

from scoregate.extras import MissingExtraError
from scoregate.logs import (
    HOST_FAULTS,
    OUTAGE_HINT,
    SERVE_START_LOGGER,
    WORKER_START_LOGGER,
    json_asked,
    refuse_start,
)
from scoregate.reports.terminal import make_console, safe

#: Exit status of a command that failed on the database.
DB_ERROR_EXIT = 1

#: A SQLite file's fault that names no cause we know ("database is locked", "attempt to
#: write a readonly database", "disk I/O error"): there is no server to wait for.
_SQLITE_HINT = (
    "check the file SCOREGATE_DATABASE_URL names: that it can be written, that its disk is"
    " not full, and that no other process holds it locked"
)
_URL_HINT = "check SCOREGATE_DATABASE_URL"
#: (text in the driver's message, what failed, how to fix it), first match wins.
_CAUSES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("authentication failed", "access denied", 'role "'),  # 'role "x" does not exist'
        "the database refused the login",
        "check the user and password in SCOREGATE_DATABASE_URL",
    ),
    (
        ("does not exist", "unknown database"),
        "the database does not exist",
        "create it (e.g. `createdb NAME`) and run `scoregate db upgrade`, or " + _URL_HINT,
    ),
    (
        HOST_FAULTS,
        "cannot reach the database",
        "no such host: check the host in SCOREGATE_DATABASE_URL",
    ),
    (
        ("unable to open",),  # SQLite: no such directory, or not a file
        "cannot reach the database",
        "check the file's path in SCOREGATE_DATABASE_URL",
    ),
    (
        (
            "connection refused",
            "could not connect",
            "connection failed",
            "timeout expired",
            "timed out",
            "server closed the connection",
            "terminating connection",
            "the database system is",  # starting up, shutting down, in recovery mode
            "not currently accepting connections",
            "too many clients",
            "remaining connection slots",
            "connection reset",
        ),
        "cannot reach the database",
        OUTAGE_HINT,
    ),
)
#: SQLAlchemy's classes of an error of the connection, not of the statement.
_CONNECTION_ERRORS = frozenset({"OperationalError", "InterfaceError", "DisconnectionError"})
#: A schema that is missing or older than the code (SQLite's words, psycopg's error types).
MISSING_SCHEMA = ("no such table", "no such column", "undefinedtable", "undefinedcolumn")


def is_database_error(exc: BaseException) -> bool:
    """True for an exception raised by SQLAlchemy (or a driver it wraps), or a database
    whose schema is missing or older than the code."""
    sa_exc = sys.modules.get("sqlalchemy.exc")
    return (sa_exc is not None and isinstance(exc, sa_exc.SQLAlchemyError)) or _not_current(exc)


def _not_current(exc: BaseException) -> bool:
    db = sys.modules.get("scoregate.storage.db")
    return db is not None and isinstance(exc, db.SchemaNotCurrent)


def database_url() -> str:
    """The configured database URL with its password masked, or a note why there is none."""
    try:
        from scoregate.storage.db import redact_url, resolve_url

        return redact_url(resolve_url())
    except Exception:  # the message must not fail on a second, unrelated error
        return "<no usable SCOREGATE_DATABASE_URL>"


def describe(exc: BaseException, url: str) -> str:
    """One line: what failed on the database at ``url``, the driver's reason, the fix."""
    if _not_current(exc):
        return str(exc)  # names the URL (password hidden) and the fix already
    reason = _reason(exc)
    low = f"{type(getattr(exc, 'orig', None)).__name__} {reason}".lower()
    if any(m in low for m in MISSING_SCHEMA):
        return (
            f"the database at {url} has no scoregate tables or an old schema ({reason});"
            " run `scoregate db upgrade`"
        )
    for markers, what, fix in _CAUSES:
        if any(m in low for m in markers):
            return f"{what} at {url} ({reason}); {fix}"
    # a connection that failed another way is a database away more often than a wrong URL;
    # a SQLite file has no server to wait for: locked, read-only or unwritable
    if url.startswith("sqlite"):
        fix = _SQLITE_HINT if type(exc).__name__ in _CONNECTION_ERRORS else _URL_HINT
    else:
        fix = OUTAGE_HINT if type(exc).__name__ in _CONNECTION_ERRORS else _URL_HINT
    return f"database error at {url} ({type(exc).__name__}: {reason}); {fix}"


def _reason(exc: BaseException) -> str:
    """The driver's own message, first meaningful line only, without SQLAlchemy's footer."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    first = lines[0] if lines else type(exc).__name__
    first = first.removeprefix("connection failed: ")
    return first if len(first) <= 200 else first[:197] + "..."


def debug_hint(command: str | None) -> str:
    """Where ``--debug`` goes: it is the ``scoregate`` group's option, before the command
    (``scoregate jobs list --debug`` is "No such option")."""
    return f"(`scoregate --debug {command or 'COMMAND'} ...` shows the traceback)"


def report(
    exc: BaseException, console: Console | None = None, *, command: str | None = None
) -> None:
    """Print the one-line message for a database error of ``command`` on stderr."""
    out = console or make_console(stderr=True)
    out.print(
        f"[bold red]error:[/] {safe(describe(exc, database_url()))} {debug_hint(command)}",
        soft_wrap=True,
    )


class ScoregateGroup(TyperGroup):
    """The ``scoregate`` group: a database error, or a feature used without its optional
    extra, becomes one line and exit status 1."""

    def invoke(self, ctx: Any) -> Any:  # typer's vendored click.Context
        try:
            return super().invoke(ctx)
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            start_logger = START_LOGGERS.get(ctx.invoked_subcommand or "")
            if start_logger is not None and json_refusal(exc, start_logger):
                raise typer.Exit(exit_status(exc)) from None
            if isinstance(exc, MissingExtraError):  # an optional extra is not installed
                out = make_console(stderr=True)
                line = str(exc).removeprefix("scoregate: ")
                out.print(f"[bold red]error:[/] {safe(line)}", soft_wrap=True)
                raise typer.Exit(DB_ERROR_EXIT) from None
            setup = setup_error(exc)
            if setup is not None:  # a setting, a config file or a path the user gave
                out = make_console(stderr=True)
                out.print(
                    f"[bold red]error:[/] {safe(setup)} {debug_hint(ctx.invoked_subcommand)}",
                    soft_wrap=True,
                )
                raise typer.Exit(2) from None
            if not is_database_error(exc):
                raise
            report(exc, command=ctx.invoked_subcommand)
            raise typer.Exit(DB_ERROR_EXIT) from None


#: The commands whose output is a log (``SCOREGATE_LOG_FORMAT``), and their start-up logger.
START_LOGGERS = {"serve": SERVE_START_LOGGER, "worker": WORKER_START_LOGGER}


def exit_status(exc: BaseException) -> int:
    """The exit status :class:`ScoregateGroup` gives ``exc``: 2 for a usage or setup error,
    1 for a missing extra or a database error."""
    if is_usage_error(exc) or setup_error(exc) is not None:
        return 2
    return DB_ERROR_EXIT


def is_usage_error(exc: BaseException) -> bool:
    """A command line click refuses (a missing option, a bad value): its ``UsageError``,
    from the click that typer vendors, known by its exit status 2 and message."""
    return getattr(exc, "exit_code", None) == 2 and callable(getattr(exc, "format_message", None))


def json_refusal(exc: BaseException, logger: str) -> bool:
    """With ``SCOREGATE_LOG_FORMAT=json``, write what stopped ``serve`` or a worker as it
    started as one JSON record (``scoregate.logs.refusal_line``) and return True; False in
    text mode, or for an error the group does not turn into one line (a bug: traceback)."""
    if not json_asked():
        return False
    if is_usage_error(exc):
        command = getattr(getattr(exc, "ctx", None), "command_path", None)
        hint = f" (see `{command} --help`)" if command else ""
        line = f"{cast(Any, exc).format_message()}{hint}"
    elif isinstance(exc, MissingExtraError):
        line = str(exc)
    elif (setup := setup_error(exc)) is not None:
        line = setup
    elif is_database_error(exc):
        line = describe(exc, database_url())
    else:
        return False
    refuse_start(line, logger)
    return True


def setup_error(exc: BaseException) -> str | None:
    """One line for an error in the user's setup, not in scoregate: an environment
    variable the settings refuse, a config file that is missing or invalid, a path that
    does not exist, an unknown migration; ``None`` for anything else."""
    from scoregate.config.scoring_yaml import ConfigError
    from scoregate.config.settings import SettingsError

    if isinstance(exc, (ConfigError, SettingsError, FileNotFoundError)):
        return str(exc)
    if type(exc).__name__ == "CommandError" and type(exc).__module__.startswith("alembic"):
        return f"database migration: {exc}"
    return None
