"""Uses of the dict entries on a mapping the program is given (`stock`: a count per name,
`{'apple': 4, 'river': 0, 'stone': 7}`), as such code reads: a name looked up with a
fallback, the names over a limit most first, the initials of the names, the count of the
first name, a shopping list checked against the shelf. Each nests the target in itself, as
the levels ask (a lookup whose default is another lookup).

Placeholders (beside those of idiom_uses): {xs} the mapping, {key} a name (the one a
mapping walk is at, else a parameter that is one of the call's own names or another
word), {ys} a list of names.
"""

from __future__ import annotations

from workers.pipeline.builtin.idiom_use import Use, _u

MAPPING_USES: dict[tuple[str, str], tuple[Use, ...]] = {
    ("dict", "get"): (
        _u("{xs}.get({key}, {xs}.get({key}.lower(), 0))", "int", "stock", names="count_of lookup_count"),
        _u("{xs}.get({key}, {xs}.get('other', 0))", "int", "stock", calls=False,
           names="count_or_other lookup_with_default"),
        _u("sum({xs}.get(name, {xs}.get(name.rstrip('s'), 0)) for name in {ys})", "int", "stock",
           names="order_size basket_total"),
    ),
    ("dict", "items"): (
        _u("sorted({{name: count for name, count in {xs}.items() if count > {k}}}.items(), key=lambda kv: kv[1], "
           "reverse=True)", "list", "stock", names="best_sellers top_counts"),
        _u("list({{name: count for name, count in {xs}.items() if count}}.items())[:{k}]", "list", "stock",
           names="first_in_stock stocked_entries"),
    ),
    ("dict", "keys"): (
        _u("sorted({{name[0]: name for name in {xs}.keys()}}.keys())", "list", "stock",
           names="name_initials list_initials"),
        _u("len({{len(name): name for name in {xs}.keys()}}.keys())", "int", "stock",
           names="count_name_lengths name_sizes"),
    ),
    ("dict", "values"): (
        _u("sum({{count: count for count in {xs}.values()}}.values())", "int", "stock",
           names="sum_distinct distinct_total"),
    ),
    ("dict", "in"): (
        _u("{key} in [name for name in {ys} if name in {xs}]", "bool", "stock", calls=False,
           names="is_listed_and_stocked on_both"),
    ),
    ("dict", "d[k]"): (
        _u("{xs}[sorted({xs})[0]]", "int", "stock", names="first_name_count count_of_first"),
        _u("{xs}[sorted({xs}, key=len)[-1]] - {xs}[sorted({xs})[0]]", "int", "stock",
           names="compare_ends longest_minus_first"),
    ),
    ("dict", "len()"): (
        _u("len({{len(name) for name in {xs}}})", "int", "stock", calls=False, names="count_name_lengths name_sizes"),
        _u("len([name for name in {xs} if len(name) > {k} + 2])", "int", "stock", calls=False,
           names="count_long_names long_names"),
    ),
    ("dict", "=="): (
        _u("{xs} == {{name: count for name, count in {xs}.items() if count == max({xs}.values())}}", "bool",
           "stock", names="all_level same_counts"),
    ),
    ("dict", "!="): (
        _u("{xs} != {{name: count for name, count in {xs}.items() if count != 0}}", "bool", "stock",
           names="any_sold_out has_empty_shelf"),
    ),
    ("dict", "|"): (
        _u("dict.fromkeys({ys}, 0) | {xs} | {{{key}: {xs}.get({key}, 0) + {k}}}", "dict", "stock",
           names="restock_one with_defaults"),
    ),
}
