"""Warnings about an export that ran but gave less than was asked: a written split with no
rows, or a task type of a split that got none of the rows it asked for. They are written to
the manifest and the dataset card, and shown by the API and the CLI: an empty eval split or
0 O->I rows is worth knowing before training, not after."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def split_warnings(splits: Mapping[str, Mapping[str, Any]], candidates: int) -> list[str]:
    """From the manifest's `splits` section ({name: {written, requested, produced, rows}})."""
    out = []
    for name, split in splits.items():
        if not split.get("written"):
            continue
        if not split.get("rows"):
            out.append(f"split {name!r} is empty: no eligible sample was left for it "
                       f"({candidates} candidate samples in the selection)")
            continue
        produced = split.get("produced") or {}
        for task, wanted in (split.get("requested") or {}).items():
            if wanted != 0 and not produced.get(task):
                out.append(f"split {name!r} has no {task} rows (requested {'all' if wanted is None else wanted})")
    return out
