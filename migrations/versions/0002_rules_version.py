"""tables.rules_version: the rules version a table was dealt under

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 09:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every table dealt before this column existed was dealt under rules version 1.
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rules_version', sa.Integer(), nullable=False, server_default='1'))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('rules_version')
