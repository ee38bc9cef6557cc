"""The idiom library's target uses: each a nested use of one (type, method) written for
what it means (ranking with `enumerate`, sliding windows with `zip`, two-stage `filter`s,
reversing words and their order, chunk counts with `range`, rounding a total of rounded
prices), as a template over the data the program walks.

Placeholders: {xs} the main sequence, {ys} a second one, {x} the current element, {i} its
index, {n} a limit parameter, {w} a text (the parameter or the current word), {k} and {s}
literals drawn per use. `kinds` says which data a template reads; `calls` whether it calls
anything but the target (C1 allows no other call).
"""

from __future__ import annotations

from workers.pipeline.builtin.idiom_use import Use, _u
from workers.pipeline.builtin.idiom_uses_mutating import MUTATING_USES
from workers.pipeline.builtin.idiom_uses_values import VALUE_USES

_CORE: dict[tuple[str, str], tuple[Use, ...]] = {
    ("enumerate", "enumerate"): (
        _u("[pos for rank, (pos, v) in enumerate(sorted(enumerate({xs}), key=lambda p: p[1])) if rank < {k}]",
           "list", "ints words", names="lowest_positions rank_items"),
        _u("[(n, v) for n, v in enumerate([v for pos, v in enumerate({xs}) if pos % 2 == 0], 1)]",
           "list", "ints words", calls=False, names="number_even_slots label_items"),
        _u("sum(pos * v for pos, v in enumerate([v for j, v in enumerate({xs}) if j != {i}], 1))",
           "int", "ints", names="weighted_total score_positions"),
        _u("sum(pos * v for pos, v in enumerate([v for j, v in enumerate({xs}) if v != {x}], 1))",
           "int", "ints", names="weighted_total score_positions"),
        _u("{{w: n for n, w in enumerate([w for pos, w in enumerate({xs}) if pos % {k} == 0], 1)}}",
           "dict", "words", calls=False, names="index_words number_names"),
        _u("' '.join(f'{{n}}:{{w}}' for n, w in enumerate([w for pos, w in enumerate({xs}) if pos != {i}], 1))",
           "str", "words", names="format_listing label_items"),
        _u("max((v, -pos) for pos, v in enumerate([v for j, v in enumerate({xs}) if j <= {i} + 2]))[1]",
           "int", "ints", names="peak_offset find_peak"),
        _u("[pos - first for pos, (first, v) in enumerate(enumerate({xs}, {k})) if v > {n}]",
           "list", "ints", calls=False, names="shifted_hits offsets_above"),
    ),
    ("zip", "zip"): (
        _u("[a + b + c for (a, b), c in zip(zip({xs}, {xs}[1:]), {xs}[2:])]",
           "list", "ints prices", calls=False, names="window_sums rolling_totals"),
        _u("[b - a for (a, b), c in zip(zip({xs}, {xs}[1:]), {xs}[2:]) if b > max(a, c)]",
           "list", "ints", names="peak_rises find_peaks"),
        _u("{{name: (a, b) for name, (a, b) in zip({ys}, zip({xs}, {xs}[1:]))}}",
           "dict", "ints", calls=False, names="pair_by_name match_records"),
        _u("sum(a * b for (a, b), c in zip(zip({xs}, {xs}[1:]), {xs}[2:]) if c > {x})",
           "int", "ints", names="pair_products weigh_pairs"),
        _u("''.join(a + b for (a, b), c in zip(zip({w}, {w}[1:]), {w}[2:]) if a != c)",
           "str", "text", names="pair_letters squeeze_text"),
        _u("[f'{{a}}-{{b}}' for a, (b, c) in zip({xs}, zip({xs}[1:], {xs}[2:])) if a < b < c]",
           "list", "ints words", names="rising_runs describe_steps"),
        _u("max(abs(b - a) for (a, b), c in zip(zip({xs}, {xs}[1:]), {xs}[2:]))",
           "int", "ints", names="largest_jump max_gap"),
        _u("sum(1 for (a, b), c in zip(zip({xs}, {xs}[1:]), {xs}[2:]) if a < b > c)",
           "int", "ints", names="count_peaks local_maxima"),
        _u("dict(zip({ys}, zip({xs}, {xs}[::-1])))", "dict", "ints", names="pair_ends match_records"),
        _u("[a[0] + b[-1] for a, (b, c) in zip({xs}, zip({xs}[1:], {xs}[2:])) if len(c) > {k}]",
           "list", "words", names="join_neighbours link_words"),
        _u("list(zip(*zip({xs}, {xs}[1:])))", "list", "ints words", names="split_pairs unzip_steps"),
    ),
    ("reversed", "reversed"): (
        _u("' '.join(reversed([''.join(reversed(word)) for word in {w}.split()]))",
           "str", "text", names="mirror_words flip_sentence"),
        _u("list(reversed([''.join(reversed(word)) for word in {xs}]))",
           "list", "words", names="mirror_words reverse_names"),
        _u("list(reversed([int(''.join(reversed(str(v)))) for v in {xs}]))",
           "list", "ints", names="flip_digits mirror_numbers"),
        _u("[*reversed([*reversed({xs}[:{k}])] + {xs}[{k}:])]",
           "list", "ints words", calls=False, names="rotate_items shift_left"),
        _u("next((v for v in reversed([*reversed({xs})][:{i} + 1]) if v > {n}), -1)",
           "int", "ints", names="first_above find_first"),
        _u("[*reversed([v for v in reversed({xs}) if v > {n}])]",
           "list", "ints", calls=False, names="keep_above filter_high"),
        _u("''.join(reversed([ch for ch in reversed({w}) if ch != {s}]))",
           "str", "text", names="drop_letter strip_char"),
    ),
    ("filter", "filter"): (
        _u("list(filter(lambda v: v > {n}, filter(lambda v: v % 2 == 0, {xs})))",
           "list", "ints", names="even_above pick_scores"),
        _u("[*filter(lambda v: v < {x}, filter(lambda v: v % {k} != 0, {xs}))]",
           "list", "ints", calls=False, names="small_odd_values pick_below"),
        _u("sum(filter(lambda v: v < {x}, filter(lambda v: v > 0, {xs})))",
           "int", "ints", names="sum_below total_small"),
        _u("list(filter(str.isalpha, filter(lambda w: len(w) > {k}, {xs})))",
           "list", "words", names="long_words clean_words"),
        _u("[*filter(lambda w: w < {x}, filter(lambda w: w[:1] != {s}, {xs}))]",
           "list", "words", calls=False, names="names_before sort_out"),
        _u("''.join(filter(str.isalnum, filter(lambda ch: ch not in {s}, {w})))",
           "str", "text", names="strip_symbols clean_text"),
        _u("len(list(filter(None, filter(lambda v: v != {x}, {xs}))))",
           "int", "ints", names="count_others count_nonzero"),
        _u("max(filter(lambda v: v < {n}, filter(lambda v: v % 2, {xs})), default=0)",
           "int", "ints", names="largest_odd_below best_under"),
        _u("[*filter(None, filter(lambda w: w != {x}, {xs}))]",
           "list", "words", calls=False, names="drop_name remove_word"),
        _u("len([*filter(lambda ch: ch in 'aeiou', filter(str.isalpha, {w}))])",
           "int", "text", names="count_vowels vowel_total"),
    ),
    ("range", "range"): (
        _u("[sum({xs}[k * {k}:(k + 1) * {k}]) for k in range(len(range(0, len({xs}), {k})))]",
           "list", "ints prices", names="chunk_totals sum_batches"),
        _u("[{xs}[k * {k}] for k in range(len(range(0, len({xs}), {k})))]",
           "list", "ints words", names="batch_heads sample_items"),
        _u("sum(range({k}, len(range(0, {x}, {k})) * {k} + 1, {k}))",
           "int", "ints", names="sum_multiples step_total"),
        _u("[v for v in {xs} if v in range({n}, max(range({n}, {n} + {k} * 4)) + 1)]",
           "list", "ints", names="in_band keep_window"),
        _u("{x} in range({n}, {n} + len(range(0, {x} + 1, {k})))",
           "bool", "ints", names="within_reach check_band"),
    ),
    ("float", "round()"): (
        _u("round(sum(round(p * {r}, 2) for p in {xs}), 1)", "float", "prices",
           names="total_with_tax convert_prices"),
        _u("round(round({x} * {r}, 2) - round({x}, 1), 2)", "float", "prices", calls=False,
           names="rounding_gap tax_delta"),
        _u("round(max(round(p, 1) for p in {xs}) - {x}, 2)", "float", "prices",
           names="distance_to_top price_gap"),
    ),
    ("float", "math.ceil()"): (
        _u("math.ceil(sum(math.ceil(p) for p in {xs}) / {k})", "int", "prices",
           names="boxes_needed count_trips"),
        _u("math.ceil(math.ceil({x} * {r}) / {k})", "int", "prices", names="packs_needed round_up"),
    ),
    ("float", "math.floor()"): (
        _u("math.floor(sum(math.floor(p) for p in {xs}) / {k})", "int", "prices",
           names="whole_units bucket_total"),
        _u("math.floor(math.floor({x} * {r}) / {k})", "int", "prices", names="full_boxes bucket_value"),
    ),
    ("float", "int()"): (
        _u("int(sum(int(p) for p in {xs}) / len({xs}))", "int", "prices",
           names="average_whole mean_units"),
        _u("int(int({x} * 100) / {k})", "int", "prices", calls=False, names="cents_per_share split_cents"),
    ),
    ("float", "divmod()"): (
        _u("divmod(divmod({x} * 60, 60.0)[0], 24.0)", "tuple", "prices", calls=False,
           names="split_hours to_clock"),
    ),
    ("float", "+"): (
        _u("{x} + {x} * {r} + {f}", "float", "prices", calls=False, names="price_with_fees add_tax"),
    ),
    ("float", "-"): (
        _u("{x} - {x} * {r} - {f}", "float", "prices", calls=False, names="apply_discount net_price"),
    ),
    ("float", "<="): (
        _u("[p for p in {xs} if {lo} <= p <= {x}]", "list", "prices", calls=False,
           names="prices_in_range within_budget"),
    ),
    ("float", "<"): (
        _u("[p for p in {xs} if {lo} < p < {x}]", "list", "prices", calls=False,
           names="prices_between cheaper_items"),
    ),
    ("float", ">="): (
        _u("[p for p in {xs} if {x} >= p >= {lo}]", "list", "prices", calls=False,
           names="prices_in_range within_budget"),
    ),
    ("float", ">"): (
        _u("[p for p in {xs} if {x} > p > {lo}]", "list", "prices", calls=False,
           names="prices_between cheaper_items"),
    ),
    ("str", "split"): (
        _u("{w}.split({s})[0].split()", "list", "text", names="first_field head_words"),
        _u("[part.strip() for part in {w}.split(',')[-1].split(' ')]", "list", "text",
           names="last_field tail_words"),
        _u("len({w}.split()[-1].split({s}))", "int", "text", names="count_pieces split_last"),
    ),
    ("str", "join"): (
        _u("', '.join('-'.join(word) for word in {xs})", "str", "words", names="spell_out dash_letters"),
        _u("' '.join(''.join(sorted(word)) for word in {w}.split())", "str", "text",
           names="sort_letters anagram_key"),
        _u("'|'.join(''.join(ch for ch in word if ch not in 'aeiou') for word in {xs})", "str", "words",
           names="drop_vowels squeeze_words"),
    ),
    ("str", "replace"): (
        _u("{w}.replace(' ', '_').replace(',', '')", "str", "text", calls=False, names="build_slug make_key"),
        _u("{w}.replace({s}, '').replace('  ', ' ')", "str", "text", calls=False, names="drop_letter clean_text"),
    ),
    ("str", "strip"): (
        _u("[part.strip().strip('.,') for part in {w}.split(',')]", "list", "text", names="clean_fields trim_parts"),
        _u("{w}.strip().strip({s})", "str", "text", calls=False, names="trim_ends clean_edges"),
    ),
    ("str", "find"): (
        _u("{w}.find({s}, {w}.find({s}) + 1)", "int", "text", calls=False, names="second_match find_again"),
    ),
    ("str", "+"): (
        _u("{w}[:3] + '-' + {w}[-3:]", "str", "text", calls=False, names="short_code make_label"),
        _u("{w}.upper()[:1] + {w}[1:] + '!'", "str", "text", names="shout_name format_name"),
    ),
    ("str", "len()"): (
        _u("len({{len(word) for word in {w}.split()}})", "int", "text", names="length_variety word_sizes"),
        _u("len({w}[len({w}) // 2:])", "int", "text", names="half_length tail_size"),
        _u("len(max({w}.split(), key=len)) - len({w}.split()[0][:len({w}) // 3])", "int", "text",
           names="longest_gap word_spread"),
    ),
    ("list", "+"): (
        _u("{xs}[:{k}] + [{x}] + {xs}[{k}:]", "list", "ints words", calls=False, names="insert_at place_item"),
        _u("{xs}[-{k}:] + {xs}[:-{k}] + [{x}]", "list", "ints", calls=False, names="rotate_right shift_items"),
    ),
    ("list", "len()"): (
        _u("len([v for v in {xs} if v > len({xs}) // 2])", "int", "ints", names="count_large above_half"),
        _u("len({xs}[len({xs}) // 2:])", "int", "ints words", names="half_size count_tail"),
    ),
    ("tuple", "+"): (
        _u("({x},) + tuple({xs}[:{k}]) + (len({xs}),)", "tuple", "ints", names="make_record pack_header"),
    ),
    ("set", "&"): (
        _u("{{v for v in {xs} if v > {n}}} & {{v for v in {xs} if v % 2 == 0}} & {{{x}}}", "set", "ints",
           calls=False, names="both_groups merge_ids"),
        _u("set({xs}[:{k}]) & set({xs}[{k}:]) & set({ys}[:1])", "set", "ints words",
           names="both_halves compare_batches"),
    ),
    ("set", "-"): (
        _u("{{v for v in {xs} if v > {n}}} - {{v for v in {xs} if v % 2 == 0}} - {{{x}}}", "set", "ints",
           calls=False, names="only_first_groups merge_ids"),
        _u("set({xs}[:{k}]) - set({xs}[{k}:]) - set({ys}[:1])", "set", "ints words",
           names="only_first_halves compare_batches"),
    ),
    ("set", "^"): (
        _u("{{v for v in {xs} if v > {n}}} ^ {{v for v in {xs} if v % 2 == 0}} ^ {{{x}}}", "set", "ints",
           calls=False, names="one_side_groups merge_ids"),
        _u("set({xs}[:{k}]) ^ set({xs}[{k}:]) ^ set({ys}[:1])", "set", "ints words",
           names="one_side_halves compare_batches"),
    ),
    ("set", "union"): (
        _u("set({xs}[:{k}]).union({xs}[{k}:]).union([{x}, {n}])", "set", "ints",
           names="union_of_halves merge_ids"),
        _u("{{w[0] for w in {xs}}}.union({{w[-1] for w in {xs}}}.union({w}))", "set", "words",
           names="letter_union check_members"),
    ),
    ("set", "intersection"): (
        _u("set({xs}[:{k}]).intersection({xs}[{k}:]).intersection([{x}, {n}])", "set", "ints",
           names="intersection_of_halves merge_ids"),
        _u("{{w[0] for w in {xs}}}.intersection({{w[-1] for w in {xs}}}.intersection({w}))", "set", "words",
           names="letter_intersection check_members"),
    ),
    ("set", "difference"): (
        _u("set({xs}[:{k}]).difference({xs}[{k}:]).difference([{x}, {n}])", "set", "ints",
           names="difference_of_halves merge_ids"),
        _u("{{w[0] for w in {xs}}}.difference({{w[-1] for w in {xs}}}.difference({w}))", "set", "words",
           names="letter_difference check_members"),
    ),
    ("set", "symmetric_difference"): (
        _u("set({xs}[:{k}]).symmetric_difference({xs}[{k}:]).symmetric_difference([{x}, {n}])", "set", "ints",
           names="symmetric_difference_of_halves merge_ids"),
        _u("{{w[0] for w in {xs}}}.symmetric_difference({{w[-1] for w in {xs}}}.symmetric_difference({w}))", "set", "words",
           names="letter_symmetric_difference check_members"),
    ),
    ("set", "len()"): (
        _u("len({{len(w) for w in {xs}}}) - len({{w[0] for w in {xs}}})", "int", "words",
           names="length_variety distinct_starts"),
        _u("len({{v % len({xs}) for v in {xs}}})", "int", "ints", names="distinct_slots count_buckets"),
    ),
    ("list", "[i]"): (
        _u("{xs}[{xs}[{i}] % len({xs})]", "int", "ints", names="follow_pointer jump_to"),
        _u("{xs}[{xs}[0] % {k}]", "int", "ints", calls=False, names="follow_first hop_once"),
    ),
    ("str", "[i]"): (
        _u("{w}.split()[-1][0] + {w}[0]", "str", "text", names="initials first_last"),
        _u("{w}.split()[{w}.count(' ') // 2][0]", "str", "text", names="middle_initial pick_letter"),
    ),
    ("str", "rfind"): (
        _u("{w}.rfind({s}, 0, max({w}.rfind({s}), 0))", "int", "text", names="second_last_match find_before"),
    ),
    ("str", "partition"): (
        _u("{w}.partition(' ')[2].partition({s})[0]", "str", "text", calls=False, names="middle_field between_marks"),
    ),
    ("str", "rpartition"): (
        _u("{w}.rpartition(' ')[0].rpartition({s})[2]", "str", "text", calls=False, names="before_last tail_field"),
    ),
    ("str", "rsplit"): (
        _u("{w}.rsplit(' ', 1)[0].rsplit({s})", "list", "text", calls=False, names="head_fields split_tail"),
    ),
    ("str", "lstrip"): (
        _u("[part.lstrip({s}).lstrip() for part in {w}.split(',')]", "list", "text", names="trim_fronts clean_fields"),
    ),
    ("str", "rstrip"): (
        _u("[part.rstrip({s}).rstrip() for part in {w}.split(',')]", "list", "text", names="trim_ends clean_fields"),
    ),
    ("str", "removeprefix"): (
        _u("{w}.removeprefix({s}).removeprefix(' ')", "str", "text", calls=False, names="drop_bullet clean_head"),
    ),
    ("str", "removesuffix"): (
        _u("{w}.removesuffix({s}).removesuffix(' ')", "str", "text", calls=False, names="drop_tail clean_end"),
    ),
    ("str", "center"): (
        _u("'|'.join(part.center({k} + 6) for part in {w}.split()).center(30, '-')", "str", "text",
           names="render_row format_cells"),
    ),
    ("str", "ljust"): (
        _u("'|'.join(part.ljust({k} + 6) for part in {w}.split()).ljust(30, '.')", "str", "text",
           names="render_row format_cells"),
    ),
    ("str", "rjust"): (
        _u("'|'.join(part.rjust({k} + 6) for part in {w}.split()).rjust(30, ' ')", "str", "text",
           names="render_row format_cells"),
    ),
    ("str", "capitalize"): (
        _u("'-'.join(part.capitalize() for part in {w}.split()).capitalize()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.capitalize() for word in {xs})[0].capitalize()", "str", "words", names="first_name pick_label"),
    ),
    ("str", "lower"): (
        _u("'-'.join(part.lower() for part in {w}.split()).lower()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.lower() for word in {xs})[0].lower()", "str", "words", names="first_name pick_label"),
    ),
    ("str", "upper"): (
        _u("'-'.join(part.upper() for part in {w}.split()).upper()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.upper() for word in {xs})[0].upper()", "str", "words", names="first_name pick_label"),
    ),
    ("str", "swapcase"): (
        _u("'-'.join(part.swapcase() for part in {w}.split()).swapcase()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.swapcase() for word in {xs})[0].swapcase()", "str", "words", names="first_name pick_label"),
    ),
    ("str", "title"): (
        _u("'-'.join(part.title() for part in {w}.split()).title()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.title() for word in {xs})[0].title()", "str", "words", names="first_name pick_label"),
    ),
    ("str", "casefold"): (
        _u("'-'.join(part.casefold() for part in {w}.split()).casefold()", "str", "text", names="normalize_words build_slug"),
        _u("sorted(word.casefold() for word in {xs})[0].casefold()", "str", "words", names="first_name pick_label"),
    ),
    ("list", "<"): (
        _u("{xs}[:{k}] < {xs}[{k}:{k} * 2] < {xs}[-{k}:]", "bool", "ints words", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("list", "<="): (
        _u("{xs}[:{k}] <= {xs}[{k}:{k} * 2] <= {xs}[-{k}:]", "bool", "ints words", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("list", ">"): (
        _u("{xs}[:{k}] > {xs}[{k}:{k} * 2] > {xs}[-{k}:]", "bool", "ints words", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("list", ">="): (
        _u("{xs}[:{k}] >= {xs}[{k}:{k} * 2] >= {xs}[-{k}:]", "bool", "ints words", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("tuple", "<"): (
        _u("{xs}[:{k}] < {xs}[{k}:{k} * 2] < {xs}[-{k}:]", "bool", "ints", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("tuple", "<="): (
        _u("{xs}[:{k}] <= {xs}[{k}:{k} * 2] <= {xs}[-{k}:]", "bool", "ints", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("tuple", ">"): (
        _u("{xs}[:{k}] > {xs}[{k}:{k} * 2] > {xs}[-{k}:]", "bool", "ints", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("tuple", ">="): (
        _u("{xs}[:{k}] >= {xs}[{k}:{k} * 2] >= {xs}[-{k}:]", "bool", "ints", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("str", "<"): (
        _u("{w}[:{k}] < {w}[{k}:{k} * 2] < {w}[-{k}:]", "bool", "text", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("str", "<="): (
        _u("{w}[:{k}] <= {w}[{k}:{k} * 2] <= {w}[-{k}:]", "bool", "text", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("str", ">"): (
        _u("{w}[:{k}] > {w}[{k}:{k} * 2] > {w}[-{k}:]", "bool", "text", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("str", ">="): (
        _u("{w}[:{k}] >= {w}[{k}:{k} * 2] >= {w}[-{k}:]", "bool", "text", calls=False,
           names="chunks_in_order check_order"),
    ),
    ("list", "in"): (
        _u("{x} in [v for v in {xs} if v in {xs}[{k}:]]", "bool", "ints words", calls=False,
           names="seen_again repeats_later"),
    ),
    ("tuple", "in"): (
        _u("{x} in tuple(v for v in {xs} if v in {xs}[{k}:])", "bool", "ints", names="seen_again check_dims"),
    ),
    ("set", "in"): (
        _u("{x} in {{v for v in {xs} if v in {xs}[{k}:]}}", "bool", "ints", calls=False,
           names="seen_again check_members"),
    ),
    ("set", "not in"): (
        _u("{x} not in {{v for v in {xs} if v not in {xs}[:{k}]}}", "bool", "ints", calls=False,
           names="only_early filter_ids"),
    ),
    ("dict", "in"): (
        _u("{x} in {{w: len(w) for w in {xs} if w[:1] in {s} + 'aeiou'}}", "bool", "words", calls=False,
           names="is_listed check_stock"),
    ),
    ("dict", "d[k]"): (
        _u("{{w: len(w) for w in {xs}}}[{xs}[{k} % len({xs})]]", "int", "words", names="length_of lookup_size"),
        _u("{{w: pos for pos, w in enumerate({xs})}}[{xs}[-1]]", "int", "words", names="last_position index_of"),
    ),
    ("dict", "len()"): (
        _u("len({{w[0]: len(w) for w in {xs}}}) - len({xs}) // 2", "int", "words", names="distinct_initials count_keys"),
    ),
    ("tuple", "[i]"): (
        _u("tuple({xs})[{xs}[0] % len({xs})]", "int", "ints", names="follow_pointer describe_point"),
    ),
    ("tuple", "len()"): (
        _u("len(tuple({xs})[len({xs}) // 2:])", "int", "ints", names="half_size summarize_sizes"),
    ),
    ("list", "*"): (
        _u("[0] * ({k} * len({xs}))", "list", "ints words", names="blank_slots make_buffer"),
    ),
    ("str", "format"): (
        _u("'{{}} ({{}})'.format({w}.strip(), '{{:.1f}}'.format(len({w}) / {k}))", "str", "text",
           names="describe_text format_name"),
    ),
    ("str", "format()"): (
        _u("format(format(len({w}) / {k}, '.2f'), '>8')", "str", "text", names="pad_ratio format_share"),
    ),
    ("str", "str.format"): (
        _u("str.format('{{}}: {{}}', {w}.split()[0], str.format('{{:>3}}', len({w})))", "str", "text",
           names="label_line format_entry"),
    ),
    ("str", "*"): (
        _u("'=' * ({k} * len({w}.split()))", "str", "text", names="underline rule_for"),
        _u("{w}[:1] * {k} + '-' * ({k} * 2)", "str", "text", calls=False, names="make_banner pad_mark"),
    ),
    ("str", "zfill"): (
        _u("'.'.join(part.zfill(3) for part in {w}.split()).zfill(20)", "str", "text",
           names="pad_fields format_code"),
    ),
}

# the uses of the entries added later, each family in a module of its own
USES: dict[tuple[str, str], tuple[Use, ...]] = {**_CORE, **VALUE_USES, **MUTATING_USES}
