"""Interpreter traces of user code, recorded inside the sandboxed child only.

Only frames of the job's own code objects (the functions compiled from its source, found in
the module's constants) are recorded, at any depth,
helpers included; the standard library and the sandbox itself stay invisible. Each step is
`{"event", "func", "line", "depth", "locals"}`; a `return` step adds `value` (the returned
value), an `exception` step adds `exception`. `depth` is 0 for the entry point's frame and
grows by one per nested user frame. Python 3.12+ uses `sys.monitoring` (events only on user
code objects, nothing elsewhere); 3.11 uses `sys.settrace`.

A tracer is a set of closures, not an object of a class defined here: user code can list
every class (`object.__subclasses__()`) and reach its methods' module, but not a closure
it holds no reference to. What a closure needs is bound as a default argument when the
tracer is built, before user code runs, so patching a module afterwards changes nothing.
"""

from __future__ import annotations

import operator
import sys
from types import SimpleNamespace

from .boundary import call as _call_user, call_hidden as _call_hidden, keep as _keep
from .encoding import _type_name, encode_value, is_scalar_type

USER_FILENAME = "<execsynth>"
TRACE_CHARS = 4 << 20  # `Limits.trace_chars`
_SETTRACE = sys.settrace  # kept before user code can replace sys.settrace
_GETTRACE = sys.gettrace


# Decided when the forkserver loads this module: a grouped job makes a tracer for every
# call, after the program ran, and the program can set `sys.monitoring` and put its own
# module in sys.modules under the monitoring tracer's name.
_MONITORING = hasattr(sys, "monitoring")


def make_tracer(module_code, max_steps: int, value_chars: int, on_limit, permitted,
                max_chars: int = TRACE_CHARS, _monitoring=[],  # noqa: B006 - a cache
                _use_monitoring=_MONITORING):
    """The best tracer this interpreter offers, bound to the job's compiled module.
    `permitted(fn, *args)` runs the tracer's own guarded calls (sandbox/guard.py); the run
    ends through `on_limit(steps)` past `max_steps` steps or `max_chars` of value text."""
    if _use_monitoring:
        if not _monitoring:  # imported at the first call, before the program runs
            from .tracing_monitoring import monitoring_tracer

            _monitoring.append(monitoring_tracer)
        return _monitoring[0](module_code, max_steps, value_chars, on_limit, permitted, max_chars)
    return settrace_tracer(module_code, max_steps, value_chars, on_limit, permitted, max_chars)


def user_codes(module_code) -> set:
    """The code objects of the job's functions, lambdas and comprehensions: a frame is the
    job's own when it runs one of these objects, not when its code merely carries the job's
    file name (code the program compiles itself under "<execsynth>", at line numbers of its
    choosing, is not the program's source)."""
    found, stack = set(), [module_code]
    while stack:
        code = stack.pop()
        found.add(code)
        stack.extend(c for c in code.co_consts if hasattr(c, "co_code"))
    found.discard(module_code)
    return found


def exception_info(exc: BaseException, max_chars: int, _str=str, _type=type,
                   _call_user=_call_user, _keep=_keep, _type_name=_type_name,
                   _Exception=Exception) -> dict:
    """The exception's type name and message; its `__str__` is the program's code, run
    through sandbox/boundary.py."""
    try:
        raw = _call_user(_str, exc)
        _keep(raw)  # (a str subclass of the program's: never let go of here, boundary.py)
        message = "".join((raw,))
    except _Exception as error:  # a user __str__ may raise
        _keep(error)
        message = "<unprintable message>"
    return {"type": _type_name(_type(exc)), "message": message[:max_chars]}


# values whose encoding depends on nothing but their identity: immutable scalars
# (encoding.is_scalar_type) and the containers below holding only those, told apart by
# identity as well.
def _is_frozen(kind) -> bool:
    return kind is tuple or kind is frozenset


def _is_mutable(kind) -> bool:
    return kind is list or kind is dict or kind is set


def value_memo(value_chars: int, _encode=encode_value, _scalar=is_scalar_type,
               _frozen=_is_frozen, _mutable=_is_mutable, _is=operator.is_,
               _type=type, _list=list, _map=map, _all=all, _len=len, _dict=dict):
    """`encode(key, value)`: `encode_value(value, value_chars)`, reusing the encoding made
    for `key` at an earlier step when `value` is the same object and provably unchanged: a
    scalar or a tuple of scalars, or a list, set or dict of scalars whose items (in order)
    are still the same objects. Most locals do not change from one line to the next, and
    encoding them again was most of a traced run's time. Every builtin it uses is bound
    here, before user code runs, so a program that patches `builtins` cannot make it reuse
    a stale encoding. The cache owns no container of the program's: an entry holds an
    immutable scalar value, or a mutable container's id with a snapshot of its (scalar)
    items; otherwise a list the program filled with its own object and then let go of
    would die when the entry is replaced, and the object's finalizer run in this frame."""
    cache: dict = {}

    def snapshot(value, kind):
        if kind is _dict:
            return (_list(value), _list(value.values()))
        return (_list(value),)

    def scalars_only(parts) -> bool:
        return _all(_all(_map(_scalar, _map(_type, part))) for part in parts)

    def same(parts, old, _zip=zip) -> bool:
        return _all(_len(a) == _len(b) and _all(_map(_is, a, b)) for a, b in _zip(parts, old))

    def encode(key, value, _id=id):
        kind = _type(value)
        hit = cache.get(key)
        if hit is not None and hit[1] is kind:
            if hit[2] is None:
                if hit[0] is value:
                    return hit[3]
            elif hit[0] == _id(value) and same(snapshot(value, kind), hit[2]):
                return hit[3]  # (same id and kind, same items: the same text, whatever object)
        out = _encode(value, value_chars)
        if _scalar(kind) or (_frozen(kind) and scalars_only((value,))):
            cache[key] = (value, kind, None, out)
        elif _mutable(kind):
            parts = snapshot(value, kind)
            if scalars_only(parts):
                cache[key] = (_id(value), kind, parts, out)
            else:
                cache.pop(key, None)
        else:
            cache.pop(key, None)
        return out

    return encode


def step_recorder(max_steps: int, value_chars: int, on_limit, max_chars: int = TRACE_CHARS,
                  _memo=value_memo, _id=id, _f_locals=operator.attrgetter("f_locals")):
    """(steps, record): the step list and `record(event, frame, depth, func)`, which ends
    the run through `on_limit(steps)` once the steps would pass `max_steps`, or their
    locals' value text `max_chars` (a value repeated at every step counts every time: it
    is written every time)."""
    steps: list[dict] = []
    append = steps.append
    encode = _memo(value_chars)
    spent = [0]

    def record(event: str, frame, depth: int, func: str, _len=len, _sum=sum, _type=type,
               _dict=dict, _str=str, _map=map, _text_of=operator.itemgetter("repr"),
               _call_hidden=_call_hidden) -> dict:
        if _len(steps) >= max_steps:
            on_limit(steps)
        frame_id = _id(frame)
        # Reading f_locals refreshes the frame's locals dict, comparing each name with the
        # keys the program may have put there (a str subclass whose __eq__ is `eval`): read
        # through the boundary, the frame in no local there (it leads into the runtime).
        # A class body's namespace may be the program's own mapping:
        local = _call_hidden([frame, _f_locals])  # recorded without its locals
        values = {} if _type(local) is not _dict else {
            name: encode((frame_id, name), value)
            for name, value in local.items() if _type(name) is _str and name[:1] != "."}
        spent[0] += _sum(_map(_len, _map(_text_of, values.values())))
        if spent[0] > max_chars:
            on_limit(steps)
        step = {"event": event, "func": func, "line": frame.f_lineno, "depth": depth,
                "locals": values}
        append(step)
        return step

    return steps, record


def settrace_tracer(module_code, max_steps: int, value_chars: int, on_limit, permitted,
                    max_chars: int = TRACE_CHARS, _settrace=_SETTRACE, _gettrace=_GETTRACE,
                    _encode=encode_value, _exception=exception_info, _id=id):
    steps, record = step_recorder(max_steps, value_chars, on_limit, max_chars)
    depth_now = [0]
    # by identity: a copy the program compiles of its own source compares equal
    own = frozenset(map(_id, user_codes(module_code)))

    def on_call(frame, event, arg, _own=own):
        code = frame.f_code
        if _id(code) not in _own:
            return None
        depth = depth_now[0]
        depth_now[0] = depth + 1
        func = code.co_name
        record("call", frame, depth, func)

        def local(frame, event, arg):
            if event == "line":
                record("line", frame, depth, func)
            elif event == "return":
                record("return", frame, depth, func)["value"] = _encode(arg, value_chars)
                depth_now[0] -= 1
            elif event == "exception":
                record("exception", frame, depth, func)["exception"] = _exception(
                    arg[1], value_chars)
            return local

        return local

    def tampered() -> bool:
        """True when tracing was switched off (globally or for one of its frames)."""
        return _gettrace() is not on_call or depth_now[0] != 0

    return SimpleNamespace(steps=steps, start=lambda: permitted(_settrace, on_call),
                           stop=lambda: permitted(_settrace, None), tampered=tampered)
