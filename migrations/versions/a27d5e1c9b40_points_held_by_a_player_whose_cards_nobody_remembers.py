"""A hand's score keeps the points of the cards left in a player's hand when they were
given as a number (nobody remembers the cards; issue 27)

Revision ID: a27d5e1c9b40
Revises: c3f9a2d7e5b1
Create Date: 2026-12-02 14:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a27d5e1c9b40'
down_revision = 'c3f9a2d7e5b1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand_score', schema=None) as batch_op:
        batch_op.add_column(sa.Column('held_points', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('hand_score', schema=None) as batch_op:
        batch_op.drop_column('held_points')
