"""Initial schema: jobs, iterations, track results, decisions, escalations, calibration.

Revision ID: 0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Self-contained on purpose: a migration must not change when the models do.
JSON = sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)
OPEN = sa.text("status = 'open'")


def _one_of(column: str, values: tuple[str, ...], name: str) -> sa.CheckConstraint:
    allowed = ", ".join(f"'{v}'" for v in values)
    return sa.CheckConstraint(f"{column} IN ({allowed})", name=name)


def _id() -> sa.Column:
    return sa.Column("id", BIG_ID, primary_key=True, autoincrement=True)


def _job_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["job_id"], ["jobs.id"], name=f"fk_{table}_job_id_jobs", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("request", JSON, nullable=False),
        sa.Column("policy", JSON, nullable=False),
        sa.Column("agent", JSON, nullable=True),
        sa.Column("hooks", JSON, nullable=False),
        sa.Column("current_iteration", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("final_result", JSON, nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("task_name", sa.String(255), nullable=True),
        sa.Column("submitted_by", sa.String(255), nullable=True),
        sa.Column("idempotency_key", sa.String(255), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_jobs"),
        sa.UniqueConstraint("idempotency_key", name="uq_jobs_idempotency_key"),
        _one_of(
            "status",
            (
                "pending", "running", "awaiting_agent", "awaiting_review", "researching",
                "accepted", "completed", "rejected", "escalated", "failed", "cancelled",
            ),
            "ck_jobs_status",
        ),
    )
    op.create_index("ix_jobs_created_at", "jobs", ["created_at"])
    op.create_index("ix_jobs_status_created_at", "jobs", ["status", "created_at"])

    op.create_table(
        "iterations",
        _id(),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("request", JSON, nullable=False),
        sa.Column("expected_tracks", JSON, nullable=False),
        sa.Column("landed_tracks", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("fusion_claimed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("fused_at", TS, nullable=True),
        sa.Column("decided_at", TS, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("score_100", sa.Integer(), nullable=True),
        sa.Column("band", sa.String(16), nullable=True),
        sa.Column("action", sa.String(32), nullable=True),
        sa.Column("calibrated", sa.Float(), nullable=True),
        sa.Column("components", JSON, nullable=True),
        sa.Column("weights", JSON, nullable=True),
        sa.Column("reasons", JSON, nullable=True),
        sa.Column("result", JSON, nullable=True),
        sa.Column("timings", JSON, nullable=True),
        sa.Column("published_at", TS, nullable=True),
        sa.Column("deliveries", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_iterations"),
        sa.UniqueConstraint("job_id", "n", name="uq_iterations_job_id_n"),
        _job_fk("iterations"),
        _one_of(
            "status", ("scoring", "fused", "decided", "failed", "stuck"), "ck_iterations_status"
        ),
    )
    op.create_index(
        "ix_iterations_status_published_at", "iterations", ["status", "published_at"]
    )

    op.create_table(
        "track_results",
        _id(),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("track", sa.String(64), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("elapsed_ms", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_track_results"),
        sa.UniqueConstraint("job_id", "n", "track", name="uq_track_results_job_id_n_track"),
        _job_fk("track_results"),
        sa.ForeignKeyConstraint(
            ["job_id", "n"],
            ["iterations.job_id", "iterations.n"],
            name="fk_track_results_iteration",
            ondelete="CASCADE",
        ),
        _one_of("status", ("ok", "failed", "timeout"), "ck_track_results_status"),
    )

    op.create_table(
        "decisions",
        _id(),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("tier", sa.String(16), nullable=True),
        sa.Column("band", sa.String(16), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(255), nullable=False),
        sa.Column("quota_used", sa.Integer(), nullable=True),
        sa.Column("quota_remaining", sa.Integer(), nullable=True),
        sa.Column("details", JSON, nullable=False),
        sa.Column("dedupe_key", sa.String(255), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_decisions"),
        sa.UniqueConstraint("dedupe_key", name="uq_decisions_dedupe_key"),
        _job_fk("decisions"),
        sa.CheckConstraint(
            "tier IS NULL OR tier IN ('high', 'medium', 'low')", name="ck_decisions_tier"
        ),
    )
    op.create_index("ix_decisions_job_id_id", "decisions", ["job_id", "id"])
    op.create_index("ix_decisions_created_at", "decisions", ["created_at"])

    op.create_table(
        "escalations",
        _id(),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resolved_at", TS, nullable=True),
        sa.Column("resolved_by", sa.String(255), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_escalations"),
        _job_fk("escalations"),
        _one_of("kind", ("escalation", "review"), "ck_escalations_kind"),
        _one_of(
            "status",
            ("open", "approved", "rejected", "research", "cancelled"),
            "ck_escalations_status",
        ),
    )
    op.create_index("ix_escalations_job_id", "escalations", ["job_id"])
    op.create_index(
        "uq_escalations_one_open",
        "escalations",
        ["job_id"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )

    op.create_table(
        "verdicts",
        _id(),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("actor", sa.String(255), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_verdicts"),
        _job_fk("verdicts"),
    )
    op.create_index("ix_verdicts_created_at", "verdicts", ["created_at"])

    op.create_table(
        "calibration_maps",
        _id(),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("params", JSON, nullable=False),
        sa.Column("n_samples", sa.Integer(), nullable=False),
        sa.Column("ece_before", sa.Float(), nullable=True),
        sa.Column("ece_after", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_calibration_maps"),
        sa.UniqueConstraint("version", name="uq_calibration_maps_version"),
    )


def downgrade() -> None:
    op.drop_table("calibration_maps")
    op.drop_index("ix_verdicts_created_at", table_name="verdicts")
    op.drop_table("verdicts")
    op.drop_index("uq_escalations_one_open", table_name="escalations")
    op.drop_index("ix_escalations_job_id", table_name="escalations")
    op.drop_table("escalations")
    op.drop_index("ix_decisions_created_at", table_name="decisions")
    op.drop_index("ix_decisions_job_id_id", table_name="decisions")
    op.drop_table("decisions")
    op.drop_table("track_results")
    op.drop_index("ix_iterations_status_published_at", table_name="iterations")
    op.drop_table("iterations")
    op.drop_index("ix_jobs_status_created_at", table_name="jobs")
    op.drop_index("ix_jobs_created_at", table_name="jobs")
    op.drop_table("jobs")
