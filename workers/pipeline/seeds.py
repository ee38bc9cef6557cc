"""Every seed an item is drawn with, derived from the batch seed and the item's natural key
(never a row id, which depends on write order), so the same spec and seed give the same data."""

from __future__ import annotations

import hashlib


def derive(seed: int, *key: object) -> int:
    """A 64-bit seed for the item named by `key` under the batch seed."""
    digest = hashlib.sha256(":".join(map(str, (seed, *key))).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def sample_seed(seed: int, slot: int, code: str, args: str) -> int:
    """Question choice for one sample (program text and input: its natural key)."""
    return derive(seed, slot, code, args)


def input_synthesis_seed(seed: int, slot: int) -> int:
    """Type-directed inputs of the program in `slot`."""
    return seed * 1_000_003 + slot


def mutant_seed(seed: int, slot: int) -> int:
    """AST mutants of the program in `slot`."""
    return seed + slot


def reference_values_key(slot: int) -> str:
    """The key the LLM argument mutation draws its reference values under."""
    return f"slot:{slot}"
