"""drop batches.counters

The per-stage counters were written by every chunk (two GROUP BYs) and read by no route: the
funnel is always recomputed from rows (`app.synthesis.funnel`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('batches', schema=None) as batch_op:
        batch_op.drop_column('counters')


def downgrade() -> None:
    with op.batch_alter_table('batches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('counters', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'),
                                      nullable=False, server_default='{}'))
