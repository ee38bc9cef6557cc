"""Where the runtime hands control to the program once the program has started.

A C callable the program installs where the runtime will call it (`functools.partial(exec,
src)` as an object's `__repr__` or `__del__`, as a stream's `flush`; a `defaultdict(locals)`'s
`__getitem__`) runs in whatever Python frame called it, and `exec`, `eval`, `locals`,
`globals`, `vars` and `dir` read that frame's locals and globals: in a runtime frame, the
job key, the payload, the tracer and the private builtins (found by the sixth red-team pass
of session 22). So every call the runtime makes that may run the program's code goes
through `call`: the program then runs with this module's frame as its caller, whose locals
are the callable and its arguments and whose globals hold nothing else.

And an object of the program's that the runtime would let go of (a returned value, an
exception, a call's module) is kept here until the process ends (`keep`): its finalizer
would otherwise run in the runtime frame that dropped it. A job ends with `os._exit`, which
runs no finalizer, and the cyclic collector is off in a job (sandbox/child.py).

Kept apart from the runtime on purpose: not a RUNTIME module (public builtins), nothing the
runtime reads back from here but what `call` returns. The list `keep` fills is reachable
from the program (through this module's globals, in a `call` frame), which can only empty
it, finalizers then running in the program's frames: so nothing of the runtime's (a tracer,
a closure, a frame) ever goes into it, only what the program made.
"""

from __future__ import annotations


def call(fn, *args):  # noqa: ANN001, ANN002, ANN201
    return fn(*args)


def call_hidden(box: list):  # noqa: ANN201
    """`box` is [argument, callable]: `callable(argument)` with both on the evaluation stack
    and `box` empty, so neither is in a local the program's code could read while the call
    runs. For what must not be seen: the real module factory (the module gate; an
    extension module's init imports through the current frame's builtins, which the
    program can replace), a frame of the program's own (the tracer reads its locals, and
    by `f_back` a frame leads into the runtime)."""
    return box.pop()(box.pop())


KEPT: list = []
keep = KEPT.append
