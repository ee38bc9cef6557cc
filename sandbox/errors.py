"""Typed sandbox errors: each means one thing, and none of them is a verdict on a program."""

from __future__ import annotations


class SandboxError(Exception):
    """Base class for failures of the sandbox itself."""


class SandboxUnavailable(SandboxError):
    """The requested isolation cannot be provided here (no namespaces, no Docker engine)."""


class ForkServerDown(SandboxError):
    """A forkserver died or stopped answering; the run in flight could not be judged."""

    def __init__(self, message: str, hung: bool = False) -> None:
        super().__init__(message)
        self.hung = hung
