"""Contamination: a benchmark function copied into the data with renamed variables (and
one embedded in a longer program) is caught, excluded from every split and listed."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Program

from tests.training.export.conftest import make_db, small_spec
from training.export import BenchmarkFileError
from training.export.contamination import load_benchmarks
from training.export.fingerprint import fingerprint
from training.normalize import normalized_hash

CRUX_CODE = '''def f(text):
    result = ""
    for ch in text:
        if ch.isalpha():
            result = result + ch.upper()
        else:
            result = ch + result
    return result
'''
# the same function with every name changed, other layout and a docstring
RENAMED = '''def scramble(word):
    """Reorders characters."""
    acc = ''
    for c in word:
        if c.isalpha():  # letters go last
            acc = acc + c.upper()
        else:
            acc = c + acc
    return acc
'''
HUMANEVAL_PROMPT = 'def count_vowels(s):\n    """Count vowels."""\n'
HUMANEVAL_SOLUTION = ('    n = 0\n    for ch in s.lower():\n        if ch in "aeiou":\n            n += 1\n'
                      '        elif ch == "y" and n > 3:\n            n = n * 2 - 1\n    return n + len(s) % 7\n')
# a HumanEval solution pasted as a helper of a bigger program, names changed
EMBEDDED = '''def helper(q):
    k = 0
    for z in q.lower():
        if z in "aeiou":
            k += 1
        elif z == "y" and k > 3:
            k = k * 2 - 1
    return k + len(q) % 7


def main(q):
    parts = q.split()
    return helper(q) * len(parts)
'''


@pytest.fixture(scope="module")
def bench_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    crux = folder / "cruxeval.jsonl"
    crux.write_text("\n".join(json.dumps(r) for r in [
        {"id": "sample_0", "code": CRUX_CODE, "input": "'ab1c'", "output": "'1ABC'"},
        {"id": "sample_1", "code": "def f(nums):\n    return sorted(set(nums))[::-1]\n", "input": "[1]", "output": "[1]"},
    ]) + "\n")
    humaneval = folder / "humaneval.jsonl"
    humaneval.write_text(json.dumps({"task_id": "HumanEval/64", "prompt": HUMANEVAL_PROMPT,
                                     "canonical_solution": HUMANEVAL_SOLUTION, "entry_point": "count_vowels",
                                     "test": "def check(c): pass"}) + "\n")
    return crux, humaneval


def test_renamed_copy_has_the_same_fingerprint_and_others_do_not():
    assert fingerprint(RENAMED).hashes & fingerprint(CRUX_CODE).hashes
    other = CRUX_CODE.replace("ch.upper()", "ch.lower()")
    assert not fingerprint(other).hashes & fingerprint(CRUX_CODE).hashes



def test_fingerprint_normalizes_with_the_pipelines_normalizer():
    # one definition of "the same program up to naming": without imports, the whole-program
    # fingerprint hash is the pipeline's dedup hash
    assert normalized_hash(CRUX_CODE) in fingerprint(CRUX_CODE).hashes
    assert normalized_hash(RENAMED) in fingerprint(CRUX_CODE).hashes
    # imports are dropped from the fingerprint (not from the dedup hash): same program either way
    with_import = "import math\n" + CRUX_CODE
    assert normalized_hash(with_import) not in fingerprint(with_import).hashes
    assert fingerprint(with_import).hashes == fingerprint(CRUX_CODE).hashes
    # names in `global` statements are renamed like every other use of the name
    g1 = "total = 0\ndef add(x):\n    global total\n    total += x\n    return total\n"
    g2 = g1.replace("total", "acc")
    assert fingerprint(g1).hashes == fingerprint(g2).hashes
    assert "global v0" in " ".join(fingerprint(g2).tokens)

def test_index_flags_exact_and_ngram_matches(bench_files):
    index = load_benchmarks(bench_files, n=16, threshold=0.5)
    assert [f["items"] for f in index.files] == [2, 1]
    exact = index.check(1, RENAMED)
    assert exact is not None and (exact.match, exact.benchmark, exact.item_id) == ("exact", "cruxeval.jsonl", "sample_0")
    embedded = index.check(2, EMBEDDED)
    assert embedded is not None and embedded.item_id == "HumanEval/64"
    # a near copy with one changed line: not exact, caught by the n-gram overlap
    near = RENAMED.replace("acc = c + acc", "acc = acc + c")
    flag = index.check(3, near)
    assert flag is not None and flag.match == "ngram" and flag.item_id == "sample_0" and flag.overlap >= 0.5
    clean = "def g(xs, n):\n    total = 0\n    for x in xs:\n        total = total + x * 3\n    return total - n\n"
    assert index.check(4, clean) is None


def test_flagged_samples_are_excluded_and_listed(tmp_path, bench_files):
    db = make_db(tmp_path, n_programs=24, extra_code={5: RENAMED, 11: EMBEDDED})
    spec = small_spec("verl", benchmarks=tuple(str(p) for p in bench_files))
    result = db.export(spec, tmp_path / "out")
    flagged = result.manifest["contamination"]["flagged"]
    assert [(f["match"], f["benchmark"], f["item_id"]) for f in flagged] == [
        ("exact", "cruxeval.jsonl", "sample_0"), ("exact", "humaneval.jsonl", "HumanEval/64")]  # helper matched on its own
    with Session(db.engine) as session:
        bad_programs = set(session.scalars(select(Program.id).where(Program.source.in_([RENAMED, EMBEDDED]))))
    assert len(bad_programs) == 2
    assert {f["program_id"] for f in flagged} == bad_programs
    excluded = {sid for f in flagged for sid in f["sample_ids"]}
    assert len(excluded) == 6 and result.manifest["contamination"]["excluded_samples"] == 6
    exported = set()
    for split in ("sft", "rl", "eval"):
        for row in pq.read_table(tmp_path / "out" / f"{split}.parquet").to_pylist():
            meta = row.get("extra_info") or row  # the sft split is in verl's SFT layout
            exported.add(meta["sample_id"])
            assert meta["program_id"] not in bad_programs
    assert exported and not exported & excluded
    assert [b["name"] for b in result.manifest["contamination"]["benchmarks"]] == ["cruxeval.jsonl", "humaneval.jsonl"]
    assert "flagged and excluded programs: 2 (samples: 6)" in (tmp_path / "out" / "README.md").read_text()


def test_bad_benchmark_files_are_clear_errors(tmp_path):
    with pytest.raises(BenchmarkFileError, match="not found"):
        load_benchmarks([tmp_path / "missing.jsonl"], 16, 0.5)
    empty = tmp_path / "empty.jsonl"
    empty.write_text(json.dumps({"question": "no code here"}) + "\n")
    with pytest.raises(BenchmarkFileError, match="no record with parsable code"):
        load_benchmarks([empty], 16, 0.5)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    with pytest.raises(BenchmarkFileError, match="broken.jsonl:1: not a JSON line"):
        load_benchmarks([broken], 16, 0.5)
