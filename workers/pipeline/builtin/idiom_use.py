"""One target use of the idiom library (see idiom_uses for the placeholders).

Most uses are one expression (`text`). A statement use (`recv` set, `text` empty) is for a
target that changes its receiver: `init` makes the receiver a local (and a second one when
the task keeps two; {tmp} names a scratch list of the lines), `stmt` is the lines the deepest block runs on the current element
{x}, `flat` the lines of a straight body over the data, `post` lines after the walk, `ret`
the result, and `alt` what the other arms of a test do to the receiver (`split`: the use
means nothing without them, as a run that ends at a mark needs the items that extend it). {acc} and {acc2}
are the receivers' names, drawn from `accs`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Use:
    text: str
    rtype: str  # int | float | str | list | dict | bool | tuple
    kinds: tuple[str, ...]  # data kinds of {xs}: ints | words | prices | text
    calls: bool = True
    names: tuple[str, ...] = ()  # task names for the entry function
    recv: str = ""  # statement uses: seq | set | map, the receiver {acc}
    init: str = ""
    stmt: str = ""
    flat: str = ""
    ret: str = ""
    post: str = ""
    alt: tuple[str, ...] = ()
    xkinds: tuple[str, ...] = ()  # element kinds `stmt` reads: int float digit word char
    accs: tuple[tuple[str, ...], ...] = ()  # names for {acc}, {acc2}, then {tmp}
    straight_only: bool = False  # depth 0 only (a statement use: `flat` binds a name `ret` reads)
    split: bool = False  # `stmt` is one side of a split the `alt` arm is the other of: written only with it
    # the text the data is written as, where the use works on what it holds: a format of
    # the words ("- [x] {}"), "padded" (blanks around, punctuation, plurals: a strip's) or
    # "digits" (numbers a zfill pads) or "commas" (words listed with commas: a replace's)
    dress: str = ""

    @property
    def statement(self) -> bool:
        return bool(self.recv)


def _u(text: str, rtype: str, kinds: str, calls: bool = True, names: str = "",
       straight_only: bool = False, dress: str = "") -> Use:
    """An expression use; `straight_only`: written at depth 0 (C1/C2) only."""
    return Use(text, rtype, tuple(kinds.split()), calls, tuple(names.split()), straight_only=straight_only,
               dress=dress)


def _s(recv: str, kinds: str, accs: str, init: str, ret: str, *, stmt: str = "", flat: str = "",
       post: str = "", alt: tuple[str, ...] = (), xkinds: str = "", calls: bool = True,
       names: str = "", straight_only: bool = False, split: bool = False) -> Use:
    """A statement use; lines are separated by newlines, `accs` groups by '|'."""
    return Use("", "", tuple(kinds.split()), calls, tuple(names.split()), recv, init, stmt, flat,
               ret, post, alt, tuple(xkinds.split()),
               tuple(tuple(g.split()) for g in accs.split("|")), straight_only, split)
