"""Statement uses of the idiom library (targets that change their receiver): every entry
with uses is drawn at the levels its uses fit; the draws have the measured structure, pass
the static rules, run on their own call and on drawn inputs with outputs that vary, leave
their arguments as they were, and are a function of the seed."""

from __future__ import annotations

import ast
import copy
import random
import re
import statistics

import pytest

from workers.pipeline.builtin.idiom_uses_mutating import MUTATING_USES
from workers.pipeline.builtin.idioms import build_idiom
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
NAMES = ("process_batch",)
# blueprints with a walk, so the deepest block has a current element (and at C4-C6 one whose
# deepest block is a test in a walk, where a split use's other side goes)
WALKS = {"C3": (("for",), ("while",)), "C4": (("for", "if"), ("if", "while"), ("for", "for")),
         "C5": (("for", "if-elif", "while"), ("while", "if", "for"), ("while", "for", "if")),
         "C6": (("for", "if", "while"), ("if-elif", "for", "if"))}


def knobs_for(level: str, i: int) -> Knobs:
    base = LEVELS[level]
    if not base.control_flow_depth:
        return base
    walks = WALKS[level]
    return Knobs(base.nested_calls, base.other_methods, base.call_chain, base.control_flow_depth,
                 walks[i % len(walks)])


def levels_of(t: str, method: str) -> list[str]:
    """The levels the entry's uses can be written at."""
    uses = MUTATING_USES[(t, method)]
    out = []
    if any(u.flat and not u.calls for u in uses):
        out.append("C1")
    if any(u.flat for u in uses):
        out.append("C2")
    if any(u.stmt and not u.split for u in uses):
        out.append("C3")
    if any(u.stmt for u in uses):
        out += ["C4", "C5", "C6"]
    return out


def draws(t: str, method: str, level: str, count: int, salt: str = "") -> list:
    entry = CATALOG.get(t, method)
    out = []
    for i in range(count * 30):
        knobs = knobs_for(level, i)
        made = build_idiom(entry, knobs, random.Random(f"mut{salt}:{t}:{method}:{level}:{i}"), NAMES)
        if made is not None:
            out.append((Constraint(t, method, level, knobs), made))
        if len(out) == count:
            break
    return out


def run(code: str, entry: str, args: str) -> tuple[str, bool]:
    """(the output's repr or the error's name, whether the arguments came back unchanged)."""
    space: dict = {}
    exec(code, space)  # noqa: S102 - the generator's own templates
    values = ast.literal_eval(f"({args},)")
    before = copy.deepcopy(values)
    try:
        out = repr(space[entry](*values))
    except Exception as exc:  # noqa: BLE001 - a drawn input the program does not take
        out = f"error: {type(exc).__name__}"
    return out, values == before


CELLS = [(t, m, lv) for (t, m) in MUTATING_USES for lv in levels_of(t, m)]


@pytest.mark.parametrize("t, method, level", CELLS)
def test_draws_are_nested_clean_and_vary(t: str, method: str, level: str) -> None:
    # (12 draws, not 4: two constant draws failed a cell by chance; 6 inputs each, not 4,
    # seeded by the draw's place, not by the code's length, which its layout moves)
    made = draws(t, method, level, 12)
    assert made, f"no draw for {t}.{method} at {level}"
    varied = 0
    for k, (cell, (code, entry, args)) in enumerate(made):
        measured = measure_structure(code, entry, cell)
        assert measured.matches, (measured.mismatches, code)
        assert measured.nested_calls and measured.target_uses >= 1, code
        assert not static_findings(code), (static_findings(code), code)
        own, unchanged = run(code, entry, args)
        assert not own.startswith("error"), (own, code, args)
        assert unchanged, f"the call changed its arguments:\n{code}"
        outputs = {own}
        for cand in synthesize_inputs(args, 6, seed=k):
            out, unchanged = run(code, entry, cand.args)
            assert unchanged, f"the call changed its arguments {cand.args}:\n{code}"
            outputs.add(out)
        varied += len(outputs) >= 2
    assert varied >= 0.75 * len(made), (t, method, level, varied, len(made))


def test_c1_draws_call_only_the_target() -> None:
    for t, m, level in CELLS:
        if level != "C1":
            continue
        for cell, (code, entry, _) in draws(t, m, "C1", 2):
            assert not measure_structure(code, entry, cell).other_calls, code


def test_c6_draws_move_the_statements_into_a_helper() -> None:
    for t, m in [("list", "append"), ("set", "|="), ("dict", "setdefault")]:
        for cell, (code, entry, _) in draws(t, m, "C6", 3):
            measured = measure_structure(code, entry, cell)
            assert measured.call_chain and code.count("def ") == 2, code


def test_the_same_seed_gives_the_same_draw() -> None:
    for t, m in [("list", "sort"), ("set", "discard"), ("dict", "d[k] = v")]:
        for level in ("C2", "C4"):
            assert draws(t, m, level, 3) == draws(t, m, level, 3)
        assert draws(t, m, "C4", 3) != draws(t, m, "C4", 3, salt="other")


def test_expression_entries_render_as_before() -> None:
    """A use of an expression entry takes the old path (a fixed draw, written out)."""
    entry = CATALOG.get("zip", "zip")
    made = build_idiom(entry, Knobs(True, True, False, 1, ("for",)), random.Random("fixed:1"), NAMES)
    assert made is not None and "zip(" in made[0] and "def " in made[0]


def test_values_the_tasks_promise() -> None:
    """A few draws checked against what they say they compute (on the data as given: draws
    that prepare it first are left out)."""
    space: dict = {}
    prepared = re.compile(r"\b(cleaned|data|batch|subset|selected) = ")
    checked = 0
    for cell, (code, entry, args) in draws("list", "remove", "C2", 16):
        if "round(sum(" not in code or prepared.search(code):
            continue
        exec(code, space)  # noqa: S102
        data = ast.literal_eval(f"({args},)")[0]
        rest = sorted(data)[1:-1]
        assert space[entry](list(data)) == round(statistics.fmean(rest), 2), code
        checked += 1
    for cell, (code, entry, args) in draws("list", "sort", "C1", 12):
        if prepared.search(code):
            continue
        exec(code, space)  # noqa: S102
        data = ast.literal_eval(f"({args},)")[0]
        assert sorted(space[entry](list(data))) == sorted(data), code
        checked += 1
    for cell, (code, entry, args) in draws("dict", "setdefault", "C3", 6):
        exec(code, space)  # noqa: S102
        groups = space[entry](*ast.literal_eval(f"({args},)"))
        assert all(isinstance(vs, list) for sub in groups.values() for vs in sub.values()), code
        checked += 1
    assert checked >= 8, checked


def test_clear_uses_fill_summarize_and_clear_a_buffer_per_batch() -> None:
    """The straight clear uses: each batch of the data is summarized on its own, so both
    clears change the result; in a walk, a mark ends the current run (its other side, the
    else arm, extends it); the draws are a function of the seed."""
    for t in ("set", "list", "dict"):
        uses = MUTATING_USES[(t, "clear")]
        assert all(u.flat.count(".clear()") == 2 for u in uses if u.flat)
        assert all(u.split and u.stmt.count(".clear()") == 2 and u.alt for u in uses if u.stmt)
        assert levels_of(t, "clear") == ["C1", "C2", "C4", "C5", "C6"]
        for level in ("C1", "C2", "C5"):
            assert draws(t, "clear", level, 3) == draws(t, "clear", level, 3)
    prepared = re.compile(r"\b(cleaned|data|batch|subset|selected) = ")
    checked = 0
    for cell, (code, entry, args) in draws("list", "clear", "C2", 24):
        if prepared.search(code):
            continue
        space: dict = {}
        exec(code, space)  # noqa: S102
        data = ast.literal_eval(f"({args},)")[0]
        batches = [data[:2], data[2:4], data[4:]]
        joined = "' '.join" in code
        expected = [" ".join(b) for b in batches] if joined else [sum(b) for b in batches]
        assert space[entry](list(data)) == expected, code
        checked += 1
        unclear = code.replace(".clear()", ".extend([])", 1)  # the first clear left out
        exec(unclear, space)  # noqa: S102
        assert space[entry](list(data)) != expected or not any(data[:2]), unclear
    assert checked >= 2, checked


def test_a_run_ends_at_a_mark_and_the_other_items_extend_it() -> None:
    """The loop clear use: the items the test marks start a new run, the others extend the
    current one; the result is the run before the last mark and the last run, as a plain
    reading of the data gives them."""
    checked = 0
    for cell, (code, entry, args) in draws("list", "clear", "C4", 12, salt="runs"):
        tree = ast.parse(code)
        loop = next((n for n in ast.walk(tree) if isinstance(n, ast.For)), None)
        param = tree.body[-1].args.args[0].arg
        if ".extend(" not in code or not (loop and isinstance(loop.iter, ast.Name) and loop.iter.id == param):
            continue  # (a walk over the data itself, so its items are the data's)
        test = loop.body[0]
        assert isinstance(test, ast.If) and test.orelse, code  # the mark, and the other side
        assert [ast.unparse(s) for s in test.orelse][-1].endswith(f".append({loop.target.id})"), code
        space: dict = {}
        exec(code, space)  # noqa: S102 - the generator's own templates
        data = ast.literal_eval(f"({args},)")[0]
        marked = compile(ast.Expression(test.test), "<test>", "eval")
        runs: list[list] = [[]]
        for item in data:
            if eval(marked, {**space, param: data, loop.target.id: item}):  # noqa: S307 - a test may read the data too
                runs.append([item])
            else:
                runs[-1].append(item)
        previous = runs[-2] if len(runs) > 1 else []
        assert space[entry](data) == (previous, runs[-1]), code
        checked += 1
    assert checked >= 2, checked


def test_set_clear_reports_each_batch_and_dict_clear_each_index() -> None:
    found = 0
    for cell, (code, entry, args) in draws("set", "clear", "C1", 6) + draws("dict", "clear", "C1", 6):
        if re.search(r"\b(cleaned|data|subset|selected) = |\bbatch = (?!\{)", code):
            continue
        space: dict = {}
        exec(code, space)  # noqa: S102
        data = ast.literal_eval(f"({args},)")[0]
        out = space[entry](list(data))
        if cell.type == "set":  # the remainders (or the tens) of each batch
            op = re.search(r"\{v (% \d+|// 10) for v in", code).group(1)
            part = {"%": lambda v: v % int(op[2:]), "/": lambda v: v // 10}[op[0]]
            assert out == tuple({part(v) for v in b} for b in (data[:2], data[2:4], data[4:])), code
        else:  # one value per key in each batch, then every value by another key
            if isinstance(data[0], str):
                key, last = (lambda w: w[0]), {w[-1]: w for w in data}
            else:
                k = int(re.findall(r"v % (\d+): v", code)[-1])
                key, last = (lambda v: v % 2), {v % k: v for v in data}
            firsts = {key(v): v for v in data[:3]}
            lasts = {key(v): v for v in data[3:]}
            assert out == ([firsts[c] for c in firsts], [lasts[c] for c in lasts], last), code
        found += 1
    assert found >= 3, found


NEW_DEPTH0 = [(t, m, i) for t, m in [("set", "clear"), ("list", "clear"), ("dict", "clear"),
                                     ("set", "intersection_update")]
              for i, u in enumerate(MUTATING_USES[(t, m)]) if u.straight_only]


@pytest.mark.parametrize("t, method, index", NEW_DEPTH0)
def test_each_depth0_statement_use_alone_varies(t: str, method: str, index: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.pipeline.builtin.idioms as idioms
    use = MUTATING_USES[(t, method)][index]
    monkeypatch.setitem(idioms.USES, (t, method), (use,))
    monkeypatch.setattr(idioms, "STATEMENT_DEPTH0_SHARE", 1.0)
    made = draws(t, method, "C1" if not use.calls else "C2", 4)
    assert made, use.flat
    varied = 0
    for cell, (code, entry, args) in made:
        assert measure_structure(code, entry, cell).matches and not static_findings(code), code
        outputs = {run(code, entry, args)[0]} | {run(code, entry, c.args)[0]
                                                for c in synthesize_inputs(args, 6, seed=len(code))}
        varied += len(outputs) >= 2
    assert varied >= 0.75 * len(made), (use.flat, varied)


def _walk(key: tuple[str, str], name: str, words: list[str], group: str) -> dict:
    """The `stmt` lines of the use named `name` run on each word (grouped by `group`), the
    receivers as they end up."""
    use = next(u for u in MUTATING_USES[key] if u.names[0] == name)
    lines = use.stmt.replace("{key}", group).format(acc="acc", acc2="acc2", x="word")
    space: dict = {"acc": {} if use.recv == "map" else [], "acc2": {} if use.recv == "map" else []}
    for word in words:
        exec(lines, {}, {**space, "word": word})  # noqa: S102 - our own template
    return space


def test_word_statement_uses_title_code_and_group() -> None:
    out = _walk(("list", "append"), "title_and_code", ["ann", "bo"], "")
    assert out == {"acc": ["Ann", "Bo"], "acc2": ["A3", "B2"]}
    out = _walk(("dict", "d[k] = v"), "initials_and_longest", ["ann", "amber", "bo"], "word[:1]")
    assert out == {"acc": {"a": "AA", "b": "B"}, "acc2": {"a": "amber", "b": "bo"}}
