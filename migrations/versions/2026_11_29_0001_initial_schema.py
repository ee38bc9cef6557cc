"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 10:37:01.727212
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('api_keys',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('prefix', sa.String(length=16), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('rate_limit_per_minute', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_keys')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_api_keys_key_hash'))
    )
    op.create_table('batches',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('spec', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('seed', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('status', sa.String(length=24), nullable=False),
    sa.Column('priority', sa.Integer(), nullable=False),
    sa.Column('teacher', sa.String(length=64), nullable=False),
    sa.Column('idempotency_key', sa.String(length=128), nullable=True),
    sa.Column('api_key_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('counters', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('programs_requested', sa.Integer(), nullable=False),
    sa.Column('prompt_tokens', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('completion_tokens', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('cost_usd', sa.Float(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['api_key_id'], ['api_keys.id'], name=op.f('fk_batches_api_key_id_api_keys'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_batches')),
    sa.UniqueConstraint('idempotency_key', name=op.f('uq_batches_idempotency_key'))
    )
    with op.batch_alter_table('batches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_batches_status_created_at'), ['status', 'created_at'], unique=False)

    op.create_table('exports',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('format', sa.String(length=24), nullable=False),
    sa.Column('spec', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('window_key', sa.String(length=96), nullable=True),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=True),
    sa.Column('window_end', sa.DateTime(timezone=True), nullable=True),
    sa.Column('out_dir', sa.Text(), nullable=True),
    sa.Column('files', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('manifest', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('sample_count', sa.Integer(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('api_key_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['api_key_id'], ['api_keys.id'], name=op.f('fk_exports_api_key_id_api_keys'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exports')),
    sa.UniqueConstraint('window_key', name=op.f('uq_exports_window_key'))
    )
    op.create_table('teacher_calls',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('request_key', sa.String(length=200), nullable=False),
    sa.Column('purpose', sa.String(length=24), nullable=False),
    sa.Column('teacher', sa.String(length=64), nullable=False),
    sa.Column('model', sa.String(length=128), nullable=False),
    sa.Column('prompt', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('prompt_template', sa.String(length=32), nullable=True),
    sa.Column('params', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('raw_completion', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('status', sa.String(length=24), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('prompt_tokens', sa.Integer(), nullable=False),
    sa.Column('completion_tokens', sa.Integer(), nullable=False),
    sa.Column('latency_ms', sa.Float(), nullable=False),
    sa.Column('cost_usd', sa.Float(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_teacher_calls_batch_id_batches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teacher_calls')),
    sa.UniqueConstraint('batch_id', 'request_key', name=op.f('uq_teacher_calls_batch_id_request_key'))
    )
    with op.batch_alter_table('teacher_calls', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_teacher_calls_batch_id'), ['batch_id'], unique=False)

    op.create_table('programs',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('slot', sa.Integer(), nullable=False),
    sa.Column('variant', sa.Integer(), nullable=False),
    sa.Column('parent_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('origin', sa.String(length=24), nullable=False),
    sa.Column('teacher_call_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('constraint_type', sa.String(length=32), nullable=False),
    sa.Column('constraint_method', sa.String(length=64), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('requested', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('measured', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('prompt_template', sa.String(length=32), nullable=True),
    sa.Column('source', sa.Text(), nullable=True),
    sa.Column('entry_point', sa.String(length=128), nullable=True),
    sa.Column('call_args', sa.Text(), nullable=True),
    sa.Column('normalized_hash', sa.String(length=64), nullable=True),
    sa.Column('dedup_key', sa.String(length=64), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('reject_reason', sa.String(length=64), nullable=True),
    sa.Column('reject_detail', sa.Text(), nullable=True),
    sa.Column('provenance', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_programs_batch_id_batches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['parent_id'], ['programs.id'], name=op.f('fk_programs_parent_id_programs'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_call_id'], ['teacher_calls.id'], name=op.f('fk_programs_teacher_call_id_teacher_calls'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_programs')),
    sa.UniqueConstraint('batch_id', 'slot', 'variant', name=op.f('uq_programs_batch_id_slot_variant')),
    sa.UniqueConstraint('dedup_key', name=op.f('uq_programs_dedup_key'))
    )
    with op.batch_alter_table('programs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_programs_batch_id_status_reject_reason'), ['batch_id', 'status', 'reject_reason'], unique=False)
        batch_op.create_index(batch_op.f('ix_programs_normalized_hash'), ['normalized_hash'], unique=False)
        batch_op.create_index(batch_op.f('ix_programs_parent_id'), ['parent_id'], unique=False)

    op.create_table('executions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('program_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('args_source', sa.Text(), nullable=False),
    sa.Column('args_hash', sa.String(length=64), nullable=False),
    sa.Column('input_origin', sa.String(length=24), nullable=False),
    sa.Column('hash_seed', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=24), nullable=False),
    sa.Column('result', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('exception', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('stdout', sa.Text(), nullable=True),
    sa.Column('trace', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('duration_ms', sa.Float(), nullable=False),
    sa.Column('python_version', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['program_id'], ['programs.id'], name=op.f('fk_executions_program_id_programs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_executions')),
    sa.UniqueConstraint('program_id', 'args_hash', 'hash_seed', name=op.f('uq_executions_program_id_args_hash_hash_seed'))
    )
    op.create_table('samples',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('program_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('execution_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('args_hash', sa.String(length=64), nullable=False),
    sa.Column('args_source', sa.Text(), nullable=False),
    sa.Column('input_index', sa.Integer(), nullable=False),
    sa.Column('input_origin', sa.String(length=24), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('reject_reason', sa.String(length=64), nullable=True),
    sa.Column('reject_detail', sa.Text(), nullable=True),
    sa.Column('constraint_type', sa.String(length=32), nullable=False),
    sa.Column('constraint_method', sa.String(length=64), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('difficulty_level', sa.String(length=16), nullable=True),
    sa.Column('difficulty_score', sa.Float(), nullable=True),
    sa.Column('features', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('solver_passes', sa.Integer(), nullable=True),
    sa.Column('solver_k', sa.Integer(), nullable=True),
    sa.Column('teacher_solved', sa.Boolean(), nullable=True),
    sa.Column('result_chars', sa.Integer(), nullable=True),
    sa.Column('trace_steps', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_samples_batch_id_batches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['execution_id'], ['executions.id'], name=op.f('fk_samples_execution_id_executions'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['program_id'], ['programs.id'], name=op.f('fk_samples_program_id_programs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_samples')),
    sa.UniqueConstraint('program_id', 'args_hash', name=op.f('uq_samples_program_id_args_hash'))
    )
    with op.batch_alter_table('samples', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_samples_batch_id_status_reject_reason'), ['batch_id', 'status', 'reject_reason'], unique=False)
        batch_op.create_index(batch_op.f('ix_samples_constraint_type_constraint_method'), ['constraint_type', 'constraint_method'], unique=False)
        batch_op.create_index(batch_op.f('ix_samples_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_samples_status_level_constraint_type'), ['status', 'level', 'constraint_type'], unique=False)

    op.create_table('questions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('sample_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('line', sa.Integer(), nullable=True),
    sa.Column('visit', sa.Integer(), nullable=True),
    sa.Column('variable', sa.String(length=128), nullable=True),
    sa.Column('prompt', sa.Text(), nullable=False),
    sa.Column('gold_answer', sa.Text(), nullable=False),
    sa.Column('payload', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.ForeignKeyConstraint(['sample_id'], ['samples.id'], name=op.f('fk_questions_sample_id_samples'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_questions')),
    sa.UniqueConstraint('sample_id', 'kind', 'position', name=op.f('uq_questions_sample_id_kind_position'))
    )


def downgrade() -> None:
    op.drop_table('questions')
    with op.batch_alter_table('samples', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_samples_status_level_constraint_type'))
        batch_op.drop_index(batch_op.f('ix_samples_created_at'))
        batch_op.drop_index(batch_op.f('ix_samples_constraint_type_constraint_method'))
        batch_op.drop_index(batch_op.f('ix_samples_batch_id_status_reject_reason'))

    op.drop_table('samples')
    op.drop_table('executions')
    with op.batch_alter_table('programs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_programs_parent_id'))
        batch_op.drop_index(batch_op.f('ix_programs_normalized_hash'))
        batch_op.drop_index(batch_op.f('ix_programs_batch_id_status_reject_reason'))

    op.drop_table('programs')
    with op.batch_alter_table('teacher_calls', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teacher_calls_batch_id'))

    op.drop_table('teacher_calls')
    op.drop_table('exports')
    with op.batch_alter_table('batches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_batches_status_created_at'))

    op.drop_table('batches')
    op.drop_table('api_keys')
