"""Persistence: the tables (SQLAlchemy 2.0), a small repository API, Alembic migrations.

Importing this package opens no connection; engines are made on first use, per
process (``db.get_engine``). The API lives in ``scoregate.storage.repository``.
"""

from scoregate.storage import repository
from scoregate.storage.db import (
    dispose_engines,
    get_engine,
    get_sessionmaker,
    reset_for_tests,
    session_scope,
    upgrade,
)
from scoregate.storage.tables import (
    Base,
    CalibrationMap,
    Decision,
    Dispatch,
    Escalation,
    Iteration,
    Job,
    TrackResult,
    Verdict,
)

__all__ = [
    "Base",
    "CalibrationMap",
    "Decision",
    "Dispatch",
    "Escalation",
    "Iteration",
    "Job",
    "TrackResult",
    "Verdict",
    "dispose_engines",
    "get_engine",
    "get_sessionmaker",
    "repository",
    "reset_for_tests",
    "session_scope",
    "upgrade",
]
