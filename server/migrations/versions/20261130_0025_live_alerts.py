"""live_alerts and live_alert_deliveries (go-live alerts), and follows by what is followed
(issue 31 §4)

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-30 10:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_alerts",
        sa.Column("event_id", sa.String(length=24), nullable=False),
        sa.Column("went_live_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_live_alerts_event_id_events"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_live_alerts")),
    )
    op.create_index(op.f("ix_live_alerts_went_live_at"), "live_alerts", ["went_live_at"])
    op.create_index(op.f("ix_live_alerts_sent_at"), "live_alerts", ["sent_at"])
    op.create_table(
        "live_alert_deliveries",
        sa.Column("event_id", sa.String(length=24), nullable=False),
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mailed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["live_alerts.event_id"],
            name=op.f("fk_live_alert_deliveries_event_id_live_alerts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_live_alert_deliveries_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", "user_id", name=op.f("pk_live_alert_deliveries")),
    )
    op.create_index(op.f("ix_live_alert_deliveries_user_id"), "live_alert_deliveries", ["user_id"])
    op.create_index("ix_follows_type_reference_id", "follows", ["type", "reference_id"])


def downgrade() -> None:
    op.drop_index("ix_follows_type_reference_id", table_name="follows")
    op.drop_table("live_alert_deliveries")
    op.drop_table("live_alerts")
