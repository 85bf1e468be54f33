"""private chats (diplomacy): chats between some seats, their members' read positions and
consent to publish, and their messages

Revision ID: 0004_private_chats
Revises: 0003_clocks
Create Date: 2026-11-30 11:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004_private_chats'
down_revision: str | None = '0003_clocks'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('private_chats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('members_key', sa.String(length=64), nullable=False),
    sa.Column('opened_by', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['opened_by'], ['players.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'members_key', name='uq_private_chats_members')
    )
    op.create_table('private_chat_members',
    sa.Column('chat_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('read_id', sa.Integer(), nullable=False),
    sa.Column('agreed', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['chat_id'], ['private_chats.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('chat_id', 'player_id')
    )
    with op.batch_alter_table('private_chat_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_private_chat_members_player_id'), ['player_id'], unique=False)

    op.create_table('private_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('chat_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['chat_id'], ['private_chats.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('private_messages', schema=None) as batch_op:
        batch_op.create_index('ix_private_messages_chat_id_id', ['chat_id', 'id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('private_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_private_messages_chat_id_id')
    op.drop_table('private_messages')
    with op.batch_alter_table('private_chat_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_private_chat_members_player_id'))
    op.drop_table('private_chat_members')
    op.drop_table('private_chats')
