"""SQL building blocks shared by the repository modules.

Every write that must happen once under redelivery or concurrency is one SQL
statement guarded by its own WHERE or conflict clause (``INSERT .. ON CONFLICT
DO NOTHING``, ``UPDATE .. WHERE status = ..``): Postgres re-checks the
predicate after taking the row lock (READ COMMITTED) and SQLite serialises
writers, so the guard holds on both.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, TypeVar, cast

from sqlalchemy import ColumnElement, CursorResult, Result, literal_column, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from scoregate.storage.tables import Base

_M = TypeVar("_M", bound=Base)

#: Values per ``IN (...)`` list; old SQLite builds allow 999 parameters per statement.
CHUNK = 500


class NotFound(LookupError):
    """The job or iteration a function was asked about does not exist."""


def check_one_of(value: str | None, allowed: Collection[str], what: str) -> None:
    """Raise ``ValueError`` naming ``what`` unless ``value`` is None or in ``allowed``."""
    if value is not None and value not in allowed:
        raise ValueError(f"{what} must be one of {sorted(allowed)}, got {value!r}")


def dialect_insert(session: Session, model: type[Base]) -> postgresql.Insert | sqlite.Insert:
    """Return an INSERT for ``model`` that supports ``on_conflict_do_nothing`` on this dialect."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(model)
    if dialect == "sqlite":
        return sqlite.insert(model)
    raise NotImplementedError(f"scoregate storage runs on postgresql or sqlite, not {dialect}")


def insert_ignore(session: Session, stmt: postgresql.Insert | sqlite.Insert) -> bool:
    """Run an ``INSERT .. ON CONFLICT DO NOTHING``; True if it inserted the row.

    The answer comes from RETURNING where the dialect has it: the DBAPI's rowcount
    for an INSERT is not reliable (psycopg reports -1 under SQLAlchemy's implicit
    RETURNING of the primary key).
    """
    if session.get_bind().dialect.insert_returning:
        return session.execute(stmt.returning(literal_column("1"))).first() is not None
    return rowcount(session.execute(stmt)) == 1


def rowcount(result: Result[Any]) -> int:
    """Rows an INSERT or UPDATE changed (``Session.execute`` types it as a plain Result)."""
    return cast(CursorResult[Any], result).rowcount


def guarded_update(
    session: Session,
    model: type[_M],
    where: Sequence[ColumnElement[bool]],
    match: Mapping[str, Any],
    **values: Any,
) -> int:
    """Run one UPDATE of ``model`` rows and return how many rows it changed.

    A Core statement on the table (no ORM bulk-update machinery: this is the hot
    path). In loaded objects whose attributes equal ``match`` (the rows it may have
    changed) the updated attributes are expired, so the next read loads them: callers
    never see stale values, and pay a SELECT only if they look.
    """
    table: Any = model.__table__
    count = rowcount(session.execute(update(table).where(*where).values(**values)))
    if count:
        # Columns the table sets itself on UPDATE (``updated_at``) changed as well.
        auto = [c.name for c in table.columns if c.onupdate is not None and c.name not in values]
        expire_matching(session, model, match, [*values, *auto])
    return count


def expire_matching(
    session: Session, model: type[_M], match: Mapping[str, Any], names: list[str]
) -> None:
    """Expire ``names`` in loaded ``model`` objects whose attributes equal ``match``; a
    set (or frozenset) in ``match`` matches any of its members (a batch of rows)."""

    def hit(value: Any, wanted: Any) -> bool:
        return value in wanted if isinstance(wanted, set | frozenset) else bool(value == wanted)

    for obj in list(session.identity_map.values()):
        if isinstance(obj, model) and all(hit(getattr(obj, k), v) for k, v in match.items()):
            session.expire(obj, names)


def select_in(session: Session, stmt: Any, column: Any, values: Collection[str]) -> Iterator[Any]:
    """Rows of ``stmt`` whose ``column`` is one of ``values``: one query per CHUNK values."""
    for chunk in chunks(sorted(set(values))):
        yield from session.execute(stmt.where(column.in_(chunk)))


def chunks(items: Sequence[str]) -> Iterator[Sequence[str]]:
    """Yield ``items`` in slices of at most :data:`CHUNK`."""
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]
