"""The generator's static acceptance of a draw: the structure its level asks for
(`static_check`) and no finding of the naturalness gate's static rules, read off one parse
and one walk of the tree.

Cached on the text: a statement draw the idiom library accepted is checked again by
`generate_program`, and the level's name plays no part in either check (only its knobs).
"""

from __future__ import annotations

import ast
import functools

from workers.pipeline.naturalness.static import tree_findings
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_tree


def statically_fit(code: str, entry_point: str, cell: Constraint) -> bool:
    """Whether `code` has the structure `cell` asks for and no static finding."""
    return _fit(code, entry_point, cell.type, cell.method, cell.knobs)


@functools.lru_cache(maxsize=256)
def _fit(code: str, entry_point: str, type_: str, method: str, knobs: Knobs) -> bool:
    tree = ast.parse(code)
    nodes = list(ast.walk(tree))
    cell = Constraint(type_, method, "", knobs)
    return measure_tree(tree, nodes, entry_point, cell).matches and not tree_findings(tree, nodes, entry_point)
