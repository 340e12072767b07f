"""qoe_beacons (the players' beacons), qoe_views and qoe_steps (their
summaries), qoe_alert_states (the staff alerts sent), event_outages,
outage_credits and outage_credit_grants (automatic pay-per-view credit), payment_refunds (the
sandbox provider's refunds) (issue 32)

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-30 12:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

ID = sa.String(length=24)
INSTANT = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [target], name=op.f(f"fk_{table}_{column}_{target.split('.')[0]}"), ondelete=ondelete
    )


def upgrade() -> None:
    op.create_table(
        "qoe_beacons",
        sa.Column("id", ID, nullable=False),
        sa.Column("event_id", ID, nullable=False),
        sa.Column("view", sa.String(length=64), nullable=False),
        sa.Column("viewer_session", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("asset", sa.String(length=64), nullable=True),
        sa.Column("rendition", sa.String(length=20), nullable=True),
        sa.Column("player", sa.String(length=40), nullable=False),
        sa.Column("player_version", sa.String(length=20), nullable=False),
        sa.Column("ms", sa.Integer(), nullable=True),
        sa.Column("bitrate_kbps", sa.Integer(), nullable=True),
        sa.Column("code", sa.String(length=60), nullable=True),
        sa.Column("fatal", sa.Boolean(), nullable=True),
        sa.Column("business", sa.Boolean(), nullable=True),
        sa.Column("before_start", sa.Boolean(), nullable=True),
        sa.Column("occurred", INSTANT, nullable=False),
        sa.Column("received_ms", sa.BigInteger(), nullable=False),
        _fk("qoe_beacons", "event_id", "events.id", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qoe_beacons")),
    )
    op.create_index("ix_qoe_beacons_event_received", "qoe_beacons", ["event_id", "received_ms"])
    op.create_index(op.f("ix_qoe_beacons_received_ms"), "qoe_beacons", ["received_ms"])

    op.create_table(
        "qoe_views",
        sa.Column("event_id", ID, nullable=False),
        sa.Column("view", sa.String(length=64), nullable=False),
        sa.Column("viewer_session", sa.String(length=64), nullable=False),
        sa.Column("began_ms", sa.BigInteger(), nullable=True),
        sa.Column("startup_ms", sa.Integer(), nullable=True),
        sa.Column("fatal", sa.Integer(), nullable=False),
        sa.Column("business", sa.Integer(), nullable=False),
        sa.Column("left_before_start", sa.Integer(), nullable=False),
        sa.Column("ended", sa.Integer(), nullable=False),
        sa.Column("first_ms", sa.BigInteger(), nullable=False),
        sa.Column("last_ms", sa.BigInteger(), nullable=False),
        _fk("qoe_views", "event_id", "events.id", "CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "view", name=op.f("pk_qoe_views")),
    )
    op.create_index("ix_qoe_views_event_last", "qoe_views", ["event_id", "last_ms"])
    op.create_table(
        "qoe_steps",
        sa.Column("event_id", ID, nullable=False),
        sa.Column("step_ms", sa.BigInteger(), nullable=False),
        sa.Column("rebuffer_ms", sa.BigInteger(), nullable=False),
        sa.Column("watched_ms", sa.BigInteger(), nullable=False),
        sa.Column("rated_ms", sa.BigInteger(), nullable=False),
        sa.Column("bitrate_ms", sa.BigInteger(), nullable=False),
        _fk("qoe_steps", "event_id", "events.id", "CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "step_ms", name=op.f("pk_qoe_steps")),
    )

    op.create_table(
        "qoe_alert_states",
        sa.Column("event_id", ID, nullable=False),
        sa.Column("rebuffering", sa.Boolean(), nullable=False),
        sa.Column("start_failures", sa.Boolean(), nullable=False),
        sa.Column("changed", INSTANT, nullable=False),
        _fk("qoe_alert_states", "event_id", "events.id", "CASCADE"),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_qoe_alert_states")),
    )

    op.create_table(
        "event_outages",
        sa.Column("id", ID, nullable=False),
        sa.Column("event_id", ID, nullable=False),
        sa.Column("cause", sa.String(length=20), nullable=False),
        sa.Column("started", INSTANT, nullable=False),
        sa.Column("ended", INSTANT, nullable=True),
        _fk("event_outages", "event_id", "events.id", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_outages")),
    )
    op.create_index(op.f("ix_event_outages_event_id"), "event_outages", ["event_id"])

    op.create_table(
        "outage_credits",
        sa.Column("event_id", ID, nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("reason", sa.String(length=12), nullable=False),
        sa.Column("due", INSTANT, nullable=False),
        sa.Column("cutoff", INSTANT, nullable=False),
        sa.Column("created_by", ID, nullable=True),
        sa.Column("cancelled_by", ID, nullable=True),
        sa.Column("created", INSTANT, nullable=False),
        sa.Column("updated", INSTANT, nullable=False),
        _fk("outage_credits", "event_id", "events.id", "CASCADE"),
        _fk("outage_credits", "created_by", "users.id", "SET NULL"),
        _fk("outage_credits", "cancelled_by", "users.id", "SET NULL"),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_outage_credits")),
    )
    op.create_index(op.f("ix_outage_credits_status"), "outage_credits", ["status"])

    op.create_table(
        "outage_credit_grants",
        sa.Column("id", ID, nullable=False),
        sa.Column("event_id", ID, nullable=False),
        sa.Column("purchase_id", ID, nullable=False),
        sa.Column("user_id", ID, nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("amount_minor", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("refund_id", sa.String(length=40), nullable=True),
        sa.Column("access_code_id", ID, nullable=True),
        sa.Column("created", INSTANT, nullable=False),
        sa.Column("done_at", INSTANT, nullable=True),
        _fk("outage_credit_grants", "event_id", "outage_credits.event_id", "CASCADE"),
        _fk("outage_credit_grants", "purchase_id", "purchases.id", "CASCADE"),
        _fk("outage_credit_grants", "user_id", "users.id", "SET NULL"),
        _fk("outage_credit_grants", "access_code_id", "access_codes.id", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outage_credit_grants")),
        sa.UniqueConstraint("purchase_id", name="uq_outage_credit_grants_purchase_id"),
    )
    op.create_index(op.f("ix_outage_credit_grants_event_id"), "outage_credit_grants", ["event_id"])
    op.create_index(op.f("ix_outage_credit_grants_user_id"), "outage_credit_grants", ["user_id"])

    op.create_table(
        "payment_refunds",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("provider", sa.String(length=20), nullable=False),
        sa.Column("reference", sa.String(length=255), nullable=False),
        sa.Column("charge_id", sa.String(length=40), nullable=False),
        sa.Column("amount_minor", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("created", INSTANT, nullable=False),
        _fk("payment_refunds", "charge_id", "payment_charges.id", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_refunds")),
        sa.UniqueConstraint("provider", "reference", name="uq_payment_refunds_provider_reference"),
    )
    op.create_index(op.f("ix_payment_refunds_charge_id"), "payment_refunds", ["charge_id"])


def downgrade() -> None:
    op.drop_table("payment_refunds")
    op.drop_table("outage_credit_grants")
    op.drop_table("outage_credits")
    op.drop_table("event_outages")
    op.drop_table("qoe_alert_states")
    op.drop_table("qoe_steps")
    op.drop_table("qoe_views")
    op.drop_table("qoe_beacons")
