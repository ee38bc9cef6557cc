"""A real sandbox for the pipeline tests (programs are run, never trusted)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox import Limits, Sandbox


@pytest.fixture(scope="module")
def sb() -> Iterator[Sandbox]:
    box = Sandbox(isolation="namespaces", workers=2,
                  limits=Limits(timeout_s=5.0, memory_mb=256)).start()
    yield box
    box.close()
