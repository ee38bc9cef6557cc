"""One target use of the idiom library (see idiom_uses for the placeholders)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Use:
    text: str
    rtype: str  # int | float | str | list | dict | bool | tuple
    kinds: tuple[str, ...]  # data kinds of {xs}: ints | words | prices | text
    calls: bool = True
    names: tuple[str, ...] = ()  # task names for the entry function


def _u(text: str, rtype: str, kinds: str, calls: bool = True, names: str = "") -> Use:
    return Use(text, rtype, tuple(kinds.split()), calls, tuple(names.split()))
