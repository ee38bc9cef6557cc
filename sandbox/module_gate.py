"""`_imp`'s module factories, gated before user code runs.

`importlib.util.module_from_spec`, `importlib._bootstrap._load` and the loaders reach
`_imp.create_builtin` and `_imp.create_dynamic` without raising the audit event an import
statement raises, so the guard's refused modules (sandbox/guard.py) are refused here too: a
fresh `gc` module is as good as the loaded one, and a fresh `_xxsubinterpreters` starts an
interpreter the hook does not watch.
- `create_builtin` makes only built-in modules not loaded yet: a second `_imp` would come
  without this gate, and a second `sys` copies the interpreter's first `sys` back over the
  live one (undoing what `child._seal_runtime` replaced there).
- `create_dynamic` loads only the interpreter's own extension module files, by their exact
  paths (listed when the forkserver starts), each under its own name: a shared library the
  program wrote (to /tmp, to a memfd named to look like a path under lib-dynload) is
  native code out of the hook's sight, and CPython picks a library's init function by the
  last part of the name, hyphens read as underscores and cut at a NUL (`-testcapi`,
  `_testcapi\\x00` name a refused module's init).

The checks run inside a suspended generator, which holds the real factory and which user
code cannot look into (`gi_frame` is refused): whatever user code can reach from a gated
factory (its defaults, its closure, the generator's `send`) leads only through the checks.
The name and origin are read once from the caller's spec, and nothing here resolves a path
with Python code user code could patch (`os.path.realpath` reads `posixpath`'s globals).
Kept apart from the runtime on purpose, and not among the forkserver's RUNTIME modules
(which share a private copy of builtins): user code reaches these functions, and through
their globals this module, so it holds nothing that leads to the result channel, the trace
or the hook, and every builtin the factories call is bound when they are made.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

from .boundary import call_hidden


def _extension_files() -> dict[str, str]:
    """Every extension module file of this interpreter, by the paths an import names them
    (the lib-dynload directories under each spelling sys.path uses, and the files of
    extension modules already loaded), with the module name each one defines."""
    found = {}
    for entry in sys.path:
        if entry.endswith("lib-dynload") and os.path.isdir(entry):
            for directory in {entry, os.path.realpath(entry)}:
                for name in os.listdir(directory):
                    if name.endswith(".so"):
                        found[os.path.join(directory, name)] = name.split(".")[0]
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and file.endswith(".so"):
            found[file] = os.path.basename(file).split(".")[0]
    return found


EXTENSION_FILES = _extension_files()  # in the forkserver, before any job


def seal(hidden: tuple[str, ...], blocked: frozenset, _modules=sys.modules) -> None:
    """The modules named in `hidden` leave sys.modules (importing a loaded module raises no
    event), and both factories refuse any name with a part in `blocked`."""
    import _imp

    for name in hidden:
        _modules.pop(name, None)
    unloaded = frozenset(n for n in sys.builtin_module_names if n not in _modules and n not in blocked)
    files = {path: name for path, name in EXTENSION_FILES.items() if name not in blocked}
    _imp.create_builtin = gated(_imp.create_builtin, blocked, unloaded, None)
    _imp.create_dynamic = gated(_imp.create_dynamic, blocked, None, files)


def gated(create, blocked: frozenset, builtins_allowed: frozenset | None,  # noqa: ANN001, ANN201
          files: dict | None, _audit=sys.audit):
    """`create`, refusing a name with a part in `blocked` (through the audit hook, which
    records the refusal), a built-in module outside `builtins_allowed`, and a library that
    is not one of `files` under the name it defines."""
    def checked(_str=str, _type=type, _spec=SimpleNamespace, _refused=ImportError,
                _bad=TypeError, _any=BaseException, _strip=BaseException.with_traceback,
                _hidden=call_hidden):
        # Only exact text reaches this frame: reading a spec's attributes runs the program's
        # code (a class's __getattr__ can be `defaultdict(locals).__getitem__`, which would
        # read this frame's locals, the real factory among them), so `factory` reads them.
        outcome = None
        while True:
            name, origin = yield outcome
            try:
                if _type(name) is not _str or not (origin is None or _type(origin) is _str):
                    raise _bad("a module spec's name and origin are exact str")
                if not blocked.isdisjoint(name.split(".")):
                    _audit("import", name, None, None, None, None)  # the hook refuses it
                if builtins_allowed is not None and name not in builtins_allowed:
                    raise _refused(f"{name}: no built-in module of that name can be made here")
                if files is not None and files.get(origin) != name.rpartition(".")[2]:
                    raise _refused(f"{name}: only the interpreter's own extension modules load here")
                # (an extension's init may import, through the current frame's builtins,
                # which the program can replace: that frame is then boundary's, which
                # holds neither the real factory nor its argument)
                outcome = (_hidden([_spec(name=name, origin=origin), create]), None)
            except _any as exc:  # handed back to the caller
                outcome = (None, _strip(exc, None))

    holder = checked()
    next(holder)

    def factory(spec, _send=holder.send, _getattr=getattr):  # noqa: ANN001, ANN202
        """The gated factory; its frame holds the spec and the checked `send` only."""
        module, error = _send((spec.name, _getattr(spec, "origin", None)))
        if error is not None:
            raise error
        return module

    return factory
