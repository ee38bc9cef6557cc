"""Near-duplicate clusters: programs joined by a shared normalized-AST hash or by mutation
lineage (an AST mutant and its parent are the same program for leakage purposes).

A split may never hold a member of a cluster that another split holds, so clusters, not
programs, are the unit that the split builder deals out.
"""

from __future__ import annotations

from collections.abc import Iterable


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self.parent
        root = parent.setdefault(x, x)
        while root != parent[root]:
            root = parent[root]
        while x != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # the smaller id wins, so a cluster's key does not depend on insertion order
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra


def cluster_programs(programs: Iterable[tuple[int, int | None, str | None]]) -> dict[int, int]:
    """{program id: cluster key} from (program id, parent id, normalized hash) triples.

    The key is the smallest program id reachable through hashes and parent links (a
    parent that is not among the programs still links its children)."""
    uf = _UnionFind()
    by_hash: dict[str, int] = {}
    seen: list[int] = []
    for pid, parent, nhash in programs:
        seen.append(pid)
        uf.find(pid)
        if parent is not None:
            uf.union(pid, parent)
        if nhash:
            first = by_hash.setdefault(nhash, pid)
            if first != pid:
                uf.union(pid, first)
    return {pid: uf.find(pid) for pid in seen}
