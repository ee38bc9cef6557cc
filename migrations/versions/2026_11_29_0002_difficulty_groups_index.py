"""covering index for the difficulty aggregate

The stats endpoint groups every sample by (type, method, level, status, solver_k,
solver_passes). With this index Postgres answers that with an index-only scan in group order
(about half the time of a sequential scan plus hash aggregate at a million samples). It
replaces the (constraint_type, constraint_method) index, which is its prefix.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 13:45:00
"""

from __future__ import annotations

from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

COLUMNS = ['constraint_type', 'constraint_method', 'level', 'status', 'solver_k', 'solver_passes']


def upgrade() -> None:
    with op.batch_alter_table('samples', schema=None) as batch_op:
        batch_op.create_index('ix_samples_difficulty_groups', COLUMNS, unique=False)
        batch_op.drop_index(batch_op.f('ix_samples_constraint_type_constraint_method'))


def downgrade() -> None:
    with op.batch_alter_table('samples', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_samples_constraint_type_constraint_method'),
                              ['constraint_type', 'constraint_method'], unique=False)
        batch_op.drop_index('ix_samples_difficulty_groups')
