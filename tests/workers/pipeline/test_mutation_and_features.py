"""AST program mutants and difficulty features, on hand-checked programs."""

from __future__ import annotations

import ast

from sandbox import Sandbox
from workers.pipeline.difficulty import compute_features, difficulty_score, estimator_fit, level_from_pass_rate, level_from_score
from workers.pipeline.stages.execute import ExecItem, ExecPolicy, execute
from workers.pipeline.mutation import mutate_program

PROGRAM = """def f(s, k):
    out = []
    for i, ch in enumerate(s.upper()[1:5]):
        if i < k:
            out.append(ch.lower())
        else:
            out.append(ch)
    return ''.join(out)
"""


def test_mutants_differ_by_one_edit_and_are_deterministic() -> None:
    mutants = mutate_program(PROGRAM, seed=3, count=5)
    assert len(mutants) == 5
    assert mutate_program(PROGRAM, seed=3, count=5) == mutants
    original = ast.dump(ast.parse(PROGRAM))
    kinds = {m.edit.split()[0] for m in mutants}
    assert kinds <= {"compare", "constant", "slice", "method"} and len(kinds) >= 2
    for mutant in mutants:
        assert ast.dump(ast.parse(mutant.code)) != original
        assert "line" in mutant.edit


def test_mutants_change_behaviour_when_they_run() -> None:
    mutants = mutate_program(PROGRAM, seed=1, count=6)
    items = [ExecItem("parent", PROGRAM, "f", "'abcdefgh', 2")] + [ExecItem(str(i), m.code, "f", "'abcdefgh', 2") for i, m in enumerate(mutants)]
    with Sandbox(isolation="namespaces", workers=2) as sb:
        outcomes = execute(sb, items, ExecPolicy())
    parent = outcomes[0].runs[0].result["repr"]
    assert parent == "'bcDE'"
    changed = [o for o in outcomes[1:] if o.verdict == "kept" and o.runs[0].result["repr"] != parent]
    assert len(changed) >= len(mutants) // 2


def test_features_from_a_real_trace() -> None:
    with Sandbox(isolation="namespaces", workers=1) as sb:
        (outcome,) = execute(sb, [ExecItem("k", PROGRAM, "f", "'abcdefgh', 2")], ExecPolicy())
    run = outcome.runs[0]
    feats = compute_features(PROGRAM, "f", run.trace, run.result["repr"])
    assert feats.loop_iterations == 5  # 4 iterations + the exhausted check of the for header
    assert feats.branch_decisions == 4
    assert feats.helper_calls == 0 and feats.max_call_depth == 0
    assert feats.control_depth == 2
    assert feats.lines_executed == 6  # 2, 3, 4, 5, 7, 8 (`else:` is no line event)
    assert feats.result_chars == len("'bcDE'")
    assert feats.trace_steps == len(run.trace["steps"])


def test_levels_from_pass_rate_and_score_are_monotone() -> None:
    assert [level_from_pass_rate(r) for r in (1.0, 0.8, 0.6, 0.4, 0.2, 0.0)] == ["C1", "C2", "C3", "C4", "C5", "C6"]
    labels = [level_from_score(s) for s in (0, 3.5, 4.5, 6, 7, 9)]
    assert labels == sorted(labels)
    fit = estimator_fit([1.0, 4.0, 8.0, 9.0], [1.0, 0.8, 0.1, 0.0])
    assert fit["n"] == 4 and abs(fit["spearman"] - 1.0) < 1e-9


def test_score_grows_with_structure() -> None:
    simple = "def f(s):\n    return s.upper()\n"
    with Sandbox(isolation="namespaces", workers=1) as sb:
        a, b = execute(sb, [ExecItem("a", simple, "f", "'ab'"), ExecItem("b", PROGRAM, "f", "'abcdefgh', 2")], ExecPolicy())
    sa = difficulty_score(compute_features(simple, "f", a.runs[0].trace, a.runs[0].result["repr"]))
    sb_ = difficulty_score(compute_features(PROGRAM, "f", b.runs[0].trace, b.runs[0].result["repr"]))
    assert sb_ > sa
