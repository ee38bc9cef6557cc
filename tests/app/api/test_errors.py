"""Every malformed request gets a 4xx in the one error shape `{"error", "detail"}`; an outage of
the database is a 503 with Retry-After; bodies over the limit are refused unread."""

from __future__ import annotations

import base64
import json

import pytest

from app.samples.cursor import decode
from app.core.errors import DomainError

BATCH = {"programs": 2, "types": ["str"], "methods": ["split"], "levels": ["C1"], "seed": 1}
JSON = {"Content-Type": "application/json"}


def _shape(response, status: int, error: str | None = None) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "detail"} and isinstance(body["detail"], str) and body["detail"], body
    if error is not None:
        assert body["error"] == error, body
    return body


@pytest.mark.parametrize(("body", "needle"), [
    ('{"programs": 2, "levels": ["C1"], "budget": {"max_cost_usd": NaN}}', "NaN"),
    ('{"programs": 2, "levels": ["C1"], "budget": {"max_cost_usd": -Infinity}}', "Infinity"),
    ('{"programs": 2, "levels": ["C1"], "difficulty": {"keep_band": [0, Infinity]}}', "Infinity"),
    ('{"programs": 1e400, "levels": ["C1"]}', "1e400"),
    ('{"programs": 2, "inputs_per_program": 99999999999999999999999, "levels": ["C1"]}', "64 bits"),
    ('{"programs": 2, "levels": ["C1"], "types": ["\\ud800"]}', "surrogate"),
    ('{"programs": 2, "levels": ["C1"], "teacher": "a\\u0000b"}', "NUL"),
    ('{"programs": 2, "levels": ["C1"], "\\udfff": 1}', "surrogate"),
    ('{"programs": 2,', "not valid JSON"),
])
def test_unencodable_batch_bodies_are_400_naming_the_problem(client, auth, body, needle) -> None:
    detail = _shape(client.post("/v1/batches", content=body, headers=auth | JSON), 400, "invalid_json")["detail"]
    assert needle in detail


@pytest.mark.parametrize("body", [
    '{"format": "verl", "ngram_threshold": NaN}',
    '{"format": "verl", "ngram_threshold": Infinity}',
    '{"format": "verl", "levels": ["\\ud800"]}',
    '{"format": "verl", "seed": 1e400}',
])
def test_unencodable_export_bodies_are_400(client, auth, body) -> None:
    _shape(client.post("/v1/exports", content=body, headers=auth | JSON), 400, "invalid_json")


def test_out_of_range_batch_ids_are_422_not_queued(client, auth) -> None:
    body = _shape(client.post("/v1/exports", json={"format": "verl", "batch_ids": [1e20]}, headers=auth), 422,
                  "invalid_request")
    assert "batch_ids.0" in body["detail"]
    _shape(client.post("/v1/exports", json={"format": "verl", "batch_ids": [0]}, headers=auth), 422)


def test_validation_errors_use_the_one_shape_and_name_the_field(client, auth) -> None:
    body = _shape(client.post("/v1/batches", json={**BATCH, "programs": 0}, headers=auth), 422, "invalid_request")
    assert body["detail"].startswith("body.programs: ")
    _shape(client.get("/v1/batches", params={"limit": "many"}), 422, "invalid_request")
    _shape(client.get("/v1/batches/0"), 422, "invalid_request")


def test_starlette_errors_use_the_one_shape(client) -> None:
    _shape(client.get("/v1/no-such-route"), 404, "not_found")
    response = client.delete("/v1/batches")
    _shape(response, 405, "method_not_allowed")
    assert response.headers["allow"]


def test_a_huge_invalid_value_is_not_echoed(client, auth) -> None:
    response = client.post("/v1/batches", json={**BATCH, "teacher": "x" * 500_000}, headers=auth)
    _shape(response, 422, "invalid_request")
    assert len(response.content) < 2000


def test_cursor_beyond_a_64_bit_id_is_400(client, auth) -> None:
    cursor = base64.urlsafe_b64encode(b"s1:9999999999999999999").decode().rstrip("=")
    _shape(client.get("/v1/samples", params={"cursor": cursor}, headers=auth), 400, "bad_cursor")
    with pytest.raises(DomainError):
        decode(cursor)
    top = base64.urlsafe_b64encode(f"s1:{2**63 - 1}".encode()).decode().rstrip("=")
    assert decode(top) == 2**63 - 1


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/batches", '{"programs": NaN}'),
    ("/v1/batches", '{"programs": 0}'),
    ("/v1/batches", '{"programs": 2,'),
    ("/v1/exports", '{"format": "verl", "batch_ids": [1e20]}'),
    ("/v1/exports", '{"format": "verl", "ngram_threshold": NaN}'),
])
def test_a_wrong_key_is_401_whatever_the_body(client, path, body) -> None:
    for headers in ({"X-API-Key": "esk_wrong"}, {"Authorization": "Bearer esk_wrong"}, {}):
        response = client.post(path, content=body, headers=headers | JSON)
        _shape(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_good_key_with_a_bad_body_still_gets_the_payload_error(client, auth) -> None:
    _shape(client.post("/v1/batches", content='{"programs": NaN}', headers=auth | JSON), 400, "invalid_json")
    _shape(client.post("/v1/exports", json={"format": "verl", "batch_ids": [0]}, headers=auth), 422)


def _call(app, headers: list[tuple[bytes, bytes]], chunks: int, chunk: bytes) -> tuple[int, dict, int]:
    """Drive the ASGI app directly: (status, JSON body, chunks it pulled from the client)."""
    import asyncio

    pulled = 0
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": pulled < chunks}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/v1/batches", "raw_path": b"/v1/batches", "query_string": b"",
             "root_path": "", "headers": [(b"content-type", b"application/json"), *headers],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), pulled


def test_bodies_over_the_limit_are_413_without_being_read(settings, new_key) -> None:
    from app.main import create_app

    app = create_app(settings.model_copy(update={"api": settings.api.model_copy(update={"max_body_bytes": 4096})}))
    key = [(b"x-api-key", new_key().encode())]
    status, body, pulled = _call(app, [*key, (b"content-length", b"60000000")], 1000, b" " * 60_000)
    assert (status, body["error"], pulled) == (413, "too_large", 0)
    status, body, pulled = _call(app, key, 1000, b" " * 1024)  # chunked: stops once past the limit
    assert (status, body["error"]) == (413, "too_large") and pulled <= 5
    status, body, _ = _call(app, key, 1, json.dumps(BATCH).encode())
    assert status == 202, body


def test_the_default_limit_is_one_mebibyte(client, auth) -> None:
    assert client.app.state.settings.api.max_body_bytes == 1 << 20
    big = {**BATCH, "methods": ["m" * 60] * 20_000}
    _shape(client.post("/v1/batches", json=big, headers=auth), 413, "too_large")


DOWN = "postgresql+psycopg://127.0.0.1:1/execsynth_down?connect_timeout=2"


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/v1/batches", None),
    ("GET", "/v1/batches/1", None),
    ("POST", "/v1/batches/1/cancel", None),
    ("POST", "/v1/batches", BATCH),
    ("GET", "/v1/samples", None),
    ("GET", "/v1/samples/1", None),
    ("GET", "/v1/exports", None),
    ("POST", "/v1/exports", {"format": "verl"}),
    ("GET", "/v1/stats/difficulty", None),
    ("GET", "/v1/stats/funnel", None),
])
def test_a_database_outage_is_503_with_retry_after(make_client, method, path, body) -> None:
    client = make_client(database_url=DOWN)
    response = client.request(method, path, json=body, headers={"X-API-Key": "esk_anything"})
    _shape(response, 503, "unavailable")
    assert int(response.headers["retry-after"]) > 0
