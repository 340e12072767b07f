"""events.ingest_autostart and dvr_seconds: staff's per-event choices for a live feed (whether it
goes live by itself, how far viewers may rewind)

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29 06:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("ingest_autostart", sa.Boolean(), nullable=True))
    op.add_column("events", sa.Column("dvr_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("dvr_seconds")
        batch.drop_column("ingest_autostart")
