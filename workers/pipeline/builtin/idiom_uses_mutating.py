"""Idiom uses of the entries whose target changes its receiver (append, add, update, d[k] = v)."""

from __future__ import annotations

from workers.pipeline.builtin.idiom_use import Use

MUTATING_USES: dict[tuple[str, str], tuple[Use, ...]] = {}
