"""media assets: every playable thing has an id and a storage directory of its own

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 20:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "media_assets",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("event_id", sa.String(length=24), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("sample", sa.String(length=40), nullable=True),
        sa.Column("parent_id", sa.String(length=24), nullable=True),
        sa.Column("start_ms", sa.BigInteger(), nullable=True),
        sa.Column("end_ms", sa.BigInteger(), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_media_assets_event_id_events"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"], ["media_assets.id"], name=op.f("fk_media_assets_parent_id_media_assets"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_assets")),
    )
    op.create_index(op.f("ix_media_assets_event_id"), "media_assets", ["event_id"], unique=False)
    op.create_index(op.f("ix_media_assets_parent_id"), "media_assets", ["parent_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_media_assets_parent_id"), table_name="media_assets")
    op.drop_index(op.f("ix_media_assets_event_id"), table_name="media_assets")
    op.drop_table("media_assets")
