"""Fuzz every operation of the OpenAPI document (schemathesis): no input gives a 5xx, and
responses use documented status codes.

The schema is loaded at import from an app whose settings are swapped for the real test
database and Redis before each example (schemathesis' lazy fixture loader does not support
this pytest version); the OpenAPI document does not depend on settings.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck
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
