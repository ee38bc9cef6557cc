"""Idiom loops and results of session 7: while loops whose test says why they stop, results
filed by a key (a Counter, groups of lists), index walks that only fetch the item written as
direct iteration, and whole-input size questions asked only where nothing else splits."""

from __future__ import annotations

import ast
import random
import re

import pytest

from workers.pipeline.builtin import flow, idioms
from workers.pipeline.builtin.idiom_uses import USES
from workers.pipeline.builtin.idioms import build_idiom
from workers.pipeline.constraints import load_catalog
from workers.pipeline.records import Knobs

from .idiom_draws import blueprint_draws

CATALOG = load_catalog()
NAMES = ("process_batch",)


def _draws(blueprint: tuple[str, ...], per_entry: int = 4,
           kinds: tuple[str, ...] | None = None) -> list[tuple[str, str, str]]:
    return blueprint_draws(blueprint, per_entry, kinds, "loops")


def _run(code: str, entry: str, args: str) -> object:
    space: dict = {}
    exec(compile(code, "<idiom>", "exec"), space)  # noqa: S102 - our own draw
    return space[entry](*ast.literal_eval(f"({args},)"))


def test_keyed_results_count_or_group_and_report_plain_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "KEYED_RESULTS", 1.0)
    shapes = {"counter": 0, "defaultdict": 0, "setdefault": 0}
    for code, entry, args in _draws(("for", "if"), 2):
        if "collections.Counter()" in code:
            shapes["counter"] += 1
        elif "collections.defaultdict(list)" in code:
            shapes["defaultdict"] += 1
        elif re.search(r"\.setdefault\(.*, \[\]\)\.append\(", code) and " = {}\n" in code:
            shapes["setdefault"] += 1
        else:
            continue
        assert "import collections" in code or "collections." not in code, code
        try:
            result = _run(code, entry, args)
        except Exception:  # noqa: BLE001 - a draw the self-check would redraw
            continue
        # the report is a plain value (a list of pairs, a dict, a number), never a Counter's repr
        assert type(result).__name__ not in ("Counter", "defaultdict"), code
        assert ast.literal_eval(repr(result)) == result, code
    assert all(n >= 3 for n in shapes.values()), shapes


def test_purpose_while_loops_say_why_they_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "PURPOSE_WHILES", 1.0)
    found = {"enough": 0, "jump": 0, "iter": 0, "shrink": 0, "heap": 0}
    for code, _, _ in _draws(("while", "if"), 3, kinds=("list", "tuple", "zip", "enumerate", "filter", "reversed")):
        lines = [line.strip() for line in code.splitlines()]
        if any(re.fullmatch(r"while \w+ < len\(\w+\) and .+:", line) for line in lines):
            found["enough"] += 1
        jump = r"\w+ \+= (\w+|int\(\w+\)|len\(\w+\)) % \d \+ 1|\w+ \+= 1 \+ .+ % 2"
        if any(re.fullmatch(jump, line) for line in lines):
            found["jump"] += 1
        if any(re.fullmatch(r"while \w+ is not None:", line) for line in lines):
            found["iter"] += 1
            it = next(line.split(" = ")[0] for line in lines if re.fullmatch(r"\w+ = iter\(.+\)", line))
            assert sum(f"next({it}, None)" in line for line in lines) == 2, code  # before the loop and at its end
        if any(re.fullmatch(r"while len\(\w+\) > [12]:", line) for line in lines):
            found["shrink"] += 1
        if any("heapq.heappop(" in line for line in lines):
            found["heap"] += 1
            assert "import heapq" in code and any("heapq.heapify(" in line for line in lines), code
    assert all(n >= 1 for n in found.values()), found


def test_an_index_walk_that_only_fetches_the_item_walks_the_items() -> None:
    fetches = 0
    for code, _, _ in _draws(("for", "if"), 3) + _draws(("for", "for"), 2):
        lines = [line.strip() for line in code.splitlines()]
        for k, line in enumerate(lines[:-1]):
            m = re.fullmatch(r"for (\w+) in range\(len\((\w+)\)\):", line)
            if m and re.fullmatch(rf"\w+ = {m[2]}\[{m[1]}\]", lines[k + 1]):
                fetches += 1
    assert fetches == 0


def test_a_texts_words_and_a_words_letters_have_more_than_one_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "PURPOSE_WHILES", 1.0)
    words, letters = set(), set()
    for code, _, _ in _draws(("for", "while", "if"), 2, kinds=("str",)):
        lines = [line.strip() for line in code.splitlines()]
        for line in lines:
            if re.fullmatch(r"\w+ = (collections\.deque|list|iter)\(\w+\)", line):
                letters.add(line.split(" = ")[1].split("(")[0])
        for line in lines:
            if line.startswith("for ") and ".split()" in line:
                words.add(re.sub(r"\w+", "N", line.split(" in ", 1)[1]))
    assert {"collections.deque", "list", "iter"} <= letters, letters
    assert len(words) >= 4, words


def test_whole_input_size_questions_are_the_plain_ones() -> None:
    assert flow._PLAIN_WHOLE == {"len({x}) > {n}", "len({x}) < {n}", "len({x}) % 2 == 0"}


def test_a_comma_separated_text_is_walked_word_by_word() -> None:
    """However the words are read (commas as spaces, re.findall, each comma stripped), the
    loop over the text's words gets its words: none empty, none with a comma."""
    walks, spellings = 0, set()
    for t, method in USES:
        if t != "str" or method in ("replace", "split", "findall"):
            continue
        knobs = Knobs(True, True, False, 2, ("for", "if"))
        for i in range(6):
            made = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"comma:{method}:{i}"), NAMES)
            if made is None or "," not in made[2].split("'")[1]:
                continue
            params = re.search(rf"def {made[1]}\((.*?)\):", made[0]).group(1).split(", ")
            space = {"re": re, **dict(zip(params, ast.literal_eval(f"({made[2]},)")))}
            for line in made[0].splitlines():
                walk = re.fullmatch(r"\s*for \w+ in (.*(?:split|findall).*):", line)
                if walk is None:
                    continue
                try:
                    words = list(eval(walk.group(1), space))  # noqa: S307 - the generator's own line
                except NameError:  # a walk over a local, not the text itself
                    continue
                walks += 1
                spellings.add(re.sub(r"\w+", "_", walk.group(1)))
                assert words and all(w and "," not in w for w in words), (made[0], words)
    assert walks >= 5, walks
    assert len(spellings) >= 3, spellings


def test_a_text_split_in_two_places_is_split_once_into_a_name() -> None:
    """`text.split()` read twice is written `words = text.split()` first, the lines reading
    the name; a work list a loop empties keeps its own copy (no alias of the shared words)."""
    hoisted = 0
    for t, method in USES:
        if t != "str" or method in ("split", "replace", "lower"):
            continue
        for i in range(6):
            knobs = Knobs(True, True, False, 2, ("if", "for"))
            made = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"hoist:{method}:{i}"), NAMES)
            if made is None:
                continue
            text = re.search(rf"def {made[1]}\((\w+)", made[0]).group(1)
            body = made[0].split(f"def {made[1]}(")[1]
            splits = re.findall(rf"(?<![\w.]){text}\.(?:replace\(',', ' '\)\.)?split\(\)", body)
            work_list = re.search(rf"^\s+\w+ = {text}\.\S*split\(\)$", body, re.M)
            assert max(map(splits.count, splits), default=0) < 2 or work_list, made[0]  # one spelling twice
            named = re.search(rf"^    (words|tokens|terms) = {text}\.\S*split\(\)$", body, re.M)
            if named and len(re.findall(rf"\b{named.group(1)}\b", body)) >= 3:
                hoisted += 1
    assert hoisted >= 3, hoisted
