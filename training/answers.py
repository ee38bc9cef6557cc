"""The one answer parser: answer blocks, assertion lines and per-question answer lines.

Question building, the difficulty solver and the rewards all read answers through this
module, so a model is graded the same way everywhere. The reference split answers on
newlines and `;` and lost all step credit when one line was missing (METHOD.md section 8,
item 8); here answers are numbered, each is read on its own, values may span lines or
contain `;`, and anything that is not an answer (a second assertion, a `def`, surplus
numbered lines) makes the whole block invalid instead of giving the model extra tries.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

from training.values import FloatTolerance, NotALiteral, literal_from_node, parse_literal, values_equal

MAX_BLOCK_CHARS = 200_000
_ANSWER_OPEN = re.compile(r"<answer>", re.I)
_ANSWER_CLOSE = re.compile(r"</answer>", re.I)
_MARKER = re.compile(r"^(?:\[([0-9]{1,4})\]|\(([0-9]{1,4})\)|([0-9]{1,4})[.):])(?:\s+|$)")
_KEY = re.compile(r"[0-9]{1,4}")  # a JSON answer's question number (ASCII digits, bounded)
_ASSERT = re.compile(r"^assert\b")
_ASSERT_ANYWHERE = re.compile(r"(?<![\w.])assert\b")


@dataclass(frozen=True)
class ParsedBlock:
    """An answer block split into its assertion line and numbered answers.

    `valid` is False when the block holds anything that is not an answer; rewards then
    give 0. `answers` maps question numbers (1-based) to the raw answer text."""

    valid: bool
    assertion: str | None = None
    answers: dict[int, str] = field(default_factory=dict)
    problem: str | None = None


def holds_answer_tag(text: str) -> bool:
    """Whether `text` would open or close an answer block (a gold value holding one would cut
    its own block short: such a sample cannot be graded)."""
    return bool(_ANSWER_OPEN.search(text) or _ANSWER_CLOSE.search(text))


def find_answer_block(text: str) -> str | None:
    """The content of the last `<answer>` block (an unclosed last block runs to the end)."""
    opens = list(_ANSWER_OPEN.finditer(text))
    if not opens:
        return None
    start = opens[-1].end()
    close = _ANSWER_CLOSE.search(text, start)
    return text[start : close.start() if close else len(text)]


def parse_block(block: str, n_questions: int, style: str = "tags") -> ParsedBlock:
    """Split an answer block written in `style` ("tags": lines, "json": an object)."""
    if len(block) > MAX_BLOCK_CHARS:
        return ParsedBlock(False, problem="answer block too long")
    if style == "json":
        return _parse_json_block(block, n_questions)
    if style != "tags":
        raise ValueError(f"unknown answer style {style!r} (expected 'tags' or 'json')")
    return _parse_tags_block(block, n_questions)


def _parse_tags_block(block: str, n: int) -> ParsedBlock:
    items: list[list] = []  # [key, text]; key 0 is the assertion
    numbered = False
    unnumbered: list[str] = []
    brackets = Brackets()  # of the last item, fed line by line (linear in the block)
    for raw in block.splitlines():
        line = raw.strip()
        if not line:
            continue
        current = items[-1] if items else None
        if current is not None and brackets.open:
            current[1] += "\n" + line
            brackets.feed("\n" + line)
            continue
        brackets = Brackets().feed(line)
        if _ASSERT.match(line):
            if any(key == 0 for key, _ in items):
                return ParsedBlock(False, problem="more than one assertion")
            items.append([0, line])
            continue
        m = _MARKER.match(line)
        if m:
            number = int(next(g for g in m.groups() if g is not None))
            last = max((key for key, _ in items), default=0)
            if not (last < number <= n):
                return ParsedBlock(False, problem=f"unexpected answer number {number}")
            numbered = True
            items.append([number, line[m.end():].strip()])
            continue
        if numbered:
            return ParsedBlock(False, problem=f"line is not an answer: {line[:60]!r}")
        unnumbered.append(line)
        items.append([-1, line])
    assertion = next((text for key, text in items if key == 0), None)
    if unnumbered:
        # The reference's positional format: accepted only when it is unambiguous.
        if numbered or len(unnumbered) != n:
            return ParsedBlock(False, problem="unnumbered answers do not match the questions")
        return ParsedBlock(True, assertion, {i + 1: t for i, t in enumerate(unnumbered)})
    return ParsedBlock(True, assertion, {key: text for key, text in items if key > 0})


def _parse_json_block(block: str, n: int) -> ParsedBlock:
    try:
        obj = json.loads(block.strip())
    except (ValueError, RecursionError):
        return ParsedBlock(False, problem="answer block is not JSON")
    if not isinstance(obj, dict) or set(obj) - {"assertion", "answers"}:
        return ParsedBlock(False, problem="expected an object with 'assertion' and 'answers'")
    assertion = obj.get("assertion")
    raw_answers = obj.get("answers", {})
    if assertion is not None and not isinstance(assertion, str):
        return ParsedBlock(False, problem="'assertion' must be a string")
    if not isinstance(raw_answers, dict):
        return ParsedBlock(False, problem="'answers' must be an object")
    answers: dict[int, str] = {}
    for key, value in raw_answers.items():
        if not (isinstance(key, str) and _KEY.fullmatch(key) and 1 <= int(key) <= n):
            return ParsedBlock(False, problem=f"unexpected answer key {key!r}")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue  # unanswered: costs that question only
        answers[int(key)] = str(value).strip()
    return ParsedBlock(True, assertion.strip() if assertion else None, answers)


class Brackets:
    """Brackets and string quotes still open in the text fed so far (a value continues on
    the next line). A cheap scanner, not a tokenizer: good enough to join wrapped values.
    Fed line by line it keeps its state, so joining a long answer stays linear."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None
        self.skip = 0  # characters an escape at the end of the last text still skips

    def feed(self, text: str) -> "Brackets":
        depth, quote = self.depth, self.quote
        i, n = self.skip, len(text)
        while i < n:
            ch = text[i]
            if quote:
                if ch == "\\":
                    i += 2
                    continue
                if text.startswith(quote, i):
                    i += len(quote)
                    quote = None
                    continue
            elif ch in "\"'":
                quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
                i += len(quote)
                continue
            elif ch == "#":  # a comment: the rest of this line
                nl = text.find("\n", i)
                i = n if nl < 0 else nl
                continue
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            i += 1
        self.depth, self.quote, self.skip = depth, quote, i - n
        return self

    @property
    def open(self) -> bool:
        return self.depth > 0 or (self.quote is not None and len(self.quote) == 3)


def is_open(text: str) -> bool:
    """True while brackets or a string literal are still open in `text`."""
    return Brackets().feed(text).open


# -- assertion lines ---------------------------------------------------------------------

@dataclass(frozen=True)
class Assertion:
    """`assert entry(<args>) == <value>` read as literals: `args`/`kwargs` for O->I,
    `value` for I->O. Missing pieces (a non-literal side) are reported as errors."""

    args: tuple | None
    kwargs: dict | None
    value: object
    value_ok: bool
    args_error: str | None = None

    def args_text(self) -> str:
        """The argument list re-rendered from the parsed literals (what the sandbox runs)."""
        if self.args is None or self.kwargs is None:
            raise NotALiteral(self.args_error or "arguments are not literals")
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


def parse_assertion(line: str, entry_point: str, max_chars: int = 20_000) -> Assertion | None:
    """Read one `assert entry(...) == value` statement; None if it is not of that shape.

    Never evaluates anything: `assert f(x) == f(x)`, `assert True or ...` and
    `assert f(1) == g()` all come back without a usable value."""
    text = line.strip()
    if not text or len(text) > max_chars:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assert):
        return None
    stmt = tree.body[0]
    test = stmt.test
    if stmt.msg is not None or not isinstance(test, ast.Compare):
        return None
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return None
    left, right = test.left, test.comparators[0]
    if _is_entry_call(left, entry_point) and not _is_entry_call(right, entry_point):
        call, value_node = left, right
    elif _is_entry_call(right, entry_point) and not _is_entry_call(left, entry_point):
        call, value_node = right, left
    else:
        return None
    try:
        value, value_ok = literal_from_node(value_node), True
    except NotALiteral:
        value, value_ok = None, False
    args, kwargs, error = _literal_args(call)  # type: ignore[arg-type]
    return Assertion(args, kwargs, value, value_ok, error)


def _is_entry_call(node: ast.AST, entry_point: str) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == entry_point)


def _literal_args(call: ast.Call) -> tuple[tuple | None, dict | None, str | None]:
    try:
        args = []
        for node in call.args:
            if isinstance(node, ast.Starred):
                return None, None, "starred arguments are not allowed"
            args.append(literal_from_node(node))
        kwargs = {}
        for kw in call.keywords:
            if kw.arg is None:
                return None, None, "** arguments are not allowed"
            kwargs[kw.arg] = literal_from_node(kw.value)
    except NotALiteral:
        return None, None, "an argument is not a literal"
    return tuple(args), kwargs, None


def extract_assertion_value(text: str, entry_point: str) -> tuple[bool, object]:
    """(found, value) for the predicted output in a model's text.

    Inside an `<answer>` block exactly one assertion must be present; in free text the
    last assertion for `entry_point` counts (a model's final answer comes last)."""
    block = find_answer_block(text)
    scope = block if block is not None else text
    found: list[Assertion] = []
    for line in _assertion_lines(scope):
        parsed = parse_assertion(line, entry_point)
        if parsed is None and line.endswith("."):  # "... so assert f(1) == 2."
            parsed = parse_assertion(line[:-1], entry_point)
        if parsed is not None:
            found.append(parsed)
    if not found or (block is not None and len(found) != 1):
        return False, None
    last = found[-1]
    return (True, last.value) if last.value_ok else (False, None)


def _assertion_lines(text: str) -> list[str]:
    """Assertion statements in free text (`... so assert f(1) == 2`), joining lines while
    brackets are open and dropping code-fence decoration."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _ASSERT_ANYWHERE.search(lines[i])
        if m:
            line = lines[i][m.start():].strip()
            brackets = Brackets().feed(line)
            while brackets.open and i + 1 < len(lines):
                i += 1
                line += "\n" + lines[i].strip()
                brackets.feed("\n" + lines[i].strip())
            out.append(line.rstrip("`").rstrip())
        i += 1
    return out


def gold_value(gold: object) -> object:
    """The gold value from a typed value ({"type", "repr", "truncated"?}) or a repr."""
    if isinstance(gold, dict):
        if gold.get("truncated"):
            raise NotALiteral("the gold value is truncated")
        return parse_literal(str(gold.get("repr", "")))
    if isinstance(gold, str):
        return parse_literal(gold)
    raise NotALiteral(f"unsupported gold value {type(gold).__name__}")


def grade_output(predicted_text: str, gold: object, entry_point: str | None = None,
                 tolerance: FloatTolerance | None = None) -> bool:
    """True if `predicted_text` names the gold output by value (training.values: `==` with
    exact types; a float tolerance only when one is passed).

    `predicted_text` is either the value itself (`[1, 2]`) or, with `entry_point`, a text
    containing `assert entry(...) == value`. `gold` is a typed value or its repr."""
    expected = gold_value(gold)
    try:
        return values_equal(parse_literal(predicted_text), expected, tolerance)
    except NotALiteral:
        pass
    if entry_point is None:
        return False
    found, value = extract_assertion_value(predicted_text, entry_point)
    return found and values_equal(value, expected, tolerance)
