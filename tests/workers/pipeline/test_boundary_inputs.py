"""Boundary inputs (`edge_inputs`): the cases a careful program guards, which draws at the
reference lengths never reach, offered to the gate's coverage-first choice so a natural
guard clause is shown doing its work instead of being called deletable."""

from __future__ import annotations

import pytest

from sandbox import Sandbox
from workers.pipeline.input_synthesis import EDGE_CANDIDATES, LITERAL_CANDIDATES, candidate_pool, edge_inputs, literal_inputs
from workers.pipeline.inputs import UnsupportedArguments, parse_literal_args
from workers.pipeline.naturalness.stage import GATE_CANDIDATES, GateItem, gate_inputs


def edges(args: str) -> list:
    return [parse_literal_args(c.args) for c in edge_inputs(args)]


def test_containers_are_emptied_made_all_equal_or_zero_and_sorted() -> None:
    found = edges("[4, 9, 2, 9, 7]")
    assert found == [([],), ([4, 4, 4, 4, 4],), ([0, 0, 0, 0, 0],), ([2, 4, 7, 9, 9],)]
    assert ({},) in edges("{'a': 1, 'b': 2, 'c': 5, 'd': 0, 'e': 3}")
    assert (set(),) in edges("{1, 2, 3, 4, 5}")


def test_texts_are_emptied_recased_and_blanked() -> None:
    found = [v[0] for v in edges("'the cat sat'")]
    assert found[:3] == ["", "THE CAT SAT", " the cat sat "]
    assert "he llo" in [v[0] for v in edges("'hello'")]  # a blank inside a text that has none
    assert [v[0] for v in edges("'Q'")] == ["q"]  # a character stays a character


def test_numbers_go_to_zero_negative_and_past_the_other_arguments() -> None:
    found = edges("[5, 8, 3, 9, 1], 2")
    assert ([5, 8, 3, 9, 1], 0) in found and ([5, 8, 3, 9, 1], -2) in found
    assert ([5, 8, 3, 9, 1], 6) in found  # past the list's length (a too-large k)
    assert ([5, 8, 3, 9, 1], 10) in found  # above every item (a filter that keeps none)
    assert ([2.5, 7.0, 1.0, 9.5, 4.0], 10.5) in edges("[2.5, 7.0, 1.0, 9.5, 4.0], 2.0")


def test_an_argument_is_made_another_item_another_argument_holds() -> None:
    """A student looked up in a mapping becomes the other student (whose list is empty)."""
    assert ({"ana": [80, 95, 71], "ben": []}, "ben") in edges("{'ana': [80, 95, 71], 'ben': []}, 'ana'")
    assert (["fig", "kiwi", "pear"], "fig") in edges("['fig', 'kiwi', 'pear'], 'kiwi'")


def test_each_changes_one_argument_and_they_are_capped_and_deterministic() -> None:
    args = "'hello', 3, [1, 2, 3, 4, 5]"
    call = parse_literal_args(args)
    produced = edge_inputs(args)
    assert len(produced) == EDGE_CANDIDATES and produced == edge_inputs(args)
    assert {c.origin for c in produced} == {"boundary"}
    for cand in produced:
        values = parse_literal_args(cand.args)
        assert sum(a != b for a, b in zip(values, call)) == 1, cand.args
    # in turn over the arguments: the first three change the first, second and third
    assert [next(k for k, (a, b) in enumerate(zip(parse_literal_args(c.args), call)) if a != b)
            for c in produced[:3]] == [0, 1, 2]
    assert edge_inputs("(1, 'x')") == []  # a record has no boundary of its own
    with pytest.raises(UnsupportedArguments):
        edge_inputs("x + 1")


def test_the_pool_puts_boundary_inputs_after_the_drawn_ones() -> None:
    pool = candidate_pool("[4, 9, 2, 9, 7]", GATE_CANDIDATES, seed=3, mutated="[1, 1, 2, 3, 5]")
    assert [c.origin for c in pool[:2]] == ["teacher", "llm_mutation"]
    origins = [c.origin for c in pool[2:]]
    assert origins == ["synthesized"] * GATE_CANDIDATES + ["boundary"] * (len(origins) - GATE_CANDIDATES)
    assert "boundary" in origins
    assert candidate_pool("[4, 9, 2, 9, 7]", 3, seed=3, edges=0)[-1].origin == "synthesized"
    assert [c.origin for c in candidate_pool("xs", 3, seed=3, mutated="[1]")] == ["teacher", "llm_mutation"]


GUARDED = {
    "second_largest": ("[4, 9, 2, 9, 7]", "def f(nums):\n    uniq = sorted(set(nums), reverse=True)\n"
                       "    if len(uniq) < 2:\n        return None\n    return uniq[1]\n"),
    "mean_above": ("[2.5, 7.25, 1.0, 9.5], 2.0", "def f(values, floor):\n    kept = [v for v in values if v > floor]\n"
                   "    if not kept:\n        return 0.0\n    return round(sum(kept) / len(kept), 2)\n"),
    "caesar": ("'hello', 3", "def f(text, k):\n    out = []\n    for ch in text:\n        if ch.isalpha():\n"
               "            out.append(chr((ord(ch) - 97 + k) % 26 + 97))\n        else:\n            out.append(ch)\n"
               "    return ''.join(out)\n"),
    "vowels": ("'banana'", "def f(word):\n    word = word.lower()\n    n = 0\n    for ch in word:\n"
               "        if ch in 'aeiou':\n            n += 1\n    return n\n"),
}


def gate(sb: Sandbox, code: str, args: str, edges: int):  # noqa: ANN201
    pool = candidate_pool(args, GATE_CANDIDATES, seed=1, edges=edges)  # (at seed 1 no draw reaches the guards)
    (choice,) = gate_inputs(sb, [GateItem(code, "f", pool)], 3)
    return choice


@pytest.mark.parametrize("name", sorted(GUARDED))
def test_a_natural_guard_passes_once_boundary_inputs_are_offered(sb: Sandbox, name: str) -> None:
    args, code = GUARDED[name]
    assert "deletable_statement" in gate(sb, code, args, edges=0).reasons  # drawn inputs never reach it
    choice = gate(sb, code, args, edges=EDGE_CANDIDATES)
    assert choice.reasons == [], choice.detail
    assert "boundary" in [c.origin for c in choice.inputs]


def test_junk_stays_junk_on_boundary_inputs(sb: Sandbox) -> None:
    """A copy no input needs, and a guard whose arm gives what the rest gives anyway, are
    still deletable with every boundary input on offer."""
    copied = ("def f(nums):\n    nums = list(nums)\n    total = 0\n    for n in nums:\n        total += n\n"
              "    return total\n")
    assert gate(sb, copied, "[4, 9, 2, 9, 7]", EDGE_CANDIDATES).reasons == ["deletable_statement"]
    clamp = ("def f(nums, k):\n    if k > len(nums):\n        k = len(nums)\n"
             "    return sorted(nums, reverse=True)[:k]\n")
    assert "deletable_statement" in gate(sb, clamp, "[5, 8, 3, 9], 2", EDGE_CANDIDATES).reasons


def test_texts_are_made_the_classes_the_predicates_tell_apart() -> None:
    """Title case, digits and blanks (`istitle`, `isdigit`, `isspace`) come after the other
    boundaries of a text; numbers with a fraction are made whole (`is_integer`)."""
    found = [v[0] for v in edges("'the cat sat'")]
    assert found[-3:] == ["The Cat Sat", "64129762576", " " * 11]  # (a digit per character: its code mod 10)
    assert all(c.isdigit() for c in found[-2]) and found[-1].isspace()
    assert [v[0] for v in edges("'   '")][-1] != "   "  # (no blanks for a text that starts with one)
    assert ([2.0, 7.0, 1.0],) in edges("[2.5, 7.0, 1.25]")
    assert (2.0,) in edges("2.25") and (3.0,) not in edges("3.0")


def test_literal_inputs_give_a_text_the_pieces_the_program_tests_for() -> None:
    """The ends it tests (`endswith`, `startswith`), a piece it looks for (`in`, `count`)
    and a value it compares with (`==`), each given to each text argument in turn."""
    code = ("def f(line, tag):\n    if line.endswith(','):\n        line = line[:-1]\n"
            "    return line.startswith(('re', 'un')) and tag != 'x'\n")
    made = [parse_literal_args(c.args) for c in literal_inputs("'lemon tart', 'y'", code)]
    assert made == [("lemon tart,", "y"), ("lemon tart", "y,"), ("relemon tart", "y"), ("lemon tart", "rey"),
                    ("unlemon tart", "y"), ("lemon tart", "uny")]  # (6: the cap; `tag != 'x'` comes last)
    looked_for = "def f(line):\n    return line.count(';') + (':' in line) + (line == 'stop')\n"
    assert {parse_literal_args(c.args) for c in literal_inputs("'ab cd'", looked_for)} == {
        ("ab; cd",), ("ab: cd",), ("stop",)}
    assert literal_inputs("'ab'", "def f(s):\n    return s == 'a very long message'\n") == []  # not a piece
    assert {c.origin for c in literal_inputs("'a b', 'y'", code)} == {"boundary"}
    assert literal_inputs("[1, 2], 3", code) == []  # no text to give them to
    assert literal_inputs("'ab'", "def f(s):\n    return s.upper()\n") == []
    assert literal_inputs("'ab'", "def f(s) return") == []  # code that does not parse offers none
    pool = candidate_pool("'lemon tart', 'y'", 3, seed=1, code=code)
    assert [c.args for c in pool[-LITERAL_CANDIDATES:]] == [c.args for c in literal_inputs("'lemon tart', 'y'", code)]
    assert len(candidate_pool("'lemon tart', 'y'", 3, seed=1, code=code, edges=0)) == 4  # (without the gate: none)


def test_the_gate_keeps_an_input_for_each_answer_of_an_affix_test(sb: Sandbox) -> None:
    """Drawn texts never end with a comma; with the program's own affix offered, the kept
    inputs show the comma dropped and kept."""
    code = "def f(line):\n    return (line[:-1] if line.endswith(',') else line).endswith('s')\n"
    pool = candidate_pool("'red apples'", GATE_CANDIDATES, seed=1, code=code)
    (choice,) = gate_inputs(sb, [GateItem(code, "f", pool, target="str.endswith")], 3)
    kept = [parse_literal_args(c.args)[0] for c in choice.inputs]
    assert choice.reasons == [] and any(k.endswith(",") for k in kept) and not all(k.endswith(",") for k in kept)
