"""uploads and media_jobs, and an asset's title and duration: the media library (issue 29)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29 16:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("media_assets", sa.Column("title", sa.String(length=200), nullable=True))
    op.add_column("media_assets", sa.Column("duration_ms", sa.BigInteger(), nullable=True))
    op.create_table(
        "uploads",
        sa.Column("event_id", sa.String(length=24), nullable=False),
        sa.Column("length", sa.BigInteger(), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=True),
        sa.Column("title", sa.String(length=200), nullable=True),
        sa.Column("created_by", sa.String(length=24), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_uploads_event_id_events"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_uploads")),
    )
    op.create_index(op.f("ix_uploads_event_id"), "uploads", ["event_id"], unique=False)
    op.create_index(op.f("ix_uploads_expires_at"), "uploads", ["expires_at"], unique=False)
    op.create_table(
        "media_jobs",
        sa.Column("asset_id", sa.String(length=24), nullable=True),
        sa.Column("event_id", sa.String(length=24), nullable=True),
        sa.Column("title", sa.String(length=200), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("percent", sa.Float(), nullable=False),
        sa.Column("eta_seconds", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(length=80), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(length=24), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["asset_id"], ["media_assets.id"], name=op.f("fk_media_jobs_asset_id_media_assets"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_media_jobs_event_id_events"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_jobs")),
    )
    op.create_index(op.f("ix_media_jobs_asset_id"), "media_jobs", ["asset_id"], unique=False)
    op.create_index(op.f("ix_media_jobs_state"), "media_jobs", ["state"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_media_jobs_state"), table_name="media_jobs")
    op.drop_index(op.f("ix_media_jobs_asset_id"), table_name="media_jobs")
    op.drop_table("media_jobs")
    op.drop_index(op.f("ix_uploads_expires_at"), table_name="uploads")
    op.drop_index(op.f("ix_uploads_event_id"), table_name="uploads")
    op.drop_table("uploads")
    with op.batch_alter_table("media_assets") as batch:  # SQLite drops a column by rebuilding the table
        batch.drop_column("duration_ms")
        batch.drop_column("title")
