"""mail staff may read, audit detail and counted entries: outbox_mail.staff_text (the text with
its secrets redacted), audit_entries.detail, .count and .aggregate_key

Mail written before this revision has no record of its secrets: staff see the text of kinds that
never carry one, and a notice instead of the text of those that do (a reset link).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 10:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

SECRET_KINDS = ("password_reset",)
WITHHELD = "(Not shown: this mail was written before its secrets were redacted for staff.)\n"


def upgrade() -> None:
    with op.batch_alter_table("outbox_mail") as batch:
        batch.add_column(sa.Column("staff_text", sa.Text(), nullable=True))
    mail = sa.table("outbox_mail", sa.column("kind", sa.String), sa.column("text", sa.Text), sa.column("staff_text"))
    op.execute(
        mail.update().values(
            staff_text=sa.case((mail.c.kind.in_(SECRET_KINDS), sa.literal(WITHHELD)), else_=mail.c.text)
        )
    )
    with op.batch_alter_table("outbox_mail") as batch:
        batch.alter_column("staff_text", existing_type=sa.Text(), nullable=False)

    with op.batch_alter_table("audit_entries") as batch:
        batch.add_column(sa.Column("detail", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("count", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("aggregate_key", sa.String(length=64), nullable=True))
        batch.create_unique_constraint(batch.f("uq_audit_entries_aggregate_key"), ["aggregate_key"])


def downgrade() -> None:
    with op.batch_alter_table("audit_entries") as batch:
        batch.drop_constraint(batch.f("uq_audit_entries_aggregate_key"), type_="unique")
        batch.drop_column("aggregate_key")
        batch.drop_column("count")
        batch.drop_column("detail")
    with op.batch_alter_table("outbox_mail") as batch:
        batch.drop_column("staff_text")
