"""analytics retention: an index on analytics_events.received for the deletion of old events

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 10:00:00.000000+00:00
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("analytics_events") as batch:
        batch.create_index(batch.f("ix_analytics_events_received"), ["received"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("analytics_events") as batch:
        batch.drop_index(batch.f("ix_analytics_events_received"))
