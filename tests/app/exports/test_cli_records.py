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


def _rows(scope) -> int:
    from sqlalchemy import func

    with scope() as session:
        return session.scalar(select(func.count()).select_from(Export))


def test_unknown_levels_batches_and_benchmarks_are_one_line_errors_before_anything_runs(
        monkeypatch, filled_pg, tmp_path, scope) -> None:
    before = _rows(scope)
    for args, needle in ((["--level", "C9"], "unknown level(s) ['C9']"),
                         (["--batch", "999999"], "unknown batch id(s) [999999]"),
                         (["--benchmark", str(tmp_path / "nope.jsonl")], "benchmark file not found")):
        result = _cli(monkeypatch, filled_pg, tmp_path, "--out", str(tmp_path / "o"), *args)
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())  # rich wraps long lines at the terminal width
        assert text.startswith("error: ") and needle in text and "Traceback" not in text, result.output
    assert _rows(scope) == before and not (tmp_path / "o").exists()


def test_an_empty_split_is_a_warning_in_the_cli_the_manifest_and_the_card(monkeypatch, filled_pg, tmp_path) -> None:
    out = tmp_path / "out"
    result = _cli(monkeypatch, filled_pg, tmp_path, "--out", str(out), "--split", "eval", "--size", "eval.oi=3",
                  "--level", "custom")  # the filled data set has no custom level: eval gets nothing
    assert result.exit_code == 0, result.output
    warning = "split 'eval' is empty"
    assert f"warning: {warning}" in " ".join(result.output.split())
    manifest = json.loads((out / "manifest.json").read_text())
    assert any(w.startswith(warning) for w in manifest["warnings"])
    card = (out / "README.md").read_text()
    assert "## Warnings" in card and warning in card
