"""POST/GET /v1/exports and file downloads over real Postgres (a real synth batch) and Redis.

The run itself is `app.exports.runner.execute`, the function the worker task calls; the
queue path through a real worker process is tested in tests/app/exports/nightly."""

from __future__ import annotations

import base64
import hashlib
import io
import json

import pyarrow.parquet as pq
import pytest
import redis
from sqlalchemy import func, select

from app.db.models import Export, Sample
from app.exports import runner
from app.core.task_names import RUN_EXPORT
from training.export import ExportSpec

ALL = {"format": "verl", "splits": [{"name": "all", "tasks": [{"task_type": "io"}]}], "seed": 3}


def _queued(redis_url: str) -> list[int]:
    ids = []
    for raw in redis.Redis.from_url(redis_url).lrange("pipeline", 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] == RUN_EXPORT:
            args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
            ids.append(args[0])
    return ids


def _count(scope) -> int:
    with scope() as session:
        return session.scalar(select(func.count()).select_from(Export))


def _done_export(client, auth, scope, settings, spec=ALL) -> dict:
    response = client.post("/v1/exports", json=spec, headers=auth)
    assert response.status_code == 202, response.text
    export_id = response.json()["id"]
    assert runner.execute(scope, export_id, settings.exports_dir) == "done"
    return client.get(f"/v1/exports/{export_id}", headers=auth).json()


def test_every_route_needs_a_key(client) -> None:
    assert client.post("/v1/exports", json=ALL).status_code == 401
    for path in ("/v1/exports", "/v1/exports/1", "/v1/exports/1/files/README.md"):
        response = client.get(path)
        assert response.status_code == 401 and response.json()["error"] == "unauthorized", path
    bad = client.get("/v1/exports", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401


def test_post_records_a_pending_row_and_queues_the_run(client, auth, scope, exports_redis_url) -> None:
    response = client.post("/v1/exports", json={**ALL, "sizes": {"all.oi": 5}}, headers=auth)
    assert response.status_code == 202, response.text
    body = response.json()
    assert (body["kind"], body["status"], body["format"], body["attempts"], body["files"]) == ("manual", "pending", "verl", 0, [])
    assert response.headers["location"] == f"/v1/exports/{body['id']}"
    expected = ExportSpec.from_dict(ALL).with_sizes({("all", "oi"): 5}).to_dict()
    assert body["spec"] == expected
    with scope() as session:
        row = session.get(Export, body["id"])
        assert (row.kind, row.status, row.spec, row.window_key) == ("manual", "pending", expected, None)
        assert row.api_key_id is not None
    assert _queued(exports_redis_url) == [body["id"]]


@pytest.mark.parametrize(("body", "fragment"), [
    ({**ALL, "format": "csv"}, "unknown format 'csv'"),
    ({**ALL, "benchmarks": ["/etc/passwd"]}, "benchmarks are not accepted over the API"),
    ({**ALL, "sizes": {"all": 3}}, "SPLIT.TASK"),
    ({**ALL, "sizes": {"rl.oi": 3}}, "unknown split"),
    ({**ALL, "write": ["train"]}, "unknown split"),
    ({**ALL, "preset": "tiny"}, None),  # splits given: the preset is ignored, still valid
    ({"format": "verl", "preset": "tiny"}, "unknown preset 'tiny'"),
    ({**ALL, "created_after": "2026-01-01T00:00:00"}, "timezone"),
    ({**ALL, "created_after": "2026-02-01T00:00:00Z", "created_before": "2026-01-01T00:00:00Z"}, "earlier than"),
    ({**ALL, "splits": [{"name": "all", "tasks": [{"task_type": "trace"}]}]}, "task_type"),
    ({**ALL, "out_dir": "/tmp/x"}, "extra"),
    ({**ALL, "system_prompt": "a\u0000b"}, "NUL"),
])
def test_invalid_specs_are_422_and_record_nothing(client, auth, scope, exports_redis_url, body, fragment) -> None:
    before = _count(scope)
    response = client.post("/v1/exports", json=body, headers=auth)
    if fragment is None:
        assert response.status_code == 202
        return
    # NUL is refused by the JSON reader itself (400), the rest by the spec (422)
    assert response.status_code == (400 if fragment == "NUL" else 422), response.text
    assert fragment.lower() in response.text.lower()
    assert _count(scope) == before and _queued(exports_redis_url) == []


def test_non_json_is_415(client, auth) -> None:
    response = client.post("/v1/exports", content=b"format=verl", headers={**auth, "Content-Type": "text/plain"})
    assert response.status_code == 415 and response.json()["error"] == "unsupported_media_type"


def test_run_writes_files_that_download_with_their_sha256(client, auth, scope, settings) -> None:
    detail = _done_export(client, auth, scope, settings)
    assert (detail["status"], detail["attempts"], detail["error"]) == ("done", 1, None)
    assert sorted(f["path"] for f in detail["files"]) == ["README.md", "all.parquet", "manifest.json"]
    folder = settings.exports_dir / "manual" / f"{detail['id']}-verl"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "all.parquet", "manifest.json"]
    for f in detail["files"]:
        response = client.get(f["url"], headers=auth)
        assert response.status_code == 200
        assert hashlib.sha256(response.content).hexdigest() == f["sha256"] and len(response.content) == f["bytes"]
        assert response.content == (folder / f["path"]).read_bytes()
        head = client.head(f["url"], headers=auth)
        assert (head.status_code, head.content) == (200, b"")
        assert int(head.headers["content-length"]) == f["bytes"]
    assert client.head(f"/v1/exports/{detail['id']}/files/nope.txt", headers=auth).status_code == 404
    assert client.head(detail["files"][0]["url"]).status_code == 401
    parquet = client.get(f"/v1/exports/{detail['id']}/files/all.parquet", headers=auth).content
    rows = pq.read_table(io.BytesIO(parquet)).to_pylist()
    with scope() as session:
        accepted = set(session.scalars(select(Sample.id).where(Sample.status == "accepted")))
    assert {r["extra_info"]["sample_id"] for r in rows} == accepted and len(rows) == len(accepted) == detail["sample_count"]
    assert detail["manifest"]["content_sha256"] and detail["manifest"]["splits"]["all"]["rows"] == len(rows)
    # a redelivered task does not redo a done row
    assert runner.execute(scope, detail["id"], settings.exports_dir) == "done"
    assert client.get(f"/v1/exports/{detail['id']}", headers=auth).json()["attempts"] == 1


def test_downloads_serve_only_listed_files_of_the_folder(client, auth, scope, settings, tmp_path) -> None:
    detail = _done_export(client, auth, scope, settings)
    base = f"/v1/exports/{detail['id']}/files"
    folder = settings.exports_dir / "manual" / f"{detail['id']}-verl"
    (folder / "notes.txt").write_text("not part of the export")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside")
    # (a literal ".." segment is resolved by the client before it is sent; encoded ones reach us)
    for name in ("notes.txt", "..%2F..%2Fsecret.txt", "%2e%2e%2fmanifest.json", "%2e%2e", "all.parquet%00", "ALL.PARQUET"):
        response = client.get(f"{base}/{name}", headers=auth)
        assert response.status_code == 404, (name, response.status_code)
    # a listed name that became a link out of the folder is not followed
    (folder / "README.md").unlink()
    (folder / "README.md").symlink_to(secret)
    response = client.get(f"{base}/README.md", headers=auth)
    assert response.status_code == 404 and b"outside" not in response.content
    assert client.get("/v1/exports/999999/files/README.md", headers=auth).status_code == 404


def test_pending_and_pruned_exports_have_no_downloads(client, auth, scope) -> None:
    pending = client.post("/v1/exports", json=ALL, headers=auth).json()
    assert client.get(f"/v1/exports/{pending['id']}/files/README.md", headers=auth).status_code == 404
    with scope() as session:
        row = session.get(Export, pending["id"])
        row.status, row.files = "pruned", [{"path": "README.md", "split": None, "rows": None, "sha256": "0" * 64, "bytes": 1}]
    response = client.get(f"/v1/exports/{pending['id']}/files/README.md", headers=auth)
    assert response.status_code == 404 and "pruned" in response.json()["detail"]


def test_list_filters_by_kind_status_and_format(client, auth, scope) -> None:
    with scope() as session:
        for kind, status, fmt in (("incremental", "done", "verl"), ("incremental", "failed", "verl"),
                                  ("full", "done", "llamafactory"), ("manual", "pending", "verl")):
            session.add(Export(kind=kind, format=fmt, spec={"format": fmt}, status=status, files=[],
                               sample_count=0, attempts=1, error="boom" if status == "failed" else None))
    listed = client.get("/v1/exports?kind=incremental", headers=auth).json()
    assert listed["total"] >= 2 and {i["kind"] for i in listed["items"]} == {"incremental"}
    failed = client.get("/v1/exports?status=failed&kind=incremental", headers=auth).json()
    assert failed["items"] and all(i["status"] == "failed" and i["error"] == "boom" for i in failed["items"])
    full = client.get("/v1/exports?format=llamafactory", headers=auth).json()
    assert {i["format"] for i in full["items"]} == {"llamafactory"}
    page = client.get("/v1/exports?limit=1&offset=1", headers=auth).json()
    everything = client.get("/v1/exports?limit=500", headers=auth).json()
    assert (page["limit"], page["offset"], page["total"]) == (1, 1, everything["total"])
    assert page["items"][0]["id"] == everything["items"][1]["id"]  # newest first
    assert "manifest" not in page["items"][0]
    for query in ("kind=weekly", "status=lost", "limit=0", "format=../x"):
        assert client.get(f"/v1/exports?{query}", headers=auth).status_code == 422, query
    assert client.get("/v1/exports/0", headers=auth).status_code == 422
    missing = client.get("/v1/exports/999999", headers=auth)
    assert missing.status_code == 404 and missing.json() == {"error": "not_found", "detail": "no export 999999"}


def test_openapi_documents_models_and_statuses(client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    post = paths["/v1/exports"]["post"]
    assert {"202", "401", "415", "422"} <= set(post["responses"])
    assert post["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith("/ExportRead")
    assert paths["/v1/exports/{export_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/ExportDetail")
    assert {"200", "404"} <= set(paths["/v1/exports/{export_id}/files/{name}"]["get"]["responses"])


@pytest.mark.parametrize(("change", "needle"), [
    ({"levels": ["C9"]}, "unknown level(s) ['C9']"),
    ({"batch_ids": [999999]}, "unknown batch id(s) [999999]"),
])
def test_unknown_levels_and_batches_are_422_before_a_row_is_written(client, auth, scope, exports_redis_url, change,
                                                                     needle) -> None:
    before = _count(scope)
    response = client.post("/v1/exports", json={**ALL, **change}, headers=auth)
    assert response.status_code == 422 and needle in response.json()["detail"], response.text
    assert _count(scope) == before and _queued(exports_redis_url) == []


def test_an_empty_split_is_a_warning_in_the_response(client, auth, scope, settings) -> None:
    spec = {**ALL, "levels": ["custom"]}  # the filled data set has no custom level
    detail = _done_export(client, auth, scope, settings, spec)
    assert detail["status"] == "done" and detail["sample_count"] == 0
    assert any(w.startswith("split 'all' is empty") for w in detail["warnings"]), detail["warnings"]
    listed = client.get("/v1/exports", headers=auth).json()["items"]
    assert next(e for e in listed if e["id"] == detail["id"])["warnings"] == detail["warnings"]
    full = _done_export(client, auth, scope, settings)
    assert full["sample_count"] > 0 and not any("is empty" in w for w in full["warnings"])
