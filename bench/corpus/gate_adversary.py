"""Red-team corpus for the naturalness gate.

Each entry: family, kind ('junk' | 'control' | 'borderline'), entry (entry point), args (the
teacher's call argument text), code, and for junk entries `dejunk` (text replacements that
give the de-junked program, stored as `clean`). `note` says what the junk is.
"""

from textwrap import dedent

CORPUS = []


def J(family, entry, args, code, dejunk, note=""):
    code = dedent(code).lstrip("\n")
    clean = code
    for old, new in dejunk:
        assert old in clean, (entry, old)
        clean = clean.replace(old, new)
    CORPUS.append(dict(family=family, kind="junk", entry=entry, args=args, code=code,
                       clean=clean, note=note))


def C(entry, args, code, kind="control", note=""):
    code = dedent(code).lstrip("\n")
    CORPUS.append(dict(family=kind, kind=kind, entry=entry, args=args, code=code, clean=None, note=note))


# ---------------------------------------------------------------- no-op conversions / round trips
F = "noop_conversion"
J(F, "digit_total", "[12, 5, 30, 7], 6", """
def digit_total(nums, k):
    total = 0
    for n in nums:
        if n > k:
            total += int(str(n))
    return total
""", [("int(str(n))", "n")], "int(str(n)) on ints")
J(F, "scale_prices", "[2.5, 10.0, 3.75], 1.5", """
def scale_prices(prices, rate):
    out = []
    for p in prices:
        out.append(round(float(p) * rate, 2))
    return out
""", [("float(p)", "p")], "float() of floats")
J(F, "running_max", "[3, 1, 4, 1, 5, 9, 2]", """
def running_max(xs):
    best = xs[0]
    out = []
    for x in list(list(xs)):
        best = max(best, x)
        out.append(best)
    return out
""", [("list(list(xs))", "xs")], "list(list(xs))")
J(F, "tag_words", "['apple', 'fig', 'melon', 'kiwi'], 'x'", """
def tag_words(words, tag):
    out = []
    for w in words:
        if len(w) > 3:
            out.append(str(w) + '-' + tag)
        else:
            out.append(w)
    return out
""", [("str(w)", "w")], "str() of a str")
J(F, "pair_sums", "[(1, 2), (3, 4), (5, 6)]", """
def pair_sums(pairs):
    sums = []
    for a, b in tuple(tuple(pairs)):
        sums.append(a + b)
    return sums
""", [("tuple(tuple(pairs))", "pairs")], "tuple(tuple(...))")
J(F, "bucket_counts", "[3, 14, 15, 9, 26, 5], 10", """
def bucket_counts(nums, width):
    counts = {}
    for n in nums:
        b = round(n) // width
        counts[b] = counts.get(b, 0) + 1
    return counts
""", [("round(n)", "n")], "round() of an int")
J(F, "clip_sum", "[4, 18, 7, 25], 10", """
def clip_sum(nums, cap):
    total = 0
    for n in nums:
        total += min(int(float(n)), cap)
    return total
""", [("int(float(n))", "n")], "int(float(n)) on small ints")
J(F, "invert", "{'a': 1, 'b': 2, 'c': 3}", """
def invert(mapping):
    out = {}
    for k, v in dict(mapping).items():
        out[v] = k
    return out
""", [("dict(mapping)", "mapping")], "dict() copy of a mapping only read")
J(F, "common_count", "[1, 2, 3, 4], [3, 4, 5]", """
def common_count(a, b):
    shared = frozenset(set(a)) & set(b)
    return len(shared)
""", [("frozenset(set(a))", "set(a)")], "frozenset(set(a))")
J(F, "longest_word_len", "'the quick brown fox'", """
def longest_word_len(text):
    best = 0
    for w in text.split():
        best = max(best, int(str(len(w))))
    return best
""", [("int(str(len(w)))", "len(w)")], "int(str(len(w)))")
J(F, "count_flags", "[5, 1, 8, 3], 4", """
def count_flags(nums, t):
    above = 0
    for n in nums:
        if bool(n > t):
            above += 1
    return above
""", [("bool(n > t)", "n > t")], "bool() of a comparison")
J(F, "median_low", "[7, 3, 9, 1, 5]", """
def median_low(nums):
    ordered = list(sorted(nums))
    mid = (len(ordered) - 1) // 2
    return ordered[mid]
""", [("list(sorted(nums))", "sorted(nums)")], "list() of sorted()")

# ---------------------------------------------------------------- arithmetic that cancels
F = "cancelling_arithmetic"
J(F, "evens_total", "[4, 7, 10, 3]", """
def evens_total(nums):
    total = 0
    for n in nums:
        if n % 2 == 0:
            total += n * 2 // 2
    return total
""", [("n * 2 // 2", "n")], "x * 2 // 2")
J(F, "shift_big", "[5, 12, 3, 20], 6", """
def shift_big(nums, k):
    out = []
    for n in nums:
        if n > k:
            out.append(n + k - k)
    return out
""", [("n + k - k", "n")], "x + k - k")
J(F, "index_of_max", "[3, 8, 2, 8, 5]", """
def index_of_max(nums):
    best = 0
    for i in range(len(nums)):
        if nums[i] > nums[best]:
            best = (i + 1) - 1
    return best
""", [("(i + 1) - 1", "i")], "(i + 1) - 1")
J(F, "xor_all", "[5, 3, 9, 12]", """
def xor_all(nums):
    acc = 0
    for n in nums:
        acc ^= n & -1
    return acc
""", [("n & -1", "n")], "x & -1")
J(F, "weighted", "[2, 5, 1], 3", """
def weighted(nums, w):
    total = 0
    for n in nums:
        total += n * w + int()
    return total
""", [(" + int()", "")], "x + int()")
J(F, "top_merged", "[5, 1, 9], [7, 3, 8], 3", """
def top_merged(a, b, k):
    merged = sorted(a + b + [], reverse=True)
    return sum(merged[:k])
""", [(" + []", "")], "xs + []")
J(F, "scaled_total", "[4, 2, 7], 3", """
def scaled_total(nums, factor):
    total = 0
    for n in nums:
        total += n * factor * (3 // 3)
    return total
""", [(" * (3 // 3)", "")], "x * (3 // 3)")
J(F, "area_sum", "[(2, 3), (4, 5), (1, 7)]", """
def area_sum(rects):
    total = 0
    for w, h in rects:
        total += w * h * 2 ** 0
    return total
""", [(" * 2 ** 0", "")], "x * 2 ** 0")
J(F, "halve_odds", "[5, 8, 3, 10, 7]", """
def halve_odds(nums):
    out = []
    for n in nums:
        if n % 2:
            out.append((n << 1) >> 1)
        else:
            out.append(n // 2)
    return out
""", [("(n << 1) >> 1", "n")], "(x << 1) >> 1")
J(F, "offsets", "[3, 9, 4], 2", """
def offsets(nums, k):
    out = []
    for n in nums:
        out.append(n + k + k % 1)
    return out
""", [(" + k % 1", "")], "+ k % 1 (always 0 for ints)")
J(F, "word_scores", "['banana', 'kiwi', 'papaya'], 2", """
def word_scores(words, bonus):
    scores = []
    for w in words:
        scores.append(bonus * len(w) // len(w) + w.count('a'))
    return scores
""", [("bonus * len(w) // len(w)", "bonus")], "b * len(w) // len(w)")
J(F, "peak_gain", "[3, 7, 4, 10, 2]", """
def peak_gain(nums):
    best = 0
    for i in range(1, len(nums)):
        gain = nums[i] - nums[i - 1]
        best = max(best, gain, gain - 1)
    return best
""", [(", gain - 1)", ")")], "max(.., g, g - 1)")

# ---------------------------------------------------------------- pass-through bindings
F = "passthrough_binding"
J(F, "prefix_sums", "[3, 1, 4, 1, 5]", """
def prefix_sums(nums):
    offset = 0
    total = 0
    out = []
    for n in nums:
        total += n
        out.append(total + offset)
    return out
""", [("    offset = 0\n", ""), (" + offset", "")], "offset = 0 ... + offset")
J(F, "weighted_sum", "[2, 4, 6], [1, 0, 3]", """
def weighted_sum(values, weights):
    scale = 1
    total = 0
    for v, w in zip(values, weights):
        total += v * w * scale
    return total
""", [("    scale = 1\n", ""), (" * scale", "")], "scale = 1 ... * scale")
J(F, "shout", "['hey', 'you', 'there']", """
def shout(words):
    prefix = ''
    out = []
    for w in words:
        out.append(prefix + w.upper())
    return out
""", [("    prefix = ''\n", ""), ("prefix + ", "")], "prefix = '' ... prefix + w")
J(F, "flatten", "[[1, 2], [3], [4, 5, 6]]", """
def flatten(groups):
    extra = []
    out = []
    for g in groups:
        out.extend(g)
    return out + extra
""", [("    extra = []\n", ""), (" + extra", "")], "extra = [] ... out + extra")
J(F, "positions_of", "'banana', 'a'", """
def positions_of(word, ch):
    start = 0
    found = []
    for i in range(start, len(word)):
        if word[i] == ch:
            found.append(i)
    return found
""", [("    start = 0\n", ""), ("range(start, len(word))", "range(len(word))")], "start = 0 ... range(start, n)")
J(F, "pad_right", "[4, 2, 7], 6", """
def pad_right(xs, width):
    n = len(xs)
    shift = len(xs) - n
    out = list(xs)
    while len(out) < width + shift:
        out.append(0)
    return out
""", [("    n = len(xs)\n    shift = len(xs) - n\n", ""), (" + shift", "")], "shift = len(xs) - n (always 0)")
J(F, "total_cents", "[3, 10, 25]", """
def total_cents(prices):
    factor = 10 // 10
    total = 0
    for p in prices:
        total += p * factor
    return total
""", [("    factor = 10 // 10\n", ""), (" * factor", "")], "factor = 10 // 10")
J(F, "label", "[4, 8, 15], 'v'", """
def label(items, name):
    suffix = str()
    parts = []
    for i, it in enumerate(items):
        parts.append(f"{name}{i}={it}{suffix}")
    return ','.join(parts)
""", [("    suffix = str()\n", ""), ("{suffix}", "")], "suffix = str() ... {suffix}")
J(F, "range_width", "[7, 2, 9, 4]", """
def range_width(nums):
    base = min(nums) * 0
    lo = min(nums)
    hi = max(nums)
    return hi - lo + base
""", [("    base = min(nums) * 0\n", ""), (" + base", "")], "base = min(nums) * 0")
J(F, "join_upper", "['ab', 'cde', 'f'], '-'", """
def join_upper(words, sep):
    pad = 0
    out = []
    for w in words:
        out.append(w.upper().ljust(len(w) + pad))
    return sep.join(out)
""", [("    pad = 0\n", ""), (".ljust(len(w) + pad)", "")], "pad = 0; ljust(len(w) + pad)")

# ---------------------------------------------------------------- idle method calls / clamps
F = "idle_method"
J(F, "word_lengths", "'the cat sat down'", """
def word_lengths(text):
    out = []
    for w in text.split():
        out.append(len(w.strip()))
    return out
""", [("w.strip()", "w")], "strip() of split() words")
# (was junk, "lower() of lower-case data", until the boundary inputs offered 'BANANA':
# a normalizer that only an upper-case input shows)
C("count_vowels", "'banana'", """
def count_vowels(word):
    n = 0
    for ch in word.lower():
        if ch in 'aeiou':
            n += 1
    return n
""", kind="borderline", note="lower() of the word; only an upper-case input shows it")
J(F, "dashed", "['red', 'green', 'blue']", """
def dashed(words):
    out = []
    for w in words:
        out.append(w.replace('#', '').capitalize())
    return '-'.join(out)
""", [(".replace('#', '')", "")], "replace of a char the data never has")
J(F, "largest_gap", "[9, 2, 7, 4, 12]", """
def largest_gap(nums):
    ordered = sorted(nums).copy()
    best = 0
    for a, b in zip(ordered, ordered[1:]):
        best = max(best, b - a)
    return best
""", [(".copy()", "")], ".copy() of a fresh list")
J(F, "unique_sorted", "[6, 3, 9, 3, 4, 7]", """
def unique_sorted(nums):
    uniq = sorted(set(nums))
    out = []
    for v in sorted(uniq):
        if v % 3:
            out.append(v)
    return out
""", [("sorted(uniq)", "uniq")], "sorted() of sorted data")
J(F, "sum_squares", "[3, 1, 4]", """
def sum_squares(nums):
    total = 0
    for n in nums:
        total += abs(n * n)
    return total
""", [("abs(n * n)", "n * n")], "abs() of a square")
J(F, "counts_over_mean", "[4, 9, 2, 7]", """
def counts_over_mean(nums):
    mean = round(sum(nums)) // len(nums)
    count = 0
    for n in nums:
        if n > mean:
            count += 1
    return count
""", [("round(sum(nums))", "sum(nums)")], "round() of an int sum")
J(F, "stock_left", "{'apple': 5, 'pear': 3, 'fig': 8}, {'apple': 2}", """
def stock_left(stock, orders):
    left = {}
    for item, qty in stock.items():
        left[item] = max(0, qty) - orders.get(item, 0)
    return left
""", [("max(0, qty)", "qty")], "max(0, v) on counts")
J(F, "total_capped", "[12, 40, 7]", """
def total_capped(nums):
    total = 0
    for n in nums:
        total += min(n, 10 ** 9)
    return total
""", [("min(n, 10 ** 9)", "n")], "min(v, 10 ** 9)")
J(F, "lookup_all", "{'a': 1, 'b': 2, 'c': 3}, ['a', 'c', 'z']", """
def lookup_all(d, keys):
    out = []
    for k in keys:
        out.append(d.get(k.strip(), -1))
    return out
""", [("k.strip()", "k")], "strip() of one-letter keys")
J(F, "count_digits", "['12', 'ab', '7', 'c3']", """
def count_digits(tokens):
    n = 0
    for t in tokens:
        if t.upper().isdigit():
            n += 1
    return n
""", [("t.upper().isdigit()", "t.isdigit()")], "upper() before isdigit()")

# ---------------------------------------------------------------- conditional expressions
F = "conditional_expr"
J(F, "doubled_above", "[3, 8, 5, 1], 4", """
def doubled_above(nums, t):
    out = []
    for n in nums:
        if n != t:
            out.append(n + n if n > t else 2 * n)
    return out
""", [("n + n if n > t else 2 * n", "2 * n")], "arms equal in value, written differently")
J(F, "dist_sum", "[3, 9, 4, 12], 5", """
def dist_sum(nums, origin):
    total = 0
    for n in nums:
        d = n - origin if n >= origin else origin - n
        total += d if d >= 0 else -d
    return total
""", [("d if d >= 0 else -d", "d")], "sign test decided (d never negative)")
J(F, "capped_squares", "[3, 7, 11]", """
def capped_squares(nums):
    out = []
    for n in nums:
        sq = n * n
        out.append(sq if sq < 10 ** 9 else 10 ** 9)
    return out
""", [("sq if sq < 10 ** 9 else 10 ** 9", "sq")], "cap that never applies")
J(F, "label_parity", "[3, 8, 5]", """
def label_parity(nums):
    out = []
    for n in nums:
        out.append(str(n) if n % 2 else f'{n}')
    return out
""", [("str(n) if n % 2 else f'{n}'", "str(n)")], "str(n) vs f'{n}' arms")
J(F, "total_len", "['ab', 'cde', 'f']", """
def total_len(words):
    total = 0
    for w in words:
        total += len(w) if isinstance(w, str) else 0
    return total
""", [("len(w) if isinstance(w, str) else 0", "len(w)")], "isinstance test always true")
J(F, "halves", "[7, 4, 9, 10]", """
def halves(nums):
    out = []
    for n in nums:
        out.append(n // 2 if n % 2 == 0 else (n - 1) // 2)
    return out
""", [("n // 2 if n % 2 == 0 else (n - 1) // 2", "n // 2")], "arms equal for ints")
J(F, "pairwise_min", "[3, 8, 5], [4, 2, 5]", """
def pairwise_min(a, b):
    out = []
    for x, y in zip(a, b):
        out.append(min(x, y) if x != y else x)
    return out
""", [("min(x, y) if x != y else x", "min(x, y)")], "min(x, y) if x != y else x")
J(F, "reverse_long", "['abc', 'de', 'fghi'], 3", """
def reverse_long(words, n):
    out = []
    for w in words:
        if len(w) >= n:
            out.append(w[::-1] if len(w) > 1 else w)
    return out
""", [("w[::-1] if len(w) > 1 else w", "w[::-1]")], "reversal of a 1-char word is itself")
J(F, "sum_present", "[4, 1, 7]", """
def sum_present(nums):
    total = 0
    for n in nums:
        total += n if n is not None else 0
    return total
""", [("n if n is not None else 0", "n")], "None test on ints")
J(F, "parities", "[3, 8, 5, 2]", """
def parities(nums):
    out = []
    for n in nums:
        out.append('even' if n % 2 == 0 else 'odd' if n % 2 == 1 else 'none')
    return out
""", [("'odd' if n % 2 == 1 else 'none'", "'odd'")], "third arm never taken")

# ---------------------------------------------------------------- cancelling statement pairs
F = "cancelling_statements"
J(F, "sum_over", "[3, 8, 5, 1], 4", """
def sum_over(nums, t):
    total = 0
    total += 7
    for n in nums:
        if n > t:
            total += n
    total -= 7
    return total
""", [("    total += 7\n", ""), ("    total -= 7\n", "")], "+= 7 ... -= 7")
J(F, "mean_of", "[3, 8, 5, 1]", """
def mean_of(nums):
    window = list(nums)
    window.append(0)
    total = sum(window)
    window.pop()
    return total / len(window)
""", [("    window.append(0)\n", ""), ("    window.pop()\n", "")], "append(0) ... pop()")
J(F, "order_pair", "5, 2", """
def order_pair(a, b):
    if a > b:
        a, b = b, a
    a, b = b, a
    a, b = b, a
    return [a, b, b - a]
""", [("    a, b = b, a\n    a, b = b, a\n", "")], "swap twice")
J(F, "first_vowel_index", "'strange'", """
def first_vowel_index(word):
    word = word[::-1]
    n = len(word)
    word = word[::-1]
    for i in range(n):
        if word[i] in 'aeiou':
            return i
    return -1
""", [("    word = word[::-1]\n", "")], "reverse, reverse back")
J(F, "net_change", "[3, -1, 4, -2]", """
def net_change(moves):
    pos = 0
    for m in moves:
        pos += m
        pos = -pos
        pos = -pos
    return pos
""", [("        pos = -pos\n", "")], "negate twice")
J(F, "sorted_desc_sum", "[3, 1, 4, 1, 5]", """
def sorted_desc_sum(nums):
    out = sorted(nums)
    out.reverse()
    total = sum(out)
    out.reverse()
    return out, total
""", [("    out.reverse()\n", "")], "reverse ... reverse (not adjacent)")
J(F, "word_counts", "['a', 'b', 'a', 'c']", """
def word_counts(words):
    counts = {'': 0}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    del counts['']
    return counts
""", [("{'': 0}", "{}"), ("    del counts['']\n", "")], "sentinel key added then deleted")
J(F, "scaled_mean", "[3, 8, 5, 1]", """
def scaled_mean(nums):
    total = 0
    for n in nums:
        total += n * 10
    total //= 10
    return total // len(nums)
""", [(" * 10\n", "\n"), ("    total //= 10\n", "")], "*10 in loop, //= 10 after")
J(F, "head_sum", "[3, 8, 5, 1], 2", """
def head_sum(nums, k):
    data = list(nums)
    data.insert(0, 0)
    data = data[1:]
    return sum(data[:k])
""", [("    data.insert(0, 0)\n    data = data[1:]\n", "")], "insert(0, 0) then [1:]")
J(F, "distinct_letters", "'banana'", """
def distinct_letters(word):
    seen = set()
    seen.add('#')
    for ch in word:
        seen.add(ch)
    seen.remove('#')
    return sorted(seen)
""", [("    seen.add('#')\n", ""), ("    seen.remove('#')\n", "")], "add sentinel, remove it")
J(F, "joined_caps", "['ab', 'cd', 'ef']", """
def joined_caps(words):
    caps = [w.capitalize() for w in words]
    out = '-'.join(caps)
    out = out + '!'
    out = out[:-1]
    return out
""", [("    out = out + '!'\n    out = out[:-1]\n", "")], "+ '!' then [:-1]")

# ---------------------------------------------------------------- equivalent if/else arms
F = "equivalent_arms"
J(F, "sum_and_count", "[3, 8, 5, 1], 4", """
def sum_and_count(nums, t):
    total = 0
    count = 0
    for n in nums:
        if n > t:
            total += n
            count += 1
        else:
            total = total + n
    return total, count
""", [("        if n > t:\n            total += n\n            count += 1\n        else:\n            total = total + n\n",
       "        total += n\n        if n > t:\n            count += 1\n")], "shared update written two ways in both arms")
J(F, "shout_words", "['apple', 'fig', 'melon']", """
def shout_words(words):
    out = []
    for w in words:
        if len(w) > 4:
            out.append(w.upper())
        else:
            out.append(str.upper(w))
    return out
""", [("        if len(w) > 4:\n            out.append(w.upper())\n        else:\n            out.append(str.upper(w))\n",
       "        out.append(w.upper())\n")], "w.upper() vs str.upper(w)")
J(F, "abs_diffs", "[3, 8, 5], [4, 2, 5]", """
def abs_diffs(a, b):
    out = []
    for x, y in zip(a, b):
        if x >= y:
            out.append(abs(x - y))
        else:
            out.append(abs(y - x))
    return out
""", [("        if x >= y:\n            out.append(abs(x - y))\n        else:\n            out.append(abs(y - x))\n",
       "        out.append(abs(x - y))\n")], "abs(x - y) vs abs(y - x)")
J(F, "keys_sorted", "{'b': 2, 'a': 5, 'c': 4}", """
def keys_sorted(d):
    out = []
    for k in sorted(d):
        if d[k] % 2 == 0:
            out.append(k + ':' + str(d[k]))
        else:
            out.append(f'{k}:{d[k]}')
    return out
""", [("        if d[k] % 2 == 0:\n            out.append(k + ':' + str(d[k]))\n        else:\n            out.append(f'{k}:{d[k]}')\n",
       "        out.append(f'{k}:{d[k]}')\n")], "concatenation vs f-string arms")
J(F, "grade", "[95, 80, 65, 40]", """
def grade(scores):
    out = []
    for s in scores:
        if s >= 90:
            out.append('A')
        elif s >= 75:
            out.append('B')
        elif s >= 60:
            out += ['B']
        else:
            out.append('C')
    return out
""", [("        elif s >= 75:\n            out.append('B')\n        elif s >= 60:\n            out += ['B']\n",
       "        elif s >= 60:\n            out.append('B')\n")], "one band split in two arms")
J(F, "first_chars", "['apple', 'kiwi', 'orange', 'fig']", """
def first_chars(words):
    out = ''
    for w in words:
        if w[0] in 'aeiou':
            out += w[0]
        else:
            out += w[:1]
    return out
""", [("        if w[0] in 'aeiou':\n            out += w[0]\n        else:\n            out += w[:1]\n",
       "        out += w[0]\n")], "w[0] vs w[:1]")
J(F, "clamp_low", "[3, 5, 1, 5, 8], 5", """
def clamp_low(nums, lo):
    out = []
    for n in nums:
        if n < lo:
            out.append(lo)
        elif n == lo:
            out += [lo]
        else:
            out.append(n)
    return out
""", [("        elif n == lo:\n            out += [lo]\n", "")], "n == lo arm equal to the else")
J(F, "tally", "['a', 'b', 'a', 'c', 'a']", """
def tally(words):
    counts = {}
    for w in words:
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = counts.get(w, 0) + 1
    return counts
""", [("counts[w] = counts.get(w, 0) + 1", "counts[w] = 1")], "else arm repeats the get")
J(F, "merge_counts", "{'a': 1, 'b': 2}, {'b': 3, 'c': 4}", """
def merge_counts(a, b):
    out = dict(a)
    for k, v in b.items():
        if k in out:
            out[k] = out[k] + v
        else:
            out[k] = out.get(k, 0) + v
    return out
""", [("        if k in out:\n            out[k] = out[k] + v\n        else:\n            out[k] = out.get(k, 0) + v\n",
       "        out[k] = out.get(k, 0) + v\n")], "if/else both out.get-equivalent")

# ---------------------------------------------------------------- tautological tests
F = "tautological_test"
J(F, "sum_ints", "[3, 8, 5, 1]", """
def sum_ints(nums):
    total = 0
    for n in nums:
        if n % 2 == 0 or n % 2 == 1:
            total += n * n
    return total
""", [("        if n % 2 == 0 or n % 2 == 1:\n            total += n * n\n", "        total += n * n\n")],
  "n % 2 == 0 or n % 2 == 1")
J(F, "initials", "['ant', 'bee', 'cat']", """
def initials(words):
    out = ''
    for w in words:
        if len(w) >= len(w[1:]):
            out += w[0].upper()
    return out
""", [("        if len(w) >= len(w[1:]):\n            out += w[0].upper()\n", "        out += w[0].upper()\n")],
  "len(w) >= len(w[1:])")
J(F, "count_big", "[3, 8, 5, 1], 4", """
def count_big(nums, t):
    c = 0
    for n in nums:
        if isinstance(n, int) and n > t:
            c += 1
    return c
""", [("isinstance(n, int) and ", "")], "isinstance(n, int) on ints")
J(F, "total_chars", "['ab', 'cde', 'f']", """
def total_chars(words):
    if words is not None:
        total = 0
        for w in words:
            total += len(w) * 2
        return total
    return 0
""", [("    if words is not None:\n        total = 0\n        for w in words:\n            total += len(w) * 2\n        return total\n    return 0\n",
       "    total = 0\n    for w in words:\n        total += len(w) * 2\n    return total\n")], "is not None on a list")
J(F, "shifted", "[7, 3, 9, 4]", """
def shifted(nums):
    low = min(nums)
    out = []
    for n in nums:
        if n >= low:
            out.append(n - low)
    return out
""", [("        if n >= low:\n            out.append(n - low)\n", "        out.append(n - low)\n")], "n >= min(nums)")
J(F, "upper_count", "'Hello World'", """
def upper_count(text):
    n = 0
    for ch in text:
        if ch.isupper() and (ch.isalpha() or ch.isdigit()):
            n += 1
    return n
""", [(" and (ch.isalpha() or ch.isdigit())", "")], "isupper() implies isalpha()")
J(F, "longest_words", "['pear', 'fig', 'melon', 'plum']", """
def longest_words(words):
    longest = max(words, key=len)
    out = []
    for w in words:
        if len(w) <= len(longest):
            out.append(len(longest) - len(w))
    return out
""", [("        if len(w) <= len(longest):\n            out.append(len(longest) - len(w))\n",
       "        out.append(len(longest) - len(w))\n")], "len(w) <= len(max word)")
J(F, "int_halves", "[7, 4, 9, 10]", """
def int_halves(nums):
    out = []
    for n in nums:
        if n % 1 == 0:
            out.append(n // 2)
    return out
""", [("        if n % 1 == 0:\n            out.append(n // 2)\n", "        out.append(n // 2)\n")], "n % 1 == 0 on ints")
J(F, "lookup", "{'a': 1, 'b': 2, 'c': 3}, ['a', 'c', 'z']", """
def lookup(d, keys):
    out = []
    for k in keys:
        if d.get(k) is not None or k not in d:
            out.append(d.get(k, 0))
    return out
""", [("        if d.get(k) is not None or k not in d:\n            out.append(d.get(k, 0))\n",
       "        out.append(d.get(k, 0))\n")], "d.get(k) is not None or k not in d")
J(F, "prod_nonzero", "[3, 0, 5, 2]", """
def prod_nonzero(nums):
    p = 1
    for n in nums:
        if n != 0 and n == n // 1:
            p *= n
    return p
""", [(" and n == n // 1", "")], "n == n // 1 on ints")
J(F, "digits_sum", "[12, 5, 307]", """
def digits_sum(nums):
    total = 0
    for n in nums:
        if n >= 0:
            total += sum(int(c) for c in str(n))
        else:
            return None
    return total
""", [("        if n >= 0:\n            total += sum(int(c) for c in str(n))\n        else:\n            return None\n",
       "        total += sum(int(c) for c in str(n))\n")], "unreachable else holding only a return")

# ---------------------------------------------------------------- unreachable handlers
F = "unreachable_handler"
J(F, "doubled", "[3, 8, 5]", """
def doubled(nums):
    out = []
    for n in nums:
        try:
            out.append(n * 2)
        except TypeError:
            out.append(0)
    return out
""", [("        try:\n            out.append(n * 2)\n        except TypeError:\n            out.append(0)\n",
       "        out.append(n * 2)\n")], "except TypeError around int math")
J(F, "mean_len", "['ab', 'cde', 'fghi']", """
def mean_len(words):
    try:
        total = sum(len(w) for w in words)
    except KeyError:
        total = -1
    return total // len(words)
""", [("    try:\n        total = sum(len(w) for w in words)\n    except KeyError:\n        total = -1\n",
       "    total = sum(len(w) for w in words)\n")], "except KeyError around sum")
J(F, "pairs_sum", "[3, 8, 5, 1]", """
def pairs_sum(nums):
    out = []
    for i in range(len(nums) - 1):
        try:
            out.append(nums[i] + nums[i + 1])
        except IndexError:
            break
    return out
""", [("        try:\n            out.append(nums[i] + nums[i + 1])\n        except IndexError:\n            break\n",
       "        out.append(nums[i] + nums[i + 1])\n")], "except IndexError inside bounds")
J(F, "count_long", "['apple', 'fig', 'melon'], 3", """
def count_long(words, n):
    count = 0
    try:
        for w in words:
            if len(w) > n:
                count += 1
    finally:
        pass
    return count
""", [("    try:\n        for w in words:\n            if len(w) > n:\n                count += 1\n    finally:\n        pass\n",
       "    for w in words:\n        if len(w) > n:\n            count += 1\n")], "try/finally: pass")
J(F, "squares", "[3, 8, 5]", """
def squares(nums):
    try:
        out = [n * n for n in nums]
    except Exception:
        raise
    return out
""", [("    try:\n        out = [n * n for n in nums]\n    except Exception:\n        raise\n    return out\n",
       "    return [n * n for n in nums]\n")], "except Exception: raise")
J(F, "shout_all", "['hey', 'you']", """
def shout_all(words):
    out = []
    for w in words:
        try:
            out.append(w.upper() + '!')
        except AttributeError:
            out.append(str(w))
    return out
""", [("        try:\n            out.append(w.upper() + '!')\n        except AttributeError:\n            out.append(str(w))\n",
       "        out.append(w.upper() + '!')\n")], "except AttributeError on strs")
J(F, "total_valid", "[3, 8, 5, 1], 5", """
def total_valid(nums, cap):
    total = 0
    for n in nums:
        try:
            if n <= cap:
                total += n
        except TypeError:
            continue
    return total
""", [("        try:\n            if n <= cap:\n                total += n\n        except TypeError:\n            continue\n",
       "        if n <= cap:\n            total += n\n")], "except TypeError: continue")
J(F, "price_total", "{'a': 3, 'b': 5, 'c': 2}, ['a', 'b', 'd', 'a']", """
def price_total(prices, items):
    total = 0
    for it in items:
        if it in prices:
            try:
                total += prices[it]
            except KeyError:
                pass
    return total
""", [("            try:\n                total += prices[it]\n            except KeyError:\n                pass\n",
       "            total += prices[it]\n")], "except KeyError after an `in` test")
J(F, "char_freq", "'banana'", """
import contextlib


def char_freq(text):
    freq = {}
    for ch in text:
        with contextlib.suppress(KeyError):
            freq[ch] = freq.get(ch, 0) + 1
    return freq
""", [("import contextlib\n\n\n", ""), ("        with contextlib.suppress(KeyError):\n            freq[ch]", "        freq[ch]")],
  "contextlib.suppress around code that cannot raise")

# ---------------------------------------------------------------- helpers that give their argument back
F = "identity_helper"
J(F, "total", "[3, 8, 5]", """
def _norm(v):
    w = v
    return w


def total(nums):
    s = 0
    for n in nums:
        s += _norm(n)
    return s
""", [("def _norm(v):\n    w = v\n    return w\n\n\n", ""), ("_norm(n)", "n")], "two-line identity helper")
J(F, "unique_words", "'the cat and the dog'", """
def clean(word):
    return word.strip()


def unique_words(text):
    seen = []
    for w in text.split():
        key = clean(w)
        if key not in seen:
            seen.append(key)
    return seen
""", [("def clean(word):\n    return word.strip()\n\n\n", ""), ("        key = clean(w)\n", ""), ("key", "w")],
  "helper strips split() words")
J(F, "scores", "[3, 80, 15]", """
def clamp(v, lo, hi):
    return max(lo, min(v, hi))


def scores(nums):
    return [clamp(n, 0, 1000) * 2 for n in nums]
""", [("def clamp(v, lo, hi):\n    return max(lo, min(v, hi))\n\n\n", ""), ("clamp(n, 0, 1000)", "n")],
  "clamp helper whose bounds never bite")
J(F, "top3", "[3, 8, 5, 1, 9]", """
def top3(nums):
    ordered = sorted(nums, key=int, reverse=True)
    return ordered[:3]
""", [("key=int, ", "")], "key=int on ints")
J(F, "evens", "[3, 8, 6, 1]", """
def as_list(xs):
    return list(xs)


def evens(nums):
    out = []
    for n in as_list(nums):
        if n % 2 == 0:
            out.append(n)
    return out
""", [("def as_list(xs):\n    return list(xs)\n\n\n", ""), ("as_list(nums)", "nums")], "copying helper")
J(F, "lengths", "['ab', 'cde', 'f']", """
def safe_len(s):
    return len(s) if s is not None else 0


def lengths(words):
    return [safe_len(w) * 10 for w in words]
""", [("def safe_len(s):\n    return len(s) if s is not None else 0\n\n\n", ""), ("safe_len(w)", "len(w)")],
  "None-safe helper on strs")
J(F, "sorted_words", "['pear', 'apple', 'fig']", """
def sorted_words(words):
    lowered = list(map(str.lower, words))
    lowered.sort()
    return lowered
""", [("list(map(str.lower, words))", "list(words)")], "map(str.lower) on lower-case words")
J(F, "sum_pairs", "[3, 8, 5], [1, 2, 7]", """
def whole(x):
    return int(round(x * 100)) // 100


def sum_pairs(a, b):
    return [whole(x) + whole(y) for x, y in zip(a, b)]
""", [("def whole(x):\n    return int(round(x * 100)) // 100\n\n\n", ""), ("whole(x) + whole(y)", "x + y")],
  "rounding helper on ints")
J(F, "count_starts", "['apple', 'avocado', 'kiwi'], 'a'", """
def count_starts(words, letter):
    alias = {w: w for w in words}
    n = 0
    for w in words:
        if alias[w].startswith(letter):
            n += 1
    return n
""", [("    alias = {w: w for w in words}\n", ""), ("alias[w]", "w")], "identity dict lookup")
J(F, "alpha_order", "['pear', 'fig', 'kiwi', 'banana'], 4", """
def alpha_order(words, n):
    short = [w for w in words if len(w) <= n]
    return sorted(short, key=lambda w: w[:])
""", [(", key=lambda w: w[:]", "")], "key=lambda w: w[:]")

# ---------------------------------------------------------------- loops whose effect is undone
F = "undone_loop"
J(F, "net", "[3, 8, 5]", """
def net(nums):
    total = 0
    for n in nums:
        total += n
    for n in nums:
        total -= n
    for n in nums:
        total += n * n
    return total
""", [("    for n in nums:\n        total += n\n    for n in nums:\n        total -= n\n", "")], "add loop, subtract loop")
J(F, "tagged", "['ab', 'cd', 'ef']", """
def tagged(words):
    out = list(words)
    for w in words:
        out.append(w.upper())
    for w in words:
        out.remove(w.upper())
    return [w + '!' for w in out]
""", [("    for w in words:\n        out.append(w.upper())\n    for w in words:\n        out.remove(w.upper())\n", "")],
  "append loop, remove loop")
J(F, "evens_in_order", "[3, 8, 6, 1, 4]", """
def evens_in_order(nums):
    stack = []
    for n in nums:
        if n % 2 == 0:
            stack.insert(0, n)
    out = []
    while stack:
        out.append(stack.pop())
    return out
""", [("    stack = []\n    for n in nums:\n        if n % 2 == 0:\n            stack.insert(0, n)\n    out = []\n    while stack:\n        out.append(stack.pop())\n",
       "    out = []\n    for n in nums:\n        if n % 2 == 0:\n            out.append(n)\n")], "insert(0) then pop(): order restored")
J(F, "bumped_max", "[3, 8, 5]", """
def bumped_max(nums):
    data = list(nums)
    for i in range(len(data)):
        data[i] += 1
    best = max(data)
    for i in range(len(data)):
        data[i] -= 1
    return best - 1, data
""", [("    for i in range(len(data)):\n        data[i] += 1\n", ""), ("    for i in range(len(data)):\n        data[i] -= 1\n", ""),
      ("best - 1", "best")], "+1 loop, -1 loop")
J(F, "caps_count", "['apple', 'kiwi', 'orange']", """
def caps_count(words):
    out = []
    for w in words:
        out.append(w.upper())
    for i in range(len(out)):
        out[i] = out[i].lower()
    return sum(1 for w in out if w[0] in 'aeiou'), out
""", [("        out.append(w.upper())\n    for i in range(len(out)):\n        out[i] = out[i].lower()\n", "        out.append(w)\n")],
  "upper() loop, lower() loop")
J(F, "doubled_sum", "[3, 8, 5]", """
def doubled_sum(nums):
    vals = [n * 2 for n in nums]
    vals = [v // 2 for v in vals]
    return sum(vals) + len(vals)
""", [("    vals = [n * 2 for n in nums]\n    vals = [v // 2 for v in vals]\n", "    vals = list(nums)\n")],
  "double pass, halve pass")
J(F, "masked", "[3, 8, 5], 6", """
def masked(nums, key):
    out = [n ^ key for n in nums]
    out = [n ^ key for n in out]
    return [n + key for n in out]
""", [("    out = [n ^ key for n in nums]\n    out = [n ^ key for n in out]\n    return [n + key for n in out]\n",
       "    return [n + key for n in nums]\n")], "xor pass, xor pass")
J(F, "rotate_back", "[3, 8, 5, 1], 2", """
def rotate_back(nums, k):
    k %= len(nums)
    data = nums[k:] + nums[:k]
    data = data[len(data) - k:] + data[:len(data) - k]
    return sum(data[:k])
""", [("    data = nums[k:] + nums[:k]\n    data = data[len(data) - k:] + data[:len(data) - k]\n    return sum(data[:k])\n",
       "    return sum(nums[:k])\n")], "rotate left, rotate right")

# ---------------------------------------------------------------- slices and joins that give the value back
F = "noop_slice_join"
J(F, "count_above_first", "[5, 8, 3, 9]", """
def count_above_first(nums):
    first = nums[0]
    c = 0
    for n in nums[:]:
        if n > first:
            c += 1
    return c
""", [("nums[:]", "nums")], "xs[:] only read")
J(F, "alternating_sum", "[5, 8, 3, 9]", """
def alternating_sum(nums):
    total = 0
    for i, n in enumerate(nums[::1]):
        total += n if i % 2 == 0 else -n
    return total
""", [("nums[::1]", "nums")], "xs[::1]")
J(F, "vowel_suffixes", "'banana'", """
def vowel_suffixes(word):
    out = []
    for i in range(len(word)):
        if word[i] in 'aeiou':
            out.append(word[i:][0:])
    return out
""", [("word[i:][0:]", "word[i:]")], "s[0:]")
J(F, "mirror", "'abc'", """
def mirror(word):
    half = word[:len(word)]
    return half + half[::-1]
""", [("    half = word[:len(word)]\n", ""), ("half + half[::-1]", "word + word[::-1]")], "s[:len(s)]")
J(F, "compress", "'aabbbca'", """
def compress(text):
    out = []
    prev = ''
    for ch in ''.join(list(text)):
        if ch != prev:
            out.append(ch)
        prev = ch
    return ''.join(out)
""", [("''.join(list(text))", "text")], "''.join(list(s))")
J(F, "title_case", "'the cat sat'", """
def title_case(text):
    words = ' '.join(text.split(' ')).split()
    return ' '.join(w.capitalize() for w in words)
""", [("' '.join(text.split(' ')).split()", "text.split()")], "' '.join(s.split(' '))")
J(F, "pairwise_diffs", "[5, 8, 3, 9]", """
def pairwise_diffs(nums):
    seq = list(reversed(nums))[::-1]
    return [b - a for a, b in zip(seq, seq[1:])]
""", [("list(reversed(nums))[::-1]", "nums")], "list(reversed(xs))[::-1]")
J(F, "second_smallest", "[5, 8, 3, 9]", """
def second_smallest(nums):
    ordered = sorted(nums, reverse=True)[::-1]
    return ordered[1]
""", [("sorted(nums, reverse=True)[::-1]", "sorted(nums)")], "sorted(reverse=True)[::-1]")
J(F, "csv_upper", "'ab,cd,ef'", """
def csv_upper(line):
    fields = ','.join(line.split(',')).split(',')
    return [f.upper() for f in fields]
""", [("','.join(line.split(',')).split(',')", "line.split(',')")], "join(split) round trip")
J(F, "last_two", "[5, 8, 3, 9]", """
def last_two(nums):
    data = [*nums]
    return data[-2:] + [sum(data)]
""", [("    data = [*nums]\n", ""), ("data", "nums")], "[*xs] copy only read")
J(F, "padded", "[5, 8, 3], 5", """
def padded(nums, width):
    out = nums[len(nums):] + nums
    while len(out) < width:
        out.append(0)
    return out
""", [("nums[len(nums):] + nums", "list(nums)")], "xs[len(xs):] + xs")

# ---------------------------------------------------------------- arguments spelled at their defaults
F = "default_args"
J(F, "digit_sum", "[12, 5, 307]", """
def digit_sum(nums):
    total = 0
    for n in nums:
        for d in str(n):
            total += int(d, 10)
    return total
""", [("int(d, 10)", "int(d)")], "int(d, 10)")
J(F, "ranks", "[5, 8, 3, 9]", """
def ranks(nums):
    order = sorted(nums, reverse=False)
    return [order.index(n) for n in nums]
""", [(", reverse=False", "")], "sorted(reverse=False)")
J(F, "odd_positions", "['a', 'b', 'c', 'd']", """
def odd_positions(words):
    out = []
    for i, w in enumerate(words, 0):
        if i % 2:
            out.append(w)
    return out
""", [("enumerate(words, 0)", "enumerate(words)")], "enumerate(xs, 0)")
J(F, "prefix_max", "[5, 8, 3, 9]", """
def prefix_max(nums):
    out = []
    for i in range(0, len(nums), 1):
        out.append(max(nums[:i + 1]))
    return out
""", [("range(0, len(nums), 1)", "range(len(nums))")], "range(0, n, 1)")
J(F, "word_count", "'a b a c'", """
def word_count(text):
    counts = {}
    for w in text.split(None, -1):
        counts[w] = counts.get(w, 0) + 1
    return counts
""", [("text.split(None, -1)", "text.split()")], "split(None, -1)")
J(F, "present", "{'a': 1, 'b': 2}, ['a', 'c', 'b']", """
def present(d, keys):
    out = []
    for k in keys:
        v = d.get(k, None)
        if v is not None:
            out.append(v)
    return out
""", [("d.get(k, None)", "d.get(k)")], "d.get(k, None)")
J(F, "best_row", "[[1, 2], [3, 4], [0, 9]]", """
def best_row(grid):
    totals = [sum(row, 0) for row in grid]
    return totals.index(max(totals))
""", [("sum(row, 0)", "sum(row)")], "sum(xs, 0)")
J(F, "near_top", "[5, 8, 3, 9], 3", """
def near_top(nums, k):
    top = max(nums, key=None)
    return [n for n in nums if top - n <= k]
""", [("max(nums, key=None)", "max(nums)")], "max(key=None)")
J(F, "boxed", "['ab', 'cde']", """
def boxed(words):
    out = []
    for w in words:
        out.append('[' + w.center(len(w)) + ']')
    return ''.join(out)
""", [("w.center(len(w))", "w")], "s.center(len(s))")
J(F, "byte_len_total", "['ab', 'cde']", """
def byte_len_total(words):
    total = 0
    for w in words:
        total += len(w.encode().decode())
    return total
""", [("w.encode().decode()", "w")], "encode().decode()")
J(F, "initial_string", "['apple', 'kiwi', 'fig']", """
def initial_string(words):
    return ''.join(w[0].ljust(0) for w in words)
""", [("w[0].ljust(0)", "w[0]")], "ljust(0)")

# ---------------------------------------------------------------- guards inside expressions that never fire
F = "idle_guard_expr"
J(F, "span", "[5, 8, 3, 9]", """
def span(nums):
    hi = max(nums or [0])
    lo = min(nums)
    return hi - lo
""", [("nums or [0]", "nums")], "xs or [0] (only on the max)")
J(F, "sum_all", "[5, 0, 3], 2", """
def sum_all(nums, bonus):
    total = 0
    for n in nums:
        total += (n or 0) + bonus
    return total
""", [("(n or 0)", "n")], "n or 0 on ints")
J(F, "doubled_kept", "[5, 8, 3]", """
def doubled_kept(nums):
    return [n * 2 for n in nums if n is not None]
""", [(" if n is not None", "")], "comprehension filter that keeps all")
J(F, "long_words", "['apple', 'fig', 'melon'], 3", """
def long_words(words, n):
    return [w for w in words if isinstance(w, str) and len(w) > n]
""", [("isinstance(w, str) and ", "")], "isinstance(w, str) filter")
J(F, "codes", "['apple', 'fig', 'melon']", """
def codes(words):
    out = []
    for w in words:
        if all(c.isalnum() for c in w):
            out.append(w[:2].upper())
    return out
""", [("        if all(c.isalnum() for c in w):\n            out.append(w[:2].upper())\n", "        out.append(w[:2].upper())\n")],
  "all(isalnum) on letter words")
J(F, "has_double", "['apple', 'fig', 'moon']", """
def has_double(words):
    out = []
    for w in words:
        if len(w) < 1000 and any(a == b for a, b in zip(w, w[1:])):
            out.append(w)
    return out
""", [("len(w) < 1000 and ", "")], "len(w) < 1000 and ...")
J(F, "get_all", "{'a': 1, 'b': 2}, ['a', 'c', 'b']", """
def get_all(d, keys):
    return [d[k] if k in d else d.get(k, 0) for k in keys]
""", [("d[k] if k in d else d.get(k, 0)", "d.get(k, 0)")], "d[k] if k in d else d.get(k, 0)")
J(F, "pad_scores", "[5, 0, 3]", """
def pad_scores(nums):
    return [max(n, -1) + 1 for n in nums]
""", [("max(n, -1)", "n")], "max(n, -1) on counts")
J(F, "first_last", "[5, 8, 3]", """
def first_last(nums):
    return (nums[0] if nums else None, nums[-1])
""", [("nums[0] if nums else None", "nums[0]")], "emptiness guard on one side only")

# ---------------------------------------------------------------- formatting round trips and the like
F = "format_misc"
J(F, "greet_all", "['ann', 'bob']", """
def greet_all(names):
    out = []
    for n in names:
        out.append('hi ' + f'{n}')
    return out
""", [("f'{n}'", "n")], "f'{s}' of a str")
J(F, "keyed", "['ann', 'bob', 'cy']", """
def keyed(words):
    return {'%s' % w: len(w) for w in words}
""", [("'%s' % w", "w")], "'%s' % s")
J(F, "joined", "['ann', 'bob'], '+'", """
def joined(words, sep):
    return sep.join('{}'.format(w) for w in words)
""", [("'{}'.format(w)", "w")], "'{}'.format(s)")
J(F, "count_even", "[5, 8, 3, 4]", """
def count_even(nums):
    c = 0
    for n in nums:
        if (n % 2 == 0) == True:
            c += 1
    return c
""", [("(n % 2 == 0) == True", "n % 2 == 0")], "(cmp) == True")
J(F, "scaled", "{'a': 1, 'b': 2}, 3", """
def scaled(d, k):
    copy = dict(zip(d.keys(), d.values()))
    return {key: v * k for key, v in copy.items()}
""", [("    copy = dict(zip(d.keys(), d.values()))\n", ""), ("copy.items()", "d.items()")], "dict(zip(keys, values))")
J(F, "squares_over", "[5, 8, 3, 4], 4", """
def squares_over(nums, t):
    vals = list(map(int, nums))
    return [v * v for v in vals if v > t]
""", [("    vals = list(map(int, nums))\n", ""), ("in vals", "in nums")], "map(int) on ints")
J(F, "keys_with", "{'a': 1, 'b': 5, 'c': 3}, 2", """
def keys_with(d, v):
    view = {**d}
    return sorted(k for k, x in view.items() if x >= v)
""", [("    view = {**d}\n", ""), ("view.items()", "d.items()")], "{**d} copy only read")
J(F, "shift_letters", "'banana', 2", """
def shift_letters(word, k):
    out = ''
    for ch in word:
        if ch in 'aeiou':
            out += chr(ord(ch))
        else:
            out += chr(ord(ch) + k)
    return out
""", [("chr(ord(ch))", "ch")], "chr(ord(c))")
J(F, "sum_whole", "[5, 8, 3]", """
def sum_whole(nums):
    total = 0
    for n in nums:
        total += divmod(n, 1)[0]
    return total
""", [("divmod(n, 1)[0]", "n")], "divmod(n, 1)[0]")


# ---------------------------------------------------------------- junk shaped to dodge an expression probe
F = "probe_evasion"
J(F, "total_len2", "['ab', 'cde', 'f']", """
def total_len2(words):
    total = 0
    for w in words:
        total += len(str.strip(w))
    return total
""", [("str.strip(w)", "w")], "str.strip(w): method called through the class")
J(F, "joined_words", "['ab', 'cde', 'f'], '+'", """
def joined_words(words, sep):
    parts = []
    for w in words:
        parts.append(''.join(w) + sep)
    return ''.join(parts)
""", [("''.join(w)", "w")], "''.join(s) of a str")
J(F, "first_items", "[[3, 1], [4, 1, 5], [9]]", """
def first_items(groups):
    out = []
    for g in groups:
        out.append([g[0]][0] * 2)
    return out
""", [("[g[0]][0]", "g[0]")], "[x][0]")
J(F, "rounded_total", "[3, 8, 5]", """
def rounded_total(nums):
    total = 0
    for n in nums:
        total += round(n, 0)
    return total
""", [("round(n, 0)", "n")], "round(n, 0) on ints (stays int)")
J(F, "min_next", "[3, 8, 5, 2]", """
def min_next(nums):
    out = []
    for n in nums:
        out.append(min(n, n + 1) * 3)
    return out
""", [("min(n, n + 1)", "n")], "min(n, n + 1)")
J(F, "floor_sum", "[3, 8, 5], 2", """
def floor_sum(nums, k):
    total = 0
    for n in nums:
        total += n // 1 + k
    return total
""", [("n // 1 + k", "n + k")], "n // 1 on ints")
J(F, "lambda_strip", "'the cat sat'", """
def lambda_strip(text):
    clean = lambda w: w.strip()
    return [clean(w).upper() for w in text.split()]
""", [("    clean = lambda w: w.strip()\n", ""), ("clean(w).upper()", "w.upper()")], "lambda that strips split() words")
J(F, "sum_one", "[3, 8, 5]", """
def sum_one(nums):
    out = []
    for n in nums:
        out.append(sum([n]) * n)
    return out
""", [("sum([n])", "n")], "sum([x])")
J(F, "operator_add", "[3, 8, 5], 2", """
import operator


def operator_add(nums, k):
    return [operator.add(n, 0) * k for n in nums]
""", [("import operator\n\n\n", ""), ("operator.add(n, 0)", "n")], "operator.add(n, 0)")
J(F, "pow_one", "[3, 8, 5]", """
def pow_one(nums):
    total = 0
    for n in nums:
        total += pow(n, 1) * n
    return total
""", [("pow(n, 1)", "n")], "pow(n, 1)")
J(F, "cap_expr", "[3, 8, 5]", """
def cap_expr(nums):
    return [max(n, -1) * min(n, 10 ** 6) for n in nums]
""", [("max(n, -1) * min(n, 10 ** 6)", "n * n")], "clamps whose bound is not a bare constant")
J(F, "slice_obj", "'banana'", """
def slice_obj(word):
    every = slice(None)
    return word[every] + word[::-1]
""", [("    every = slice(None)\n", ""), ("word[every]", "word")], "s[slice(None)]")


# ================================================================ controls: natural, every line matters
C("count_vowel_words", "['apple', 'kiwi', 'orange', 'fig']", """
def count_vowel_words(words):
    count = 0
    for w in words:
        if w[0] in 'aeiou':
            count += 1
    return count
""")
C("balance", "100, [20, -50, 30, -120]", """
def balance(start, moves):
    total = start
    history = []
    for m in moves:
        if total + m < 0:
            history.append('refused')
            continue
        total += m
        history.append(total)
    return total, history
""")
C("two_sum", "[2, 7, 11, 15], 9", """
def two_sum(nums, target):
    seen = {}
    for i, n in enumerate(nums):
        if target - n in seen:
            return [seen[target - n], i]
        seen[n] = i
    return []
""")
C("rle", "'aaabccdd'", """
def rle(text):
    out = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        out.append(text[i] + str(j - i))
        i = j
    return ''.join(out)
""")
C("merge_sum", "{'a': 1, 'b': 2}, {'b': 3, 'c': 4}", """
def merge_sum(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out
""")
C("second_largest", "[4, 9, 2, 9, 7]", """
def second_largest(nums):
    uniq = sorted(set(nums), reverse=True)
    if len(uniq) < 2:
        return None
    return uniq[1]
""")
C("caesar", "'hello', 3", """
def caesar(text, k):
    out = []
    for ch in text:
        if ch.isalpha():
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        else:
            out.append(ch)
    return ''.join(out)
""")
C("chunks", "[1, 2, 3, 4, 5, 6, 7], 3", """
def chunks(nums, size):
    out = []
    for i in range(0, len(nums), size):
        out.append(nums[i:i + size])
    return out
""")
C("most_common", "['a', 'b', 'a', 'c', 'b', 'a']", """
def most_common(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    best = max(counts, key=counts.get)
    return best, counts[best]
""")
C("mean_above", "[2.5, 7.25, 1.0, 9.5], 2.0", """
def mean_above(values, floor):
    kept = [v for v in values if v > floor]
    if not kept:
        return 0.0
    return round(sum(kept) / len(kept), 2)
""")
C("longest_run", "[1, 2, 3, 1, 2, 3, 4, 0]", """
def longest_run(nums):
    best = 1
    run = 1
    for a, b in zip(nums, nums[1:]):
        if b > a:
            run += 1
            best = max(best, run)
        else:
            run = 1
    return best
""")
C("dedupe", "[3, 1, 3, 2, 1, 5]", """
def dedupe(nums):
    seen = set()
    out = []
    for n in nums:
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out
""")
C("transpose", "[[1, 2, 3], [4, 5, 6]]", """
def transpose(grid):
    rows = len(grid)
    cols = len(grid[0])
    out = []
    for c in range(cols):
        out.append([grid[r][c] for r in range(rows)])
    return out
""")
C("palindromes", "['level', 'apple', 'noon', 'kayak', 'tree']", """
def palindromes(words):
    out = []
    for w in words:
        if w == w[::-1]:
            out.append(w)
    return out, len(words) - len(out)
""")
C("interleave", "[1, 3, 5, 7], [2, 4]", """
def interleave(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out
""")

# ---------------------------------------------------------------- borderline: defensive code many would call natural
C("total_words", "'the cat sat'", """
def total_words(text):
    text = text.strip()
    if not text:
        return 0
    return len(text.split(' '))
""", kind="borderline", note="strip() normalisation; inputs never have outer blanks")
C("vowel_count", "'banana'", """
def vowel_count(word):
    word = word.lower()
    n = 0
    for ch in word:
        if ch in 'aeiou':
            n += 1
    return n
""", kind="borderline", note="lower() normalisation; lower-case inputs")
C("avg", "[3, 8, 5, 1]", """
def avg(nums):
    if not nums:
        return 0
    return sum(nums) / len(nums)
""", kind="borderline", note="empty guard; inputs never empty")
C("top_k", "[5, 8, 3, 9], 2", """
def top_k(nums, k):
    if k > len(nums):
        k = len(nums)
    return sorted(nums, reverse=True)[:k]
""", kind="borderline", note="clamp of k (slicing clamps anyway)")
C("parse_ints", "['12', '7', 'x3']", """
def parse_ints(tokens):
    out = []
    for t in tokens:
        try:
            out.append(int(t))
        except ValueError:
            out.append(-1)
    return out
""", kind="borderline", note="parse with fallback")

# ---------------------------------------------------------------- natural defaults and helpers
# (added with the `or` and own-function checks: each would be idle were no input to reach
# the case it covers)
C("greeting", "'ada'", """
def greeting(name):
    return 'hello, ' + (name or 'stranger').title()
""", note="a default for an empty name (the blank boundary input)")
C("word_counts", "['to', 'be', 'or', 'not', 'to', 'be']", """
def word_counts(words):
    counts = {}
    for w in words:
        counts[w] = (counts.get(w) or 0) + 1
    return counts
""", note="get() or 0 on the first sight of a word")
C("cells", "['3', '', '7', 'x']", """
def cells(row):
    return [cell or '-' for cell in row]
""", note="a placeholder for empty cells (the call holds one)")
C("initials", "['grace hopper', 'alan turing']", """
def initial(name):
    return ''.join(part[0].upper() for part in name.split())


def initials(names):
    return [initial(n) for n in names]
""", note="a helper doing the work")
C("clamp_scores", "[12, 150, -4, 88], 0, 100", """
def clamp(v, lo, hi):
    return max(lo, min(v, hi))


def clamp_scores(scores, lo, hi):
    return [clamp(s, lo, hi) for s in scores]
""", note="a clamp whose bounds bite")
C("ratio", "7, 2", """
def ratio(a, b):
    try:
        return round(a / b, 2)
    except ZeroDivisionError:
        return 0.0
""", note="a handler only a zero divisor reaches (the boundary input 0)")
C("to_int", "'42'", """
def to_int(text):
    try:
        return int(text)
    except ValueError:
        return -1
""", note="a handler only a text that is no number reaches (the blank boundary input)")
C("price_of", "{'tea': 3, 'cake': 5, 'pie': 4}, 'tea'", """
def price_of(menu, item):
    try:
        return menu[item] * 2
    except KeyError:
        return 0
""", note="a handler for an item the menu lacks")
