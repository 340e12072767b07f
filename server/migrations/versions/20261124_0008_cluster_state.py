"""cluster state: job leases (each background job runs once across the server processes) and
the purchase-status notices a process must not lose between its commit and its socket message

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 21:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_leases",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("holder", sa.String(length=80), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_run", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_outcome", sa.String(length=10), nullable=True),
        sa.Column("last_holder", sa.String(length=80), nullable=True),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_job_leases")),
    )
    op.create_table(
        "status_notices",
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("record_id", sa.String(length=24), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("product_id", sa.String(length=24), nullable=False),
        sa.Column("event_id", sa.String(length=24), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_status_notices")),
    )
    op.create_index("ix_status_notices_unsent", "status_notices", ["sent_at", "created"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_status_notices_unsent", table_name="status_notices")
    op.drop_table("status_notices")
    op.drop_table("job_leases")
