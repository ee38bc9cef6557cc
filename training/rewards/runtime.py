"""The trainer-side sandbox: created lazily, once per process, shared by all reward calls.

A trainer imports the reward module in many worker processes and calls it from threads;
starting a sandbox per call would cost more than the grading. So one sandbox is started on
first use under a lock, and closed at interpreter exit. Tests and embedders swap it with
`set_sandbox_factory` (or `use_sandbox`). Every run that the sandbox could not judge raises
RewardInfrastructureError: a reward never turns an infrastructure failure into a 0.
"""

from __future__ import annotations

import atexit
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from training.errors import RewardInfrastructureError

ISOLATION_ENV = "EXECSYNTH_REWARD_SANDBOX_ISOLATION"
_lock = threading.Lock()
_sandbox: Any = None
_factory: Callable[[], Any] | None = None
_ids = itertools.count()


def default_factory() -> Any:
    """A namespaces-isolated sandbox (override the isolation with EXECSYNTH_REWARD_SANDBOX_ISOLATION)."""
    from sandbox import Sandbox

    sb = Sandbox(isolation=os.environ.get(ISOLATION_ENV, "namespaces"))
    enter = getattr(sb, "__enter__", None)
    return enter() if enter is not None else sb


def set_sandbox_factory(factory: Callable[[], Any] | None) -> None:
    """Replace how the process sandbox is made (None: the default); closes the current one."""
    global _factory
    with _lock:
        _close_locked()
        _factory = factory


@contextmanager
def use_sandbox(sandbox: Any) -> Iterator[Any]:
    """Grade with `sandbox` inside the block (tests); the caller owns its lifetime."""
    global _sandbox, _factory
    with _lock:
        previous = (_sandbox, _factory)
        _sandbox, _factory = sandbox, (lambda: sandbox)
    try:
        yield sandbox
    finally:
        with _lock:
            _sandbox, _factory = previous


def get_sandbox() -> Any:
    global _sandbox
    if _sandbox is not None:
        return _sandbox
    with _lock:
        if _sandbox is None:
            try:
                _sandbox = (_factory or default_factory)()
            except Exception as exc:  # any start failure means "cannot judge"
                raise RewardInfrastructureError(f"cannot start the reward sandbox: {exc!r}") from exc
        return _sandbox


def _close_locked() -> None:
    global _sandbox
    sb, _sandbox = _sandbox, None
    if sb is None:
        return
    closer = getattr(sb, "__exit__", None)
    try:
        if closer is not None:
            closer(None, None, None)
        elif hasattr(sb, "close"):
            sb.close()
    except Exception:  # closing at exit must not mask the real outcome
        pass


def close_sandbox() -> None:
    with _lock:
        _close_locked()


atexit.register(close_sandbox)


def run_call(code: str, entry_point: str, args: str, hash_seed: int = 0) -> dict[str, Any] | None:
    """Run `entry_point(args)` in the sandbox: the typed result when the call returned,
    None for a verdict against it (exception, timeout, limits), and RewardInfrastructureError
    when the sandbox could not judge."""
    return run_call_status(code, entry_point, args, hash_seed)[1]


def run_call_status(code: str, entry_point: str, args: str, hash_seed: int = 0) -> tuple[str, dict[str, Any] | None]:
    """`run_call` with the run's status beside the typed result ("ok", "timeout", ...)."""
    from sandbox import Job

    sb = get_sandbox()
    job = Job(id=f"reward-{next(_ids)}", code=code, entry_point=entry_point, args=args,
              trace=False, hash_seed=hash_seed)
    try:
        result = sb.run(job)
    except Exception as exc:
        raise RewardInfrastructureError(f"sandbox run failed: {exc!r}") from exc
    if result.status == "sandbox_error":
        raise RewardInfrastructureError(f"sandbox_error: {getattr(result, 'error', None) or result}")
    if result.status != "ok" or result.result is None:
        return result.status, None
    return result.status, dict(result.result)
