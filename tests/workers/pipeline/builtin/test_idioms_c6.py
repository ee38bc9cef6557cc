"""C6 idiom draws: where the helper holding the use is called (before the walk, in the first
test on the input, in the returned value) and helpers that ready their data first."""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from collections.abc import Iterator

from workers.pipeline.builtin.idiom_helpers import TESTS, define, splits
from workers.pipeline.builtin.idioms import _differs, _Program, build_idiom
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.records import Constraint
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
NAMES = ("process_batch",)
SPLIT_OFF = {h.name for kind in TESTS.values() for h in kind}  # helpers that are a test on an element
# entries whose uses read the whole data (so the helper is called once, on all of it)
WHOLE = [("zip", "zip"), ("enumerate", "enumerate"), ("str", "split"), ("set", "&"), ("list", "index")]


def c6_stream(count: int) -> Iterator[tuple[Constraint, str, str, str]]:
    for i in range(count):
        for t, method in WHOLE:
            entry = CATALOG.get(t, method)
            knobs = with_blueprint(LEVELS["C6"], random.Random(f"c6:{t}:{i}"))
            made = build_idiom(entry, knobs, random.Random(f"c6:{t}:{method}:{i}"), NAMES)
            if made is not None:
                yield (Constraint(t, method, "C6", knobs), *made)


def c6_draws(count: int) -> list[tuple[Constraint, str, str, str]]:
    return list(c6_stream(count))


def placement(code: str, entry: str) -> str:
    """Where the entry calls its helper: 'test' (an if's test), 'report' (the last
    return), 'walk' (the outer loop's items), 'seed' (a line before the walk) or 'leaf'
    (inside the walk)."""
    tree = ast.parse(code)
    helper = next(f.name for f in tree.body if isinstance(f, ast.FunctionDef) and f.name != entry)
    main = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == entry)

    def calls(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == helper
                   for n in ast.walk(node))
    if isinstance(main.body[-1], ast.Return) and calls(main.body[-1]):
        return "report"
    for node in ast.walk(main):
        if isinstance(node, ast.If) and calls(node.test):
            return "test"
    first = next(k for k, s in enumerate(main.body) if isinstance(s, (ast.For, ast.While, ast.If)))
    if isinstance(main.body[first], ast.For) and calls(main.body[first].iter):
        return "walk"
    return "seed" if any(calls(s) for s in main.body[:first]) else "leaf"


def test_the_helper_is_called_before_the_walk_in_a_test_as_the_walk_or_in_the_report() -> None:
    """Drawn until each place has come up often enough (a walk of the helper's items needs a
    `for` first and a use whose value has items of a kind the walk knows: about 1 draw in 80)."""
    seen = Counter()
    wanted = {"seed": 15, "report": 15, "test": 5, "walk": 2}
    for cell, code, entry, _ in c6_stream(400):  # (half the draws of a loop then a test split one off)
        if all(seen[k] >= n for k, n in wanted.items()):
            break
        measured = measure_structure(code, entry, cell)
        if not measured.matches or re.search(rf"^def ({'|'.join(SPLIT_OFF)})\(", code, re.M):
            continue
        where = placement(code, entry)
        seen[where] += 1
        if where == "test":  # the first test on the input asks the helper, under no loop
            tree = ast.parse(code)
            main = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == entry)
            first = next(s for s in main.body if isinstance(s, (ast.For, ast.While, ast.If)))
            assert isinstance(first, ast.If) and "(" in ast.unparse(first.test), code
    assert all(seen[k] >= n for k, n in wanted.items()), seen


def test_a_helper_readies_its_data_only_where_that_changes_its_value() -> None:
    readied = 0
    for _, code, entry, args in c6_draws(30):
        tree = ast.parse(code)
        helper = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name != entry)
        if len(helper.body) != 2 or not isinstance(helper.body[0], ast.Assign) or helper.name in SPLIT_OFF:
            continue
        readied += 1
        # the helper's value with the step and with the step left out differ on the call's data
        main = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == entry)
        space: dict[str, object] = {}
        exec(compile(code, "<c6>", "exec"), space)  # noqa: S102 - the generator's own program
        name = helper.body[0].targets[0].id  # type: ignore[attr-defined]
        param = helper.args.args[0].arg
        plain = re.sub(rf"\b{name}\b", param, ast.unparse(helper.body[1].value))  # type: ignore[union-attr]
        exec(compile(f"def plain_({param}):\n    return {plain}\n", "<plain>", "exec"), space)  # noqa: S102
        value = ast.literal_eval(f"({args},)")[0]
        assert space[helper.name](value) != space["plain_"](value), code  # type: ignore[operator]
    assert readied >= 3


def test_differs_tells_a_step_that_changes_the_value_from_one_that_does_not() -> None:
    assert not _differs("xs", "sum(xs)", ["ordered = sorted(xs)"], "sum(ordered)", "[3, 1, 2]")
    assert _differs("xs", "xs[0]", ["ordered = sorted(xs)"], "ordered[0]", "[3, 1, 2]")
    assert not _differs("xs", "xs[9]", ["ordered = sorted(xs)"], "ordered[9]", "[3, 1, 2]")  # raises: no


def test_a_loop_walks_only_helper_values_of_one_kind_in_a_fixed_order() -> None:
    kind = _Program.item_kind
    assert (kind([3, 1]), kind([1.5, 2]), kind(["ab", "c"]), kind(["a", "b"]), kind("abc")) == \
        ("int", "float", "word", "char", "char")
    assert kind({1, 2}) is None and kind([(1, 2), (3, 4)]) is None and kind([1]) is None
    assert kind(["a", ""]) is None and kind([1, "a"]) is None and kind(7) is None


def test_some_draws_keep_the_use_and_split_off_a_test_on_the_element() -> None:
    split_off = 0
    for cell, code, entry, args in c6_draws(30):
        tree = ast.parse(code)
        helper = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name != entry)
        pool = {h.name: h for kind in TESTS.values() for h in kind}
        if helper.name not in SPLIT_OFF:
            continue
        split_off += 1
        assert measure_structure(code, entry, cell).matches, code
        main = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == entry)
        # the entry calls it once, in the test of an if under a loop; the target's use stays there
        tests = [n.test for n in ast.walk(main) if isinstance(n, ast.If)]
        assert sum(helper.name in ast.unparse(t) for t in tests) == 1, code
        assert pool[helper.name].text in code, code
        space: dict[str, object] = {}
        exec(compile(code, "<c6>", "exec"), space)  # noqa: S102 - the generator's own program
        space[entry](*ast.literal_eval(f"({args},)"))  # type: ignore[operator]
    assert split_off >= 10, split_off


def test_the_element_tests_split_the_values_they_are_drawn_for() -> None:
    by_name = {h.name: h for kind in TESTS.values() for h in kind}
    prime, vowel_heavy, high_cents = (define(by_name[n]) for n in ("is_prime", "is_vowel_heavy", "has_high_cents"))
    assert [prime(n) for n in (1, 2, 9, 13)] == [False, True, False, True]  # type: ignore[operator]
    assert (vowel_heavy("piano"), vowel_heavy("candle")) == (True, False)  # type: ignore[operator]
    assert (high_cents(3.75), high_cents(3.25)) == (True, False)  # type: ignore[operator]
    assert splits(by_name["is_prime"], [4, 7, 9]) and not splits(by_name["is_prime"], [4, 8, 9])
    # every form runs on its kind's values and answers True or False; digits take only some
    samples = {"int": [0, 1, 7, 12, 45, 64], "digit": list(range(10)), "float": [0.5, 3.25, 9.99, 14.5],
               "word": ["apple", "sky", "banana", "rhythm"], "char": list("ab ,z")}
    for kind, forms in TESTS.items():
        assert len({h.name for h in forms}) == len(forms) >= 7
        for h in forms:
            assert {type(define(h)(v)) for v in samples[kind]} == {bool}, h.name  # type: ignore[operator]
    assert 0 < len(TESTS["digit"]) < len(TESTS["int"])


def test_a_helper_that_maps_values_is_totalled_not_counted() -> None:
    """`total + len(paired_multiples(ages))` threw the mapped values away (the gate's
    discarded_values, written through a helper): a number result seeded or closed with a
    mapping helper takes the total of its items, or of their lengths."""
    from workers.pipeline.naturalness.static import discarded
    mapping = (("list", "=="), ("str", "lstrip"), ("str", "rstrip"), ("str", "zfill"), ("list", "count"))
    totalled = 0
    for i in range(60):
        for t, method in mapping:
            knobs = with_blueprint(LEVELS["C6"], random.Random(f"tot:{t}:{i}"))
            made = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"tot:{t}:{method}:{i}"), NAMES)
            if made is None:
                continue
            tree = ast.parse(made[0])
            funcs = [f for f in tree.body if isinstance(f, ast.FunctionDef)]
            helper = funcs[0].name
            returns = [n.value for n in ast.walk(funcs[0]) if isinstance(n, ast.Return)]
            if not (returns and isinstance(returns[-1], ast.ListComp) and discarded(returns[-1])):
                continue
            entry_src = ast.unparse(funcs[-1])
            # (a test on its size, `if len(helper(xs)) > 2:`, asks how many it found)
            assert not re.search(rf"(= |\+ |, )len\({helper}\(", entry_src), made[0]
            totalled += bool(re.search(rf"sum\((map\(len, )?{helper}\(", entry_src))
    assert totalled >= 5
