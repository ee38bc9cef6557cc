"""The gate on 45 natural programs of benchmark style, written apart from it
(`bench/corpus/gate_natural.py`: guard clauses, raising checks, defaults, handlers,
helpers, normalizing), with the pipeline's pool of inputs: the only one turned away is the
one whose first `strip()` changes no output on any input. A new question the gate asks
that turns natural code away fails here (the `or`-default question, withdrawn, turned
away two)."""

from __future__ import annotations

from bench.corpus.gate_natural import NATURAL
from sandbox import Sandbox
from workers.pipeline import seeds
from workers.pipeline.input_synthesis import candidate_pool
from workers.pipeline.naturalness.gate import static_reasons
from workers.pipeline.naturalness.stage import GATE_CANDIDATES, GateItem, gate_inputs

FAIR_FINDINGS = {"parse_config": "deletable_statement"}  # `line = line.strip()`, stripped again after


def test_natural_programs_pass_the_gate_with_the_pipelines_inputs(sb: Sandbox) -> None:
    pools = [candidate_pool(e["args"], GATE_CANDIDATES, seeds.input_synthesis_seed(7, k), code=e["code"])
             for k, e in enumerate(NATURAL)]
    items = [GateItem(e["code"], e["entry"], pool) for e, pool in zip(NATURAL, pools)]
    choices = gate_inputs(sb, items, 3)
    turned_away = {}
    for e, choice in zip(NATURAL, choices):
        reasons = static_reasons(e["code"], entry_point=e["entry"]) + choice.reasons
        if reasons:
            turned_away[e["entry"]] = ",".join(reasons)
    assert len(NATURAL) == 45
    assert turned_away == FAIR_FINDINGS
    # the boundary inputs are what lets the guards through: some kept input is one
    assert sum(any(c.origin == "boundary" for c in choice.inputs) for choice in choices) >= 10


def test_the_padded_corpus_stays_caught_and_its_controls_pass(sb: Sandbox) -> None:
    """`bench/gate_adversary.py`'s corpus, as the bench runs it: no more padded programs pass
    than at the end of session 25 (91 of 164), and of its 29 natural controls and
    borderline programs only `top_k`, a clamp slicing makes redundant, is turned away."""
    from bench.gate_adversary import PADDED, candidates

    pools = [candidates(e["args"], slot, code=e["code"]) for slot, e in enumerate(PADDED)]
    choices = gate_inputs(sb, [GateItem(e["code"], e["entry"], pool) for e, pool in zip(PADDED, pools)], 3)
    passing, turned_away = 0, set()
    for e, choice in zip(PADDED, choices):
        rejected = bool(static_reasons(e["code"], entry_point=e["entry"]) or choice.reasons)
        if e["kind"] == "junk":
            passing += not rejected
        elif rejected:
            turned_away.add(e["entry"])
    assert sum(e["kind"] == "junk" for e in PADDED) == 164
    assert passing <= 91
    assert turned_away == {"top_k"}
