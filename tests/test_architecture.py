"""The import arrows of ARCHITECTURE.md, checked in fresh interpreters.

Each layer's modules are all imported together in one new interpreter; if their union pulls
in nothing forbidden, no single module does either.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def _modules(package: str, exclude: tuple[str, ...] = ()) -> list[str]:
    path = ROOT / package.replace(".", "/")
    names = [package]
    for info in pkgutil.walk_packages([str(path)], prefix=package + "."):
        if not info.name.startswith(exclude) and ".tests" not in info.name:
            names.append(info.name)
    return names


def _loaded(modules: list[str]) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *modules], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout))


def _top(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


STDLIB = set(sys.stdlib_module_names) | {"__main__", "_distutils_hack", "sitecustomize", "usercustomize"}


def _third_party(names: set[str], own: set[str]) -> set[str]:
    return {n for n in _top(names) if n not in STDLIB and n not in own and not n.startswith("_")}


def test_sandbox_imports_only_the_standard_library() -> None:
    modules = _modules("sandbox", exclude=("sandbox.docker", "sandbox.backends.docker"))
    assert _third_party(_loaded(modules), {"sandbox"}) == set()


def test_training_core_imports_only_stdlib_and_sandbox() -> None:
    modules = _modules("training", exclude=("training.export",))
    assert _third_party(_loaded(modules), {"sandbox", "training"}) == set()


@pytest.mark.parametrize(
    ("package", "exclude", "forbidden"),
    [
        ("workers.pipeline", (), {"app", "sqlalchemy", "celery", "kombu", "fastapi", "alembic", "redis", "execsynth", "workers.tasks", "workers.celery_app"}),
        # the app may use the pure pipeline code (e.g. the constraint catalog), never the Celery side
        ("app", (), {"workers.tasks", "workers.celery_app", "workers.celeryconfig", "workers.runner", "execsynth"}),
        ("training.export", (), {"workers", "fastapi", "execsynth"}),
    ],
)
def test_layer_never_imports_a_higher_one(package: str, exclude: tuple[str, ...], forbidden: set[str]) -> None:
    if not (ROOT / package.replace(".", "/")).exists():
        pytest.skip(f"{package} does not exist yet")
    loaded = _loaded(_modules(package, exclude))
    hits = {name for name in loaded if name in forbidden or name.split(".")[0] in forbidden}
    assert hits == set(), f"{package} pulls in {sorted(hits)}"
