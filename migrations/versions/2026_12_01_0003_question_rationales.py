"""trace-grounded rationales on questions

Each question row may hold the reasoning written from its sample's trace and verified
against it (`training.rationale`): the assertion rows (io, oi) the account of the
execution, the step rows what their step asks about. The SFT export uses them as the
assistant turn's reasoning. Nullable: a rationale that failed verification is not stored.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('questions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rationale', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('questions', schema=None) as batch_op:
        batch_op.drop_column('rationale')
