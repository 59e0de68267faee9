"""Dispatches as an outbox: a hook's kwargs are kept and its publication is recorded, so
a hook the broker did not take is sent again by the sweeper instead of being lost.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Self-contained on purpose: a migration must not change when the models do.
TS = sa.DateTime(timezone=True)
JSON = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("dispatches") as t:
        t.add_column(sa.Column("kwargs", JSON, nullable=True))
        t.add_column(sa.Column("published_at", TS, nullable=True))
    # Rows from before: their publication was not recorded; they count as published.
    op.execute("UPDATE dispatches SET published_at = sent_at")
    op.create_index(
        "ix_dispatches_unpublished",
        "dispatches",
        ["sent_at"],
        postgresql_where=sa.text("published_at IS NULL"),
        sqlite_where=sa.text("published_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_dispatches_unpublished", table_name="dispatches")
    with op.batch_alter_table("dispatches") as t:
        t.drop_column("published_at")
        t.drop_column("kwargs")
