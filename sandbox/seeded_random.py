"""`random` for jobs: imported seeded with the job's hash seed, from code compiled once.

Kept apart from the runtime (sandbox/child.py): the finder sits on `sys.meta_path`, where
user code can reach it, so this module holds nothing that leads to the result channel.
"""

from __future__ import annotations

import sys


class SeededRandom:
    """Meta path finder and loader for `random`: a job that imports it gets it seeded with
    the job's hash seed, so it draws the same numbers in every run.

    The forkserver does not import `random` itself: the module registers an at-fork hook
    that reseeds it from os.urandom in every forked child, which costs every job about 45
    copy-on-write faults (0.15 ms, a fifteenth of an untraced job). Its code is compiled
    once in the forkserver instead (the C modules it needs are preloaded), and a job's
    import builds a fresh module from that code object, without touching the filesystem
    (the job uid may not be able to read the standard library)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        for finder in sys.meta_path:
            spec = finder.find_spec("random", None)
            if spec is not None:
                break
        else:
            raise ImportError("the random module was not found")
        self.code = spec.loader.get_code("random")
        self.spec_type, self.origin, self.cached = type(spec), spec.origin, spec.cached

    def find_spec(self, name: str, path=None, target=None):
        if name != "random":
            return None
        spec = self.spec_type(name, self, origin=self.origin)
        spec.has_location, spec.cached = True, self.cached
        return spec

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        exec(self.code, module.__dict__)
        module.seed(self.seed)


def seed_random_on_import(seed: int) -> None:
    """In the forkserver: jobs that import `random` get it seeded with `seed`."""
    sys.meta_path.insert(0, SeededRandom(seed))
