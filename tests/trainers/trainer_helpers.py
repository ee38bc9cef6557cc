"""Small checks shared by the trainer tests (imported by name: tests/trainers is the rootdir)."""

from __future__ import annotations

MAX_REWARD = 2.0  # stage I: R = 2 * ((1 - alpha) * io + alpha * step_accuracy)


def trained_parameters_changed(before: dict, model) -> bool:
    """True when an optimiser step moved at least one weight (training really ran)."""
    import torch

    return any(not torch.equal(before[name], p.detach()) for name, p in model.named_parameters())
JUNK = "I am not sure what this function returns."
