"""staff tools: roles support and admin, API keys, the audit log

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 19:00:00.000000+00:00

The one `staff` role becomes `admin` (what staff could do before, and more); `support` is new.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.String(length=24), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_api_keys_created_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_api_keys_secret_hash")),
    )
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_api_keys_prefix"), ["prefix"], unique=False)

    op.create_table(
        "audit_entries",
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_type", sa.String(length=10), nullable=False),
        sa.Column("actor_id", sa.String(length=24), nullable=True),
        sa.Column("actor_label", sa.String(length=254), nullable=True),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("path", sa.String(length=500), nullable=False),
        sa.Column("target", sa.String(length=200), nullable=True),
        sa.Column("client_address", sa.String(length=64), nullable=True),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entries")),
    )
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.create_index("ix_audit_entries_at", ["at"], unique=False)
        batch_op.create_index("ix_audit_entries_actor_id", ["actor_id"], unique=False)
        batch_op.create_index("ix_audit_entries_action", ["action"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_entries_target"), ["target"], unique=False)

    op.execute(sa.text("UPDATE users SET role = 'admin' WHERE role = 'staff'"))


def downgrade() -> None:
    op.execute(sa.text("UPDATE users SET role = 'staff' WHERE role IN ('admin', 'support')"))
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_entries_target"))
        batch_op.drop_index("ix_audit_entries_action")
        batch_op.drop_index("ix_audit_entries_actor_id")
        batch_op.drop_index("ix_audit_entries_at")
    op.drop_table("audit_entries")
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_api_keys_prefix"))
    op.drop_table("api_keys")
