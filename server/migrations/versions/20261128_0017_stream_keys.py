"""stream keys: encoders publish an event's live feed with a key kept only as its hash

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 21:30:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stream_keys",
        sa.Column("event_id", sa.String(length=24), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("hint", sa.String(length=8), nullable=False),
        sa.Column("created_by", sa.String(length=24), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("srt_port", sa.Integer(), nullable=True),
        sa.Column("publisher", sa.String(length=80), nullable=True),
        sa.Column("publishing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_stream_keys_event_id_events"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stream_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_stream_keys_key_hash")),
        sa.UniqueConstraint("srt_port", name=op.f("uq_stream_keys_srt_port")),
    )
    op.create_index(op.f("ix_stream_keys_event_id"), "stream_keys", ["event_id"], unique=False)
    op.create_index(op.f("ix_stream_keys_revoked_at"), "stream_keys", ["revoked_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_stream_keys_revoked_at"), table_name="stream_keys")
    op.drop_index(op.f("ix_stream_keys_event_id"), table_name="stream_keys")
    op.drop_table("stream_keys")
