"""Where finished export files live: the data folder (the default), or an S3-compatible bucket
so that an API on one machine serves what a worker on another wrote.

A row's `out_dir` names its place: a folder path, or `s3://<bucket>/<prefix>/<kind>/<id>-<format>`.
Readers go by that name, not by the current setting, so rows written before a switch of
store stay readable. The S3 client comes from `exports.s3` (endpoint, region, credentials);
boto3 is imported only when a bucket is used.

Every botocore failure leaves this module as one of two typed errors with a message that
says what is wrong: `StoreUnreachable` (connection refused, timeouts: worth retrying) and
`StoreRefused` (no such bucket, credentials missing or refused: retrying changes nothing).
Both are 503 in the API; a missing object is a 404.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.core.config import ExportSettings, S3StoreSettings
from app.core.errors import NotFound, ServiceUnavailable

SCHEME = "s3://"
CHUNK = 1 << 20  # bytes per read of a streamed download


class StoreUnreachable(ServiceUnavailable):
    code = "export_store_unavailable"


class StoreRefused(ServiceUnavailable):
    code = "export_store_misconfigured"


REFUSED_CODES = {"NoSuchBucket", "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied",
                 "InvalidBucketName", "AllAccessDisabled", "AccountProblem", "403"}
MISSING_CODES = {"NoSuchKey", "404", "NotFound"}


def is_remote(location: str | None) -> bool:
    return bool(location) and location.startswith(SCHEME)


@dataclass(frozen=True)
class StoredFile:
    size: int
    sha256: str | None


class S3Store:
    def __init__(self, cfg: S3StoreSettings) -> None:
        self.cfg = cfg
        self.where = cfg.endpoint_url or "AWS S3"

    @property
    def client(self) -> Any:
        return _client(self.cfg)

    def location(self, kind: str, export_id: int, fmt: str) -> str:
        key = "/".join(p for p in (self.cfg.prefix, kind, f"{export_id}-{fmt}") if p)
        return f"{SCHEME}{self.cfg.bucket}/{key}"

    @contextmanager
    def translated(self, bucket: str, what: str) -> Iterator[None]:
        """botocore's exceptions as this module's typed errors, each naming the store."""
        from boto3.exceptions import S3UploadFailedError
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            yield
        except (ClientError, BotoCoreError, S3UploadFailedError) as exc:
            inner = exc.__cause__ or exc.__context__ if isinstance(exc, S3UploadFailedError) else exc
            raise self._typed(inner or exc, bucket, what) from None

    def _typed(self, exc: BaseException, bucket: str, what: str) -> Exception:
        from botocore.exceptions import ClientError, NoCredentialsError, PartialCredentialsError

        if isinstance(exc, ClientError):
            error = exc.response.get("Error", {})
            code, message = str(error.get("Code", "")), error.get("Message", "")
            if code in MISSING_CODES:
                return NotFound(f"{what}: not in bucket {bucket!r} of the export store")
            if code == "NoSuchBucket":
                return StoreRefused(f"{what}: bucket {bucket!r} does not exist at {self.where}")
            if code in REFUSED_CODES:
                return StoreRefused(f"{what}: {self.where} refused the credentials or access to bucket {bucket!r} "
                                    f"({code}: {message})")
            return StoreUnreachable(f"{what}: {self.where} answered {code}: {message}")
        if isinstance(exc, (NoCredentialsError, PartialCredentialsError)):
            return StoreRefused(f"{what}: no credentials for the export store ({exc}); set AWS_ACCESS_KEY_ID and "
                                "AWS_SECRET_ACCESS_KEY or EXECSYNTH_EXPORTS__S3__ACCESS_KEY_ID/SECRET_ACCESS_KEY")
        # connection refused, timeouts, DNS, and anything else on the way
        return StoreUnreachable(f"{what}: the export store at {self.where} is unreachable ({exc})")

    # writer side (the worker)

    def upload(self, folder: Path, location: str, files: list[dict]) -> None:
        """Put each listed file under `location` (multipart above the threshold), with its
        sha256 as object metadata, and check the stored size against the recorded one."""
        from boto3.s3.transfer import TransferConfig

        bucket, prefix = split(location)
        mib = 1 << 20
        transfer = TransferConfig(multipart_threshold=self.cfg.multipart_threshold_mb * mib,
                                  multipart_chunksize=self.cfg.part_size_mb * mib, use_threads=True, max_concurrency=4)
        for f in files:
            key = f"{prefix}/{f['path']}"
            with self.translated(bucket, f"uploading {key}"):
                self.client.upload_file(str(folder / f["path"]), bucket, key, Config=transfer,
                                        ExtraArgs={"Metadata": {"sha256": f["sha256"]},
                                                   "ContentType": "application/octet-stream"})
            stored = self.stat(location, f["path"])
            if stored.size != f["bytes"]:
                raise StoreUnreachable(f"uploading {key}: the store holds {stored.size} bytes, the file has {f['bytes']}")

    def remove(self, location: str) -> int:
        """Delete every object under `location` (a retry's leftovers, a pruned or discarded run)."""
        bucket, prefix = split(location)
        removed = 0
        with self.translated(bucket, f"deleting {prefix}/"):
            pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/")
            for page in pages:
                keys = [{"Key": o["Key"]} for o in page.get("Contents", [])]
                if keys:
                    self.client.delete_objects(Bucket=bucket, Delete={"Objects": keys, "Quiet": True})
                    removed += len(keys)
        return removed

    # reader side (the API)

    def stat(self, location: str, name: str) -> StoredFile:
        bucket, prefix = split(location)
        try:
            with self.translated(bucket, f"file {name!r}"):
                head = self.client.head_object(Bucket=bucket, Key=f"{prefix}/{name}")
        except NotFound:  # HEAD answers a bare 404 for a missing bucket too: tell them apart
            self.check_bucket(bucket, f"file {name!r}")
            raise
        return StoredFile(size=int(head["ContentLength"]), sha256=head.get("Metadata", {}).get("sha256"))

    def check_bucket(self, bucket: str, what: str) -> None:
        with self.translated(bucket, what):
            try:
                self.client.head_bucket(Bucket=bucket)
            except Exception as exc:
                code = str(getattr(exc, "response", {}).get("Error", {}).get("Code"))
                if code in MISSING_CODES:
                    raise StoreRefused(f"{what}: bucket {bucket!r} does not exist at {self.where}") from None
                raise

    def read(self, location: str, name: str, first: int, last: int) -> Iterator[bytes]:
        """Bytes first..last (inclusive) of the object, read CHUNK at a time as they are sent."""
        bucket, prefix = split(location)
        with self.translated(bucket, f"file {name!r}"):
            body = self.client.get_object(Bucket=bucket, Key=f"{prefix}/{name}", Range=f"bytes={first}-{last}")["Body"]
        return _chunks(body)


def _chunks(body: Any) -> Iterator[bytes]:
    try:
        yield from body.iter_chunks(CHUNK)
    finally:
        body.close()


def split(location: str) -> tuple[str, str]:
    bucket, _, prefix = location.removeprefix(SCHEME).partition("/")
    return bucket, prefix.rstrip("/")


@lru_cache(maxsize=8)
def _client(cfg: S3StoreSettings) -> Any:
    """One client per store setting per process (boto3 clients are thread-safe)."""
    import boto3
    from botocore.config import Config

    secret = cfg.secret_access_key.get_secret_value() if cfg.secret_access_key else None
    return boto3.session.Session().client(
        "s3", endpoint_url=cfg.endpoint_url, region_name=cfg.region, aws_access_key_id=cfg.access_key_id,
        aws_secret_access_key=secret,
        config=Config(connect_timeout=cfg.connect_timeout_s, read_timeout=cfg.read_timeout_s,
                      retries={"max_attempts": 2, "mode": "standard"}, s3={"addressing_style": "path"}),
    )


def writer_store(cfg: ExportSettings) -> S3Store | None:
    """The bucket workers upload to, or None for the data folder."""
    return S3Store(cfg.s3) if cfg.store == "s3" else None


def reader_store(cfg: ExportSettings) -> S3Store:
    """The client that reads `s3://` rows (the bucket comes from the row), whatever the
    current `store` setting."""
    return S3Store(cfg.s3)
