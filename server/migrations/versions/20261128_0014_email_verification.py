"""e-mail verification (issue 26 §5): users.email_verified_at and the email_verifications links

Accounts that exist already keep signing in: their address counts as verified from their creation.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 10:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))
    users = sa.table(
        "users",
        sa.column("email", sa.String),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("email_verified_at", sa.DateTime(timezone=True)),
    )
    op.execute(users.update().where(users.c.email.is_not(None)).values(email_verified_at=users.c.created))
    op.create_table(
        "email_verifications",
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_email_verifications_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_verifications")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_email_verifications_token_hash")),
    )
    with op.batch_alter_table("email_verifications", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_email_verifications_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("email_verifications", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_email_verifications_user_id"))
    op.drop_table("email_verifications")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_verified_at")
