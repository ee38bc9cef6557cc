"""Request bodies are parsed by one strict JSON reader before FastAPI sees them.

Python's `json.loads` accepts what no field of this API can hold and what the database or the
response encoder later fails on: `NaN`/`Infinity`, numbers that overflow to infinity (`1e400`),
integers wider than a 64-bit column, lone surrogates (`"\\ud800"`, not encodable as UTF-8) and
NUL characters (refused by Postgres text and JSONB). Refusing them here, with the place where
they occur, turns every such body into one clear 400 instead of a 500 somewhere downstream.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from app.core.errors import DomainError

INT_LIMIT = 2**63 - 1
MAX_DEPTH = 64


class InvalidBody(DomainError):
    status_code = 400
    code = "invalid_json"


def _reject_constant(name: str) -> Any:
    raise InvalidBody(f"the body holds {name}: JSON has no NaN or Infinity; send a finite number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidBody(f"the number {text[:40]} is out of range; send a finite number")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > 20:  # before int(): Python refuses very long digit strings with its own error
        raise InvalidBody(f"the integer {text[:40]}... does not fit in 64 bits")
    value = int(text)
    if abs(value) > INT_LIMIT:
        raise InvalidBody(f"the integer {text} does not fit in 64 bits")
    return value


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise InvalidBody(f"{where}: text must not contain NUL characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidBody(f"{where}: text holds a lone surrogate (\\ud800-\\udfff); send valid Unicode") from None


def _check_tree(value: Any, where: str = "body", depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise InvalidBody(f"{where}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where)
            _check_tree(item, f"{where}.{key[:40]}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_tree(item, f"{where}[{index}]", depth + 1)


def loads(body: bytes) -> Any:
    """The parsed body, or InvalidBody naming what is wrong and where."""
    try:
        value = json.loads(body, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise InvalidBody(f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except UnicodeDecodeError:
        raise InvalidBody("the body is not valid UTF-8") from None
    except RecursionError:
        raise InvalidBody(f"the body is nested deeper than {MAX_DEPTH} levels") from None
    _check_tree(value)
    return value


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


class StrictJsonRoute(APIRoute):
    """A route whose JSON body goes through `loads` first. Starlette's request keeps the parsed
    value (`_json`), so FastAPI's own `request.json()` reuses it instead of parsing again."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def strict_handler(request: Request) -> Response:
            if _is_json(request):
                body = await request.body()
                if body:
                    request._json = loads(body)
            return await handler(request)

        return strict_handler
