"""A player's statistics, hand scores and head to head summed per season, kept on
write; the league history's order indexed

Revision ID: b7e4a91c3d52
Revises: f3b1c7d2e9a4
Create Date: 2026-12-01 15:50:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'b7e4a91c3d52'
down_revision = 'f3b1c7d2e9a4'
branch_labels = None
depends_on = None

SUMMED = ("hands", "card_hands", "points", "hands_out", "going_rummy", "melded_points",
          "laid_off_points", "stranded_points", "melded_cards", "laid_off_cards",
          "stranded_cards", "caught", "jokers_melded", "jokers_laid_off",
          "jokers_stranded", "joker_points", "joker_stranded_points", "aces_low",
          "aces_high", "aces_in_sets", "aces_stranded", "aces_stranded_points", "sets",
          "runs", "layoffs_on_others", "layoffs_on_own", "fed_by_others")
LINKS = ("best_score", "worst_score", "out_streak", "longest_run", "max_stranded")


def upgrade():
    op.create_table(
        'player_stat_sum',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('joker_games', sa.Integer(), nullable=False),
        sa.Column('basic_games', sa.Integer(), nullable=False),
        *[sa.Column(name, sa.Integer(), nullable=False) for name in SUMMED],
        sa.ForeignKeyConstraint(['league_id'], ['league.id'],
                                name=op.f('fk_player_stat_sum_league_id_league'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_player_stat_sum_player_id_player'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'season_id', name=op.f('pk_player_stat_sum')),
    )
    with op.batch_alter_table('player_stat_sum', schema=None) as batch_op:
        batch_op.create_index('ix_player_stat_sum_league_season', ['league_id', 'season_id'],
                              unique=False)
    op.create_table(
        'player_score_sum',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('score', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('hands', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'],
                                name=op.f('fk_player_score_sum_league_id_league'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_player_score_sum_player_id_player'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'season_id', 'score',
                                name=op.f('pk_player_score_sum')),
    )
    op.create_table(
        'player_pair_sum',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('opponent_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        *[sa.Column(name, sa.Integer(), nullable=False)
          for name in ('games', 'ahead', 'behind', 'wins', 'their_wins')],
        sa.ForeignKeyConstraint(['league_id'], ['league.id'],
                                name=op.f('fk_player_pair_sum_league_id_league'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['opponent_id'], ['player.id'],
                                name=op.f('fk_player_pair_sum_opponent_id_player'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_player_pair_sum_player_id_player'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'opponent_id', 'season_id',
                                name=op.f('pk_player_pair_sum')),
    )
    with op.batch_alter_table('player_game_stat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('position', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('won', sa.Boolean(), nullable=True))
        for name in LINKS:
            batch_op.create_index(f'ix_player_game_stat_player_{name}',
                                  ['player_id', name, 'finished_at', 'game_id'], unique=False)
    with op.batch_alter_table('game_result', schema=None) as batch_op:
        batch_op.create_index('ix_game_result_player_seq_mu', ['player_id', 'seq', 'mu'],
                              unique=False)
    op.create_index('ix_game_league_history', 'game',
                    ['league_id', sa.text('coalesce(finished_at, started_at)'), 'id'],
                    unique=False)
    # the rows counted already: their places from the results
    op.execute("UPDATE player_game_stat SET "
               "position = (SELECT r.position FROM game_result r WHERE r.game_id = "
               "player_game_stat.game_id AND r.player_id = player_game_stat.player_id), "
               "won = (SELECT r.won FROM game_result r WHERE r.game_id = "
               "player_game_stat.game_id AND r.player_id = player_game_stat.player_id)")
    # the leagues counted already: each one's hand-score tallies and sums, once
    from sqlalchemy.orm import Session

    from scorebook.services.stats import cache
    session = Session(bind=op.get_bind())
    for (league_id,) in session.execute(sa.text("SELECT DISTINCT league_id FROM game_stat")):
        cache.backfill_sums(session, league_id)
    session.flush()


def downgrade():
    op.execute("DELETE FROM stat_tally WHERE kind = 'score'")
    op.drop_index('ix_game_league_history', table_name='game')
    with op.batch_alter_table('game_result', schema=None) as batch_op:
        batch_op.drop_index('ix_game_result_player_seq_mu')
    with op.batch_alter_table('player_game_stat', schema=None) as batch_op:
        for name in reversed(LINKS):
            batch_op.drop_index(f'ix_player_game_stat_player_{name}')
        batch_op.drop_column('won')
        batch_op.drop_column('position')
    op.drop_table('player_pair_sum')
    op.drop_table('player_score_sum')
    with op.batch_alter_table('player_stat_sum', schema=None) as batch_op:
        batch_op.drop_index('ix_player_stat_sum_league_season')
    op.drop_table('player_stat_sum')
