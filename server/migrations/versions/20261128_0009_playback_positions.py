"""playback positions: where each viewer stopped in an archived event or clip ("Continue watching")

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28 06:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "playback_positions",
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("video_id", sa.String(length=24), nullable=False),
        sa.Column("position", sa.Float(), nullable=False),
        sa.Column("duration", sa.Float(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_playback_positions_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["video_id"], ["events.id"], name=op.f("fk_playback_positions_video_id_events"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "video_id", name=op.f("pk_playback_positions")),
    )
    op.create_index("ix_playback_positions_user_id_updated", "playback_positions", ["user_id", "updated"], unique=False)
    op.create_index(op.f("ix_playback_positions_video_id"), "playback_positions", ["video_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_playback_positions_video_id"), table_name="playback_positions")
    op.drop_index("ix_playback_positions_user_id_updated", table_name="playback_positions")
    op.drop_table("playback_positions")
