"""One definition of an export row drives both readers."""

from __future__ import annotations

from dataclasses import fields

from training.export.rows import QUESTION_KEYS, ROW_FIELDS, SampleRow


def test_sample_row_fields_follow_the_row_columns() -> None:
    names = [f.name for f in fields(SampleRow)]
    assert tuple(names[:len(ROW_FIELDS)]) == ROW_FIELDS
    assert names[len(ROW_FIELDS):] == ["questions", "solution"]
    assert QUESTION_KEYS[0] == "kind" and "payload" in QUESTION_KEYS
