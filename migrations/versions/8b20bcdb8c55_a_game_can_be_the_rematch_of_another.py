"""A game can be the rematch of another ("Play again"): game.rematch_of_id, unique

Revision ID: 8b20bcdb8c55
Revises: 25357d6d2bf4
Create Date: 2026-12-01 08:57:59.198319

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8b20bcdb8c55'
down_revision = '25357d6d2bf4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rematch_of_id', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_game_rematch_of_id'), ['rematch_of_id'])
        batch_op.create_foreign_key(batch_op.f('fk_game_rematch_of_id_game'), 'game', ['rematch_of_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_rematch_of_id_game'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_game_rematch_of_id'), type_='unique')
        batch_op.drop_column('rematch_of_id')
