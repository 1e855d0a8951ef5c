"""Background jobs: the job table, and the league a job is still importing

Revision ID: c3f9a2d7e5b1
Revises: c4d2a8e6f1b3
Create Date: 2026-12-02 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3f9a2d7e5b1'
down_revision = 'c4d2a8e6f1b3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'job',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('owner', sa.String(length=40), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=True),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('checkpoint', sa.JSON(), nullable=True),
        sa.Column('done', sa.Integer(), server_default='0', nullable=False),
        sa.Column('total', sa.Integer(), nullable=True),
        sa.Column('worker', sa.String(length=80), nullable=True),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('attempts', sa.Integer(), server_default='0', nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('error', sa.JSON(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('queued', 'running', 'done', 'failed')",
                           name='ck_job_state'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_job_state_id', 'job', ['state', 'id'])
    op.create_index('ix_job_owner_state', 'job', ['owner', 'state'])
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('import_job_id', sa.Integer(), nullable=True))
        batch_op.create_index('ix_league_import_job_id', ['import_job_id'])


def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_index('ix_league_import_job_id')
        batch_op.drop_column('import_job_id')
    op.drop_index('ix_job_owner_state', table_name='job')
    op.drop_index('ix_job_state_id', table_name='job')
    op.drop_table('job')
