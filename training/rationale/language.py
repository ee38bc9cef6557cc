"""The rationale language: the phrasings the writer chooses from (seeded) and the patterns
the verifier reads them back with. One record per line; code, values and names are in
backticks, types in parentheses; nested calls are indented two spaces per level."""

from __future__ import annotations

import re

INDENT = "  "

LINE_HEADS = ("Line {n} (`{src}`)", "At line {n} (`{src}`)", "Then line {n} (`{src}`)")
FACT_VERBS = ("=", "becomes", "is now", "is set to")
CONDITIONS = ("the condition is {b}", "the test is {b}", "the condition evaluates to {b}")
NEXTS = ("so line {m} runs next", "so execution goes to line {m}", "so line {m} comes next")
NEXT_ITEMS = ("the loop takes its next item", "the loop moves on to its next item")
NO_ITEMS = ("no items are left", "the loop is over")
RETURNS = ("the function returns `{v}` ({t})", "it returns `{v}` ({t})")
RETURNS_LONG = ("the function returns a {t} (too long to write out)", "it returns a {t} (too long to write out)")
ENTRIES = ("We call `{call}`", "Start with the call `{call}`")
SUMMARIES = ("The loop at line {h} runs {n} more {times} in the same way; when line {h} is reached again",
             "The loop at line {h} repeats {n} more {times} like this; when line {h} is reached again")
FINALS = ("So `{call}` returns `{v}` ({t}).", "So the call `{call}` gives `{v}` ({t}).")

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
CODE = r"[^`]*"
TYPE = r"[A-Za-z_][A-Za-z0-9_.]*"

ENTRY_RE = re.compile(rf"^(?:We call|Start with the call) `(?P<call>{CODE})`(?:, so)?")
LINE_RE = re.compile(rf"^(?:Line|At line|Then line) (?P<n>\d+) \(`(?P<src>{CODE})`\)")
RETURN_OUT_RE = re.compile(rf"^`(?P<func>{NAME})` returns (?:`(?P<v>{CODE})` \((?P<t>{TYPE})\)"
                           rf"|a (?P<lt>{TYPE}) \(too long to write out\))")
SUMMARY_RE = re.compile(r"^The loop at line (?P<h>\d+) (?:runs|repeats) (?P<n>\d+) more times? "
                        r"(?:in the same way|like this); when line (?P=h) is reached again")
FINALS_LONG = ("So `{call}` returns a {t}, written out in the answer below.",)
FINAL_RE = re.compile(rf"^So (?:the call )?`(?P<call>{CODE})` (?:returns|gives) (?:`(?P<v>{CODE})` \((?P<t>{TYPE})\)"
                      rf"|a (?P<lt>{TYPE}), written out in the answer below)\.$")

FACT_RE = re.compile(rf"`(?P<name>{NAME})` (?:=|becomes|is now|is set to) `(?P<v>{CODE})` \((?P<t>{TYPE})\)")
UPDATED_RE = re.compile(rf"`(?P<name>{NAME})` is updated \((?P<t>{TYPE})\)")
CONDITION_RE = re.compile(r"the (?:condition|test) (?:is|evaluates to) (?P<b>True|False)")
NEXT_RE = re.compile(r"so (?:line (?P<a>\d+) (?:runs|comes) next|execution goes to line (?P<b>\d+))")
NEXT_ITEM_RE = re.compile(r"the loop (?:takes its|moves on to its) next item")
NO_ITEMS_RE = re.compile(r"no items are left|the loop is over")
RETURNS_RE = re.compile(rf"(?:the function|it) returns (?:`(?P<v>{CODE})` \((?P<t>{TYPE})\)"
                        rf"|a (?P<lt>{TYPE}) \(too long to write out\))")
CALLS_NESTED_RE = re.compile(rf"calls `(?P<func>{NAME})`:$")
CALLS_SUMMARY_RE = re.compile(rf"calls `(?P<func>{NAME})` \((?P<n>\d+) times?\)")

# white-box step notes
STEP_NEXT_RE = re.compile(rf"^Question (?P<q>\d+): when line (?P<n>\d+) \(`(?P<src>{CODE})`\) has run for the "
                          rf"(?P<k>\d+)(?:st|nd|rd|th) time, (?:line (?P<m>\d+) \(`(?P<msrc>{CODE})`\) runs next"
                          r"|execution leaves the function \(-1\))\.$")
STEP_NEVER_RE = re.compile(rf"^Question (?P<q>\d+): line (?P<n>\d+) \(`(?P<src>{CODE})`\) never runs"
                           r"(?:, so the answer is -1| for this input, so the answer is Nil)\.$")
STEP_VAR_RE = re.compile(rf"^Question (?P<q>\d+): after line (?P<n>\d+) \(`(?P<src>{CODE})`\) has run for the "
                         rf"(?P<k>\d+)(?:st|nd|rd|th) time, `(?P<name>{NAME})` = `(?P<v>{CODE})` \((?P<t>{TYPE})\)\.$")

# output -> input
OI_GOAL_RE = re.compile(rf"^We need `(?P<entry>{NAME})\(\?\?\?\?\)` to return `(?P<v>{CODE})` \((?P<t>{TYPE})\)\.$")
OI_RETURN_AT_RE = re.compile(rf"^The function returns it at line (?P<n>\d+) \(`(?P<src>{CODE})`\)"
                             rf"(?:, so `(?P<name>{NAME})` must be `(?P<v>{CODE})` \((?P<t>{TYPE})\) there)?\.$")
OI_SET_AT_RE = re.compile(rf"^`(?P<name>{NAME})` gets that value at line (?P<n>\d+) \(`(?P<src>{CODE})`\)\.$")
OI_TRY_RE = re.compile(r"^Try these arguments: (?P<facts>.*)\.$")
OI_CHECK_RE = re.compile(r"^Check it by running the call forward:$")
OI_DONE_RE = re.compile(rf"^That is `(?P<v>{CODE})`, the required output, so the input works\.$")

BACKTICKED = re.compile(r"`[^`]*`")


def times(n: int) -> str:
    return "time" if n == 1 else "times"
