"""League ratings kept fresh on write: where a replay of stale ratings starts

Revision ID: a7e3d51c9b20
Revises: 5c1f0d2b7a93
Create Date: 2026-05-01 12:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'a7e3d51c9b20'
down_revision = '5c1f0d2b7a93'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ratings_from_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('ratings_epoch', sa.Integer(), server_default='0',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('ratings_epoch')
        batch_op.drop_column('ratings_from_seq')
