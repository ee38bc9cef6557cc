"""Teacher completion -> program (functions + imports), entry name and argument text.

A completion that breaks the prompt's hard rules is not repaired: it is rejected with one
machine-readable reason (REASONS) plus a human detail, and the raw text travels with the
rejection so it can be stored and audited. Everything is decided on the `ast` (and on
`tokenize` for comments), never by substring search.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

REASONS = (
    "no_code_block",          # no fenced block in the answer (after any </think>)
    "syntax_error",           # the block does not parse
    "has_comments",           # a `#` comment token
    "no_function",            # no module-level def
    "no_print_call",          # no print(...) anywhere
    "several_prints",         # more than one print(...) call
    "print_not_top_level",    # the print is inside a function, loop or branch
    "bad_print_call",         # print with keywords or not exactly one argument
    "print_not_calling_entry",  # print's argument is not a call of a module-level def
    "default_args",           # a parameter default value in some def
    "function_without_args",  # a def with no parameters
    "module_statements",      # module-level code other than imports, defs and the print
)

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_CODE_TAGS = {"", "python", "py", "python3"}


@dataclass(frozen=True)
class ParsedProgram:
    code: str  # imports + functions, the print statement removed, original text kept
    entry_point: str
    args: str  # the exact text between the parentheses of the entry call
    imports: tuple[str, ...]  # source of each module-level import statement
    raw: str = ""


@dataclass(frozen=True)
class ParseRejection:
    reason: str  # one of REASONS
    detail: str
    raw: str = ""


def extract_code_block(text: str) -> str | None:
    """The last python (or untagged) fenced block after the last `</think>`."""
    answer = text.rsplit("</think>", 1)[-1]
    blocks = [body for tag, body in _FENCE.findall(answer) if tag.lower() in _CODE_TAGS]
    return blocks[-1] if blocks else None


def _has_comment(code: str) -> bool:
    if "#" not in code:  # the usual case, without tokenizing
        return False
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return any(tok.type == tokenize.COMMENT for tok in tokens)


def _is_main_guard(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and not node.orelse)  # type: ignore[union-attr]


def _print_calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id == "print"]


def _args_text(code: str, call: ast.Call) -> str:
    segment = ast.get_source_segment(code, call) or ""
    func_text = ast.get_source_segment(code, call.func) or ""
    inner = segment[len(func_text):].strip()
    return inner[1:-1].strip()


def _check_defs(tree: ast.Module) -> ParseRejection | None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            if a.defaults or any(d is not None for d in a.kw_defaults):
                return ParseRejection("default_args", f"def {node.name} has default values")
            if not (a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg):
                return ParseRejection("function_without_args", f"def {node.name} takes no argument")
    return None


def parse_completion(text: str) -> ParsedProgram | ParseRejection:
    """Split a completion into program parts, or say which hard rule it broke."""
    result = _parse(text)
    if isinstance(result, ParseRejection):
        return ParseRejection(result.reason, result.detail, text)
    return ParsedProgram(result.code, result.entry_point, result.args, result.imports, text)


def _parse(text: str) -> ParsedProgram | ParseRejection:
    block = extract_code_block(text)
    if block is None:
        return ParseRejection("no_code_block", "no ```python block in the answer")
    code = block.strip("\n")
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return ParseRejection("syntax_error", f"line {exc.lineno}: {exc.msg}")
    if _has_comment(code):
        return ParseRejection("has_comments", "the code contains # comments")
    defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if not defs:
        return ParseRejection("no_function", "no module-level function definition")
    prints = _print_calls(tree)
    if not prints:
        return ParseRejection("no_print_call", "no print(...) call")
    if len(prints) > 1:
        return ParseRejection("several_prints", f"{len(prints)} print(...) calls")
    call = prints[0]
    holder = _top_level_holder(tree, call)
    if holder is None:
        return ParseRejection("print_not_top_level", "print(...) is not a module-level statement")
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
        return ParseRejection("bad_print_call", "print(...) must have exactly one argument")
    inner = call.args[0]
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
            and inner.func.id in defs):
        return ParseRejection("print_not_calling_entry",
                              "print's argument is not a call of a function defined here")
    bad = _check_defs(tree)
    if bad is not None:
        return bad
    others = [n for n in tree.body if n is not holder and not isinstance(
        n, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef))
        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if others:
        return ParseRejection("module_statements",
                              f"module-level statement at line {others[0].lineno}")
    imports = tuple(ast.get_source_segment(code, n) or "" for n in tree.body
                    if isinstance(n, (ast.Import, ast.ImportFrom)))
    lines = code.splitlines()
    kept = lines[:holder.lineno - 1] + lines[holder.end_lineno or holder.lineno:]
    program = "\n".join(kept).rstrip() + "\n"
    return ParsedProgram(program, inner.func.id, _args_text(code, inner), imports)


def _top_level_holder(tree: ast.Module, call: ast.Call) -> ast.stmt | None:
    """The module-level statement that is the print (directly or in a __main__ guard)."""
    for node in tree.body:
        if isinstance(node, ast.Expr) and node.value is call:
            return node
        if (_is_main_guard(node) and len(node.body) == 1  # type: ignore[attr-defined]
                and isinstance(node.body[0], ast.Expr)  # type: ignore[attr-defined]
                and node.body[0].value is call):  # type: ignore[attr-defined]
            return node
    return None
