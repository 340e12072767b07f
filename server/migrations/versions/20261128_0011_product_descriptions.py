"""product descriptions in the webapp's other languages: products.descriptions, locale -> text

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 08:00:00.000000+00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("products") as batch:
        batch.add_column(sa.Column("descriptions", sa.JSON(), nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("products") as batch:
        batch.drop_column("descriptions")
