"""The (type, method) axis of the grid: the builtin 186 entries plus optional config files.

Method lists are derived from the running interpreter where the grid says "all public
methods" (so the catalog cannot name a method the interpreter lacks), and a config file
(TOML or JSON, same shape as `builtin_catalog.toml`) adds types and modules:

    [types.int]
    operators = ["+", "//"]
    methods = ["bit_length"]
    [modules.math]
    functions = ["gcd", "sqrt"]          # or "*" for every public callable
    [signatures]                          # optional: lets the builtin generator write them
    "math.gcd" = { args = ["int", "int"], returns = "int" }
"""

from __future__ import annotations

import builtins
import importlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from workers.pipeline.constraints.syntax import Syntax, UnknownSyntax, canonical_method, classify


class CatalogError(ValueError):
    """A config file that cannot be read or names something the interpreter does not have."""


@dataclass(frozen=True)
class Signature:
    """Argument and result types (builtin generator type names: int, float, str, list, ...)."""

    args: tuple[str, ...]
    returns: str


@dataclass(frozen=True)
class Entry:
    type: str
    method: str
    syntax: Syntax
    origin: str = "builtin"  # "builtin" | the config file name
    signature: Signature | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.type, self.method)


@dataclass(frozen=True)
class Catalog:
    entries: tuple[Entry, ...]
    _index: dict[tuple[str, str], Entry] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update({e.key: e for e in self.entries})

    def __len__(self) -> int:
        return len(self.entries)

    def types(self) -> list[str]:
        return list(dict.fromkeys(e.type for e in self.entries))

    def get(self, type_name: str, method: str) -> Entry:
        entry = self._index.get((type_name, canonical_method(type_name, method)))
        if entry is None:
            raise KeyError(f"no catalog entry {type_name}.{method}")
        return entry

    def find(self, type_name: str, method: str) -> Entry | None:
        return self._index.get((type_name, canonical_method(type_name, method)))


def _public_methods(obj: Any) -> list[str]:
    return [n for n in dir(obj) if not n.startswith("_") and callable(getattr(obj, n))]


def _resolve_type(name: str) -> Any:
    value = getattr(builtins, name, None)
    if not isinstance(value, type):
        raise CatalogError(f"'{name}' is not a builtin type; list it under [modules] instead")
    return value


def _entries_for_type(name: str, spec: Mapping[str, Any], origin: str) -> list[Entry]:
    spellings = list(spec.get("operators", []))
    methods = spec.get("methods", [])
    if methods == "*":
        excluded = set(spec.get("exclude", []))
        methods = [m for m in _public_methods(_resolve_type(name)) if m not in excluded]
    elif methods:
        pytype = _resolve_type(name)
        missing = [m for m in methods if not hasattr(pytype, m)]
        if missing:
            raise CatalogError(f"{name} has no methods {missing} in this interpreter")
    spellings.extend(methods)
    return [_entry(name, s, origin) for s in spellings]


def _entries_for_module(name: str, spec: Mapping[str, Any], origin: str) -> list[Entry]:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        raise CatalogError(f"module '{name}' cannot be imported: {exc}") from exc
    functions = spec.get("functions", [])
    if functions == "*":
        functions = _public_methods(module)
    missing = [f for f in functions if not callable(getattr(module, f, None))]
    if missing:
        raise CatalogError(f"module '{name}' has no callables {missing}")
    return [_entry(name, f, origin, module=True) for f in functions]


def _entry(type_name: str, spelling: str, origin: str, module: bool = False) -> Entry:
    method = spelling.strip() if module else canonical_method(type_name, spelling)
    try:
        syntax = classify(type_name, method, module=module)
    except UnknownSyntax as exc:
        raise CatalogError(str(exc)) from exc
    return Entry(type_name, method, syntax, origin)


def parse_catalog(data: Mapping[str, Any], origin: str) -> list[Entry]:
    """Entries of one parsed config document (builtin or extra), signatures attached."""
    unknown = set(data) - {"types", "modules", "signatures"}
    if unknown:
        raise CatalogError(f"{origin}: unknown sections {sorted(unknown)}")
    entries: list[Entry] = []
    for name, spec in data.get("types", {}).items():
        entries.extend(_entries_for_type(name, spec, origin))
    for name, spec in data.get("modules", {}).items():
        entries.extend(_entries_for_module(name, spec, origin))
    signatures = {k: _signature(k, v, origin) for k, v in data.get("signatures", {}).items()}
    out = []
    for e in entries:
        sig = signatures.pop(f"{e.type}.{e.method}", None)
        out.append(Entry(e.type, e.method, e.syntax, e.origin, sig))
    if signatures:
        raise CatalogError(f"{origin}: signatures for entries not listed: {sorted(signatures)}")
    return out


def _signature(key: str, value: Any, origin: str) -> Signature:
    if not isinstance(value, Mapping) or "returns" not in value:
        raise CatalogError(f"{origin}: signature {key!r} needs 'args' and 'returns'")
    return Signature(tuple(value.get("args", [])), str(value["returns"]))


def _read(path: Path) -> Mapping[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"cannot read catalog file {path}: {exc}") from exc
    try:
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path.name}: not valid {path.suffix or 'TOML'}: {exc}") from exc


def _merge(base: Iterable[Entry], extra: Iterable[Entry]) -> tuple[Entry, ...]:
    merged: dict[tuple[str, str], Entry] = {e.key: e for e in base}
    for e in extra:
        merged[e.key] = e  # a config entry may re-declare a builtin one (e.g. add a signature)
    return tuple(merged.values())


def load_catalog(extra_path: str | Path | None = None) -> Catalog:
    """The builtin grid, plus the entries of `extra_path` when given."""
    text = resources.files(__package__).joinpath("builtin_catalog.toml").read_text("utf-8")
    entries = parse_catalog(tomllib.loads(text), "builtin")
    if extra_path is not None:
        path = Path(extra_path)
        entries = list(_merge(entries, parse_catalog(_read(path), path.name)))
    return Catalog(tuple(entries))
