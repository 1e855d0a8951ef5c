"""A hand keeps the keys of the sends that recorded it and last changed it (hand.record_key,
unique in its game, and hand.edit_key): a send tried again after its answer was lost is
told "stored" instead of storing the hand twice (static/js/outbox.js)

Revision ID: d80c3f3c2000
Revises: 1eda11c2c772
Create Date: 2026-12-01 12:17:29.691676

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd80c3f3c2000'
down_revision = '1eda11c2c772'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('record_key', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('edit_key', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_hand_game_id_record_key'),
                                          ['game_id', 'record_key'])


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_hand_game_id_record_key'), type_='unique')
        batch_op.drop_column('edit_key')
        batch_op.drop_column('record_key')
