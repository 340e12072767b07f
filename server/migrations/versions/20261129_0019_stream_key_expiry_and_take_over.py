"""stream_keys.expires_at and take_over_until: a key's last moment to connect, and staff's
window for a second encoder to take over from the one publishing

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29 05:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("stream_keys", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("stream_keys", sa.Column("take_over_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("stream_keys") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("take_over_until")
        batch.drop_column("expires_at")
