"""New inputs for a program: the teacher's own call, LLM argument mutation (METHOD.md section
2) and type-directed synthesis. Each (program, input) pair becomes one sample.

Argument text is always the exact source between the call's parentheses; values are only
ever produced and read as Python literals (`ast.literal_eval`), never evaluated.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

INPUT_ORIGINS = ("teacher", "llm_mutation", "synthesized", "boundary")


@dataclass(frozen=True)
class InputCandidate:
    args: str
    origin: str  # one of INPUT_ORIGINS


@dataclass(frozen=True)
class SizeBounds:
    """Bounds for synthesized containers, strings and numbers: METHOD.md section 2's
    reference lengths (5..15), kept to 5..10 items and 5..12 characters so loops over the input stay short (a traced step snapshots
    the locals)."""

    min_len: int = 5
    max_len: int = 10
    int_span: int = 50
    min_str_len: int = 5
    max_str_len: int = 12
    max_depth: int = 3


class UnsupportedArguments(ValueError):
    """The arguments are not all literals, so their types cannot be inferred."""


def args_hash(args: str) -> str:
    return hashlib.sha256(args.encode()).hexdigest()


def parse_literal_args(args: str) -> tuple[Any, ...]:
    """`"[1, 2], 'a'"` -> `([1, 2], 'a')`; keyword arguments and non-literals are refused."""
    try:
        call = ast.parse(f"f({args})", mode="eval").body
    except SyntaxError as exc:
        raise UnsupportedArguments(f"argument text does not parse: {exc.msg}") from None
    assert isinstance(call, ast.Call)
    if call.keywords:
        raise UnsupportedArguments("keyword arguments are not synthesized")
    try:
        return tuple(ast.literal_eval(node) for node in call.args)
    except ValueError:
        raise UnsupportedArguments("arguments are not all literals") from None


@functools.lru_cache(maxsize=4096)
def canonical_key(args: str) -> str:
    """Two argument texts that denote the same values share a key (`[1,2]` == `[1, 2]`).
    Cached: one text is keyed again and again (input synthesis, the self-check's draws
    of one slot, the gate's candidates), and each key is a parse; the texts of the
    programs in flight fit, so a long argument text is never held for long."""
    try:
        values = parse_literal_args(args)
    except UnsupportedArguments:
        return "src:" + " ".join(args.split())
    return "lit:" + _typed_repr(values)


def _typed_repr(value: Any) -> str:
    # repr alone would equate 1 and True; sets are sorted by repr for a stable key
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}{{{','.join(sorted(_typed_repr(v) for v in value))}}}"
    if isinstance(value, dict):
        return "dict{" + ",".join(f"{_typed_repr(k)}:{_typed_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}[" + ",".join(_typed_repr(v) for v in value) + "]"
    return f"{type(value).__name__}:{value!r}"


def format_args(values: tuple[Any, ...]) -> str:
    return ", ".join(literal_source(v) for v in values)


def literal_source(value: Any) -> str:
    """Source text of a literal value; sets are written in a canonical (sorted) order."""
    if isinstance(value, (set, frozenset)):
        if not value:
            return "set()" if isinstance(value, set) else "frozenset()"
        body = "{" + ", ".join(literal_source(v) for v in sorted(value, key=_typed_repr)) + "}"
        return body if isinstance(value, set) else f"frozenset({body})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal_source(k)}: {literal_source(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(literal_source(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(literal_source(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def distinct_inputs(candidates: Iterable[InputCandidate], limit: int) -> list[InputCandidate]:
    """First `limit` candidates with distinct values, in the given (priority) order."""
    seen: set[str] = set()
    kept: list[InputCandidate] = []
    for cand in candidates:
        key = canonical_key(cand.args)
        if key in seen:
            continue
        seen.add(key)
        kept.append(cand)
        if len(kept) == limit:
            break
    return kept


def greedy_cover(marks: list, outputs: list, limit: int) -> list:
    """Indices of up to `limit` items, greedily: item 0 (the teacher's call) first, then the
    one reaching the most marks of branch arms (marks >= 0) not yet covered, then, while
    fewer than 2 outputs are kept, one whose output differs from those kept, then the one
    reaching the most answers not yet covered (negative marks: a target predicate's yes or
    no, a conditional expression's arm), then one whose output differs, then the earliest.
    Where the arms took every place and the kept items share one output while another item
    gives a second, that item takes the place of the kept one (not item 0) whose marks the
    rest reach best. Self-contained: the probe job runs this same code."""
    order = list(range(len(marks)))
    kept = [order.pop(0)] if order else []
    covered = set(marks[0]) if kept else set()

    def rank(i):
        new = set(marks[i]) - covered
        arms = sum(1 for m in new if m >= 0)
        differs = outputs[i] not in seen
        return arms, differs and len(seen) < 2, len(new) - arms, differs, -i

    while order and len(kept) < limit:
        seen = {outputs[k] for k in kept}
        best = max(order, key=rank)
        order.remove(best)
        kept.append(best)
        covered |= set(marks[best])
    seen = {outputs[k] for k in kept}
    others = [i for i in order if outputs[i] not in seen]
    if len(kept) > 1 and len(seen) < 2 and others:
        # the arms took every place and left one output: a second output outranks an arm
        # (a program whose kept inputs agree shows nothing), so the kept input (not the
        # teacher's) whose marks the rest reach best gives way to the one adding most
        def lost(k):
            rest = {m for j in kept if j != k for m in marks[j]}
            gone = set(marks[k]) - rest
            return sum(1 for m in gone if m >= 0), len(gone)

        drop = min(kept[1:], key=lambda k: (lost(k), -k))
        kept.remove(drop)
        rest = {m for j in kept for m in marks[j]}
        kept.append(max(others, key=lambda i: (sum(1 for m in set(marks[i]) - rest if m >= 0),
                                               len(set(marks[i]) - rest), -i)))
    return sorted(kept)


def effect_swap(chosen: list, viable: list, deletable: list, variants: int, differs, marks: list,  # noqa: ANN001
                outputs: list) -> tuple:
    """(chosen, deletable) with kept inputs swapped for ones that show a statement's effect.

    `deletable`: the variants (the program with statement j left out) that change no output
    on the `chosen` inputs; `differs(j, c)` says whether variant j changes input c's output
    (False where unsure). While some variant is deletable, a kept input other than the
    teacher's call (index 0) is replaced by another viable one on which a deletable variant
    changes the output, where the swap reaches every arm (mark >= 0; an answer may be traded
    for a statement shown) the kept inputs reached, keeps 2 distinct outputs or more (as
    many as before where that was fewer) and leaves fewer
    variants deletable (a variant only the dropped input told apart must be told apart by
    the new one); the swap leaving fewest is taken, then the one keeping most outputs. (A
    case-changing guard `w = w.lower()` is shown only by an input that differs from another
    in case alone, and so gives an output another kept input gives too.)
    A statement that matters only on some inputs is then shown on one, not called dead.
    Self-contained: the probe job runs this same code."""
    chosen, deletable = sorted(chosen), sorted(deletable)
    known: dict = {}

    def tells(j, c):  # noqa: ANN001, ANN202
        if (j, c) not in known:
            known[(j, c)] = bool(differs(j, c))
        return known[(j, c)]

    while deletable:
        reached = {m for k in chosen for m in marks[k] if m >= 0}  # (arms: answers may be traded)
        shown = len({outputs[k] for k in chosen})
        best = None
        for c in (c for c in viable if c not in chosen):
            fixed = {j for j in deletable if tells(j, c)}
            if not fixed:
                continue
            for p in (p for p in chosen if p != 0):
                rest = [k for k in chosen if k != p]
                new = rest + [c]
                distinct = len({outputs[k] for k in new})
                if not reached <= {m for k in new for m in marks[k] if m >= 0} or distinct < min(shown, 2):
                    continue
                lost = {j for j in range(variants) if j not in deletable and tells(j, p)
                        and not any(tells(j, k) for k in rest) and not tells(j, c)}
                left = len(deletable) - len(fixed) + len(lost)
                if left < len(deletable) and (best is None or (left, -distinct) < best[0]):
                    best = ((left, -distinct), sorted(new), sorted((set(deletable) - fixed) | lost))
        if best is None:
            break
        _, chosen, deletable = best
    return chosen, deletable


def coverage_first(candidates: list[InputCandidate], marks: list[set[int]], outputs: list[str],
                   limit: int) -> list[InputCandidate]:
    """Up to `limit` candidates with distinct values, chosen by `greedy_cover` (so a program
    gets at least 2 distinct outputs where any candidate gives them)."""
    first: dict[str, int] = {}
    for i, cand in enumerate(candidates):
        first.setdefault(canonical_key(cand.args), i)
    idx = sorted(first.values())
    picked = greedy_cover([marks[i] for i in idx], [outputs[i] for i in idx], limit)
    return [candidates[idx[k]] for k in picked]
