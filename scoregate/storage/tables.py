"""The database tables as SQLAlchemy 2.0 classes: jobs, iterations, track results, the
audit trail, reviewers' verdicts and the calibration maps.

The schema itself is owned by the Alembic migrations in ``migrations/versions``;
these classes must match them (``tests/unit/test_storage.py`` checks it).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal, get_args

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: A job's status, as a type (the HTTP API's schema enumerates it) and as values.
JobStatus = Literal[
    "pending",
    "running",
    "awaiting_agent",
    "awaiting_review",
    "researching",
    "accepted",
    "completed",
    "rejected",
    "escalated",
    "failed",
    "cancelled",
]
JOB_STATUSES: tuple[str, ...] = get_args(JobStatus)
#: Job statuses a new iteration never moves a job out of.
TERMINAL_JOB_STATUSES: frozenset[str] = frozenset(
    {"accepted", "completed", "rejected", "failed", "cancelled"}
)
ITERATION_STATUSES: tuple[str, ...] = ("scoring", "fused", "decided", "failed", "stuck")
TRACK_STATUSES: tuple[str, ...] = ("ok", "failed", "timeout")
TIERS: tuple[str, ...] = ("high", "medium", "low")
ESCALATION_KINDS: tuple[str, ...] = ("escalation", "review")
ESCALATION_STATUSES: tuple[str, ...] = ("open", "approved", "rejected", "research", "cancelled")
#: What a dispatch sent: a hook (on_pass, on_loop_exit) or an agent (or research) task.
DISPATCH_KINDS: tuple[str, ...] = ("hook", "agent")

#: Deterministic constraint names, so migrations can drop and alter them on every dialect.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Return the current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def new_id() -> str:
    """Return a new job id (a UUID4 string, 36 characters)."""
    return str(uuid.uuid4())


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware.

    SQLite keeps no zone, so values are normalised to UTC on the way in and
    tagged UTC on the way out; Postgres gets ``timestamptz``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass a timezone-aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


#: JSON on every dialect (JSONB on Postgres); Python ``None`` is stored as SQL NULL.
JSONType = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
#: 64-bit ids on Postgres; SQLite only autoincrements an ``INTEGER PRIMARY KEY``.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def _one_of(column: str, values: tuple[str, ...], name: str) -> CheckConstraint:
    allowed = ", ".join(f"'{v}'" for v in values)
    return CheckConstraint(f"{column} IN ({allowed})", name=name)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSONType,
        list[Any]: JSONType,
        list[str]: JSONType,
    }


class Job(Base):
    """One scoring job: what was submitted, its loop policy and where it stands."""

    __tablename__ = "jobs"
    __table_args__ = (
        _one_of("status", JOB_STATUSES, "status"),
        Index("ix_jobs_created_at", "created_at"),
        Index("ix_jobs_status_created_at", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    status: Mapped[str] = mapped_column(String(32), default="pending")
    request: Mapped[dict[str, Any]]
    policy: Mapped[dict[str, Any]]
    agent: Mapped[dict[str, Any] | None]
    hooks: Mapped[dict[str, Any]] = mapped_column(default=dict)
    current_iteration: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    final_result: Mapped[dict[str, Any] | None]
    failure_reason: Mapped[str | None] = mapped_column(Text)
    task_name: Mapped[str | None] = mapped_column(String(255))
    submitted_by: Mapped[str | None] = mapped_column(String(255))
    idempotency_key: Mapped[str | None] = mapped_column(String(255), unique=True)

    iterations: Mapped[list[Iteration]] = relationship(
        back_populates="job", order_by="Iteration.n", passive_deletes=True
    )
    track_results: Mapped[list[TrackResult]] = relationship(
        order_by=lambda: (TrackResult.n, TrackResult.track), viewonly=True
    )
    decisions: Mapped[list[Decision]] = relationship(order_by="Decision.id", viewonly=True)
    escalations: Mapped[list[Escalation]] = relationship(order_by="Escalation.id", viewonly=True)
    dispatches: Mapped[list[Dispatch]] = relationship(order_by="Dispatch.id", viewonly=True)


class Iteration(Base):
    """Iteration ``n`` of a job: the content scored, the track join and the fused result."""

    __tablename__ = "iterations"
    __table_args__ = (
        UniqueConstraint("job_id", "n"),
        _one_of("status", ITERATION_STATUSES, "status"),
        Index("ix_iterations_status_published_at", "status", "published_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    n: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    content: Mapped[str] = mapped_column(Text)
    request: Mapped[dict[str, Any]]
    expected_tracks: Mapped[list[str]]
    landed_tracks: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    fusion_claimed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    fused_at: Mapped[datetime | None]
    decided_at: Mapped[datetime | None]
    status: Mapped[str] = mapped_column(String(16), default="scoring")
    score: Mapped[float | None] = mapped_column(Float)
    score_100: Mapped[int | None]
    band: Mapped[str | None] = mapped_column(String(16))
    action: Mapped[str | None] = mapped_column(String(32))
    calibrated: Mapped[float | None] = mapped_column(Float)
    components: Mapped[dict[str, Any] | None]
    weights: Mapped[dict[str, Any] | None]
    reasons: Mapped[list[Any] | None]
    result: Mapped[dict[str, Any] | None]
    timings: Mapped[dict[str, Any] | None]
    published_at: Mapped[datetime | None]
    deliveries: Mapped[int] = mapped_column(default=0, server_default=text("0"))

    job: Mapped[Job] = relationship(back_populates="iterations")


class TrackResult(Base):
    """One track's score for one iteration; at most one row per (job, n, track)."""

    __tablename__ = "track_results"
    __table_args__ = (
        UniqueConstraint("job_id", "n", "track"),
        ForeignKeyConstraint(
            ["job_id", "n"],
            ["iterations.job_id", "iterations.n"],
            name="fk_track_results_iteration",
            ondelete="CASCADE",
        ),
        _one_of("status", TRACK_STATUSES, "status"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    n: Mapped[int]
    track: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="ok")
    score: Mapped[float | None] = mapped_column(Float)
    payload: Mapped[dict[str, Any]]
    elapsed_ms: Mapped[float] = mapped_column(Float, default=0.0)


class Decision(Base):
    """One line of the append-only audit trail (seed 002)."""

    __tablename__ = "decisions"
    __table_args__ = (
        Index("ix_decisions_job_id_id", "job_id", "id"),
        Index("ix_decisions_created_at", "created_at"),
        CheckConstraint("tier IS NULL OR tier IN ('high', 'medium', 'low')", name="tier"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    n: Mapped[int]
    tier: Mapped[str | None] = mapped_column(String(16))
    band: Mapped[str | None] = mapped_column(String(16))
    confidence: Mapped[float | None] = mapped_column(Float)
    action: Mapped[str] = mapped_column(String(64))
    rationale: Mapped[str] = mapped_column(Text, default="")
    actor: Mapped[str] = mapped_column(String(255), default="system")
    quota_used: Mapped[int | None]
    quota_remaining: Mapped[int | None]
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    dedupe_key: Mapped[str | None] = mapped_column(String(255), unique=True)


class Escalation(Base):
    """A hand-off to a human (HIL escalation or review); at most one open per job."""

    __tablename__ = "escalations"
    __table_args__ = (
        _one_of("kind", ESCALATION_KINDS, "kind"),
        _one_of("status", ESCALATION_STATUSES, "status"),
        Index("ix_escalations_job_id", "job_id"),
        Index(
            "uq_escalations_one_open",
            "job_id",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    n: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="open")
    resolved_at: Mapped[datetime | None]
    resolved_by: Mapped[str | None] = mapped_column(String(255))
    note: Mapped[str | None] = mapped_column(Text)


class Dispatch(Base):
    """A hook or agent task scoregate sent for a job: what, where, when, its Celery id.

    An outbox row: recorded in the transaction that decides to send the task, marked
    ``published_at`` once the broker took it. A hook still unpublished (the broker was
    down) is sent again by the sweeper from its stored ``kwargs``, with the same task id.
    """

    __tablename__ = "dispatches"
    __table_args__ = (
        _one_of("kind", DISPATCH_KINDS, "kind"),
        Index("ix_dispatches_job_id_id", "job_id", "id"),
        Index(
            "ix_dispatches_unpublished",
            "sent_at",
            postgresql_where=text("published_at IS NULL"),
            sqlite_where=text("published_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    #: The iteration it is about: a hook's decided one, the one an agent is asked for.
    n: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    #: on_pass, on_loop_exit, agent or research.
    role: Mapped[str] = mapped_column(String(32))
    task: Mapped[str] = mapped_column(String(255))
    queue: Mapped[str] = mapped_column(String(100))
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)
    celery_task_id: Mapped[str] = mapped_column(String(64), unique=True)
    #: A hook's message kwargs, to send it again (agent tasks are rebuilt from the job).
    kwargs: Mapped[dict[str, Any] | None]
    #: When the broker took it; None while it waits for the sweeper.
    published_at: Mapped[datetime | None]


class Verdict(Base):
    """A human (or system) verdict on a scored iteration, for calibration."""

    __tablename__ = "verdicts"
    __table_args__ = (Index("ix_verdicts_created_at", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    n: Mapped[int]
    score: Mapped[float] = mapped_column(Float)
    accepted: Mapped[bool] = mapped_column(Boolean)
    actor: Mapped[str] = mapped_column(String(255), default="system")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CalibrationMap(Base):
    """A fitted score calibration; the highest ``version`` of a kind is the live one."""

    __tablename__ = "calibration_maps"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    version: Mapped[int] = mapped_column(unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]]
    n_samples: Mapped[int] = mapped_column(default=0)
    ece_before: Mapped[float | None] = mapped_column(Float)
    ece_after: Mapped[float | None] = mapped_column(Float)
