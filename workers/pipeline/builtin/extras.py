"""Glue (derived values that add variety without calls at C1) and "other method" steps."""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p

# type -> [(call names used, template, result type)]; "" names: call-free glue
_GLUE: dict[str, list[tuple[str, str, str]]] = {
    "str": [("", "{r} + {lit}", "str"), ("", "{lit} + {r}", "str"), ("", "{r}[{i}:]", "str"),
            ("", "{r}[::-1]", "str"), ("", "{r} * 2", "str"), ("strip", "{r}.strip()", "str"),
            ("", "{r}[{i}:{j}]", "str"), ("", "{lit} + {r} + {lit}", "str"),
            ("", "{r}[::2]", "str"),
            ("lower", "{r}.lower()", "str")],
    "list": [("", "{r} + [{i}]", "list"), ("", "[{i}] + {r}", "list"), ("", "{r}[1:]", "list"),
             ("", "{r}[::-1]", "list"), ("sorted", "sorted({r})", "list"),
             ("", "{r} + [{i}, {j}]", "list"), ("", "{r}[{i}:]", "list"), ("", "{r} * 2", "list"),
             ("", "[{i}] * 2 + {r}", "list"), ("", "{r}[::2]", "list")],
    "tuple": [("", "{r} + ({i},)", "tuple"), ("", "{r}[::-1]", "tuple"), ("", "{r}[1:]", "tuple"),
              ("", "({i}, {j}) + {r}", "tuple"), ("", "{r}[{i}:]", "tuple"), ("", "{r} * 2", "tuple"),
              ("tuple sorted", "tuple(sorted({r}))", "tuple")],
    "set": [("", "{r} | {{{i}}}", "set"), ("", "{r} - {{{i}}}", "set"),
            ("", "{{{i}, {j}}} | {r}", "set"), ("", "{r} ^ {{{i}}}", "set"),
            ("", "{r} - {{{i}, {j}}}", "set"), ("", "{r} | {{{i}, {j}}}", "set")],
    "dict": [("", "{r} | {{{key}: {i}}}", "dict"), ("", "{{{key}: {i}}} | {r}", "dict"),
             ("dict", "dict({r})", "dict"), ("", "{r} | {{{key}: {i}, {key}: {j}}}", "dict")],
    "float": [("", "{r} + {f}", "float"), ("", "{r} * {f}", "float"), ("", "-{r}", "float"),
              ("", "{r} / 2", "float"), ("abs", "abs({r})", "float"), ("", "{r} - {f}", "float"),
              ("", "{r} // {f}", "float"), ("", "{i} - {r}", "float")],
    "int": [("", "{r} + {i}", "int"), ("", "{r} * 2", "int"), ("", "{r} % 7 + 1", "int"),
            ("abs", "abs({r})", "int"), ("", "{r} - {i}", "int"), ("", "{r} // 2 + {i}", "int")],
}

_OTHER: dict[str, list[tuple[str, str, str]]] = {
    "str": [("upper", "{r}.upper()", "str"), ("lower", "{r}.lower()", "str"),
            ("strip", "{r}.strip()", "str"), ("title", "{r}.title()", "str"),
            ("len", "len({r})", "int"), ("replace", "{r}.replace('a', 'o')", "str"),
            ("sorted", "sorted({r})", "list_str"), ("count", "{r}.count('a')", "int"),
            ("startswith", "{r}.startswith({lit})", "bool"), ("isdigit", "{r}.isdigit()", "bool"),
            ("split", "{r}.split()", "list_str"), ("swapcase", "{r}.swapcase()", "str")],
    "list": [("len", "len({r})", "int"), ("sorted", "sorted({r})", "list"),
             ("sum", "sum({r})", "int"), ("max", "max({r} + [0])", "int"),
             ("min", "min({r} + [9])", "int"), ("count", "{r}.count({i})", "int"),
             ("copy", "{r}.copy()", "list"), ("list reversed", "list(reversed({r}))", "list")],
    "tuple": [("len", "len({r})", "int"), ("sorted", "sorted({r})", "list"),
              ("sum", "sum({r})", "int"), ("count", "{r}.count({i})", "int"),
              ("list", "list({r})", "list")],
    "set": [("len", "len({r})", "int"), ("sorted", "sorted({r})", "list"),
            ("sum", "sum({r})", "int"), ("max", "max({r} | {{0}})", "int"),
            ("union", "{r}.union({{{i}, {j}}})", "set"), ("copy", "{r}.copy()", "set"),
            ("issubset", "{r}.issubset({{{i}, {j}}})", "bool")],
    "dict": [("len", "len({r})", "int"), ("sorted", "sorted({r})", "list_str"),
             ("list values", "list({r}.values())", "list"),
             ("sum values", "sum({r}.values())", "int"), ("get", "{r}.get({key}, 0)", "int"),
             ("list keys", "list({r}.keys())", "list_str"), ("copy", "{r}.copy()", "dict")],
    "float": [("abs", "abs({r})", "float"), ("round", "round({r}, 1)", "float"),
              ("str", "str({r})", "str"), ("max", "max({r}, {f})", "float"),
              ("min", "min({r}, {f})", "float"), ("int", "int({r})", "int")],
    "int": [("abs", "abs({r})", "int"), ("str", "str({r})", "str"), ("max", "max({r}, {i})", "int"),
            ("min", "min({r}, {i})", "int"), ("bin", "bin({r})", "str"), ("pow", "pow({r}, 2)", "int")],
}
_OTHER["list_str"] = [("len", "len({r})", "int"), ("sorted", "sorted({r})", "list_str")]
_OTHER["bool"] = [("int", "int({r})", "int"), ("str", "str({r})", "str")]


def _fill(g: Ctx, template: str, r: str) -> str:
    small = g.int_(1, 2)
    template = template.replace("[{i}:", "[{small}:").replace(":{j}]", ":-{small}]")
    return template.format(r=p(r) if "{r}." in template or "{r}[" in template else r, small=small,
                           lit=g.lit("str"), i=g.int_(1, 9), j=g.int_(0, 9), key=g.key(),
                           f=g.choice(("0.5", "1.5", "2.0", "3.25", "0.1", "4.75", "2.5")))


def glue(g: Ctx, t: str, r: str, banned: set[str]) -> str | None:
    options = [o for o in _GLUE.get(t, []) if (o[0] == "" or g.allow_calls)
               and not banned & set(o[0].split())]
    if not options:
        return None
    return _fill(g, g.choice(options)[1], r)


def other_step(g: Ctx, t: str, r: str, banned: set[str]) -> tuple[str, str] | None:
    options = [o for o in _OTHER.get(t, []) if not banned & set(o[0].split())]
    if not options:
        return None
    _, template, rtype = g.choice(options)
    return _fill(g, template, r), rtype
