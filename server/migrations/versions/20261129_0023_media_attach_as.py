"""uploads.attach_as and media_jobs.attach_as/attached_event_id: an upload declared `as` an archive
or a highlight is published so once transcoded (issue 29 §3)

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29 19:30:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("uploads", sa.Column("attach_as", sa.String(length=16), nullable=True))
    op.add_column("media_jobs", sa.Column("attach_as", sa.String(length=16), nullable=True))
    op.add_column("media_jobs", sa.Column("attached_event_id", sa.String(length=24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("media_jobs") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("attached_event_id")
        batch.drop_column("attach_as")
    with op.batch_alter_table("uploads") as batch:
        batch.drop_column("attach_as")
