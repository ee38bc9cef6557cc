"""A migrated SQLite database filled once per module by the fixture builder, and helpers
to export from it. SQLite keeps these tests fast; one test repeats the export on Postgres."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.db import migrate
from sandbox import Limits, Sandbox
from app.db.session import make_engine
from tests.training.export.builders import Built, build
from training.export import ExportSpec, SplitSpec, TaskQuota, run_export
from training.rewards import runtime

FORMATS = ("verl", "trl", "openai", "llamafactory", "openrlhf")


def small_spec(fmt: str, **kwargs) -> ExportSpec:
    """Three splits sized for the fixture database (135 accepted samples)."""
    splits = (
        SplitSpec("sft", (TaskQuota("io", 20), TaskQuota("oi", 20))),
        SplitSpec("rl", (TaskQuota("io_whitebox", 30), TaskQuota("oi", 10)), max_result_chars=150),
        SplitSpec("eval", (TaskQuota("io_whitebox", 10), TaskQuota("oi", 5))),
    )
    return ExportSpec(format=fmt, splits=splits, **kwargs)


class Db:
    def __init__(self, url: str, built: Built) -> None:
        self.url = url
        self.built = built
        self.engine = make_engine(url)

    def export(self, spec: ExportSpec, out: Path, **kwargs):
        with Session(self.engine) as session:
            return run_export(session, spec, out, **kwargs)


def make_db(tmp: Path, **build_kwargs) -> Db:
    url = f"sqlite:///{tmp}/export.sqlite3"
    migrate.upgrade(url)
    engine = make_engine(url)
    with Session(engine) as session:
        built = build(session, **build_kwargs)
        session.commit()
    engine.dispose()
    return Db(url, built)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Db]:
    database = make_db(tmp_path_factory.mktemp("exportdb"))
    yield database
    database.engine.dispose()


@pytest.fixture(scope="module")
def sandbox():
    """The sandbox O->I rewards run answers in."""
    with Sandbox(isolation="namespaces", limits=Limits(timeout_s=5.0, memory_mb=256)) as sb:
        with runtime.use_sandbox(sb):
            yield sb


@pytest.fixture(scope="module")
def exports(db: Db, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every format exported with `small_spec`, plus LLaMA-Factory with a system prompt."""
    base = tmp_path_factory.mktemp("formats")
    out = {}
    for fmt in FORMATS:
        db.export(small_spec(fmt), base / fmt)
        out[fmt] = base / fmt
    out["llamafactory_system"] = base / "llamafactory_system"
    db.export(small_spec("llamafactory", system_prompt="You reason about code."), out["llamafactory_system"])
    return out
