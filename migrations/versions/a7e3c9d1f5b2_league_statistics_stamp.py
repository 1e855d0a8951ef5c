"""The league's statistics stamp: a new one on every change to a finished game, and the
one under which the statistics cache was last found complete (the pages' freshness check
without reading every game)

Revision ID: a7e3c9d1f5b2
Revises: a27d5e1c9b40
Create Date: 2026-12-02 14:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7e3c9d1f5b2'
down_revision = 'a27d5e1c9b40'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stats_stamp', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('stats_seen', sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('stats_seen')
        batch_op.drop_column('stats_stamp')
