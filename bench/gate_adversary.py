"""The naturalness gate against an adversary: 164 padded programs (junk that changes no
output, written to slip past the static rules: no-op round trips, cancelling arithmetic,
pass-through bindings, statements that undo each other, tautological tests, ...), 23
natural controls and 6 defensive borderline programs (`bench/corpus/gate_adversary.py`),
and 45 natural programs in benchmark style written apart from the gate (guard clauses,
raising checks, defaults, handlers, helpers: `bench/corpus/gate_natural.py`, family
`natural`), run through the static rules and the probe in the real sandbox as the pipeline runs them:
the teacher's call first, then 12 type-directed candidates and up to 8 boundary inputs
(`--no-edges`: none, as before they were offered), 3 inputs kept. Prints how many
padded programs pass, per family (lower is better), and every natural program the gate
turns away (0 is the target).

    python -m bench.gate_adversary [--family F] [--no-clean] [--no-edges] [--quiet]

Per program: family, kind, PASS or the rejection reasons (static / dynamic, with the
dynamic detail). For junk, the de-junked version is gated too (it should pass: a
rejection there is a false positive on natural code) and checked to give the same outputs
as the junk version on every candidate input. Imports the project's gate, never a copy.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.corpus.gate_adversary import CORPUS as PADDED  # noqa: E402
from bench.corpus.gate_natural import NATURAL  # noqa: E402
from sandbox import Limits, Sandbox  # noqa: E402
from workers.pipeline import seeds  # noqa: E402
from workers.pipeline.input_synthesis import EDGE_CANDIDATES, candidate_pool  # noqa: E402
from workers.pipeline.inputs import InputCandidate, parse_literal_args  # noqa: E402
from workers.pipeline.naturalness.gate import static_reasons  # noqa: E402
from workers.pipeline.naturalness.stage import GATE_CANDIDATES, GateItem, gate_inputs  # noqa: E402

RUN_SEED = 7
LIMIT = 3  # inputs kept per program
# the padded corpus, then 45 natural programs in benchmark style (`bench/corpus/gate_natural.py`,
# written apart from the gate: guard clauses, `or` defaults, handlers, helpers, normalizing)
CORPUS = PADDED + [dict(family="natural", kind="natural", clean=None, **e) for e in NATURAL]
NATURAL_KINDS = ("control", "borderline", "natural")


def candidates(args: str, slot: int, edges: int = EDGE_CANDIDATES, code: str = "") -> list[InputCandidate]:
    """As workers/pipeline/stages/inputs.py builds the pool (no LLM mutation)."""
    return candidate_pool(args, GATE_CANDIDATES, seeds.input_synthesis_seed(RUN_SEED, slot), edges=edges, code=code)


def run_local(code: str, entry: str, args: str) -> str:
    """repr of the result (or the error type) of one call, in process (corpus code only)."""
    space: dict = {}
    try:
        exec(compile(code, "<corpus>", "exec"), space)  # noqa: S102 - our own corpus
        return "ok:" + repr(space[entry](*parse_literal_args(args)))
    except Exception as exc:  # noqa: BLE001
        return "error:" + type(exc).__name__


def verdict(code: str, entry: str, choice) -> tuple[list[str], str]:  # noqa: ANN001
    try:
        static = static_reasons(code, entry_point=entry)
    except SyntaxError:
        static = ["syntax_error"]
    reasons = [f"static:{r}" for r in static] + [f"dynamic:{r}" for r in choice.reasons]
    return reasons, choice.detail if choice.reasons else ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--family", help="only this family")
    ap.add_argument("--no-clean", action="store_true", help="do not gate the de-junked versions")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-edges", action="store_true", help="offer no boundary inputs (the pool before they were)")
    opts = ap.parse_args()

    slots = [k for k, e in enumerate(CORPUS) if not opts.family or e["family"] == opts.family]
    entries = [CORPUS[k] for k in slots]
    pools = [candidates(e["args"], slot, 0 if opts.no_edges else EDGE_CANDIDATES, e["code"]) for slot, e in zip(slots, entries)]  # (slot: place in CORPUS)

    # sanity: every program runs on its own call; junk == de-junked on every candidate
    problems: dict[int, list[str]] = collections.defaultdict(list)
    for i, (e, pool) in enumerate(zip(entries, pools)):
        own = run_local(e["code"], e["entry"], e["args"])
        if not own.startswith("ok:"):
            problems[i].append(f"fails on its own call ({own})")
        if e["clean"]:
            diffs = [c.args for c in pool
                     if run_local(e["code"], e["entry"], c.args) != run_local(e["clean"], e["entry"], c.args)]
            if diffs:
                problems[i].append(f"junk differs from de-junked on {len(diffs)}/{len(pool)} inputs, e.g. {diffs[0]}")

    items = [GateItem(e["code"], e["entry"], pool) for e, pool in zip(entries, pools)]
    clean_idx = [i for i, e in enumerate(entries) if e["clean"] and not opts.no_clean]
    items += [GateItem(entries[i]["clean"], entries[i]["entry"], pools[i]) for i in clean_idx]
    box = Sandbox(isolation="namespaces", workers=opts.workers, limits=Limits(timeout_s=5.0, memory_mb=256)).start()
    try:
        choices = gate_inputs(box, items, LIMIT)
    finally:
        box.close()
    clean_choice = dict(zip(clean_idx, choices[len(entries):]))

    table: dict[str, list[int]] = collections.OrderedDict()  # family -> [programs, passing]
    caught_by: collections.Counter = collections.Counter()
    clean_rejected, control_rejected = [], []
    for i, (e, choice) in enumerate(zip(entries, choices)):
        reasons, detail = verdict(e["code"], e["entry"], choice)
        passed = not reasons
        row = table.setdefault(e["family"], [0, 0])
        row[0] += 1
        row[1] += passed
        if e["kind"] == "junk" and not passed:
            caught_by.update({r.split(":", 1)[1] for r in reasons})
        if e["kind"] != "junk" and not passed:
            control_rejected.append((e, reasons, detail))
        line = f"{e['family']:<22} {e['kind']:<10} {e['entry']:<20} "
        line += "PASS" if passed else "REJECT " + ",".join(reasons) + (f" [{detail}]" if detail else "")
        if e["kind"] == "junk" and e.get("note"):
            line += f"   <- {e['note']}"
        if i in clean_choice:
            cr, cd = verdict(e["clean"], e["entry"], clean_choice[i])
            if cr:
                clean_rejected.append((e, cr, cd))
                line += f"   !! de-junked version rejected: {','.join(cr)}" + (f" [{cd}]" if cd else "")
        for p in problems.get(i, []):
            line += f"   !! CORPUS PROBLEM: {p}"
        if not opts.quiet:
            print(line)

    junk = [e for e in entries if e["kind"] == "junk"]
    print("\nfamily                  kind        programs  passing gate")
    for fam, (n, ok) in table.items():
        kind = "junk" if fam not in NATURAL_KINDS else fam
        print(f"{fam:<23} {kind:<11} {n:>8}  {ok:>6}  ({100 * ok / n:.0f}%)")
    jp = sum(ok for fam, (n, ok) in table.items() if fam not in NATURAL_KINDS)
    print(f"\nJUNK PASSING: {jp}/{len(junk)} ({100 * jp / max(1, len(junk)):.0f}%)")
    print("junk rejections by reason:", dict(caught_by.most_common()))
    print(f"controls/borderline/natural rejected: {len(control_rejected)}")
    for e, r, d in control_rejected:
        print(f"  {e['kind']} {e['entry']}: {','.join(r)} {d}")
    if not opts.no_clean:
        print(f"de-junked versions rejected: {len(clean_rejected)}")
        for e, r, d in clean_rejected:
            print(f"  {e['family']} {e['entry']}: {','.join(r)} {d}")
    print(f"corpus problems: {len(problems)}")
    for i, ps in problems.items():
        print(f"  {entries[i]['entry']}: {'; '.join(ps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
