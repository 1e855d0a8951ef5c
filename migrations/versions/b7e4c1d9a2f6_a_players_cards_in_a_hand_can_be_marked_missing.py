"""A player's score in a hand can say that their cards are not all recorded

Revision ID: b7e4c1d9a2f6
Revises: 3cef569ac9de
Create Date: 2026-12-03 10:00:00.000000

- ``hand_score.cards_missing``: the player ends the hand with fewer cards than were dealt
  (RULES.md §10 "Fewer cards than dealt") and the family said it does not remember the
  rest. Hands stored before were never asked, so the column starts false for them:
  ``flask scorebook verify`` lists those that are short of cards as not confirmed.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7e4c1d9a2f6'
down_revision = '3cef569ac9de'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand_score', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cards_missing', sa.Boolean(),
                                      server_default=sa.text('false'), nullable=False))


def downgrade():
    with op.batch_alter_table('hand_score', schema=None) as batch_op:
        batch_op.drop_column('cards_missing')
