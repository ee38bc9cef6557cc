"""The runner of each stage, by the stage's name, in pipeline order."""

from __future__ import annotations

from workers.pipeline.stages import STAGE_NAMES
from workers.runner import execute, generate, inputs, judge

RUNNERS = dict(zip(STAGE_NAMES, (generate.run, inputs.run, execute.run, judge.run)))
