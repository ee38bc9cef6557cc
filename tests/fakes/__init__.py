"""Stand-ins for the edges this machine cannot reach (STYLE.md rule 14): only the teacher LLM.

Everything else in the test suite uses the real component.
"""
