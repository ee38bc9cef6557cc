"""The builtin (offline) program generator: programs that satisfy a grid cell by
construction. Start at `program.generate_program`; forms_* hold one form per entry."""

from workers.pipeline.builtin.program import GeneratedProgram, build_program, generate_program
from workers.pipeline.builtin.registry import UnsupportedConstraint

__all__ = ["GeneratedProgram", "UnsupportedConstraint", "build_program", "generate_program"]
