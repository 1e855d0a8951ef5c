"""The league's games' revisions indexed: the standings' version read off the index

Revision ID: c5d2e8a1f0b7
Revises: b7e4a91c3d52
Create Date: 2026-12-01 16:45:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = 'c5d2e8a1f0b7'
down_revision = 'b7e4a91c3d52'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_game_league_revision', 'game', ['league_id', 'revision'],
                    unique=False)


def downgrade():
    op.drop_index('ix_game_league_revision', table_name='game')
