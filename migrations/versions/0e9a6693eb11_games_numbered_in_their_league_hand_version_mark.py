"""Games numbered within their league; a hand-version mark per game; history details

Revision ID: 0e9a6693eb11
Revises: 881091dceb55
Create Date: 2026-12-01 08:50:43.429136

- ``game.number``: a game's number within its league (the first game of a family's
  league is Game 1), filled in for the games already stored in the order they were
  started, then unique per league.
- ``game.hand_version_mark``: the highest version a hand of the game had when it gave
  up its number. Filled with the highest version of the game's stored hands, so that
  a form opened before the upgrade can never match a hand that later takes its number.
- ``change.details`` (what an edit changed, what a deleted hand held) and
  ``change.player`` (the name the phone joined the league as).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0e9a6693eb11'
down_revision = '881091dceb55'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.add_column(sa.Column('details', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('player', sa.String(length=40), nullable=True))

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('hand_version_mark', sa.Integer(), server_default='0',
                                      nullable=False))

    op.execute("UPDATE change SET player = ''")
    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.alter_column('player', existing_type=sa.String(length=40), nullable=False)

    op.execute(
        "UPDATE game SET number = (SELECT count(*) FROM game AS earlier "
        "WHERE earlier.league_id = game.league_id AND earlier.id <= game.id)")
    op.execute(
        "UPDATE game SET hand_version_mark = COALESCE("
        "(SELECT max(hand.version) FROM hand WHERE hand.game_id = game.id), 0)")

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('number', existing_type=sa.Integer(), nullable=False)
        batch_op.create_unique_constraint(batch_op.f('uq_game_league_id_number'),
                                          ['league_id', 'number'])


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_game_league_id_number'), type_='unique')
        batch_op.drop_column('hand_version_mark')
        batch_op.drop_column('number')

    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.drop_column('player')
        batch_op.drop_column('details')
