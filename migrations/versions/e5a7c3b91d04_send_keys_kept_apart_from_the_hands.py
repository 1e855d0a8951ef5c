"""The keys of the sends are kept apart from the hands (send_key), with what each send
did (the hand it stored, its number and version then), for SEND_KEY_DAYS: a send tried
again after another phone deleted its hand is told so instead of storing it again, and
of sends with one key at once exactly one stores the hand. hand.record_key and
hand.edit_key move there.

Revision ID: e5a7c3b91d04
Revises: c5d2e8a1f0b7
Create Date: 2026-12-02 05:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5a7c3b91d04'
down_revision = 'c5d2e8a1f0b7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'send_key',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=6), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('hand_id', sa.Integer(), nullable=True),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('record', 'edit')", name=op.f('ck_send_key_kind')),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_send_key_game_id_game'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['hand_id'], ['hand.id'], name=op.f('fk_send_key_hand_id_hand'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_send_key')),
        sa.UniqueConstraint('game_id', 'kind', 'key', name=op.f('uq_send_key_game_id_kind_key')),
    )
    with op.batch_alter_table('send_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_send_key_hand_id'), ['hand_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_send_key_created_at'), ['created_at'],
                              unique=False)
    # the keys the hands kept, as kept now (counted from now: older sends are long answered)
    op.execute(
        "INSERT INTO send_key (game_id, kind, key, hand_id, number, version, created_at) "
        "SELECT game_id, 'record', record_key, id, number, version, CURRENT_TIMESTAMP "
        "FROM hand WHERE record_key IS NOT NULL")
    op.execute(
        "INSERT INTO send_key (game_id, kind, key, hand_id, number, version, created_at) "
        "SELECT game_id, 'edit', edit_key, id, number, version, CURRENT_TIMESTAMP "
        "FROM hand WHERE edit_key IS NOT NULL")
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_hand_game_id_record_key'), type_='unique')
        batch_op.drop_column('edit_key')
        batch_op.drop_column('record_key')


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('record_key', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('edit_key', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_hand_game_id_record_key'),
                                          ['game_id', 'record_key'])
    op.execute(
        "UPDATE hand SET record_key = (SELECT s.key FROM send_key s WHERE s.hand_id = hand.id "
        "AND s.kind = 'record')")
    op.execute(
        "UPDATE hand SET edit_key = (SELECT MAX(s.key) FROM send_key s "
        "WHERE s.hand_id = hand.id AND s.kind = 'edit' AND s.version = hand.version)")
    with op.batch_alter_table('send_key', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_send_key_created_at'))
        batch_op.drop_index(batch_op.f('ix_send_key_hand_id'))
    op.drop_table('send_key')
