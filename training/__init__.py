"""Question formats, the one answer parser/grader, and reward functions for trainers.

Standard library plus `sandbox` only, so a trainer process can import it without the
service (no pydantic, no database). Exports (`training.export`) live one layer up.
"""
