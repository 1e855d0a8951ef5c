"""Played hands: a live hand may also be logged turn by turn (issue 29): its deal
(played_hand: the first upturned card, the cards dealt) and each move (played_move: by
whom, the move, the phone's key for the send, the rule the table overrode)

Revision ID: b9d4f2a6c8e1
Revises: a7e3c9d1f5b2
Create Date: 2026-12-02 18:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b9d4f2a6c8e1'
down_revision = 'a7e3c9d1f5b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'played_hand',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('hand_id', sa.Integer(), nullable=False),
        sa.Column('upcard', sa.String(length=4), nullable=False),
        sa.Column('dealt', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['hand_id'], ['hand.id'],
                                name=op.f('fk_played_hand_hand_id_hand'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_played_hand')),
        sa.UniqueConstraint('hand_id', name=op.f('uq_played_hand_hand_id')),
    )
    op.create_table(
        'played_move',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('hand_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('move', sa.JSON(), nullable=False),
        sa.Column('overridden', sa.String(length=80), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['hand_id'], ['hand.id'],
                                name=op.f('fk_played_move_hand_id_hand'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_played_move_player_id_player')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_played_move')),
        sa.UniqueConstraint('hand_id', 'position',
                            name=op.f('uq_played_move_hand_id_position')),
        sa.UniqueConstraint('hand_id', 'key', name=op.f('uq_played_move_hand_id_key')),
    )


def downgrade():
    op.drop_table('played_move')
    op.drop_table('played_hand')
