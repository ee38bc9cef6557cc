"""Export files in an S3 bucket: a real S3-compatible server (moto's, over HTTP on
localhost), a real worker process that writes and uploads, and an API with a data folder of
its own that lists, streams and sizes what the worker wrote; a store that is down, a bucket
that is missing, leftovers of a crashed attempt and pruned runs."""

from __future__ import annotations

import hashlib
import logging
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from fastapi.testclient import TestClient
from moto.server import ThreadedMotoServer

from app.core.config import S3StoreSettings, Settings
from app.db.models import Export
from app.exports import retention, runner
from app.exports.download import byte_range
from app.exports.store import S3Store, StoreUnreachable, split
from app.main import create_app
from tests.app.exports.nightly.conftest import make_nightly, own_pg, own_redis, synth  # noqa: F401 (fixtures)
from tests.support import wait_for

SPEC = {"format": "llamafactory", "splits": [{"name": "sft", "tasks": [{"task_type": "io"}, {"task_type": "oi"}]}]}
ALL = {"format": "trl", "splits": [{"name": "all", "tasks": [{"task_type": "io"}]}], "seed": 5}
KEYS = {"access_key_id": "execsynth-test", "secret_access_key": "execsynth-test-secret", "region": "us-east-1"}


@pytest.fixture(scope="module")
def s3_url() -> Iterator[str]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture()
def bucket(s3_url: str) -> str:
    name = f"exports-{uuid.uuid4().hex[:12]}"
    _raw(s3_url).create_bucket(Bucket=name)
    return name


def _raw(url: str):
    return boto3.client("s3", endpoint_url=url, region_name=KEYS["region"], aws_access_key_id=KEYS["access_key_id"],
                        aws_secret_access_key=KEYS["secret_access_key"])


def _keys(url: str, bucket: str) -> list[str]:
    return sorted(o["Key"] for o in _raw(url).list_objects_v2(Bucket=bucket).get("Contents", []))


def _s3(url: str, bucket: str, **extra) -> S3StoreSettings:
    return S3StoreSettings(bucket=bucket, endpoint_url=url, **KEYS, **extra)


def _with_store(settings: Settings, cfg: S3StoreSettings) -> Settings:
    return settings.model_copy(update={"exports": settings.exports.model_copy(update={"store": "s3", "s3": cfg})})


@pytest.mark.slow  # a worker process and the synth CLI
def test_a_worker_uploads_and_an_api_elsewhere_serves_the_files(make_nightly, s3_url, bucket, tmp_path) -> None:  # noqa: F811
    env = {"EXECSYNTH_EXPORTS__STORE": "s3", "EXECSYNTH_EXPORTS__S3__BUCKET": bucket,
           "EXECSYNTH_EXPORTS__S3__ENDPOINT_URL": s3_url, "EXECSYNTH_EXPORTS__S3__PREFIX": "runs",
           **{f"EXECSYNTH_EXPORTS__S3__{k.upper()}": v for k, v in KEYS.items()}}
    service = make_nightly(**env)
    synth(service.database_url, service.data_dir / "synth", seed=4)
    worker = service.start_worker(concurrency=1)
    export_id = service.client.post("/v1/exports", json=SPEC).json()["id"]
    detail = wait_for(lambda: _final(service.client.get(f"/v1/exports/{export_id}").json()),
                      timeout=90, interval=0.3, what=lambda: worker.log()[-3000:])
    assert (detail["status"], detail["error"]) == ("done", None)
    prefix = f"runs/manual/{export_id}-llamafactory"
    names = sorted(f["path"] for f in detail["files"])
    assert "sft.jsonl" in names and "manifest.json" in names
    assert _keys(s3_url, bucket) == [f"{prefix}/{n}" for n in names]
    with service.session() as s:
        assert s.get(Export, export_id).out_dir == f"s3://{bucket}/{prefix}"
    # the worker kept no copy: staging is cleared once uploaded
    assert [p for p in (service.data_dir / "exports").rglob("*") if p.is_file()] == []

    # an API with a data folder of its own (nothing of the worker's on disk)
    api_settings = Settings(database_url=service.database_url, broker_url=service.broker_url,
                            data_dir=tmp_path / "api-elsewhere", api={"require_api_key": False},
                            exports={"store": "s3", "s3": _s3(s3_url, bucket, prefix="runs").model_dump()})
    with TestClient(create_app(api_settings)) as api:
        listed = api.get(f"/v1/exports/{export_id}").json()
        assert sorted(f["path"] for f in listed["files"]) == names
        for f in listed["files"]:
            got = api.get(f["url"])
            assert got.status_code == 200, got.text
            assert hashlib.sha256(got.content).hexdigest() == f["sha256"] and len(got.content) == f["bytes"]
            assert got.headers["content-length"] == str(f["bytes"])
            assert got.headers["content-disposition"] == f'attachment; filename="{f["path"]}"'
            head = api.head(f["url"])
            assert (head.status_code, head.headers["content-length"], head.content) == (200, str(f["bytes"]), b"")
        jsonl = next(f for f in listed["files"] if f["path"] == "sft.jsonl")
        whole = api.get(jsonl["url"]).content
        part = api.get(jsonl["url"], headers={"Range": "bytes=10-29"})
        assert (part.status_code, part.content, part.headers["content-range"]) == (
            206, whole[10:30], f"bytes 10-29/{len(whole)}")
        tail = api.get(jsonl["url"], headers={"Range": "bytes=-7"})
        assert (tail.status_code, tail.content) == (206, whole[-7:])
        past = api.get(jsonl["url"], headers={"Range": f"bytes={len(whole)}-"})
        assert (past.status_code, past.headers["content-range"]) == (416, f"bytes */{len(whole)}")
        assert api.get(f"/v1/exports/{export_id}/files/nope.txt").status_code == 404


def test_a_store_that_is_down_is_a_503_with_the_address(client, auth, scope, settings, s3_url, bucket) -> None:
    s3_settings = _with_store(settings, _s3(s3_url, bucket))
    response = client.post("/v1/exports", json=ALL, headers=auth)
    export_id = response.json()["id"]
    store = S3Store(s3_settings.exports.s3)
    assert runner.execute(scope, export_id, settings.exports_dir, store=store) == "done"
    url = client.get(f"/v1/exports/{export_id}", headers=auth).json()["files"][0]["url"]

    dead = _s3("http://127.0.0.1:9", bucket, connect_timeout_s=1)  # port 9 (discard): nothing listens
    with TestClient(create_app(_with_store(settings, dead))) as api:
        for method in ("GET", "HEAD"):
            got = api.request(method, url, headers=auth)
            assert got.status_code == 503, (method, got.text)
            if method == "GET":
                assert got.json()["error"] == "export_store_unavailable"
                assert "http://127.0.0.1:9" in got.json()["detail"] and "unreachable" in got.json()["detail"]
        # the listing comes from the database and needs no store
        assert api.get(f"/v1/exports/{export_id}", headers=auth).json()["status"] == "done"

    gone = _s3(s3_url, "no-such-bucket-here")
    with TestClient(create_app(_with_store(settings, gone))) as api:
        with scope() as session:  # the row as if written to a bucket since deleted
            session.get(Export, export_id).out_dir = f"s3://no-such-bucket-here/exports/manual/{export_id}-trl"
        got = api.get(url, headers=auth)
        assert got.status_code == 503 and got.json()["error"] == "export_store_misconfigured", got.text
        assert "bucket 'no-such-bucket-here' does not exist" in got.json()["detail"]


def test_a_missing_bucket_fails_the_row_with_the_reason(client, auth, scope, settings, s3_url) -> None:
    export_id = client.post("/v1/exports", json=ALL, headers=auth).json()["id"]
    store = S3Store(_s3(s3_url, "never-created"))
    assert runner.execute(scope, export_id, settings.exports_dir, store=store) == "failed"
    detail = client.get(f"/v1/exports/{export_id}", headers=auth).json()
    assert detail["status"] == "failed" and "bucket 'never-created' does not exist" in detail["error"]
    assert "Traceback" not in detail["error"]
    assert not runner.staging_dir(settings.exports_dir, _row(scope, export_id)).exists()


def test_an_unreachable_store_is_transient_and_leaves_no_staging(client, auth, scope, settings) -> None:
    export_id = client.post("/v1/exports", json=ALL, headers=auth).json()["id"]
    store = S3Store(_s3("http://127.0.0.1:9", "whatever-bucket", connect_timeout_s=1))
    with pytest.raises(StoreUnreachable, match="unreachable"):
        runner.execute(scope, export_id, settings.exports_dir, store=store)
    row = _row(scope, export_id)
    assert row.status == "running" and not runner.staging_dir(settings.exports_dir, row).exists()


def test_a_retry_replaces_what_a_crashed_attempt_uploaded(client, auth, scope, settings, s3_url, bucket) -> None:
    export_id = client.post("/v1/exports", json=ALL, headers=auth).json()["id"]
    store = S3Store(_s3(s3_url, bucket))
    prefix = split(store.location("manual", export_id, "trl"))[1]
    _raw(s3_url).put_object(Bucket=bucket, Key=f"{prefix}/all.jsonl.partial", Body=b"half")
    assert runner.execute(scope, export_id, settings.exports_dir, store=store) == "done"
    files = client.get(f"/v1/exports/{export_id}", headers=auth).json()["files"]
    assert _keys(s3_url, bucket) == sorted(f"{prefix}/{f['path']}" for f in files) and len(files) > 1


def test_pruning_deletes_the_objects_of_old_runs(client, auth, scope, settings, s3_url, bucket) -> None:
    store = S3Store(_s3(s3_url, bucket))
    ids = []
    for seed in (1, 2):
        export_id = client.post("/v1/exports", json={**ALL, "format": "openrlhf", "seed": seed}, headers=auth).json()["id"]
        assert runner.execute(scope, export_id, settings.exports_dir, store=store) == "done"
        ids.append(export_id)
    url = client.get(f"/v1/exports/{ids[0]}", headers=auth).json()["files"][0]["url"]
    with scope() as session:
        pruned = retention.prune(session, "manual", "openrlhf", 1, settings.exports_dir, store)
    assert pruned == [ids[0]]
    assert {k.split("/")[2] for k in _keys(s3_url, bucket)} == {f"{ids[1]}-openrlhf"}
    got = client.get(url, headers=auth)
    assert got.status_code == 404 and "pruned" in got.json()["detail"]


def test_large_files_go_in_parts_and_read_back_in_ranges(s3_url, bucket, tmp_path: Path) -> None:
    data = os.urandom(11 << 20)
    (tmp_path / "big.parquet").write_bytes(data)
    store = S3Store(_s3(s3_url, bucket, multipart_threshold_mb=5, part_size_mb=5))
    where = store.location("full", 9, "verl")
    digest = hashlib.sha256(data).hexdigest()
    store.upload(tmp_path, where, [{"path": "big.parquet", "sha256": digest, "bytes": len(data)}])
    etag = _raw(s3_url).head_object(Bucket=bucket, Key=f"exports/full/9-verl/big.parquet")["ETag"]
    assert etag.strip('"').endswith("-3")  # three parts of 5, 5 and 1 MiB
    stat = store.stat(where, "big.parquet")
    assert (stat.size, stat.sha256) == (len(data), digest)
    assert b"".join(store.read(where, "big.parquet", 5 << 20, (6 << 20) - 1)) == data[5 << 20:6 << 20]
    assert store.remove(where) == 1 and _keys(s3_url, bucket) == []


@pytest.mark.parametrize(("header", "span"), [
    (None, None), ("bytes=0-9", (0, 9)), ("bytes=5-", (5, 99)), ("bytes=-10", (90, 99)), ("bytes=90-500", (90, 99)),
    ("bytes=100-", "unsatisfiable"), ("bytes=-0", "unsatisfiable"), ("bytes=0-1,5-6", None), ("items=0-1", None),
])
def test_byte_ranges(header, span) -> None:
    assert byte_range(header, 100) == span


def _final(detail: dict) -> dict | None:
    return detail if detail["status"] in ("done", "failed") else None


def _row(scope, export_id: int) -> Export:
    with scope() as session:
        row = session.get(Export, export_id)
        session.expunge(row)
        return row
