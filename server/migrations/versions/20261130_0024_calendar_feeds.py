"""calendar_feeds (a viewer's iCalendar feed, by the hash of its secret) and
events.schedule_sequence (the feed entries' SEQUENCE) (issue 31 §4)

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-30 09:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("schedule_sequence", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "calendar_feeds",
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_calendar_feeds_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_calendar_feeds")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_calendar_feeds_secret_hash")),
    )


def downgrade() -> None:
    op.drop_table("calendar_feeds")
    with op.batch_alter_table("events") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("schedule_sequence")
