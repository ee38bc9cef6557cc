"""`_imp`'s module factories, gated before user code runs.

`importlib.util.module_from_spec`, `importlib._bootstrap._load` and the loaders reach
`_imp.create_builtin` and `_imp.create_dynamic` without raising the audit event an import
statement raises, so the guard's refused imports (sandbox/guard.py) are refused here too:
a fresh `gc` module is as good as the loaded one, and a fresh `_xxsubinterpreters` starts
an interpreter the hook does not watch. `create_dynamic` also loads only the interpreter's
own extension modules: a shared library the program wrote to its /tmp is native code,
out of the hook's sight.

Kept apart from the runtime on purpose (as sandbox/streams.py): the gated factories are
attributes of `_imp`, which user code reaches, so this module holds nothing that leads to
the result channel, the trace or the hook. Each factory reads the caller's spec once (a
spec whose name changes between two reads names nothing else), and the real factory is
held by a suspended generator, which user code cannot look into (`gi_frame` is refused),
not by a closure or a default it could read.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace


def seal(hidden: tuple[str, ...], blocked: frozenset, _modules=sys.modules) -> None:
    """The modules named in `hidden` leave sys.modules (importing a loaded module raises no
    event), and both factories refuse any name with a part in `blocked`."""
    import _imp

    for name in hidden:
        _modules.pop(name, None)
    own = frozenset(os.path.dirname(os.path.realpath(file)) for module in list(_modules.values())
                    if isinstance(file := getattr(module, "__file__", None), str) and file.endswith(".so"))
    dynload = frozenset(os.path.realpath(p) for p in sys.path if p.endswith("lib-dynload"))
    _imp.create_builtin = gated(_imp.create_builtin, blocked, None)
    _imp.create_dynamic = gated(_imp.create_dynamic, blocked, own | dynload)


def gated(create, blocked: frozenset, places: frozenset | None, _audit=sys.audit):  # noqa: ANN001, ANN201
    """`create`, refusing the names in `blocked` (through the audit hook, which records the
    refusal) and, where `places` is given, a library outside those directories."""
    def hold():  # the real factory lives only in this generator's frame
        outcome = None
        while True:
            args = yield outcome
            try:
                outcome = (create(*args), None)
            except BaseException as exc:  # handed back to the caller
                outcome = (None, exc.with_traceback(None))

    holder = hold()
    next(holder)

    def factory(spec, *rest, _send=holder.send, _str=str, _type=type, _getattr=getattr,
                _spec=SimpleNamespace, _dirname=os.path.dirname, _realpath=os.path.realpath,
                _refused=ImportError):
        name, origin = spec.name, _getattr(spec, "origin", None)
        if _type(name) is not _str or not (origin is None or _type(origin) is _str):
            raise TypeError("a module spec's name and origin are text")
        if not blocked.isdisjoint(name.split(".")):
            _audit("import", name, None, None, None, None)  # the hook refuses it
        if places is not None and (origin is None or _dirname(_realpath(origin)) not in places):
            raise _refused(f"{name}: only the interpreter's own extension modules load here")
        module, error = _send((_spec(name=name, origin=origin), *rest))
        if error is not None:
            raise error
        return module

    return factory
