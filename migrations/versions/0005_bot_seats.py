"""bots at the table: players.bot and is_bot, tables.bot_after_seconds, handover votes, seat changes

Revision ID: 0005_bot_seats
Revises: 0004_private_chats
Create Date: 2026-11-30 11:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005_bot_seats'
down_revision: str | None = '0004_private_chats'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_after_seconds', sa.Integer(), nullable=True))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('is_bot', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table('handover_votes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=False),
    sa.Column('voter_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['target_id'], ['players.id'], ),
    sa.ForeignKeyConstraint(['voter_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('target_id', 'voter_id', name='uq_handover_votes_target_voter')
    )
    op.create_index(op.f('ix_handover_votes_table_id'), 'handover_votes', ['table_id'], unique=False)
    op.create_table('seat_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_seat_changes_table_id'), 'seat_changes', ['table_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_seat_changes_table_id'), table_name='seat_changes')
    op.drop_table('seat_changes')
    op.drop_index(op.f('ix_handover_votes_table_id'), table_name='handover_votes')
    op.drop_table('handover_votes')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('is_bot')
        batch_op.drop_column('bot')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('bot_after_seconds')
