"""Undo at the table: a step can belong to a game

Revision ID: c4d2a8e6f1b3
Revises: b7e4c1d9a2f6
Create Date: 2026-12-02 09:00:00.000000

- ``undo_step.game_id``: the game a step at the table changed (a hand saved, edited or
  deleted, a live move), so each phone of the table is offered its undo
  (scorebook.services.undo). A league's merges keep it empty.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d2a8e6f1b3'
down_revision = 'b7e4c1d9a2f6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('undo_step', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_undo_step_game_id_game'), 'game',
                                    ['game_id'], ['id'], ondelete='CASCADE')
        batch_op.create_index('ix_undo_step_game', ['game_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('undo_step', schema=None) as batch_op:
        batch_op.drop_index('ix_undo_step_game')
        batch_op.drop_constraint(batch_op.f('fk_undo_step_game_id_game'), type_='foreignkey')
        batch_op.drop_column('game_id')
