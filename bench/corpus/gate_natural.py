"""Natural programs (LLM benchmark style) for measuring the naturalness gate's false positives: honest
CRUXEval/HumanEval-like functions with no junk, but with the defensive and idiomatic constructs real code
has (guard clauses and early returns, `or` defaults, try/except fallbacks, small helpers, case
normalisation, `.strip()` of user text). Each call is an ordinary input; guards are usually not reached by it.
"""

NATURAL = []


def N(entry, args, code, note=""):
    from textwrap import dedent
    NATURAL.append(dict(entry=entry, args=args, code=dedent(code).lstrip("\n"), note=note))


N("second_highest", "[4, 9, 2, 9, 7]", """
def second_highest(nums):
    distinct = set(nums)
    if len(distinct) < 2:
        return None
    distinct.remove(max(distinct))
    return max(distinct)
""", note="guard for fewer than two distinct values")

N("vowel_positions", "'Education'", """
def is_vowel(ch):
    return ch.lower() in "aeiou"

def vowel_positions(word):
    return [i for i, ch in enumerate(word) if is_vowel(ch)]
""", note="predicate helper with case normalisation")

N("word_frequencies", "'The cat saw the dog. The dog ran!'", """
def normalize(word):
    return word.strip(".,!?;:").lower()

def word_frequencies(text):
    counts = {}
    for raw in text.split():
        word = normalize(raw)
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
""", note="normalize helper; skip tokens that are only punctuation")

N("average_score", "[88, 92, 79, 95]", """
def average_score(scores):
    if not scores:
        return 0.0
    total = sum(scores)
    return round(total / len(scores), 2)
""", note="empty-input guard before division")

N("parse_total", "'4, 10, x, 7, , 3'", """
def parse_total(line):
    total = 0
    skipped = 0
    for tok in line.split(","):
        try:
            total += int(tok)
        except ValueError:
            skipped += 1
    return total, skipped
""", note="int() with ValueError fallback (reached by the call)")

N("greet_user", "'  ada lovelace ', 15", """
def greet_user(name, hour):
    who = name.strip() or "guest"
    if hour < 12:
        part = "morning"
    elif hour < 18:
        part = "afternoon"
    else:
        part = "evening"
    return f"Good {part}, {who.title()}!"
""", note="strip of user text with `or` default")

N("stock_status", "{'apple': 12, 'pear': 3, 'plum': 0}, ['apple', 'pear', 'kiwi']", """
def stock_status(inventory, items):
    report = {}
    for item in items:
        try:
            qty = inventory[item]
        except KeyError:
            report[item] = "unknown"
            continue
        report[item] = "low" if qty < 5 else "ok"
    return report
""", note="dict lookup with KeyError fallback")

N("safe_ratios", "[(6, 4), (1, 3), (5, 0), (9, 3)]", """
def safe_ratios(pairs):
    out = []
    for a, b in pairs:
        try:
            out.append(round(a / b, 3))
        except ZeroDivisionError:
            out.append(None)
    return out
""", note="division with ZeroDivisionError fallback")

N("max_window_sum", "[2, 1, 5, 1, 3, 2], 3", """
def max_window_sum(nums, k):
    if k <= 0 or k > len(nums):
        return None
    window = sum(nums[:k])
    best = window
    for i in range(k, len(nums)):
        window += nums[i] - nums[i - k]
        best = max(best, window)
    return best
""", note="guard k out of range; sliding window")

N("is_palindrome_phrase", "'A man, a plan, a canal: Panama'", """
def is_palindrome_phrase(text):
    chars = [c.lower() for c in text if c.isalnum()]
    left, right = 0, len(chars) - 1
    while left < right:
        if chars[left] != chars[right]:
            return False
        left += 1
        right -= 1
    return True
""", note="two pointers over normalised characters")

N("run_length_encode", "'aaabccdddd'", """
def run_length_encode(s):
    if not s:
        return ""
    parts = []
    current, count = s[0], 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            parts.append(f"{current}{count}")
            current, count = ch, 1
    parts.append(f"{current}{count}")
    return "".join(parts)
""", note="empty guard before s[0]")

N("leaderboard", "{'mia': 42, 'leo': 57, 'ana': 42, 'sam': 30}, 3", """
def leaderboard(scores, top):
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    lines = []
    for place, (name, points) in enumerate(ranked[:top], start=1):
        lines.append(f"{place}. {name} ({points})")
    return lines
""", note="sorted with key and tie-break, enumerate from 1")

N("merge_sorted", "[1, 4, 7, 10], [2, 3, 8]", """
def merge_sorted(a, b):
    i = j = 0
    merged = []
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            merged.append(a[i])
            i += 1
        else:
            merged.append(b[j])
            j += 1
    merged.extend(a[i:])
    merged.extend(b[j:])
    return merged
""", note="two pointers; one of the tail extends is empty on any given input")

N("format_receipt", "[('tea', 2.5, 2), ('cake', 3.75, 1)]", """
def format_receipt(items):
    lines = []
    total = 0.0
    for name, price, qty in items:
        cost = price * qty
        total += cost
        lines.append("%-6s x%d %7.2f" % (name, qty, cost))
    lines.append("TOTAL    %7.2f" % total)
    return lines
""", note="%-formatting with a real template")

N("describe_trip", "'lisbon', 4, 900", """
def describe_trip(city, days, budget):
    if days <= 0:
        return "{}: no trip planned".format(city.title())
    unit = "day" if days == 1 else "days"
    per_day = budget / days
    return "{} for {} {}: about ${:.2f} per day".format(city.title(), days, unit, per_day)
""", note=".format templates; guard before division")

N("letter_histogram", "'Hello, World'", """
def letter_histogram(text):
    counts = {}
    for ch in text.lower():
        if ch.isalpha():
            counts[ch] = counts.get(ch, 0) + 1
    return dict(sorted(counts.items()))
""", note="lower() before counting into a dict")

N("are_anagrams", "'Dormitory', 'Dirty room'", """
def letters_only(phrase):
    return sorted(ch for ch in phrase.lower() if ch.isalpha())

def are_anagrams(first, second):
    a, b = letters_only(first), letters_only(second)
    return bool(a) and a == b
""", note="normalising helper; empty phrases are not anagrams")

N("group_by_length", "['pear', 'fig', 'kiwi', 'apple', 'yam']", """
def group_by_length(words):
    groups = {}
    for word in words:
        groups.setdefault(len(word), []).append(word)
    return {n: sorted(ws) for n, ws in sorted(groups.items())}
""", note="setdefault grouping")

N("order_cost", "{'pen': 3, 'pad': 5, 'ink': None}, {'pen': 2, 'pad': 1, 'ink': 4, 'tape': 1}", """
def order_cost(prices, order):
    total = 0
    for item, qty in order.items():
        unit = prices.get(item) or 0
        total += unit * qty
    return total
""", note="d.get(k) or 0 (missing and None prices in the call)")

N("format_entry", "'  Dune ', 'Frank Herbert', 1965", """
def format_entry(title, author, year):
    title = title.strip() or "Untitled"
    author = author.strip() or "Anonymous"
    era = "classic" if year < 1970 else "modern"
    return f"{title} by {author} ({year}, {era})"
""", note="`or` defaults for blank fields, not reached by the call")

N("longest_common_prefix", "['flower', 'flow', 'flight']", """
def longest_common_prefix(words):
    if not words:
        return ""
    prefix = words[0]
    for word in words[1:]:
        while not word.startswith(prefix):
            prefix = prefix[:-1]
    return prefix
""", note="empty guard before words[0]; while loop")

N("fizz_buzz", "15", """
def fizz_buzz(n):
    out = []
    for i in range(1, n + 1):
        label = ""
        if i % 3 == 0:
            label += "Fizz"
        if i % 5 == 0:
            label += "Buzz"
        out.append(label or str(i))
    return out
""", note="`label or str(i)` idiom")

N("parse_config", "'Host = example.org; port=8080; ; debug=on'", """
def parse_config(text):
    settings = {}
    for line in text.split(";"):
        line = line.strip()
        if not line or "=" not in line:
            continue
        key, value = line.split("=", 1)
        settings[key.strip().lower()] = value.strip()
    return settings
""", note="split parsing with skip of blank segments")

N("rotate_text", "'Hello, World!', 3", """
def rotate_text(text, k):
    result = []
    for ch in text:
        if ch.isalpha():
            base = ord("A") if ch.isupper() else ord("a")
            result.append(chr((ord(ch) - base + k) % 26 + base))
        else:
            result.append(ch)
    return "".join(result)
""", note="character shifting with join")

N("weighted_mean", "[80, 90, 70], [1, 2, 1]", """
def weighted_mean(values, weights):
    if len(values) != len(weights):
        raise ValueError("values and weights differ in length")
    total_weight = sum(weights)
    if total_weight == 0:
        return None
    return sum(v * w for v, w in zip(values, weights)) / total_weight
""", note="length check and zero-weight guard; zip")

N("summarize_ranges", "[0, 1, 2, 4, 5, 7]", """
def fmt_range(start, end):
    return str(start) if start == end else f"{start}-{end}"

def summarize_ranges(nums):
    if not nums:
        return []
    ranges = []
    start = prev = nums[0]
    for n in nums[1:]:
        if n == prev + 1:
            prev = n
            continue
        ranges.append(fmt_range(start, prev))
        start = prev = n
    ranges.append(fmt_range(start, prev))
    return ranges
""", note="formatting helper; empty guard")

N("median", "[7, 1, 4, 9, 3, 8]", """
def median(values):
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
""", note="empty guard; odd/even branch")

N("balanced_brackets", "'{[a + b] * (c - d)}'", """
def balanced_brackets(text):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
""", note="stack with early return")

N("to_celsius", "['98.6', '32', 'n/a', '212']", """
def to_celsius(readings):
    converted = []
    for r in readings:
        try:
            f = float(r)
        except ValueError:
            continue
        converted.append(round((f - 32) * 5 / 9, 1))
    return converted
""", note="float() with ValueError skip (reached by the call)")

N("initials_of", "'ludwig van beethoven'", """
def initials_of(full_name):
    skip = {"van", "de", "von", "der"}
    parts = [p for p in full_name.strip().split() if p.lower() not in skip]
    letters = "".join(p[0].upper() + "." for p in parts)
    return letters or "?"
""", note="strip/lower normalisation; `or` default for empty names")

N("wrap_words", "'the quick brown fox jumps over the lazy dog', 12", """
def wrap_words(text, width):
    lines = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
""", note="greedy wrap; final flush guarded for empty text")

N("top_word", "'Red blue red GREEN blue red'", """
def top_word(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
    if not counts:
        return None
    return min(counts, key=lambda w: (-counts[w], w))
""", note="lower() before counting; guard before min()")

N("rotate_right", "[1, 2, 3, 4, 5], 7", """
def rotate_right(items, k):
    if not items:
        return items
    k %= len(items)
    return items[-k:] + items[:-k]
""", note="empty guard before modulo by length")

N("final_balance", "100, ['dep:50', 'wd:30', 'wd:500', 'dep:x', 'dep:5']", """
def final_balance(start, transactions):
    balance = start
    for entry in transactions:
        kind, _, amount = entry.partition(":")
        try:
            value = int(amount)
        except ValueError:
            continue
        if kind == "dep":
            balance += value
        elif kind == "wd" and value <= balance:
            balance -= value
    return balance
""", note="partition parsing, ValueError skip, overdraft check")

N("collatz_steps", "27", """
def collatz_steps(n):
    if n < 1:
        raise ValueError("n must be positive")
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
""", note="validation guard; while loop")

N("domain_counts", "['Ann@Mail.com', ' bob@mail.com', 'carl@work.org', 'bad-address']", """
def domain_counts(emails):
    counts = {}
    for email in emails:
        email = email.strip().lower()
        if "@" not in email:
            continue
        domain = email.rsplit("@", 1)[1]
        counts[domain] = counts.get(domain, 0) + 1
    return counts
""", note="strip/lower normalisation; skip malformed entries")

N("grade_report", "{'zoe': 91, 'ian': 78, 'kim': 85, 'max': 52}", """
def letter_for(score):
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    if score >= 60:
        return "D"
    return "F"

def grade_report(students):
    return {name: letter_for(score) for name, score in sorted(students.items())}
""", note="helper with early returns")

N("total_minutes", "['1:30', '0:45', '2']", """
def total_minutes(durations):
    total = 0
    for d in durations:
        hours, _, minutes = d.partition(":")
        try:
            total += int(hours) * 60 + int(minutes or 0)
        except ValueError:
            return None
    return total
""", note="`minutes or 0` for bare hours; ValueError fallback")

N("kth_largest", "[3, 1, 4, 1, 5, 9, 2, 6, 5], 3", """
def kth_largest(nums, k):
    distinct = sorted(set(nums), reverse=True)
    if k < 1 or k > len(distinct):
        return None
    return distinct[k - 1]
""", note="guard k out of range")

N("class_average", "{'ana': [80, 95, 71], 'ben': []}, 'ana'", """
def class_average(grades, student):
    try:
        marks = grades[student]
        return round(sum(marks) / len(marks), 1)
    except KeyError:
        return "no such student: %s" % student
    except ZeroDivisionError:
        return 0.0
""", note="KeyError and ZeroDivisionError fallbacks, neither reached by the call")

N("comment_header", "'mkr', '2024-03-01', 12", """
def comment_header(author, posted, likes):
    who = author or "anonymous"
    if likes == 0:
        return "Posted by %s on %s" % (who, posted)
    noun = "like" if likes == 1 else "likes"
    return "Posted by %s on %s (%d %s)" % (who, posted, likes, noun)
""", note="`author or 'anonymous'`; %-formatting")

N("snake_to_camel", "'User__account_ID'", """
def snake_to_camel(name):
    parts = [p for p in name.split("_") if p]
    if not parts:
        return ""
    head, rest = parts[0].lower(), parts[1:]
    return head + "".join(p.capitalize() for p in rest)
""", note="split parsing; empty guard; case normalisation")

N("pair_with_sum", "[1, 2, 4, 7, 11, 15], 15", """
def pair_with_sum(sorted_nums, target):
    lo, hi = 0, len(sorted_nums) - 1
    while lo < hi:
        s = sorted_nums[lo] + sorted_nums[hi]
        if s == target:
            return (lo, hi)
        if s < target:
            lo += 1
        else:
            hi -= 1
    return None
""", note="two pointers with early return")

N("unique_names", "['Ana', ' bob', 'ANA ', 'Cleo', '', 'bob']", """
def normalize(name):
    return name.strip().lower()

def unique_names(names):
    seen = set()
    ordered = []
    for raw in names:
        name = normalize(raw)
        if name and name not in seen:
            seen.add(name)
            ordered.append(name)
    return ordered
""", note="normalize helper (.strip().lower()); order-preserving dedupe")

N("primes_in", "[1, 2, 9, 11, 15, 17, 21, 23]", """
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True

def primes_in(nums):
    return [n for n in nums if is_prime(n)]
""", note="predicate helper with guard and early returns")
