"""What the fake OpenAI server does with one chat-completion request.

Each behaviour is a small frozen record so a test can script a run as data
(`server.script(RateLimit("1"), ServerError(), Reply())`) and read back which ones were served.
The misbehaviours are the ones real OpenAI-compatible servers show under load: 429 with
Retry-After, 5xx, a connection that never answers, and bodies the client cannot use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Reply:
    """A normal 200 answer. `texts=None` lets the server's responder decide the content."""

    texts: Sequence[str] | None = None
    delay_s: float = 0.0
    include_usage: bool = True


@dataclass(frozen=True)
class RateLimit:
    """429. `retry_after` is sent verbatim (seconds or an HTTP date); None sends no header."""

    retry_after: str | None = "1"
    retry_after_ms: str | None = None
    delay_s: float = 0.0


@dataclass(frozen=True)
class ServerError:
    status: int = 500
    retry_after: str | None = None
    delay_s: float = 0.0


@dataclass(frozen=True)
class ClientError:
    """A 4xx other than 429: the client must not retry it."""

    status: int = 400
    delay_s: float = 0.0


@dataclass(frozen=True)
class Hang:
    """Accept the request and never answer; held until the client gives up or the server stops."""


@dataclass(frozen=True)
class MalformedJSON:
    """200 with `content-type: application/json` and a body that is not JSON."""

    delay_s: float = 0.0


@dataclass(frozen=True)
class EmptyChoices:
    delay_s: float = 0.0


@dataclass(frozen=True)
class NullContent:
    """A choice whose message content is null (as servers send for refusals or tool calls)."""

    delay_s: float = 0.0


Behaviour = Reply | RateLimit | ServerError | ClientError | Hang | MalformedJSON | EmptyChoices | NullContent
