"""Idiom uses of the entries whose target computes a value without changing its receiver
(comparisons, slices, predicates, lookups).

Each nests the target the way the task needs it twice: a membership test against a
collection built by another membership test, a fallback lookup whose default is a second
lookup, a count of the most frequent value, a chained comparison over neighbours, a slice
of a list of slices. Entries with no such use in ordinary code are left to the generic forms:
- the copies ([:] of str, list and tuple; list, dict and set copy; float conjugate) nest
  only as a copy of a copy, which the static rules call a trick;
- the str predicates on spaces and printability (isspace, isascii, isprintable) read the
  data's letters, spaces and commas the same way on every input (a text's words have no
  space, and no data has an accent, a tab or a newline);
- splitlines and expandtabs need newlines and tabs the data never has; encode,
  format_map, maketrans and as_integer_ratio nest only inside themselves;
- dict !=, keys, values, fromkeys and set isdisjoint, issubset, issuperset nest only as
  one collection built from another (`d.keys()` over a dict made from `e.keys()`), or
  compare collections that are equal or disjoint on nearly every input;
- set < (the small readings a proper part of the even ones) had a use, taken out again: in
  the C4-C6 layouts its programs ran past 80 traced lines often enough to lift the batch's
  p90 (80 -> 82 on seed 12).
The predicates on digits and case (isdigit, isdecimal, isnumeric, isupper, islower, istitle)
read a record, a line of mixed-case words, numbers and codes ('Order 12 shipped to Maple
Road'; kind "record", written as a text): at depth 0 the whole line (does it start with its
number, is there a number or a code at an end, exactly one number, a capitalized word), in a
walk each of its words, which both pass and fail them.
Uses marked straight_only are written at C1/C2 only (the generic forms there compare
collections that differ on every input, so their output never changed), and leave the
C3-C6 programs as they were: tuple == and != compare the even/odd pattern of the two ends
(a loop over them, as over set <, ran past 80 traced lines too often at C4-C6),
dict == whether the latest even and odd readings come after the first few, set == (and !=)
whether the even and odd (large and odd) readings fall in the same residues, set > whether the residues (initials)
of all items are more than those of the large (later) ones, float bool() counts or finds
prices, float != keeps the prices between the ends and the steps between unlike prices.
"""

from __future__ import annotations

from workers.pipeline.builtin.idiom_use import Use, _u


def _record_predicate(method: str, first: str, edge: str, one: str) -> tuple[Use, ...]:
    """The three uses of a str predicate over a record's line: the characters it holds for
    lead the line, it holds at one end, exactly one word holds it (the names of each)."""
    m = method
    return (
        _u(f"{{w}}[:sum(ch.{m}() for ch in {{w}})].{m}()", "bool", "record", names=first),
        _u(f"({{w}}[:2] if {{w}}[:2].{m}() else {{w}}[-2:]).{m}()", "bool", "record", calls=False, names=edge),
        _u(f"' '.join(word for word in {{w}}.split() if word.{m}()).{m}()", "bool", "record", names=one),
    )

VALUE_USES: dict[tuple[str, str], tuple[Use, ...]] = {
    # --- str -------------------------------------------------------------------------
    ("str", "in"): (
        _u("{x} in [w for w in {xs} if w[-1] in 'aeiou']", "bool", "words", calls=False,
           names="ends_in_vowel check_tag"),
        _u("{x}.lower() in [w.lower() for w in {xs} if w[-1:] in 'aeiou']", "bool", "words",
           names="listed_any_case check_tag"),
    ),
    ("str", "not in"): (
        _u("{x} not in [w for w in {xs} if w[-1] not in 'aeiou']", "bool", "words", calls=False,
           names="not_consonant_end check_tag"),
        _u("{x}.strip().lower() not in {{w.lower() for w in {xs} if w[:1] not in 'aeiou'}}", "bool", "words",
           names="not_listed_any_case check_tag"),
    ),
    ("str", "=="): (
        _u("sum(1 for a, b in zip({w}, {w}[1:]) if a == b) == 0", "bool", "text",
           names="no_doubled_letters check_spelling"),
        _u("{{w: sum(1 for a, b in zip(w, w[1:]) if a == b) == 0 for w in {xs}}}", "dict", "words",
           names="doubles_by_word check_spelling"),
    ),
    ("str", "!="): (
        _u("''.join(b for a, b, c in zip({w}, {w}[1:], {w}[2:]) if a != b != c)", "str", "text",
           names="unlike_neighbours squeeze_text"),
        _u("[w for w in {xs} if w[0] != w[-1] != {x}[-1]]", "list", "words", calls=False,
           names="open_words pick_labels"),
    ),
    ("str", "[i:j]"): (
        _u("[{w}[j:j + {k}] for j in range(0, len({w}), {k})][1:-1]", "list", "text",
           names="inner_chunks split_blocks"),
        _u("{w}[{k}:{k} + len({w}[{k}:-{k}]) // 2]", "str", "text", names="middle_half trim_text"),
        _u("[w[1:-1] for w in {xs}][1:-1]", "list", "words", calls=False, names="inner_letters trim_words"),
    ),
    ("str", "[i:]"): (
        _u("{w}[{w}[{k}:].find({s}) + {k}:]", "str", "text", names="from_mark tail_text"),
        _u("[word[1:] for word in {w}.split()][1:]", "list", "text", names="later_word_tails tail_words"),
        _u("[w[1:] for w in {xs}][1:]", "list", "words", calls=False, names="later_word_tails tail_words"),
    ),
    ("str", "[:j]"): (
        _u("[w[:{k}] for w in {xs}][:{k}]", "list", "words", calls=False, names="short_labels abbreviate"),
        _u("{w}[:{w}[:-1].rfind(' ')]", "str", "text", names="drop_last_word head_text"),
    ),
    ("str", "index"): (
        _u("({w} + '  ').index(' ', ({w} + '  ').index(' ') + 1)", "int", "text", calls=False,
           names="second_gap end_of_two_words"),
    ),
    ("str", "rindex"): (
        _u("('  ' + {w}).rindex(' ', 0, ('  ' + {w}).rindex(' '))", "int", "text", calls=False,
           names="second_last_gap start_of_last_two"),
    ),
    ("str", "count"): (
        _u("max({w}.split(), key=lambda word: word.count({s})).count({s})", "int", "text",
           names="most_letter richest_word"),
    ),
    ("str", "startswith"): (
        _u("({w}[1:] if {w}.startswith(' ') else {w}).startswith({s})", "bool", "text", calls=False,
           names="starts_with_letter check_prefix"),
        _u("[part for part in {w}.split(',') if (part[1:] if part.startswith(' ') else part).startswith({s})]",
           "list", "text", names="fields_starting pick_fields"),
    ),
    ("str", "endswith"): (
        _u("({w}[:-1] if {w}.endswith(',') else {w}).endswith({s})", "bool", "text", calls=False,
           names="ends_with_letter check_suffix"),
        _u("[part for part in {w}.split(' ') if (part[:-1] if part.endswith(',') else part).endswith({s})]",
           "list", "text", names="words_ending pick_words"),
    ),
    ("str", "isalpha"): (
        _u("{w}[:sum(ch.isalpha() for ch in {w})].isalpha()", "bool", "text",
           names="letters_first check_word"),
        _u("(''.join({w}.split()) if not {w}.isalpha() else {w}).isalpha()", "bool", "text",
           names="letters_once_joined check_word"),
    ),
    ("str", "isalnum"): (
        _u("{w}[:sum(ch.isalnum() for ch in {w})].isalnum()", "bool", "text",
           names="letters_first check_word"),
        _u("(''.join({w}.split()) if not {w}.isalnum() else {w}).isalnum()", "bool", "text",
           names="plain_once_joined check_word"),
    ),
    ("str", "isidentifier"): (
        _u("('_'.join({w}.split()) if not {w}.isidentifier() else {w}).isidentifier()", "bool", "text",
           names="usable_as_name check_key"),
    ),
    ("str", "translate"): (
        _u("{w}.translate(str.maketrans('', '', 'aeiou')).translate(str.maketrans(' ,', '_-'))", "str", "text",
           names="build_slug squeeze_text"),
    ),
    # the predicates on digits and case read a record ('Order 12 shipped to Maple Road'):
    # a whole line at depth 0, each of its words in a walk
    ("str", "isdigit"): _record_predicate("isdigit", "number_first starts_with_number",
                                          "number_at_an_end quantity_at_edge", "one_number single_quantity"),
    ("str", "isdecimal"): _record_predicate("isdecimal", "number_first leads_with_amount",
                                            "amount_at_an_end figure_at_edge", "one_amount single_number"),
    ("str", "isnumeric"): _record_predicate("isnumeric", "number_first leads_with_count",
                                            "count_at_an_end number_at_edge", "one_count single_figure"),
    ("str", "isupper"): _record_predicate("isupper", "capitals_first starts_capitalized",
                                          "code_at_an_end capitals_at_edge", "has_code mentions_acronym"),
    ("str", "islower"): _record_predicate("islower", "lowercase_first starts_plain",
                                          "plain_at_an_end lowercase_at_edge", "has_plain_word mentions_verb"),
    ("str", "istitle"): (
        _u("' '.join(word for word in {w}.split() if word.istitle()).istitle()", "bool", "record",
           names="has_name mentions_place"),
        _u("({w}.capitalize() if not {w}.istitle() else {w}).istitle()", "bool", "record",
           names="titled_once_capitalized check_heading"),
    ),
    # --- tuple -----------------------------------------------------------------------
    ("tuple", "[i:j]"): (
        _u("tuple(tuple({xs}[j:j + {k}]) for j in range(0, len({xs}), {k}))[1:-1]", "tuple", "ints",
           names="inner_chunks split_batches"),
    ),
    ("tuple", "[i:]"): (
        _u("tuple(sum({xs}[j:]) for j in range(len({xs})))[{k}:]", "tuple", "ints prices",
           names="suffix_totals remaining_totals"),
    ),
    ("tuple", "[:j]"): (
        _u("tuple(sum({xs}[:j]) for j in range(1, len({xs}) + 1))[:{k}]", "tuple", "ints prices",
           names="first_running_totals prefix_sums"),
    ),
    ("tuple", "not in"): (
        _u("{x} not in tuple(v for v in {xs} if v not in {xs}[:{k}])", "bool", "ints words",
           names="only_early check_dims"),
    ),
    ("tuple", "=="): (
        _u("({xs}[0] % 2 == 0, {xs}[1] % 2 == 0) == ({xs}[-2] % 2 == 0, {xs}[-1] % 2 == 0)", "bool", "ints",
           calls=False, names="same_parity_pattern check_ends", straight_only=True),
        _u("tuple(v % 3 == 0 for v in {xs}[:2]) == tuple(v % 3 == 0 for v in {xs}[-2:])", "bool", "ints",
           names="same_multiple_pattern check_ends", straight_only=True),
    ),
    ("tuple", "!="): (
        _u("({xs}[0] % 2 != 0, {xs}[1] % 2 != 0) != ({xs}[-2] % 2 != 0, {xs}[-1] % 2 != 0)", "bool", "ints",
           calls=False, names="parity_pattern_changes check_ends", straight_only=True),
        _u("tuple(v % 3 != 0 for v in {xs}[:2]) != tuple(v % 3 != 0 for v in {xs}[-2:])", "bool", "ints",
           names="multiple_pattern_changes check_ends", straight_only=True),
    ),
    ("tuple", "*"): (
        _u("(0,) * ({k} * len({xs}))", "tuple", "ints", names="blank_record make_buffer"),
    ),
    ("tuple", "count"): (
        _u("tuple({xs}).count(max({xs}, key=lambda v: tuple({xs}).count(v)))", "int", "ints words",
           names="mode_count most_common"),
    ),
    ("tuple", "index"): (
        _u("tuple({xs}).index(max(tuple({xs})[tuple({xs}).index(min({xs})):]))", "int", "ints prices",
           names="peak_after_low best_sell_day"),
        _u("tuple({xs}).index(min(tuple({xs})[tuple({xs}).index(max({xs})):]))", "int", "ints prices",
           names="low_after_peak worst_drop_day"),
    ),
    # --- float -----------------------------------------------------------------------
    ("float", "%"): (
        _u("round(sum(p % 1 for p in {xs}) % 1, 2)", "float", "prices", names="leftover_cents total_change"),
        _u("round(math.fsum(p % 1 for p in {xs}) % 1, 2)", "float", "prices", names="leftover_cents total_change"),
    ),
    ("float", "!="): (
        _u("[p for p in {xs} if {lo} != p != {x}]", "list", "prices", calls=False,
           names="other_prices drop_marks"),
        _u("[p for p in {xs} if round(p) != p != {x}]", "list", "prices", names="uneven_prices drop_marks"),
        _u("[p for p in {xs} if {xs}[0] != p != {xs}[-1]]", "list", "prices", calls=False,
           names="inner_prices drop_ends", straight_only=True),
        _u("[round(b - a, 2) for a, b in zip({xs}, {xs}[1:]) if a != b != {x}]", "list", "prices",
           names="price_changes find_changes", straight_only=True),
    ),
    ("float", "bool()"): (
        _u("bool([p for p in {xs} if bool(p % 1) and p > {x}][{k}:])", "bool", "prices", calls=False,
           names="many_above_cap check_prices", straight_only=True),
        _u("bool([p for p in {xs} if bool(p // 1 % 2)][{k}:])", "bool", "prices", calls=False,
           names="many_odd_dollars check_prices", straight_only=True),
        _u("bool(sum(1 for p in {xs} if bool(round(p) % 2)) % 2)", "bool", "prices",
           names="odd_count_of_odd_dollars check_prices", straight_only=True),
    ),
    ("float", "is_integer"): (
        _u("(sum(p for p in {xs} if p.is_integer()) / {k}).is_integer()", "bool", "prices",
           names="whole_split_evenly check_shares"),
    ),
    # --- list ------------------------------------------------------------------------
    ("list", "[i:j]"): (
        _u("[{xs}[j:j + {k}] for j in range(0, len({xs}), {k})][1:-1]", "list", "ints words",
           names="inner_chunks split_batches"),
        _u("[w[1:-1] for w in {xs}][1:-1]", "list", "words", calls=False, names="inner_letters trim_words"),
    ),
    ("list", "[i:]"): (
        _u("[sum({xs}[j:]) for j in range(len({xs}))][{k}:]", "list", "ints prices",
           names="suffix_totals remaining_totals"),
    ),
    ("list", "[:j]"): (
        _u("[sum({xs}[:j]) for j in range(1, len({xs}) + 1)][:{k}]", "list", "ints prices",
           names="first_running_totals prefix_sums"),
        _u("[w[:{k}] for w in {xs}][:{k}]", "list", "words", calls=False, names="short_labels abbreviate"),
    ),
    ("list", "not in"): (
        _u("{x} not in [v for v in {xs} if v not in {xs}[:{k}]]", "bool", "ints words", calls=False,
           names="only_early seen_before"),
    ),
    ("list", "=="): (
        _u("{xs}[0] % 2 == {xs}[-1] % 2 == 0", "bool", "ints", calls=False, names="ends_even check_ends"),
        _u("[a + b for a, b in zip({xs}, {xs}[1:]) if a % {k} == b % {k} == 0]", "list", "ints",
           names="paired_multiples find_pairs"),
    ),
    ("list", "!="): (
        _u("[v for v in {xs} if {xs}[0] != v != {xs}[-1]]", "list", "ints words", calls=False,
           names="drop_ends inner_values"),
        _u("[b for a, b, c in zip({xs}, {xs}[1:], {xs}[2:]) if a != b != c]", "list", "ints words",
           names="unlike_neighbours find_changes"),
    ),
    ("list", "count"): (
        _u("{xs}.count(max({xs}, key=lambda v: {xs}.count(v)))", "int", "ints words",
           names="mode_count most_common"),
    ),
    ("list", "index"): (
        _u("{xs}.index(max({xs}[{xs}.index(min({xs})):]))", "int", "ints prices",
           names="peak_after_low best_sell_day"),
        _u("{xs}.index(min({xs}[{xs}.index(max({xs})):]))", "int", "ints prices", names="low_after_peak worst_drop_day"),
    ),
    ("list", "reversed()"): (
        _u("[*reversed([v for v in reversed({xs}) if v > {n}][:{k}])]", "list", "ints", calls=False,
           names="last_above recent_highs"),
        _u("[*reversed([''.join(reversed(w)) for w in {xs} if len(w) > {k}])]", "list", "words",
           names="mirror_long_words flip_list"),
    ),
    # --- dict ------------------------------------------------------------------------
    ("dict", "not in"): (
        _u("{x}[0] not in {{w[0]: w for w in {xs} if w[-1] not in 'aeiou'}}", "bool", "words", calls=False,
           names="no_such_initial check_stock"),
        _u("{s} not in {{word[0]: word for word in {w}.split() if word[-1] not in 'aeiou'}}", "bool", "text",
           names="no_such_initial check_stock"),
    ),
    ("dict", "|"): (
        _u("{{w: 0 for w in {ys}}} | {{w: len(w) for w in {xs}}} | {{{x}: -1}}", "dict", "words",
           names="merge_defaults build_index"),
        _u("{{'low': min({xs}), 'high': max({xs})}} | {{'first': {xs}[0], 'last': {xs}[-1]}} | {{'limit': {n}}}",
           "dict", "ints prices", names="summary_record describe_readings"),
    ),
    ("dict", "get"): (
        _u("{{w[0]: w for w in {xs}}}.get({x}[:1], {{w[-1]: w for w in {xs}}}.get({x}[-1:], {x}))", "str",
           "words", calls=False, names="find_partner lookup_word"),
        _u("{{word[0]: word for word in {w}.split()}}.get({s}, {{word[-1]: word for word in {w}.split()}}.get({s}, ''))",
           "str", "text", names="word_for_letter lookup_word"),
    ),
    ("dict", "items"): (
        _u("sorted({{n: w for w, n in {{w: len(w) for w in {xs}}}.items()}}.items())", "list", "words",
           names="one_word_per_length group_sizes"),
    ),
    ("dict", "=="): (
        _u("{{v % 2 == 0: v for v in {xs}}} == {{v % 2 == 0: v for v in {xs}[{k}:]}}", "bool", "ints",
           calls=False, names="latest_kinds_recent check_latest", straight_only=True),
        _u("{{v % {k} == 0: v for v in {xs}}} == {{v % {k} == 0: v for v in {xs}[-{k}:]}}", "bool", "ints",
           calls=False, names="latest_multiples_recent check_latest", straight_only=True),
        _u("{{round(p) % 2 == 0: p for p in {xs}}} == {{round(p) % 2 == 0: p for p in {xs}[{k}:]}}", "bool",
           "prices", names="latest_kinds_recent check_latest", straight_only=True),
    ),
    # --- set -------------------------------------------------------------------------
    ("set", "=="): (
        _u("{{v % 3 for v in {xs} if v % 2 == 0}} == {{v % 3 for v in {xs} if v % 2 == 1}}", "bool", "ints",
           calls=False, names="same_residues_by_parity check_groups", straight_only=True),
        _u("{{v % 3 for v in {xs} if v > {n}}} == {{v % 3 for v in {xs} if v % 2 == 0}}", "bool", "ints",
           calls=False, names="same_residues_large_even check_groups", straight_only=True),
        _u("{{v % 2 for v in {xs}[::2]}} == {{v % 2 for v in {xs}[1::2]}} == {{0, 1}}", "bool", "ints",
           calls=False, names="mixed_alternate_slots check_groups", straight_only=True),
    ),
    ("set", "!="): (
        _u("{{v % 3 for v in {xs} if v % 2 == 0}} != {{v % 3 for v in {xs} if v % 2 != 0}}", "bool", "ints",
           calls=False, names="residues_differ_by_parity check_groups", straight_only=True),
        _u("{{v % 3 for v in {xs} if v > {n}}} != {{v % 3 for v in {xs} if v % 2 != 0}}", "bool", "ints",
           calls=False, names="residues_differ_large_odd check_groups", straight_only=True),
    ),
    ("set", "<="): (
        _u("{{v for v in {xs} if v <= {n}}} <= {{v for v in {xs} if v % 2 == 0}}", "bool", "ints", calls=False,
           names="small_all_even check_groups"),
    ),
    ("set", ">="): (
        _u("{{v for v in {xs} if v % 2 == 0}} >= {{v for v in {xs} if v >= {n}}}", "bool", "ints", calls=False,
           names="even_cover_large check_groups"),
    ),
    ("set", ">"): (
        _u("{{v for v in {xs} if v % 2 == 0}} > {{v for v in {xs} if v > {n}}}", "bool", "ints", calls=False,
           names="even_beyond_large check_groups"),
        _u("{{v % {k} for v in {xs}}} > {{v % {k} for v in {xs} if v > {n}}}", "bool", "ints", calls=False,
           names="residues_beyond_large check_groups", straight_only=True),
        _u("{{w[0] for w in {xs}}} > {{w[0] for w in {xs} if w > {x}}}", "bool", "words", calls=False,
           names="initials_beyond_later check_groups", straight_only=True),
    ),
    # proper subsets in a chain: the large values miss a residue the others have, and some
    # residue of 3 is missing altogether
    ("set", "<"): (
        _u("{{v % 3 for v in {xs} if v > {n}}} < {{v % 3 for v in {xs}}} < {{0, 1, 2}}", "bool", "ints", calls=False,
           names="residues_missed_by_large check_groups"),
    ),
}
