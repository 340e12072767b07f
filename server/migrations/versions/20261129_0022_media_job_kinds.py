"""media_jobs.kind: a job transcodes an upload, or makes a finished live recording's poster and
thumbnails (issue 29 §2)

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29 16:30:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("media_jobs", sa.Column("kind", sa.String(length=16), nullable=False, server_default="transcode"))


def downgrade() -> None:
    with op.batch_alter_table("media_jobs") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("kind")
