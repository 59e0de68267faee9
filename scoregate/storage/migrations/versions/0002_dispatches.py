"""Dispatches: every hook and agent task sent for a job.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Self-contained on purpose: a migration must not change when the models do.
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "dispatches",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("job_id", sa.String(36), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("task", sa.String(255), nullable=False),
        sa.Column("queue", sa.String(100), nullable=False),
        sa.Column("sent_at", TS, nullable=False),
        sa.Column("celery_task_id", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_dispatches"),
        sa.UniqueConstraint("celery_task_id", name="uq_dispatches_celery_task_id"),
        sa.ForeignKeyConstraint(
            ["job_id"], ["jobs.id"], name="fk_dispatches_job_id_jobs", ondelete="CASCADE"
        ),
        sa.CheckConstraint("kind IN ('hook', 'agent')", name="ck_dispatches_kind"),
    )
    op.create_index("ix_dispatches_job_id_id", "dispatches", ["job_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_dispatches_job_id_id", table_name="dispatches")
    op.drop_table("dispatches")
