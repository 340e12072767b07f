"""events.live_feed: how the live input an event plays is doing, as viewers are told

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 01:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("live_feed", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("live_feed")
