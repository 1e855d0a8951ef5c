"""A hand can be stored as each player's points only, without its cards

Revision ID: 5c1f0d2b7a93
Revises: 0e9a6693eb11
Create Date: 2026-12-02 10:00:00.000000

- ``hand.points_only``: the hand was given as each player's points (nobody wanted to
  itemise it). Every hand stored before holds its cards, so the column starts false.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5c1f0d2b7a93'
down_revision = '0e9a6693eb11'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('points_only', sa.Boolean(),
                                      server_default=sa.text('false'), nullable=False))


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('points_only')
