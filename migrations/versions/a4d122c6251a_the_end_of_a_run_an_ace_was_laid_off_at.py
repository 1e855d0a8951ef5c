"""The end of a run an ace was laid off at (values.ace-end)

An ace laid off on a run 2..K may go at either end, and scores by it. Hands stored
before this column have none: their aces lay at the low end, as they were scored.

Revision ID: a4d122c6251a
Revises: 8b20bcdb8c55
Create Date: 2026-12-01 08:56:09.883763

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a4d122c6251a'
down_revision = '8b20bcdb8c55'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('meld_card', schema=None) as batch_op:
        batch_op.add_column(sa.Column('run_end', sa.String(length=4), nullable=True))
        batch_op.create_check_constraint(
            'run_end', "run_end IS NULL OR run_end IN ('low', 'high')")


def downgrade():
    with op.batch_alter_table('meld_card', schema=None) as batch_op:
        batch_op.drop_constraint('run_end', type_='check')
        batch_op.drop_column('run_end')
