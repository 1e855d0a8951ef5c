"""Statistics: a per-game cache of what the stored cards say

The tables start empty and fill themselves: the statistics pages count each
finished game's cards into them the first time they are needed (a few seconds a
page view for a big league), or ``flask scorebook stats`` counts them all at once.

Revision ID: 1eda11c2c772
Revises: a7e3d51c9b20
Create Date: 2026-12-01 11:34:45.148902

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '1eda11c2c772'
down_revision = 'a7e3d51c9b20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('game_stat',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('winner_id', sa.Integer(), nullable=True),
    sa.Column('with_jokers', sa.Boolean(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('comeback', sa.Integer(), nullable=False),
    sa.Column('comeback_hand', sa.Integer(), nullable=True),
    sa.Column('swing', sa.Integer(), nullable=False),
    sa.Column('swing_hand', sa.Integer(), nullable=True),
    sa.Column('swing_before', sa.Integer(), nullable=False),
    sa.Column('swing_after', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_stat_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['league.id'], name=op.f('fk_game_stat_league_id_league')),
    sa.ForeignKeyConstraint(['winner_id'], ['player.id'], name=op.f('fk_game_stat_winner_id_player')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_stat'))
    )
    with op.batch_alter_table('game_stat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_stat_league_id'), ['league_id'], unique=False)

    op.create_table('layoff_tally',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('owner_id', sa.Integer(), nullable=False),
    sa.Column('cards', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_layoff_tally_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['owner_id'], ['player.id'], name=op.f('fk_layoff_tally_owner_id_player')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_layoff_tally_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', 'owner_id', name=op.f('pk_layoff_tally'))
    )
    with op.batch_alter_table('layoff_tally', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_layoff_tally_owner_id'), ['owner_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_layoff_tally_player_id'), ['player_id'], unique=False)

    op.create_table('player_game_stat',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('card_hands', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('hands_out', sa.Integer(), nullable=False),
    sa.Column('going_rummy', sa.Integer(), nullable=False),
    sa.Column('best_score', sa.Integer(), nullable=True),
    sa.Column('best_hand', sa.Integer(), nullable=True),
    sa.Column('worst_score', sa.Integer(), nullable=True),
    sa.Column('worst_hand', sa.Integer(), nullable=True),
    sa.Column('out_streak', sa.Integer(), nullable=False),
    sa.Column('out_streak_hand', sa.Integer(), nullable=True),
    sa.Column('melded_points', sa.Integer(), nullable=False),
    sa.Column('laid_off_points', sa.Integer(), nullable=False),
    sa.Column('stranded_points', sa.Integer(), nullable=False),
    sa.Column('melded_cards', sa.Integer(), nullable=False),
    sa.Column('laid_off_cards', sa.Integer(), nullable=False),
    sa.Column('stranded_cards', sa.Integer(), nullable=False),
    sa.Column('caught', sa.Integer(), nullable=False),
    sa.Column('max_stranded', sa.Integer(), nullable=True),
    sa.Column('max_stranded_hand', sa.Integer(), nullable=True),
    sa.Column('jokers_melded', sa.Integer(), nullable=False),
    sa.Column('jokers_laid_off', sa.Integer(), nullable=False),
    sa.Column('jokers_stranded', sa.Integer(), nullable=False),
    sa.Column('joker_points', sa.Integer(), nullable=False),
    sa.Column('joker_stranded_points', sa.Integer(), nullable=False),
    sa.Column('aces_low', sa.Integer(), nullable=False),
    sa.Column('aces_high', sa.Integer(), nullable=False),
    sa.Column('aces_in_sets', sa.Integer(), nullable=False),
    sa.Column('aces_stranded', sa.Integer(), nullable=False),
    sa.Column('aces_stranded_points', sa.Integer(), nullable=False),
    sa.Column('sets', sa.Integer(), nullable=False),
    sa.Column('runs', sa.Integer(), nullable=False),
    sa.Column('longest_run', sa.Integer(), nullable=False),
    sa.Column('longest_run_hand', sa.Integer(), nullable=True),
    sa.Column('layoffs_on_others', sa.Integer(), nullable=False),
    sa.Column('layoffs_on_own', sa.Integer(), nullable=False),
    sa.Column('fed_by_others', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_player_game_stat_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['league.id'], name=op.f('fk_player_game_stat_league_id_league')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_game_stat_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_player_game_stat'))
    )
    with op.batch_alter_table('player_game_stat', schema=None) as batch_op:
        batch_op.create_index('ix_player_game_stat_league_finished', ['league_id', 'finished_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_player_game_stat_player_id'), ['player_id'], unique=False)

    op.create_table('stat_tally',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('item', sa.String(length=16), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_stat_tally_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_stat_tally_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', 'kind', 'item', name=op.f('pk_stat_tally'))
    )
    with op.batch_alter_table('stat_tally', schema=None) as batch_op:
        batch_op.create_index('ix_stat_tally_player_kind', ['player_id', 'kind', 'item', 'count', 'finished_at'], unique=False)



def downgrade():
    with op.batch_alter_table('stat_tally', schema=None) as batch_op:
        batch_op.drop_index('ix_stat_tally_player_kind')

    op.drop_table('stat_tally')
    with op.batch_alter_table('player_game_stat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_game_stat_player_id'))
        batch_op.drop_index('ix_player_game_stat_league_finished')

    op.drop_table('player_game_stat')
    with op.batch_alter_table('layoff_tally', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_layoff_tally_player_id'))
        batch_op.drop_index(batch_op.f('ix_layoff_tally_owner_id'))

    op.drop_table('layoff_tally')
    with op.batch_alter_table('game_stat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_stat_league_id'))

    op.drop_table('game_stat')
