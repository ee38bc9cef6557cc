"""Typed errors of the training layer.

A reward must tell "the answer is wrong" (a score) apart from "we could not judge it" (an
exception): a trainer that silently receives 0 for an infrastructure failure learns from
noise. So every failure that is not a verdict is raised as one of these.
"""

from __future__ import annotations


class TrainingError(Exception):
    """Base of every error raised by `training`."""


class GroundTruthError(TrainingError, ValueError):
    """The ground truth / task record is malformed: a data bug, never the model's fault."""


class RewardInfrastructureError(TrainingError, RuntimeError):
    """The sandbox could not judge an answer (unavailable, crashed, `sandbox_error`)."""


class UnknownTaskTypeError(GroundTruthError):
    """A data source / task type that no reward is registered for."""
