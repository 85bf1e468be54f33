"""hints at casual tables: tables.hints, and the hints asked (one per seat and decision)

Revision ID: 0006_hints
Revises: 0005_bot_seats
Create Date: 2026-12-01 19:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006_hints'
down_revision: str | None = '0005_bot_seats'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hints', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table('hints_asked',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seat', 'seq', name='uq_hints_asked_decision')
    )
    op.create_index(op.f('ix_hints_asked_table_id'), 'hints_asked', ['table_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_hints_asked_table_id'), table_name='hints_asked')
    op.drop_table('hints_asked')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('hints')
