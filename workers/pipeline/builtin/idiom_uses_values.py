"""Idiom uses of the entries whose target computes a value without changing its receiver
(comparisons, slices, predicates, lookups)."""

from __future__ import annotations

from workers.pipeline.builtin.idiom_use import Use

VALUE_USES: dict[tuple[str, str], tuple[Use, ...]] = {}
