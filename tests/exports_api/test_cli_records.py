"""`execsynth export` records its run as an `exports` row (kind manual) and shows a progress
bar per split; a failed CLI export is a failed row with the reason."""

from __future__ import annotations

import json

from sqlalchemy import select
from typer.testing import CliRunner

from app.core.config import get_settings
from app.db.models import Export
from execsynth.commands.export import app


def _cli(monkeypatch, filled_pg, tmp_path, *args):
    monkeypatch.setenv("EXECSYNTH_DATABASE_URL", filled_pg)
    monkeypatch.setenv("EXECSYNTH_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    empty = [arg for name in ("rl.io_whitebox", "rl.oi", "eval.io_whitebox", "eval.oi") for arg in ("--size", f"{name}=0")]
    return CliRunner().invoke(app, ["--format", "openai", "--size", "sft.io=all", "--size", "sft.oi=4",
                                    "--split", "sft", *empty, *args])


def test_cli_export_is_recorded_with_a_progress_bar(monkeypatch, filled_pg, tmp_path, scope) -> None:
    out = tmp_path / "out"
    result = _cli(monkeypatch, filled_pg, tmp_path, "--out", str(out))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    with scope() as session:
        row = session.get(Export, summary["export_id"])
        assert (row.kind, row.status, row.format, row.attempts, row.out_dir) == ("manual", "done", "openai", 1, str(out))
        assert row.sample_count == summary["samples"] > 0 and row.manifest["content_sha256"] == summary["content_sha256"]
        assert sorted(f["path"] for f in row.files) == sorted(p.name for p in out.iterdir())
    rows = row.manifest["splits"]["sft"]["rows"]
    assert "sft" in result.stderr and f"{rows}/{rows}" in result.stderr  # the bar's last state


def test_a_failed_cli_export_is_a_failed_row(monkeypatch, filled_pg, tmp_path, scope) -> None:
    out = tmp_path / "taken"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    result = _cli(monkeypatch, filled_pg, tmp_path, "--out", str(out))
    assert result.exit_code == 1 and "not empty" in " ".join(result.output.split())
    with scope() as session:
        row = session.scalars(select(Export).where(Export.out_dir == str(out))).one()
        assert (row.status, row.kind) == ("failed", "manual") and "OutputDirError" in row.error and row.finished_at
    assert (out / "mine.txt").read_text() == "keep me"
