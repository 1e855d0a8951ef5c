"""League player tallies kept on write: the standings read one row per player

Revision ID: f3b1c7d2e9a4
Revises: d80c3f3c2000
Create Date: 2026-05-02 12:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'f3b1c7d2e9a4'
down_revision = 'd80c3f3c2000'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'player_tally',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('positions', sa.Integer(), nullable=False),
        sa.Column('hands', sa.Integer(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.Column('best_hand', sa.Integer(), nullable=True),
        sa.Column('best_total', sa.Integer(), nullable=True),
        sa.Column('melded', sa.Integer(), nullable=False),
        sa.Column('stranded', sa.Integer(), nullable=False),
        sa.Column('streak', sa.Integer(), nullable=False),
        sa.Column('streak_won', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'season_id'),
    )
    with op.batch_alter_table('player_tally', schema=None) as batch_op:
        batch_op.create_index('ix_player_tally_league_season', ['league_id', 'season_id'],
                              unique=False)
    with op.batch_alter_table('game_result', schema=None) as batch_op:
        batch_op.create_index('ix_game_result_player_finished', ['player_id', 'finished_at'],
                              unique=False)
        batch_op.create_index('ix_game_result_league_finished', ['league_id', 'finished_at'],
                              unique=False)
    # the leagues already stored: each one's tallies counted once from its results
    from sqlalchemy.orm import Session

    from scorebook.services import ratings
    session = Session(bind=op.get_bind())
    for (league_id,) in session.execute(sa.text("SELECT DISTINCT league_id FROM game_result")):
        ratings.retally(session, league_id)
    session.flush()


def downgrade():
    with op.batch_alter_table('game_result', schema=None) as batch_op:
        batch_op.drop_index('ix_game_result_league_finished')
        batch_op.drop_index('ix_game_result_player_finished')
    with op.batch_alter_table('player_tally', schema=None) as batch_op:
        batch_op.drop_index('ix_player_tally_league_season')
    op.drop_table('player_tally')
