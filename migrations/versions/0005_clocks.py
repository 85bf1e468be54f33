"""clocks, Web Push subscriptions, the server's own keys, and "play again" rematches

Revision ID: 0005_clocks
Revises: 0002
Create Date: 2026-11-30 11:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005_clocks'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'clocks',
        sa.Column('table_id', sa.Integer(), sa.ForeignKey('tables.id'), primary_key=True),
        sa.Column('settings', sa.JSON(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('state', sa.JSON(), nullable=False),
        sa.Column('due_at', sa.DateTime(), nullable=True),
    )
    op.create_index('ix_clocks_due_at', 'clocks', ['due_at'])
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('endpoint', sa.String(1024), nullable=False),
        sa.Column('p256dh', sa.String(200), nullable=False),
        sa.Column('auth', sa.String(100), nullable=False),
        sa.Column('last_seq', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.UniqueConstraint('player_id', 'endpoint', name='uq_push_player_endpoint'),
    )
    op.create_index('ix_push_subscriptions_player_id', 'push_subscriptions', ['player_id'])
    op.create_table(
        'server_keys',
        sa.Column('name', sa.String(40), primary_key=True),
        sa.Column('value', sa.Text(), nullable=False),
    )
    op.create_table(
        'rematches',
        sa.Column('table_id', sa.Integer(), sa.ForeignKey('tables.id'), primary_key=True),
        sa.Column('new_table_id', sa.Integer(), sa.ForeignKey('tables.id'), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('rematches')
    op.drop_table('server_keys')
    op.drop_index('ix_push_subscriptions_player_id', 'push_subscriptions')
    op.drop_table('push_subscriptions')
    op.drop_index('ix_clocks_due_at', 'clocks')
    op.drop_table('clocks')
