"""dup_rejections: pairs a reporter or maintainer said are not duplicates

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dup_rejections",
        sa.Column("repo", sa.String(length=200), nullable=False),
        sa.Column("low", sa.Integer(), nullable=False),
        sa.Column("high", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("repo", "low", "high"),
    )
    with op.batch_alter_table("dup_rejections", schema=None) as batch_op:
        batch_op.create_index("dup_rejections_high", ["repo", "high"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("dup_rejections", schema=None) as batch_op:
        batch_op.drop_index("dup_rejections_high")
    op.drop_table("dup_rejections")
