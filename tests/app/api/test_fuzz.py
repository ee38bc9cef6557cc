"""Fuzz every operation of the OpenAPI document (schemathesis): no input gives a 5xx, and
responses use documented status codes; and no body poisoned with NaN, an infinity, a lone
surrogate or NUL (which JSON Schema generators never produce) gives one either.

The schema is loaded at import from an app whose settings are swapped for the real test
database and Redis before each example (schemathesis' lazy fixture loader does not support
this pytest version); the OpenAPI document does not depend on settings.
"""

from __future__ import annotations

import json
from urllib.parse import quote

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
    api = settings.api.model_copy(update={"rate_limit_per_minute": 10**6, "stats_ttl_s": 0.0})
    APP.state.settings = settings.model_copy(update={"api": api})
    APP.state.rate_limiter = None
    APP.state.stats_cache = None
    return {"X-API-Key": new_key("fuzz")}


@schema.parametrize()
@hsettings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, fuzz_headers) -> None:
    response = case.call(headers=fuzz_headers)
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    case.validate_response(response, checks=[status_code_conformance])


POISON = [float("nan"), float("inf"), float("-inf"), "\ud800", "x\udfffy", "a\x00b", 2**70, -(2**64), 1e300]
# the same poisons as they reach a query string or a path segment (already percent-encoded:
# a lone surrogate has no UTF-8 form, so it travels as the bytes Python's surrogatepass writes)
RAW_POISON = ["NaN", "Infinity", "-Infinity", "1e400", "%ED%A0%80", "x%ED%BF%BFy", "a%00b", str(2**70),
              str(-(2**64)), "99999999999999999999999999", "s1:9999999999999999999", "%FF%FE", "-0", ""]
OPERATIONS = [(path, method.upper()) for path, methods in APP.openapi()["paths"].items() for method in methods]
PLAIN = TestClient(APP)  # no lifespan: the settings are swapped per test by fuzz_headers


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


def _encoded(value) -> str:
    return quote(value if isinstance(value, str) else json.dumps(value), safe="")


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
@given(data=st.data(), pick=st.integers(min_value=0, max_value=10_000))
@hsettings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_with_nan_infinities_and_surrogates(path, method, fuzz_headers, data, pick) -> None:
    """Every operation, with one value swapped for NaN, an infinity, a huge integer, a lone
    surrogate or NUL (which JSON Schema generators never produce): a body leaf (or the body
    itself), sent as Python's json writes it (NaN and Infinity as bare words, surrogates as \\u
    escapes), or a query or path value, sent percent-encoded as it is."""
    case = data.draw(schema[path][method].as_strategy())
    params = {k: _encoded(v) for k, v in (case.path_parameters or {}).items()}
    query = {k: _encoded(v) for k, v in (case.query or {}).items() if not isinstance(v, list)}
    declared = [p["name"] for p in schema[path][method].definition.raw.get("parameters", []) if p["in"] == "query"]
    places = {"body": [None] * (method == "POST"), "path": list(params), "query": declared or ["unknown"] * (method != "POST")}
    where = [k for k, v in places.items() if v][pick % sum(bool(v) for v in places.values())]
    name = places[where][(pick // 3) % len(places[where])]
    body = case.body if isinstance(case.body, (dict, list)) else {}
    if where == "body":
        leaves = list(_leaves(body))
        body = _poisoned(body, leaves[pick % len(leaves)], data.draw(st.sampled_from(POISON)))
    else:
        (params if where == "path" else query)[name] = data.draw(st.sampled_from(RAW_POISON))
    url = path.format(**params) + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    content = json.dumps(body) if method == "POST" else None
    response = PLAIN.request(method, url, content=content, headers=fuzz_headers | {"Content-Type": "application/json"})
    assert response.status_code < 500, (method, url, body, response.text)
    if response.status_code >= 400 and method != "HEAD":
        assert set(response.json()) == {"error", "detail"}, response.text
