"""The fast export paths give the same bytes as the one-process path: rows built in worker
processes (real `python -m training.export.worker` children), any chunking, any row-group
size, on SQLite and on Postgres (rows read as server-built JSON); a worker's failure comes
back as the same typed error."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from tests.training.export.builders import build
from tests.training.export.conftest import small_spec
from training.export import parallel, run_export, service
from training.export.build import ChunkJob, build_chunk
from training.export.items import ItemError
from training.export.parallel import ChunkRunner


def _digests(out) -> dict[str, str]:
    manifest = json.loads((out / "manifest.json").read_text())
    return {f["path"]: f["sha256"] for f in manifest["files"]}


@pytest.fixture
def in_workers(monkeypatch):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_ROWS", 0)
    monkeypatch.setattr(parallel, "WORKERS", 2)


@pytest.mark.parametrize("fmt", ["verl", "trl", "llamafactory", "openrlhf"])
def test_workers_write_the_same_bytes(db, tmp_path, monkeypatch, fmt):
    kwargs = {"row_group_size": 64, "style": "json", "system_prompt": "Be exact. é"} if fmt == "verl" else {}
    alone = db.export(small_spec(fmt, seed=4, **kwargs), tmp_path / "alone")
    monkeypatch.setattr(parallel, "PARALLEL_MIN_ROWS", 0)
    monkeypatch.setattr(parallel, "WORKERS", 2)
    monkeypatch.setattr(service, "CHUNK_ROWS", 7)  # many chunks, none aligned with row groups
    fanned = db.export(small_spec(fmt, seed=4, **kwargs), tmp_path / "fanned")
    assert alone.sample_count == fanned.sample_count == 95
    assert _digests(tmp_path / "alone") == _digests(tmp_path / "fanned")
    if fmt == "verl":
        groups = pq.ParquetFile(tmp_path / "fanned" / "rl.parquet").metadata
        assert [groups.row_group(i).num_rows for i in range(groups.num_row_groups)] == [40]
        sft = pq.ParquetFile(tmp_path / "fanned" / "sft.parquet").metadata
        assert [sft.row_group(i).num_rows for i in range(sft.num_row_groups)] == [40]


def test_postgres_rows_read_as_json_match_the_generic_reader(pg_session, tmp_path, monkeypatch, in_workers):
    built = build(pg_session)
    pg_session.flush()  # uncommitted: the reader must use the caller's transaction
    settings = "SELECT current_setting('jit') || '/' || current_setting('extra_float_digits')"
    before = pg_session.connection().exec_driver_sql(settings).scalar()
    spec = small_spec("verl", seed=2, batch_ids=tuple(built.batch_ids), row_group_size=64)
    monkeypatch.setattr(service, "CHUNK_ROWS", 9)
    fast = run_export(pg_session, spec, tmp_path / "fast")
    monkeypatch.setattr(service.query_pg, "supported", lambda session: False)
    monkeypatch.setattr(parallel, "WORKERS", 0)
    generic = run_export(pg_session, spec, tmp_path / "generic")
    assert fast.sample_count == generic.sample_count == 95
    assert _digests(tmp_path / "fast") == _digests(tmp_path / "generic")
    # the transaction-local settings the reader changes are back as they were
    assert pg_session.connection().exec_driver_sql(settings).scalar() == before


def test_a_worker_failure_is_the_same_typed_error(db, tmp_path):
    from sqlalchemy.orm import Session

    from training.export.query import load_rows

    with Session(db.engine) as session:
        row = next(load_rows(session, [db.built.sample_ids[0]], [False]))
    broken = type(row)(**{**{f: getattr(row, f) for f in row.__slots__}, "result": {"repr": "1"}})
    job = ChunkJob("verl", "rl", 0, ("io",), "tags", None, [broken])
    with pytest.raises(ItemError, match="no typed result"):
        build_chunk(job)
    with ChunkRunner(1) as runner, pytest.raises(ItemError, match=f"sample {row.sample_id}: execution has no typed result"):
        list(runner.map([job]))
    good = ChunkJob("verl", "rl", 5, ("io",), "tags", None, [row])
    with ChunkRunner(2) as runner:
        outs = list(runner.map([good, good, good]))
    assert [o.rows for o in outs] == [1, 1, 1]
    assert outs[0].batch.to_pylist() == build_chunk(good).batch.to_pylist()
    assert outs[2].batch.to_pylist()[0]["extra_info"]["index"] == 5


def test_small_exports_and_daemons_build_in_process(monkeypatch):
    assert parallel.worker_count(parallel.PARALLEL_MIN_ROWS - 1) == 0
    monkeypatch.setattr(parallel, "WORKERS", 3)
    assert parallel.worker_count(parallel.PARALLEL_MIN_ROWS) == 3



def test_worker_process_builds_without_sqlalchemy_or_pandas(db):
    # a real worker interpreter: after building a verl chunk it holds no SQLAlchemy/ORM
    # (records live outside `query`, the package imports lazily) and no pandas
    import subprocess
    import sys

    from sqlalchemy.orm import Session

    from training.export.query import load_rows

    with Session(db.engine) as session:
        rows = list(load_rows(session, db.built.sample_ids[:3], [False] * 3))
    script = (
        "import pickle, sys\n"
        "from training.export import worker\n"
        "worker.lean_memory()\n"
        "out = worker.build_chunk(pickle.loads(sys.stdin.buffer.read()))\n"
        "print(out.rows, out.batch.num_rows, 'sqlalchemy' in sys.modules, 'app.db' in sys.modules,"
        " 'pandas' in sys.modules, worker.pa.default_memory_pool().backend_name)\n"
    )
    job = ChunkJob("verl", "rl", 0, ("io",) * 3, "tags", None, rows)
    import pickle

    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(job), capture_output=True, check=True)
    assert done.stdout.decode().split() == ["3", "3", "False", "False", "False", "jemalloc"]
