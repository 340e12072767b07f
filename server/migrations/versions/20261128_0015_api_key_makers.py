"""the key that made an API key: api_keys.created_by_key (a key made by a key is capped by it)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 10:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("created_by_key", sa.String(length=24), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_api_keys_created_by_key_api_keys"), "api_keys", ["created_by_key"], ["id"], ondelete="SET NULL"
        )
        batch.create_index(batch.f("ix_api_keys_created_by_key"), ["created_by_key"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_index(batch.f("ix_api_keys_created_by_key"))
        batch.drop_constraint(batch.f("fk_api_keys_created_by_key_api_keys"), type_="foreignkey")
        batch.drop_column("created_by_key")
