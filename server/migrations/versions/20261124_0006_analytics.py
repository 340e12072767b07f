"""analytics events

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 18:30:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analytics_events",
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("tenant", sa.String(length=40), nullable=False),
        sa.Column("anonymous_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=24), nullable=True),
        sa.Column("properties", sa.JSON(), nullable=False),
        sa.Column("occurred", sa.DateTime(timezone=True), nullable=False),
        sa.Column("received", sa.DateTime(timezone=True), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_analytics_events_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analytics_events")),
    )
    with op.batch_alter_table("analytics_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_analytics_events_anonymous_id"), ["anonymous_id"], unique=False)
        batch_op.create_index("ix_analytics_events_tenant_received", ["tenant", "received"], unique=False)
        batch_op.create_index(batch_op.f("ix_analytics_events_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("analytics_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_analytics_events_user_id"))
        batch_op.drop_index("ix_analytics_events_tenant_received")
        batch_op.drop_index(batch_op.f("ix_analytics_events_anonymous_id"))
    op.drop_table("analytics_events")
