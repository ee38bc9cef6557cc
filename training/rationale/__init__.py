"""Trace-grounded reasoning for SFT targets: written from a stored trace, checked against it.

`write` states what the execution did (statements, branch decisions, values after
assignments, helper calls, loops written out for the first iterations and summarized after)
in a small controlled language with seeded wording; `verify` reads such a text back with
its own parser and checks every line number, source line, value, type, branch, call and
return it states against the trace; `build` writes, verifies, and checks that each
composed target's answer block earns the maximum with the project's own reward. Only
verified text is ever returned. Standard library only (plus `training`), so the pipeline
writes it and the export composes it with the same code.
"""

from training.rationale.build import RationaleSet, build_rationales, compose_target
from training.rationale.verify import RationaleError, verify_forward, verify_oi, verify_steps
from training.rationale.write import MAX_TARGET_CHARS, write_forward, write_oi, write_steps

__all__ = [
    "MAX_TARGET_CHARS", "RationaleError", "RationaleSet", "build_rationales", "compose_target",
    "verify_forward", "verify_oi", "verify_steps", "write_forward", "write_oi", "write_steps",
]
