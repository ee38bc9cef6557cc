"""Canonical typed encoding of Python values: `{"type", "repr", "json"?, "truncated"}`.

Values leave the sandbox only in this form, so that the host never unpickles or evaluates
anything, and so that the same value always gets the same text whatever the hash seed:
sets and frozensets are printed in a canonical sorted order, dicts in insertion order,
floats with `repr`, memory addresses are removed from other objects' reprs. Each value
has a size budget; building the repr stops as soon as the budget is spent (a huge list is
never rendered in full just to be cut), and the value is then marked `truncated`.
"""

from __future__ import annotations

import re
from math import isfinite, isnan

from .boundary import call as _call_user, keep as _keep

DEFAULT_VALUE_CHARS = 10_000
MAX_DEPTH = 100
_JSON_INT_LIMIT = 2**63
# A type's own name, read by the C slot: a metaclass's `__name__` property is the program's
# code. Types are told apart by identity only (`kind is int`), never `kind in (...)` or a
# set: those compare or hash the type, which a metaclass's `__eq__` / `__hash__` answers.
_raw_type_name = type.__dict__["__name__"].__get__


def _type_name(kind: type, _raw=_raw_type_name, _join="".join) -> str:
    """The type's name as an exact str: a class's __name__ can be set to a str subclass,
    whose __format__ or __eq__ would be the program's code wherever the name is used."""
    return _join((_raw(kind),))
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# an object's repr that reads as a call (`Counter({'a': 1})`, `Point(x=1)`) in ASCII or
# starts with "<" is no literal; any other text might be (the literal reader also takes
# these calls, and the parser folds other letters into them: NFKC)
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")
_LITERAL_CALLS = ("set(", "frozenset(", "bytearray(")


# The repr budget is spent: one instance of a builtin exception, raised again and again
# and told apart by identity. A class of this module's own would be the program's to
# change (`Exception.__subclasses__()`): its __init__, run at every raise, could be
# `functools.partial(exec, src)`, running the program's code in the raising frame.
_FULL = OverflowError("the value's text budget is spent")


# The writer is a plain list [parts, chars left, ids of containers being written, whether a
# container held itself], not a class: a class's methods would lead user code (through
# `object.__subclasses__()` and `__globals__`) to this module's helpers, which encode the
# job's result and trace.
_PARTS, _LEFT, _ACTIVE, _CYCLIC = 0, 1, 2, 3


def _new_writer(budget: int) -> list:
    return [[], budget, set(), False]


def _put(w: list, text: str) -> None:
    w[_PARTS].append(text)
    w[_LEFT] -= len(text)
    if w[_LEFT] < 0:
        raise _FULL.with_traceback(None)


def _emit_scalar_text(w: list, obj: object) -> None:
    if len(obj) > w[_LEFT]:  # type: ignore[arg-type]
        _put(w, repr(obj[: w[_LEFT] + 1]))  # type: ignore[index]
    else:
        _put(w, repr(obj))


def _emit_int(w: list, obj: int) -> None:
    try:
        _put(w, repr(obj))
    except ValueError:  # beyond sys.get_int_max_str_digits()
        _put(w, f"<int with {obj.bit_length()} bits>")
        raise _FULL.with_traceback(None) from None


def _emit_items(w: list, items, open_: str, close: str, depth: int) -> None:
    _put(w, open_)
    first = True
    for item in items:
        if not first:
            _put(w, ", ")
        first = False
        _emit(w, item, depth + 1)
    _put(w, close)


def _emit_container(w: list, obj, depth: int) -> None:
    kind = type(obj)
    key = id(obj)
    if key in w[_ACTIVE]:  # Python's own marker; the text is then not the value (truncated)
        w[_CYCLIC] = True
        _put(w, {list: "[...]", dict: "{...}"}.get(kind, "..."))
        return
    w[_ACTIVE].add(key)
    try:
        if kind is list:
            _emit_items(w, obj, "[", "]", depth)
        elif kind is tuple:
            if len(obj) == 1:
                _put(w, "(")
                _emit(w, obj[0], depth + 1)
                _put(w, ",)")
            else:
                _emit_items(w, obj, "(", ")", depth)
        elif kind is dict:
            _put(w, "{")
            first = True
            for k, v in obj.items():
                _hold(k)  # (k's repr may drop v from the dict: v's last holder is then here)
                _hold(v)
                if not first:
                    _put(w, ", ")
                first = False
                _emit(w, k, depth + 1)
                _put(w, ": ")
                _emit(w, v, depth + 1)
            _put(w, "}")
        elif kind is set:
            if not obj:
                _put(w, "set()")
            else:
                _emit_items(w, canonical_order(obj), "{", "}", depth)
        else:  # frozenset
            if not obj:
                _put(w, "frozenset()")
            else:
                _emit_items(w, canonical_order(obj), "frozenset({", "})", depth)
    finally:
        w[_ACTIVE].discard(key)


def _emit_other(w: list, obj: object) -> None:
    """An object of any other type, by its own repr (run through sandbox/boundary.py, and
    the object kept: see there); one whose repr reads as a literal (a class named `int`
    saying `42`, a str subclass) is written `<type: repr>`: otherwise the text would pass
    for a value the object is not."""
    _keep(obj)
    name = _type_name(type(obj))
    try:
        text = _call_user(repr, obj)
        _keep(text)  # (a str subclass of the program's: never let go of here, boundary.py)
    except Exception as exc:  # a user __repr__ may raise anything
        _keep(exc)
        text = f"<{name} object (repr raised {_type_name(type(exc))})>"
    text = _ADDRESS.sub("", "".join((text,)))  # an exact str: a subclass's methods run no code here
    head = text.lstrip()
    honest_call = head.isascii() and _CALL.match(head) and not head.startswith(_LITERAL_CALLS)
    if not head.startswith("<") and not honest_call:  # (non-ASCII names: `s\U0001d41et(...)` reads as set)
        text = f"<{name}: {text}>"
    _put(w, text)


def _emit(w: list, obj: object, depth: int) -> None:
    kind = type(obj)
    if kind is int:
        _emit_int(w, obj)  # type: ignore[arg-type]
    elif kind is str or kind is bytes:
        _emit_scalar_text(w, obj)
    elif kind is float or kind is bool or kind is complex or obj is None:
        _put(w, repr(obj))
    elif depth > MAX_DEPTH:
        _keep(obj)
        _put(w, "...")
        raise _FULL.with_traceback(None)
    elif kind is list or kind is tuple or kind is dict or kind is set or kind is frozenset:
        _keep(obj)  # before any of the program's code can run (see _hold)
        _emit_container(w, obj, depth)
    elif kind is bytearray:
        _put(w, "bytearray(")
        _emit_scalar_text(w, bytes(obj))  # type: ignore[arg-type]
        _put(w, ")")
    else:
        _emit_other(w, obj)


def sort_key(obj: object) -> tuple:
    """A total order over hashable values that does not depend on hashing.

    Numbers sort by value (NaN last), then str, bytes, None, tuples element-wise,
    frozensets by their canonical text, anything else by type name and repr.
    """
    kind = type(obj)
    if kind is bool or kind is int or kind is float:
        if kind is float and isnan(obj):  # type: ignore[arg-type]
            return (0, 1, 0.0, _type_name(kind))
        return (0, 0, obj, _type_name(kind))
    if kind is str:
        return (1, obj)
    if kind is bytes:
        return (2, obj)
    if obj is None:
        return (3,)
    if kind is tuple:
        return (4, tuple(sort_key(item) for item in obj))  # type: ignore[attr-defined]
    if kind is frozenset:
        return (5, encode_value(obj, 1 << 20)["repr"])
    if kind is complex:
        return (6, obj.real, obj.imag)  # type: ignore[attr-defined]
    return (9, _type_name(kind), encode_value(obj, 1 << 20)["repr"])


def canonical_order(items) -> list:
    """The elements of a set in canonical order (same order under every hash seed). The
    program's objects among them are kept first: a key's repr may drop another element
    from the set, and the sort's own list would then let go of it here."""
    for item in items:
        _hold(item)
    return sorted(items, key=sort_key)


_NONE = type(None)


def is_scalar_type(kind: type) -> bool:
    """A plain scalar type (no finalizer, immutable), told apart by identity (a set lookup
    would hash the type, which a metaclass's __hash__ answers)."""
    return (kind is int or kind is str or kind is float or kind is bool or kind is _NONE
            or kind is bytes or kind is complex)


def _hold(obj: object, _scalar=is_scalar_type) -> None:
    """Keep `obj` unless it is a plain scalar (no finalizer): a list or a tuple the encoder
    walks can hold the program's objects, and a __repr__ met on the way (the program's
    code) can drop the program's own reference to it, leaving this encoder's frame (or
    its exception's traceback) the last owner (see boundary.keep)."""
    if not _scalar(type(obj)):
        _keep(obj)


def _json_form(obj: object, depth: int = 0):
    """The value as plain JSON when that is exact (same value and type back), else raise."""
    if depth > MAX_DEPTH:
        raise ValueError
    kind = type(obj)
    if obj is None or kind is bool or kind is str:
        return obj
    if kind is int:
        if -_JSON_INT_LIMIT < obj < _JSON_INT_LIMIT:  # type: ignore[operator]
            return obj
        raise ValueError
    if kind is float:
        if isfinite(obj):  # type: ignore[arg-type]
            return obj
        raise ValueError
    if kind is list:
        return [_json_form(item, depth + 1) for item in obj]  # type: ignore[attr-defined]
    if kind is dict:
        out = {}
        for k, v in obj.items():  # type: ignore[attr-defined]
            if type(k) is not str:
                raise ValueError
            out[k] = _json_form(v, depth + 1)
        return out
    raise ValueError


def type_name(obj: object) -> str:
    return _type_name(type(obj))


def encode_value(obj: object, max_chars: int = DEFAULT_VALUE_CHARS) -> dict:
    """Encode `obj` as `{"type", "repr", "json"?, "truncated"}` within `max_chars`."""
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    kind = type(obj)
    if kind is int and -_JSON_INT_LIMIT < obj < _JSON_INT_LIMIT:  # fast path: trace locals
        text = repr(obj)
        if len(text) <= max_chars:
            return {"type": "int", "repr": text, "json": obj, "truncated": False}
    writer = _new_writer(max_chars)
    truncated = False
    try:
        _emit(writer, obj, 0)
    except OverflowError as exc:
        if exc is not _FULL:
            raise
        truncated = True
    except RecursionError:
        truncated = True
    text = "".join(writer[_PARTS])
    truncated = truncated or writer[_CYCLIC]  # `[1, [...]]` reads back as another value
    if len(text) > max_chars:
        text, truncated = text[:max_chars], True
    out = {"type": _type_name(kind), "repr": text, "truncated": truncated}
    if not truncated:
        try:
            out["json"] = _json_form(obj)
        except (ValueError, RecursionError):
            pass
    return out
