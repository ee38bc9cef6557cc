"""Fuzz every operation of the OpenAPI document (schemathesis): no input gives a 5xx, and
responses use documented status codes; and no body poisoned with NaN, an infinity, a lone
surrogate or NUL (which JSON Schema generators never produce) gives one either.

The schema is loaded at import from an app whose settings are swapped for the real test
database and Redis before each example (schemathesis' lazy fixture loader does not support
this pytest version); the OpenAPI document does not depend on settings.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import strategies as st
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from schemathesis.specs.openapi.checks import status_code_conformance

from app.core.config import Settings
from app.main import create_app

APP = create_app(Settings(database_url="postgresql+psycopg://unused/unused", broker_url="redis://unused:1/0"))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture()
def fuzz_headers(settings, new_key) -> dict[str, str]:
    APP.state.settings = settings.model_copy(update={"api": settings.api.model_copy(update={"rate_limit_per_minute": 10**6})})
    APP.state.rate_limiter = None
    APP.state.stats_ttl_s = 0.0
    return {"X-API-Key": new_key("fuzz")}


@schema.parametrize()
@hsettings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, fuzz_headers) -> None:
    response = case.call(headers=fuzz_headers)
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    case.validate_response(response, checks=[status_code_conformance])


POISON = [float("nan"), float("inf"), float("-inf"), "\ud800", "x\udfffy", "a\x00b", 2**70, -(2**64), 1e300]


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    yield path


def _poisoned(body, path, poison):
    if not path:
        return poison
    head, *rest = path
    copy = dict(body) if isinstance(body, dict) else list(body)
    copy[head] = _poisoned(body[head], tuple(rest), poison)
    return copy


@pytest.mark.parametrize("path", ["/v1/batches", "/v1/exports", "/v1/batches/{batch_id}/cancel"])
@given(data=st.data(), poison=st.sampled_from(POISON), pick=st.integers(min_value=0, max_value=10_000))
@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_with_nan_infinities_and_surrogates(path, fuzz_headers, data, poison, pick) -> None:
    """Bodies the generator makes, with one value (a leaf, or the body itself) swapped for
    NaN, an infinity, a huge integer, a lone surrogate or NUL, sent as Python's json writes
    them (NaN and Infinity as bare words, surrogates as \\u escapes)."""
    case = data.draw(schema[path]["POST"].as_strategy())
    body = case.body if isinstance(case.body, (dict, list)) else {}
    paths = list(_leaves(body))
    body = _poisoned(body, paths[pick % len(paths)], poison)
    with TestClient(APP) as client:
        response = client.post(case.formatted_path, params=case.query, content=json.dumps(body),
                               headers=fuzz_headers | {"Content-Type": "application/json"})
    assert response.status_code < 500, (case.path, body, response.text)
    if response.status_code >= 400:
        assert set(response.json()) == {"error", "detail"}, response.text
