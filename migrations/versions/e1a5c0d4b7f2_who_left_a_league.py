"""Who left a league: the role, device and player name of each membership ended by leaving

Revision ID: e1a5c0d4b7f2
Revises: e5a7c3b91d04
Create Date: 2026-12-02 05:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e1a5c0d4b7f2'
down_revision = 'e5a7c3b91d04'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('ended_membership', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=10), server_default=sa.text("''"),
                                      nullable=False))
        batch_op.add_column(sa.Column('device', sa.String(length=80), server_default=sa.text("''"),
                                      nullable=False))
        batch_op.add_column(sa.Column('player', sa.String(length=40), server_default=sa.text("''"),
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('ended_membership', schema=None) as batch_op:
        batch_op.drop_column('player')
        batch_op.drop_column('device')
        batch_op.drop_column('role')
