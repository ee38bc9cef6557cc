"""POST /v1/exports -> the queue -> a real worker process -> a done row with its files."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sqlalchemy import func, select

from app.db.models import Export, Sample
from tests.app.exports.nightly.conftest import synth
from tests.support import wait_for

SPEC = {"format": "llamafactory", "splits": [{"name": "sft", "tasks": [{"task_type": "io"}, {"task_type": "oi"}]}]}


def test_worker_turns_a_posted_export_into_files(make_nightly) -> None:
    service = make_nightly()
    synth(service.database_url, service.data_dir / "synth", seed=4)
    service.start_worker(concurrency=1)
    response = service.client.post("/v1/exports", json=SPEC)
    assert response.status_code == 202, response.text
    export_id = response.json()["id"]

    def finished() -> dict | None:
        body = service.client.get(f"/v1/exports/{export_id}").json()
        return body if body["status"] in ("done", "failed") else None

    detail = wait_for(finished, timeout=60, interval=0.3, what=lambda: "\n".join(w.log()[-3000:] for w in service.workers))
    assert (detail["status"], detail["attempts"], detail["error"]) == ("done", 1, None)
    folder = service.data_dir / "exports" / "manual" / f"{export_id}-llamafactory"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f["path"] for f in detail["files"]) and "sft.jsonl" in names and "dataset_info.json" in names
    for f in detail["files"]:
        data = (folder / f["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == f["sha256"] and len(data) == f["bytes"]
    with service.session() as s:
        accepted = s.scalar(select(func.count()).select_from(Sample).where(Sample.status == "accepted"))
        row = s.get(Export, export_id)
        assert Path(row.out_dir) == folder and row.finished_at is not None
    # every accepted sample is asked once, as io or oi (oi only when the result is short enough)
    assert 0 < detail["sample_count"] <= accepted
    assert detail["manifest"]["splits"]["sft"]["rows"] == detail["sample_count"]
