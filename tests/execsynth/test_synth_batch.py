"""`execsynth synth` end to end on the embedded store: the funnel adds up, every program and
sample ends in one final state, reruns are deterministic, bad input writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session

from app.db.models import Batch, Program, Question, Sample
from tests.support import service_env

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def _synth(data_dir: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "execsynth", "synth", "--quiet", *args],
        env=service_env(EXECSYNTH_DATA_DIR=str(data_dir), **(env or {})), capture_output=True, text=True, timeout=600,
    )


def _session(data_dir: Path) -> Session:
    return Session(create_engine(f"sqlite:///{data_dir / 'execsynth.sqlite3'}"))


@pytest.fixture(scope="module")
def batch_dir(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("synth")
    out = _synth(data_dir, "--programs", "24", "--seed", "11", "--mutation", "-k", "3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"
    return data_dir


def test_every_program_and_sample_ends_in_exactly_one_final_state(batch_dir: Path) -> None:
    with _session(batch_dir) as s:
        batch = s.get(Batch, 1)
        assert batch.status == "completed"
        slots = s.scalars(select(Program.slot).where(Program.variant == 0)).all()
        assert sorted(slots) == list(range(24))
        statuses = set(s.scalars(select(Program.status)))
        assert statuses <= {"kept", "rejected"}
        assert s.scalar(select(func.count()).where(Program.status == "rejected", Program.reject_reason.is_(None))) == 0
        sample_status = dict(s.execute(select(Sample.status, func.count()).group_by(Sample.status)).all())
        assert set(sample_status) <= {"accepted", "rejected"}
        assert sample_status.get("accepted", 0) > 0
        # each kept program has between 1 and 3 distinct inputs
        per_program = s.execute(select(Sample.program_id, func.count()).group_by(Sample.program_id)).all()
        assert all(1 <= n <= 3 for _, n in per_program)
        # mutants exist, point at their parent, and are in the same slot
        mutants = s.scalars(select(Program).where(Program.variant > 0)).all()
        assert mutants and all(m.parent_id is not None and s.get(Program, m.parent_id).slot == m.slot for m in mutants)


def test_funnel_matches_rows(batch_dir: Path) -> None:
    from app.synthesis.funnel import funnel_by_level

    with _session(batch_dir) as s:
        funnel = funnel_by_level(s, 1)
        programs = s.scalar(select(func.count()).where(Program.variant == 0))
        assert funnel["total"]["generated"] == programs == 24
        assert funnel["total"]["inputs"] == s.scalar(select(func.count()).select_from(Sample))
        assert funnel["total"]["accepted"] == s.scalar(select(func.count()).where(Sample.status == "accepted"))
        assert sum(funnel["levels"][lv]["generated"] for lv in funnel["levels"]) == 24


def test_accepted_samples_have_questions_and_features(batch_dir: Path) -> None:
    with _session(batch_dir) as s:
        accepted = s.scalars(select(Sample).where(Sample.status == "accepted")).all()
        for sample in accepted:
            kinds = s.scalars(select(Question.kind).where(Question.sample_id == sample.id)).all()
            assert "io" in kinds
            assert sample.difficulty_level in {"C1", "C2", "C3", "C4", "C5", "C6"}
            assert sample.features["trace_steps"] > 0
        rejected_questions = s.scalar(
            select(func.count()).select_from(Question).join(Sample, Sample.id == Question.sample_id).where(Sample.status != "accepted")
        )
        assert rejected_questions == 0


def test_same_seed_gives_the_same_data(batch_dir: Path, tmp_path: Path) -> None:
    out = _synth(tmp_path, "--programs", "24", "--seed", "11", "--mutation", "-k", "3")
    assert out.returncode == 0, out.stderr
    query = "select p.slot, p.variant, p.source, s.args_source, s.status, s.difficulty_score from samples s join programs p on p.id = s.program_id order by p.slot, p.variant, s.input_index"
    with _session(batch_dir) as a, _session(tmp_path) as b:
        assert a.execute(text(query)).all() == b.execute(text(query)).all()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--programs", "0"], "programs"),
        (["--programs", "5", "--levels", "C9"], "C9"),
        (["--programs", "5", "--types", "complex"], "complex"),
        (["--programs", "5", "--teacher", "nope"], "unknown teacher 'nope'"),
        (["--programs", "5", "--keep-band", "0.5,0.1"], "keep_band"),
    ],
)
def test_bad_input_is_a_clear_error_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = _synth(tmp_path, *args)
    assert out.returncode != 0
    assert message in out.stderr + out.stdout
    db = tmp_path / "execsynth.sqlite3"
    if db.exists():
        with _session(tmp_path) as s:
            assert s.scalar(select(func.count()).select_from(Batch)) == 0
