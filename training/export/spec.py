"""What an export is: the splits to build, their task quotas, the format, the filters.

Plain frozen dataclasses (the API wraps them in its own schema): the same spec must give
the same files, so the spec is the whole input besides the database, and `to_dict()` is
what the manifest records. Every split in the spec is always *built*, even when only some
are *written*, so `--split rl` today and `--split sft` tomorrow still never share a program.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from training.export.errors import ExportSpecError
from training.training_tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT

EXPORT_TASKS = (IO_WHITEBOX, IO_ONLY, OUTPUT_INPUT)
STYLES = ("tags", "json")
_NAME_OK = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True)
class TaskQuota:
    """`count` items of one task type; None takes every eligible sample left in the split."""

    task_type: str
    count: int | None = None

    def __post_init__(self) -> None:
        if self.task_type not in EXPORT_TASKS:
            raise ExportSpecError(f"unknown task type {self.task_type!r} (expected one of {', '.join(EXPORT_TASKS)})")
        if self.count is not None and (not isinstance(self.count, int) or self.count < 0):
            raise ExportSpecError(f"task count must be a non-negative integer, got {self.count!r}")


@dataclass(frozen=True)
class SplitSpec:
    """One split; `max_result_chars` drops samples whose result repr is longer."""

    name: str
    tasks: tuple[TaskQuota, ...]
    max_result_chars: int | None = None

    def __post_init__(self) -> None:
        if not self.name or not set(self.name) <= _NAME_OK or self.name[0].isdigit():
            raise ExportSpecError(f"split name {self.name!r} must be lowercase letters, digits and _")
        if not self.tasks:
            raise ExportSpecError(f"split {self.name!r} needs at least one task quota")
        types = [q.task_type for q in self.tasks]
        if len(set(types)) != len(types):
            raise ExportSpecError(f"split {self.name!r} lists a task type twice")
        if self.max_result_chars is not None and self.max_result_chars < 1:
            raise ExportSpecError("max_result_chars must be >= 1")

    @property
    def target(self) -> int | None:
        """Samples wanted in total; None when some quota is open-ended."""
        counts = [q.count for q in self.tasks]
        return None if any(c is None for c in counts) else sum(counts)  # type: ignore[arg-type]


def _reference_splits() -> tuple[SplitSpec, ...]:
    """METHOD.md section 4: SFT 15K I->O + 15K O->I; RL <=20K white-box + <=12K O->I with
    results of at most 150 characters. The eval split is ours (the reference has none)."""
    return (
        SplitSpec("sft", (TaskQuota(IO_ONLY, 15_000), TaskQuota(OUTPUT_INPUT, 15_000))),
        SplitSpec("rl", (TaskQuota(IO_WHITEBOX, 20_000), TaskQuota(OUTPUT_INPUT, 12_000)), max_result_chars=150),
        SplitSpec("eval", (TaskQuota(IO_WHITEBOX, 1_000), TaskQuota(OUTPUT_INPUT, 500))),
    )


PRESETS = {"reference": _reference_splits}
# the level names a program row can hold: the six standard ones and "custom" (knob levels)
LEVELS = ("C1", "C2", "C3", "C4", "C5", "C6", "custom")


@dataclass(frozen=True)
class ExportSpec:
    format: str
    splits: tuple[SplitSpec, ...] = field(default_factory=_reference_splits)
    write: tuple[str, ...] = ()  # splits to write; empty: all
    seed: int = 0
    batch_ids: tuple[int, ...] = ()  # empty: every batch
    levels: tuple[str, ...] = ()  # empty: every level
    curriculum: bool = False  # order rows easy -> hard instead of a seeded shuffle
    style: str = "tags"
    system_prompt: str | None = None
    benchmarks: tuple[str, ...] = ()  # contamination reference files (JSONL)
    ngram_n: int = 16
    ngram_threshold: float = 0.5
    row_group_size: int = 8192
    # samples created in [created_after, created_before) only (ISO 8601 with an offset): the
    # nightly incremental exports' window; None: unbounded on that side
    created_after: str | None = None
    created_before: str | None = None

    def __post_init__(self) -> None:
        from training.export.formats import FORMATS

        if self.format not in FORMATS:
            raise ExportSpecError(f"unknown format {self.format!r} (expected one of {', '.join(sorted(FORMATS))})")
        names = [s.name for s in self.splits]
        if not names:
            raise ExportSpecError("an export needs at least one split")
        if len(set(names)) != len(names):
            raise ExportSpecError("split names must be unique")
        unknown = [w for w in self.write if w not in names]
        if unknown:
            raise ExportSpecError(f"unknown split(s) {unknown} (the spec has {names})")
        unknown_levels = [lv for lv in self.levels if lv not in LEVELS]
        if unknown_levels:
            raise ExportSpecError(f"unknown level(s) {unknown_levels} (expected some of {', '.join(LEVELS)})")
        if any(not isinstance(b, int) or isinstance(b, bool) or b < 1 for b in self.batch_ids):
            raise ExportSpecError("batch_ids must be positive integers")
        if self.style not in STYLES:
            raise ExportSpecError(f"unknown prompt style {self.style!r} (expected one of {STYLES})")
        if not 4 <= self.ngram_n <= 200:
            raise ExportSpecError("ngram_n must be in 4..200")
        if not 0.0 < self.ngram_threshold <= 1.0:
            raise ExportSpecError("ngram_threshold must be in (0, 1]")
        if not 64 <= self.row_group_size <= 1_000_000:
            raise ExportSpecError("row_group_size must be in 64..1000000")
        after, before = self.window
        if after is not None and before is not None and after >= before:
            raise ExportSpecError("created_after must be earlier than created_before")

    def check_files(self) -> None:
        """Every benchmark file exists and is readable (checked before an export starts, so a
        typo is a one-line error, not a failed run)."""
        for name in self.benchmarks:
            path = Path(name)
            if not path.is_file():
                raise ExportSpecError(f"benchmark file not found: {name}")
            try:
                with path.open("rb"):
                    pass
            except OSError as exc:
                raise ExportSpecError(f"benchmark file {name} cannot be read: {exc.strerror}") from None

    @property
    def window(self) -> tuple[datetime | None, datetime | None]:
        """The created_at window as aware datetimes (validated on construction)."""
        return _instant("created_after", self.created_after), _instant("created_before", self.created_before)

    @property
    def written_splits(self) -> tuple[SplitSpec, ...]:
        chosen = set(self.write) or {s.name for s in self.splits}
        return tuple(s for s in self.splits if s.name in chosen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "splits": [{"name": s.name, "max_result_chars": s.max_result_chars,
                        "tasks": [{"task_type": q.task_type, "count": q.count} for q in s.tasks]}
                       for s in self.splits],
            "write": list(self.write), "seed": self.seed, "batch_ids": list(self.batch_ids),
            "levels": list(self.levels), "curriculum": self.curriculum, "style": self.style,
            "system_prompt": self.system_prompt, "benchmarks": list(self.benchmarks),
            "ngram_n": self.ngram_n, "ngram_threshold": self.ngram_threshold,
            "row_group_size": self.row_group_size,
            # only when set, so the manifests of unwindowed exports stay as they were
            **{k: v for k, v in (("created_after", self.created_after), ("created_before", self.created_before)) if v},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExportSpec:
        """Build from JSON; `"preset": "reference"` fills `splits` when they are absent."""
        if not isinstance(data, dict):
            raise ExportSpecError("an export spec must be a JSON object")
        data = dict(data)
        preset = data.pop("preset", None)
        if "splits" in data:
            splits = tuple(_split_from_dict(s) for s in data.pop("splits"))
        elif preset is not None:
            splits = preset_splits(preset)
        else:
            splits = _reference_splits()
        tuples = {k: tuple(data.pop(k)) for k in ("write", "batch_ids", "levels", "benchmarks") if k in data}
        known = set(cls.__dataclass_fields__) - {"splits"}
        extra = sorted(set(data) - known)
        if extra:
            raise ExportSpecError(f"unknown spec field(s): {', '.join(extra)}")
        if "format" not in data:
            raise ExportSpecError("an export spec needs a format")
        try:
            return cls(splits=splits, **tuples, **data)
        except TypeError as exc:
            raise ExportSpecError(f"invalid export spec: {exc}") from None

    def with_sizes(self, sizes: dict[tuple[str, str], int | None]) -> ExportSpec:
        """Override quota counts: {(split, task_type): count}; a new task type is appended."""
        splits = []
        for split in self.splits:
            quotas = {q.task_type: q.count for q in split.tasks}
            for (name, task_type), count in sizes.items():
                if name == split.name:
                    quotas[task_type] = count
            splits.append(replace(split, tasks=tuple(TaskQuota(t, c) for t, c in quotas.items())))
        unknown = {name for name, _ in sizes} - {s.name for s in self.splits}
        if unknown:
            raise ExportSpecError(f"size given for unknown split(s) {sorted(unknown)}")
        return replace(self, splits=tuple(splits))


def _instant(name: str, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ExportSpecError(f"{name} must be an ISO 8601 datetime with a UTC offset, got {value!r}")
    return moment


def preset_splits(name: str) -> tuple[SplitSpec, ...]:
    try:
        return PRESETS[name]()
    except KeyError:
        raise ExportSpecError(f"unknown preset {name!r} (expected one of {', '.join(PRESETS)})") from None


def _split_from_dict(data: Any) -> SplitSpec:
    if not isinstance(data, dict) or "name" not in data or "tasks" not in data:
        raise ExportSpecError("each split needs a name and a list of tasks")
    tasks = []
    for q in data["tasks"]:
        if not isinstance(q, dict) or "task_type" not in q:
            raise ExportSpecError(f"split {data['name']!r}: each task needs a task_type")
        tasks.append(TaskQuota(q["task_type"], q.get("count")))
    return SplitSpec(str(data["name"]), tuple(tasks), data.get("max_result_chars"))
