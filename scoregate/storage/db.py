"""Engines and sessions, made per process (never at import), and the Alembic commands.

An engine is cached per URL in the process that made it. A forked child (a
Celery prefork worker) forgets the parent's engines without closing the
parent's connections, so every process opens its own.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker

from scoregate.config.settings import get_settings
from scoregate.storage.tables import Base

#: The Alembic scripts, shipped inside the package.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: How long a SQLite writer waits for the write lock before "database is locked".
SQLITE_BUSY_TIMEOUT_MS = 30_000

_engines: dict[str, Engine] = {}
_sessionmakers: dict[str, sessionmaker[Session]] = {}
_lock = threading.Lock()


def resolve_url(url: str | None = None) -> str:
    """Return ``url``, or ``SCOREGATE_DATABASE_URL``; plain ``postgresql://`` means psycopg 3."""
    raw = url if url is not None else get_settings().secret("database_url")
    if not raw:
        raise ValueError("no database URL: set SCOREGATE_DATABASE_URL")
    parsed = make_url(raw)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


#: ``scheme://user:`` then the password up to the URL's last ``@``.
_USERINFO = re.compile(r"^(?P<head>[\w+.-]+://[^:/@]*:)(?P<password>.*)@(?P<tail>[^@]*)$", re.S)


def redact_url(url: str) -> str:
    """Return ``url`` with any password masked, for logs and messages."""
    found = _USERINFO.match(url)
    if found and "@" in found["password"]:
        # An '@' left unencoded in the password: a URL parser cuts the password at the
        # first one and shows the rest as the host, so everything up to the last is hidden.
        return f"{found['head']}***@{found['tail']}"
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparseable database URL>"


def get_engine(url: str | None = None) -> Engine:
    """Return this process's engine for ``url`` (default: the configured database)."""
    key = resolve_url(url)
    with _lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = _create_engine(key)
        return engine


def get_sessionmaker(url: str | None = None) -> sessionmaker[Session]:
    """Return the session factory bound to :func:`get_engine` for ``url``."""
    engine = get_engine(url)
    key = engine.url.render_as_string(hide_password=False)
    with _lock:
        factory = _sessionmakers.get(key)
        if factory is None:
            # Objects stay readable after the task-boundary commit.
            factory = _sessionmakers[key] = sessionmaker(engine, expire_on_commit=False)
        return factory


@contextmanager
def session_scope(url: str | None = None) -> Iterator[Session]:
    """Yield a session; commit when the block succeeds, roll back when it raises."""
    session = get_sessionmaker(url)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def dispose_engines(*, close: bool = True) -> None:
    """Dispose and forget every engine of this process.

    Args:
        close: close pooled connections; pass False in a forked child, whose
            inherited connections belong to the parent.
    """
    with _lock:
        engines = list(_engines.values())
        _engines.clear()
        _sessionmakers.clear()
    for engine in engines:
        engine.dispose(close=close)


def _after_fork_in_child() -> None:
    global _lock
    # The parent may have forked while another thread held the lock.
    _lock = threading.Lock()
    dispose_engines(close=False)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _create_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, pool_pre_ping=True)
    event.listen(engine, "connect", _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin)
    event.listen(engine, "handle_error", _sqlite_schema_error)
    return engine


#: SQLite's messages for a table or column the schema lacks (sqlite3 raises them as
#: OperationalError, the class of a database that is away; Postgres says ProgrammingError).
_SQLITE_SCHEMA_ERRORS = ("no such table", "no such column", "has no column named")


#: Postgres' SQLSTATEs for a table or column the schema lacks (undefined_table,
#: undefined_column); other ProgrammingErrors (a privilege, a bug) are not the schema's age.
_POSTGRES_SCHEMA_STATES = frozenset({"42P01", "42703"})


def is_schema_fault(exc: BaseException) -> bool:
    """Whether ``exc`` says the schema is older than the code (a table or column missing):
    permanent until ``scoregate db upgrade``, so never retried as a database that is away."""
    if not isinstance(exc, ProgrammingError):
        return False
    state = getattr(exc.orig, "sqlstate", None)
    if state is not None:
        return state in _POSTGRES_SCHEMA_STATES
    return str(exc.orig).startswith(_SQLITE_SCHEMA_ERRORS)


def _sqlite_schema_error(context: ExceptionContext) -> BaseException | None:
    """Raise a missing table or column as ProgrammingError, as on Postgres: a schema older
    than the code is permanent, and no retry may take it for a database that is away."""
    err = context.sqlalchemy_exception
    if isinstance(err, OperationalError) and str(err.orig).startswith(_SQLITE_SCHEMA_ERRORS):
        return ProgrammingError(err.statement, err.params, context.original_exception)
    return None


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Turn off the sqlite3 driver's own BEGIN handling; _sqlite_on_begin emits ours, which
    # makes SAVEPOINTs and transactional DDL behave (SQLAlchemy's SQLite dialect docs).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _sqlite_on_begin(connection: Connection) -> None:
    if connection.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
        return
    # IMMEDIATE takes the write lock up front (waiting up to busy_timeout), so a transaction
    # that reads and then writes never fails with SQLITE_BUSY on lock upgrade. WAL readers
    # outside the transaction are not blocked.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


# --- migrations ------------------------------------------------------------------------------


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Return an Alembic config for the packaged migrations, with no ``alembic.ini``.

    Args:
        connection: run on this connection (and its transaction).
        url: otherwise, the database to connect to (default: the configured one).
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    if url is not None:
        cfg.attributes["url"] = url
    return cfg


def upgrade(url: str | None = None, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision``, in one transaction."""
    with get_engine(url).begin() as connection:
        command.upgrade(alembic_config(connection), revision)


def downgrade(url: str | None = None, revision: str = "base") -> None:
    """Migrate the database at ``url`` down to ``revision`` (default: drop everything)."""
    with get_engine(url).begin() as connection:
        command.downgrade(alembic_config(connection), revision)


def current_revision(url: str | None = None, *, private: bool = False) -> str | None:
    """Return the migration revision the database is at, or None when it is not migrated.

    ``private``: on an engine of its own, disposed after, leaving the process's shared
    engines (which running tasks use) alone."""
    engine = create_engine(resolve_url(url)) if private else get_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        if private:
            engine.dispose()


UPGRADE_HINT = "run `scoregate db upgrade`"


class SchemaNotCurrent(RuntimeError):
    """The database has no scoregate tables, or is at an older migration than the code."""


@dataclass(frozen=True)
class SchemaState:
    """Where the database's migrations stand against this scoregate's.

    ``state`` is ``current``, ``missing`` (no scoregate tables), ``older`` (``scoregate db
    upgrade`` brings it to ``head``) or ``newer`` (a revision this code does not know: a
    newer scoregate migrated it, e.g. before a rollback).
    """

    current: str | None
    head: str
    state: str
    shown_url: str


def schema_state(url: str | None = None, *, private: bool = False) -> SchemaState:
    """Compare the database's migration revision with this scoregate's head (``private``:
    read on an engine of its own, :func:`current_revision`)."""
    from alembic.script import ScriptDirectory

    current = current_revision(url, private=private)
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head() or ""
    shown = redact_url(resolve_url(url))
    known = {r.revision for r in script.iterate_revisions(head, "base")}
    if current is None:
        state = "missing"
    elif current == head:
        state = "current"
    elif current in known:
        state = "older"
    else:
        state = "newer"
    return SchemaState(current=current, head=head, state=state, shown_url=shown)


def schema_problem(state: SchemaState) -> str | None:
    """The one-line refusal of a database a worker or command cannot use; None when usable."""
    if state.state == "missing":
        return f"the database at {state.shown_url} has no scoregate tables; {UPGRADE_HINT}"
    if state.state == "older":
        return (
            f"the database at {state.shown_url} is at migration {state.current}, older than"
            f" this scoregate's {state.head}; back it up and {UPGRADE_HINT}"
        )
    return None


def check_schema(url: str | None = None) -> None:
    """Refuse a database that is not migrated to this scoregate's head revision.

    Migrations are forward only and never run by themselves on a database the user named
    (it may be production, due a backup first): ``scoregate db upgrade`` is the fix. A
    database at a newer revision passes: older code reads a schema migrated ahead of it
    (a rollback).

    Raises:
        SchemaNotCurrent: no tables, or an older revision; the message names the fix.
    """
    problem = schema_problem(schema_state(url))
    if problem is not None:
        raise SchemaNotCurrent(problem)


def reset_for_tests(url: str) -> None:
    """Drop scoregate's tables from the database at ``url`` and migrate it afresh."""
    with get_engine(url).begin() as connection:
        Base.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    upgrade(url)
