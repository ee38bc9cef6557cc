"""The hot-path JSON helpers write exactly what `json.dumps` writes and read what
`json.loads` reads (the export's byte-identity rests on it)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from training.export import jsontext

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text()
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                         max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_dumps_equal_json_dumps(doc):
    assert jsontext.dumps_sorted(doc) == json.dumps(doc, sort_keys=True, ensure_ascii=False)
    assert jsontext.dumps_sorted_ascii(doc) == json.dumps(doc, sort_keys=True)
    assert jsontext.dumps_ascii(doc) == json.dumps(doc)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_loads_equals_json_loads(doc):
    text = json.dumps(doc)
    assert repr(jsontext.loads(text)) == repr(json.loads(text))  # repr: NaN != NaN


def test_errors_are_json_errors():
    with pytest.raises(TypeError, match="not JSON serializable"):
        jsontext.dumps_sorted({"a": object()})
    with pytest.raises(json.JSONDecodeError):
        jsontext.loads('[1, 2')
    with pytest.raises(json.JSONDecodeError):
        jsontext.loads('[1] [2]')
    assert jsontext.loads(' [1] ') == [1]
