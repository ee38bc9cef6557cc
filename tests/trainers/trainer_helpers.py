"""Small checks shared by the trainer tests (imported by name: tests/trainers is the rootdir)."""

from __future__ import annotations

MAX_REWARD = 2.0  # stage I: R = 2 * ((1 - alpha) * io + alpha * step_accuracy)


def trained_parameters_changed(before: dict, model) -> bool:
    """True when an optimiser step moved at least one weight (training really ran)."""
    import torch

    return any(not torch.equal(before[name], p.detach()) for name, p in model.named_parameters())
JUNK = "I am not sure what this function returns."


def stand_in_gpu_only_packages(names: tuple[str, ...] = ("vllm", "flash_attn")) -> set[str]:
    """Let modules that import GPU-only packages at the top (OpenRLHF's CLI, strategy and
    models import vLLM and flash-attn) be imported on a CPU host: for each missing package an
    import finder serves stand-in modules whose every public name raises when called. Returns
    the packages it stands in for (none when they are installed)."""
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import sys
    import types

    missing = {name for name in names if importlib.util.find_spec(name) is None}

    class Missing:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("this GPU-only package is not installed on this host")

    def lookup(attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Missing

    class StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in missing:
                return importlib.machinery.ModuleSpec(name, self, is_package=True)
            return None

        def create_module(self, spec):
            module = types.ModuleType(spec.name)
            module.__getattr__ = lookup
            module.__path__ = []
            return module

        def exec_module(self, module):
            pass

    if missing:
        sys.meta_path.insert(0, StandIns())
    return missing
