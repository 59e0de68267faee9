"""Alembic environment, configured in code (``scoregate.storage.db.alembic_config``).

The connection comes from ``config.attributes["connection"]`` when the caller
already holds one (``db.upgrade``); otherwise from ``config.attributes["url"]``,
the ``sqlalchemy.url`` option, or ``SCOREGATE_DATABASE_URL``, in that order.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from scoregate.storage.db import get_engine, resolve_url
from scoregate.storage.tables import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return resolve_url(config.attributes.get("url") or config.get_main_option("sqlalchemy.url"))


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit the SQL to stdout instead of running it (``alembic upgrade --sql``)."""
    context.configure(
        url=_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the caller's connection, or on one of our own."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    with get_engine(_url()).begin() as own:
        _run(own)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
