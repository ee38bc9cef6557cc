"""The grid: catalog derived from the interpreter, config extension, levels and selection."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest

from workers.pipeline.constraints import (
    LEVELS, CatalogError, LevelError, SelectionError, load_catalog, parse_knobs, select,
)
from workers.pipeline.records import Knobs

EXTRA = textwrap.dedent("""
    [types.int]
    operators = ["+", "//"]
    methods = ["bit_length"]
    [types.bytes]
    methods = ["upper", "count"]
    [types.frozenset]
    operators = ["|"]
    methods = ["union"]
    [modules.math]
    functions = ["gcd", "sqrt"]
    [modules.itertools]
    functions = ["accumulate"]
    [modules.collections]
    functions = ["Counter"]
    [modules.re]
    functions = ["findall"]
    [signatures]
    "int.+" = { args = ["int"], returns = "int" }
    "int.//" = { args = ["int"], returns = "int" }
    "int.bit_length" = { args = [], returns = "int" }
    "math.gcd" = { args = ["int", "int"], returns = "int" }
    "math.sqrt" = { args = ["float"], returns = "float" }
""")


def test_builtin_grid_is_the_reference_186_entries() -> None:
    catalog = load_catalog()
    assert len(catalog) == 186
    assert Counter(e.type for e in catalog.entries) == {
        "str": 65, "set": 33, "list": 29, "dict": 19, "tuple": 18, "float": 17,
        "enumerate": 1, "filter": 1, "range": 1, "reversed": 1, "zip": 1}
    assert len({e.key for e in catalog.entries}) == 186


def test_method_entries_exist_on_their_type() -> None:
    import builtins
    methods = [e for e in load_catalog().entries if e.syntax.kind == "method"]
    assert len(methods) == 47 + 17 + 11 + 11 + 2 + 3
    for entry in methods:
        assert callable(getattr(getattr(builtins, entry.type), entry.method)), entry


def test_spellings_classify_to_their_ast_forms() -> None:
    c = load_catalog()
    kinds = {(t, m): c.get(t, m).syntax for t, m in [
        ("str", "[i:j]"), ("str", "len()"), ("str", "str.format"), ("str", "format()"),
        ("set", "|="), ("dict", "d[k] = v"), ("dict", "d[k]"), ("float", "math.ceil()"),
        ("list", "not in"), ("zip", "zip"), ("str", "split")]}
    assert [(s.kind, s.name) for s in kinds.values()] == [
        ("slice", "[i:j]"), ("call", "len"), ("call", "str.format"), ("call", "format"),
        ("augassign", "|"), ("store", "d[k] = v"), ("index", "d[k]"), ("call", "math.ceil"),
        ("compare", "not in"), ("call", "zip"), ("method", "split")]
    # the reference's own spellings are accepted
    assert c.get("str", "[index1:index2]").method == "[i:j]"
    assert c.get("dict", "dict[key] = value").method == "d[k] = v"
    assert c.get("float", "round").method == "round()"


def test_config_file_adds_types_and_modules(tmp_path: Path) -> None:
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA)
    catalog = load_catalog(path)
    assert len(catalog) == 186 + 12
    gcd = catalog.get("math", "gcd")
    assert (gcd.syntax.kind, gcd.syntax.name, gcd.origin) == ("call", "math.gcd", "extra.toml")
    assert gcd.signature is not None and gcd.signature.args == ("int", "int")
    assert catalog.get("int", "//").syntax.kind == "binop"
    assert catalog.get("re", "findall").signature is None


@pytest.mark.parametrize("text, message", [
    ('[types.int]\nmethods = ["no_such"]', "int has no methods"),
    ('[modules.no_such_module_xyz]\nfunctions = ["f"]', "cannot be imported"),
    ('[modules.math]\nfunctions = ["nope"]', "has no callables"),
    ('[types.math]\nmethods = "*"', "not a builtin type"),
    ('[typo]\nx = 1', "unknown sections"),
    ('[types.int]\noperators = ["[i:j"]', "cannot tell which Python form"),
    ('[signatures]\n"int.x" = { args = [], returns = "int" }', "entries not listed"),
    ("[types", "not valid"),
])
def test_bad_config_files_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CatalogError, match=message):
        load_catalog(path)


def test_json_config_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    path.write_text('{"types": {"int": {"methods": ["bit_length"]}}}')
    assert load_catalog(path).get("int", "bit_length").origin == "extra.json"


def test_levels_match_the_method_table() -> None:
    rows = [(k.nested_calls, k.other_methods, k.call_chain, k.control_flow_depth)
            for k in LEVELS.values()]
    assert list(LEVELS) == ["C1", "C2", "C3", "C4", "C5", "C6"]
    assert rows == [(True, False, False, 0), (True, True, False, 0), (True, True, False, 1),
                    (True, True, False, 2), (True, True, False, 3), (True, True, True, 3)]


def test_select_counts_per_level_walks_every_entry_and_draws_blueprints() -> None:
    catalog = load_catalog()
    cells = select(catalog, types=["tuple"], levels=["C1", "C5"], count=20, seed=4)
    assert len(cells) == 40
    assert sorted(c.method for c in cells[:18]) == sorted(
        e.method for e in catalog.entries if e.type == "tuple")  # every method, seeded order
    c5 = [c for c in cells if c.level == "C5"]
    assert all(len(c.knobs.blueprint) == 3 for c in c5)
    assert all(c.knobs.blueprint == () for c in cells if c.level == "C1")
    assert len({c.knobs.blueprint for c in c5}) > 5
    assert cells == select(catalog, types=["tuple"], levels=["C1", "C5"], count=20, seed=4)
    assert cells != select(catalog, types=["tuple"], levels=["C1", "C5"], count=20, seed=5)


def test_select_filters_methods_in_any_spelling() -> None:
    cells = select(load_catalog(), methods=["len", "str.split", "[index]"], count=15)
    assert {(c.type, c.method) for c in cells} == {
        ("str", "len()"), ("set", "len()"), ("list", "len()"), ("dict", "len()"),
        ("tuple", "len()"), ("str", "split"), ("str", "[i]"), ("list", "[i]"), ("tuple", "[i]")}


def test_custom_knobs() -> None:
    knobs = parse_knobs("nested=no, other=yes, chain=1, depth=2, blueprint=for/while")
    assert knobs == Knobs(False, True, True, 2, ("for", "while"))
    (cell,) = select(load_catalog(), types=["str"], methods=["upper"],
                     levels=["custom:depth=1", ], count=1)
    assert (cell.level, cell.knobs.control_flow_depth, len(cell.knobs.blueprint)) == ("custom", 1, 1)
    for bad in ("depth=4", "depth=x", "nested=maybe", "colour=red", "depth=2,blueprint=for"):
        with pytest.raises(LevelError):
            parse_knobs(bad)


def test_bad_selections_are_refused() -> None:
    catalog = load_catalog()
    with pytest.raises(SelectionError, match="unknown types"):
        select(catalog, types=["complex"])
    with pytest.raises(SelectionError, match="no catalog entry"):
        select(catalog, types=["tuple"], methods=["split"])
    with pytest.raises(SelectionError, match="count"):
        select(catalog, count=0)
    with pytest.raises(LevelError, match="unknown level"):
        select(catalog, levels=["C7"])
