"""Contamination check against benchmark files (JSONL), before any split is built.

Recognised records: CRUXEval-style (`code`, `input`, `output`), MBPP-style (`code`,
`task_id`), HumanEval-style (`prompt` + `canonical_solution`, `task_id`), or any record
with a `solution`. A program is flagged when it matches a benchmark item exactly after
normalization (renamed variables, other layout), or when a long normalized-token n-gram
overlap covers at least `threshold` of either side (so a benchmark function embedded in a
bigger program is caught too). Flagged programs' samples are excluded from every split.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from training.export.errors import BenchmarkFileError
from training.export.fingerprint import fingerprint

MAX_ITEMS_PER_NGRAM = 8  # an n-gram shared by many items is boilerplate, not a copy


@dataclass(frozen=True)
class BenchmarkItem:
    file: str  # file name (not the path, so manifests do not depend on where it lies)
    item_id: str
    n_ngrams: int


@dataclass(frozen=True)
class Flag:
    program_id: int
    match: str  # "exact" | "ngram"
    benchmark: str
    item_id: str
    overlap: float

    def to_dict(self) -> dict:
        return {"program_id": self.program_id, "match": self.match, "benchmark": self.benchmark,
                "item_id": self.item_id, "overlap": round(self.overlap, 4)}


@dataclass
class BenchmarkIndex:
    n: int
    threshold: float
    exact: dict[str, int] = field(default_factory=dict)  # normalized hash -> item number
    ngrams: dict[int, list[int]] = field(default_factory=dict)
    items: list[BenchmarkItem] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)  # name, sha256, items, skipped

    def check(self, program_id: int, source: str) -> Flag | None:
        try:
            fp = fingerprint(source)
        except (SyntaxError, ValueError, RecursionError):
            return None
        for h in sorted(fp.hashes):
            if h in self.exact:
                item = self.items[self.exact[h]]
                return Flag(program_id, "exact", item.file, item.item_id, 1.0)
        grams = fp.ngrams(self.n)
        if not grams:
            return None
        shared: dict[int, int] = defaultdict(int)
        for g in grams:
            for number in self.ngrams.get(g, ()):
                shared[number] += 1
        best: tuple[float, int] | None = None
        for number, count in sorted(shared.items()):
            overlap = max(count / len(grams), count / max(1, self.items[number].n_ngrams))
            if best is None or overlap > best[0]:
                best = (overlap, number)
        if best and best[0] >= self.threshold:
            item = self.items[best[1]]
            return Flag(program_id, "ngram", item.file, item.item_id, best[0])
        return None


def benchmark_code(record: dict) -> str | None:
    if isinstance(record.get("code"), str):
        return record["code"]
    if isinstance(record.get("prompt"), str) and isinstance(record.get("canonical_solution"), str):
        return record["prompt"] + record["canonical_solution"]
    if isinstance(record.get("solution"), str):
        return record["solution"]
    return None


def load_benchmarks(paths: Sequence[str | Path], n: int, threshold: float) -> BenchmarkIndex:
    index = BenchmarkIndex(n, threshold)
    for raw_path in paths:
        path = Path(raw_path)
        if not path.is_file():
            raise BenchmarkFileError(f"benchmark file not found: {path}")
        data = path.read_bytes()
        used = skipped = 0
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                raise BenchmarkFileError(f"{path.name}:{number}: not a JSON line") from None
            code = benchmark_code(record) if isinstance(record, dict) else None
            try:
                fp = fingerprint(code) if code else None
            except (SyntaxError, ValueError, RecursionError):
                fp = None
            if fp is None:
                skipped += 1
                continue
            item_id = str(record.get("id", record.get("task_id", f"line{number}")))
            grams = fp.ngrams(n)
            item_number = len(index.items)
            index.items.append(BenchmarkItem(path.name, item_id, len(grams)))
            for h in fp.hashes:
                index.exact.setdefault(h, item_number)
            for g in grams:
                bucket = index.ngrams.setdefault(g, [])
                if len(bucket) < MAX_ITEMS_PER_NGRAM:
                    bucket.append(item_number)
            used += 1
        if not used:
            raise BenchmarkFileError(f"{path.name}: no record with parsable code (expected code, "
                                     f"prompt+canonical_solution or solution fields)")
        index.files.append({"name": path.name, "sha256": hashlib.sha256(data).hexdigest(),
                            "items": used, "skipped": skipped})
    return index


def flag_programs(index: BenchmarkIndex, sources: Iterable[tuple[int, str]]) -> list[Flag]:
    return [f for pid, src in sources if src and (f := index.check(pid, src)) is not None]
