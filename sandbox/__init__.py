"""Isolated, fast execution of untrusted Python, with interpreter traces (stdlib only).

Public API: Sandbox, Job, Limits, RunResult, encode_value, literal_from_typed.
Names are resolved lazily (PEP 562) so that the forkserver, which imports only the
child-side modules, never pays for the host-side pool machinery.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "Sandbox": "sandbox.core", "same_behaviour": "sandbox.result",
    "Job": "sandbox.jobs", "Limits": "sandbox.jobs",
    "RunResult": "sandbox.result", "STATUSES": "sandbox.result",
    "encode_value": "sandbox.encoding", "canonical_order": "sandbox.encoding",
    "literal_from_typed": "sandbox.literals",
    "SandboxError": "sandbox.errors", "SandboxUnavailable": "sandbox.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
