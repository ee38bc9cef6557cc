"""Seeding a throwaway Postgres database with many samples, fast, for bench/api.py.

All rows are generated server-side by `INSERT ... SELECT generate_series`, so a million
samples take seconds and no data crosses the wire. The distribution mimics a real run:
every (type, method) of the catalog, six levels, about 60% accepted, solver passes 0..10.
"""

from __future__ import annotations

import uuid

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REASONS = ("too_easy", "exec_error", "timeout", "nondeterministic", "repr_unstable")


def create_database(admin_url: str) -> str:
    name = f"execsynth_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def drop_database(admin_url: str, url: str) -> None:
    name = make_url(url).database
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def seed(url: str, samples: int, pairs: list[tuple[str, str]], inputs_per_program: int = 4) -> None:
    programs = max(1, samples // inputs_per_program)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TEMP TABLE pairs (i int, t text, m text)"))
        conn.execute(text("INSERT INTO pairs VALUES (:i, :t, :m)"),
                     [{"i": i, "t": t, "m": m} for i, (t, m) in enumerate(pairs)])
        conn.execute(text(
            "INSERT INTO batches (spec, seed, status, priority, teacher, programs_requested,"
            " prompt_tokens, completion_tokens, cost_usd, created_at, started_at)"
            " SELECT '{}'::jsonb, b, 'running', 5, 'builtin', :per_batch, 0, 0, 0,"
            " now(), now() - interval '10 minutes' FROM generate_series(1, 10) b"),
            {"per_batch": programs // 10})
        conn.execute(text(
            "INSERT INTO programs (batch_id, slot, variant, origin, constraint_type, constraint_method,"
            " level, requested, source, entry_point, status, provenance, created_at)"
            " SELECT (SELECT min(id) FROM batches) + g % 10, g, 0, 'builtin', p.t, p.m,"
            " 'C' || (1 + (g / :pairs) % 6), '{}'::jsonb, 'def f(x):\n    return x', 'f', 'kept', '{}'::jsonb, now()"
            " FROM generate_series(0, :n - 1) g JOIN pairs p ON p.i = g % :pairs"),
            {"n": programs, "pairs": len(pairs)})
        conn.execute(text(
            "INSERT INTO samples (batch_id, program_id, args_hash, args_source, input_index, input_origin,"
            " status, reject_reason, constraint_type, constraint_method, level, difficulty_level,"
            " difficulty_score, features, solver_passes, solver_k, created_at)"
            " SELECT batch_id, id, md5(id::text || ':' || k), '[' || k || ', 2]', k, 'synthesized',"
            "  CASE WHEN r < 0.6 THEN 'accepted' ELSE 'rejected' END,"
            "  CASE WHEN r < 0.6 THEN NULL ELSE (ARRAY" + repr(list(REASONS)) + ")[1 + (id + k) % 5] END,"
            "  constraint_type, constraint_method, level, level, r2, '{\"depth\": 1}'::jsonb,"
            "  least(floor(r2 * r2 * 11)::int, 10), 10, now() - (k || ' seconds')::interval"
            " FROM (SELECT p.*, k, random() AS r, random() AS r2"
            "       FROM programs p CROSS JOIN generate_series(0, :k - 1) k) s"),
            {"k": inputs_per_program})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM ANALYZE"))
    engine.dispose()
