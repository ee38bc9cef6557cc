"""`_imp`'s module factories, gated before user code runs.

`importlib.util.module_from_spec`, `importlib._bootstrap._load` and the loaders reach
`_imp.create_builtin` and `_imp.create_dynamic` without raising the audit event an import
statement raises, so the guard's refused imports (sandbox/guard.py) are refused here too:
a fresh `gc` module is as good as the loaded one, and a fresh `_xxsubinterpreters` starts
an interpreter the hook does not watch. `create_dynamic` also loads only the interpreter's
own extension modules, named by their exact paths (listed when the forkserver starts): a
shared library the program wrote (to its /tmp, to a memfd named to look like a path under
lib-dynload) is native code, out of the hook's sight.

The checks run inside a suspended generator, which holds the real factory and which user
code cannot look into (`gi_frame` is refused): whatever user code can reach from the gated
factory (its defaults, its closure, the generator's `send`) leads only through the checks.
The name and origin are read once from the caller's spec (a spec whose name changes between
two reads names nothing else), and nothing here resolves a path with Python code that user
code could patch (`os.path.realpath` reads `posixpath`'s globals). Kept apart from the
runtime on purpose (as sandbox/streams.py): `_imp` is reachable from user code, so this
module holds nothing that leads to the result channel, the trace or the hook.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace


def _extension_files() -> frozenset:
    """Every extension module file of this interpreter, by the paths an import names them:
    the lib-dynload directories' files under each path spelling sys.path uses, and the
    files of extension modules already loaded."""
    found = set()
    for entry in sys.path:
        if entry.endswith("lib-dynload") and os.path.isdir(entry):
            for directory in {entry, os.path.realpath(entry)}:
                found.update(os.path.join(directory, name) for name in os.listdir(directory)
                             if name.endswith(".so"))
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and file.endswith(".so"):
            found.add(file)
    return frozenset(found)


EXTENSION_FILES = _extension_files()  # in the forkserver, before any job


def seal(hidden: tuple[str, ...], blocked: frozenset, _modules=sys.modules) -> None:
    """The modules named in `hidden` leave sys.modules (importing a loaded module raises no
    event), and both factories refuse any name with a part in `blocked`."""
    import _imp

    for name in hidden:
        _modules.pop(name, None)
    _imp.create_builtin = gated(_imp.create_builtin, blocked, None)
    _imp.create_dynamic = gated(_imp.create_dynamic, blocked, EXTENSION_FILES)


def gated(create, blocked: frozenset, files: frozenset | None, _audit=sys.audit):  # noqa: ANN001, ANN201
    """`create`, refusing the names in `blocked` (through the audit hook, which records the
    refusal) and, where `files` is given, any origin not among them."""
    def checked(_str=str, _type=type, _getattr=getattr, _spec=SimpleNamespace, _refused=ImportError):
        outcome = None
        while True:
            args = yield outcome
            try:
                spec, *rest = args
                name, origin = spec.name, _getattr(spec, "origin", None)
                if _type(name) is not _str or not (origin is None or _type(origin) is _str):
                    raise TypeError("a module spec's name and origin are text")
                if not blocked.isdisjoint(name.split(".")):
                    _audit("import", name, None, None, None, None)  # the hook refuses it
                if files is not None and origin not in files:
                    raise _refused(f"{name}: only the interpreter's own extension modules load here")
                outcome = (create(_spec(name=name, origin=origin), *rest), None)
            except BaseException as exc:  # handed back to the caller
                outcome = (None, exc.with_traceback(None))

    holder = checked()
    next(holder)

    def factory(spec, *rest, _send=holder.send):  # noqa: ANN001, ANN202
        module, error = _send((spec, *rest))
        if error is not None:
            raise error
        return module

    return factory
