"""C6 sub-task helpers: small tests a person splits off a program, fitted to its data.

At C6 the entry may keep the use of the target (as C5 writes it) and call a helper that does
a sub-task of its own: the first test on the current element (`TESTS`, by the element's
kind: is the number prime, does the word repeat a letter, is the price near a whole dollar).
Each is written as it reads, its name says what it does, and its value picks the arm the
walk takes. The bodies are varied on purpose (the methods of the data, `math`,
`collections`, `string`): one form in many programs would add little that the scaffolding
does not already say. An element is an int (`digit`: 0-9, only the forms marked for it), a
float, a word or a character.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from workers.pipeline.builtin.context import stdlib_space


@dataclass(frozen=True)
class SubHelper:
    text: str  # the whole def, its name and parameter as they read
    digits: bool = False  # an int test that also splits the digits 0-9

    @property
    def name(self) -> str:
        return re.match(r"def (\w+)\(", self.text).group(1)  # type: ignore[union-attr]

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def _forms(*texts: str, digits: tuple[int, ...] = ()) -> tuple[SubHelper, ...]:
    return tuple(SubHelper(t.strip("\n"), k in digits) for k, t in enumerate(texts))


# --- tests on the current element --------------------------------------------------------
_INT_TESTS = _forms(
    """def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, math.isqrt(n) + 1))""",
    """def is_harshad(n):
    digit_total = sum(int(d) for d in str(abs(n)))
    return digit_total > 0 and n % digit_total == 0""",
    """def is_fizzy(n):
    return n % 3 == 0 or n % 5 == 0""",
    """def has_few_bits(n):
    return bin(n).count('1') <= 2""",
    """def has_rising_digits(n):
    digits = str(abs(n))
    return list(digits) == sorted(digits)""",
    """def has_repeated_digit(n):
    digits = str(abs(n))
    return len(set(digits)) < len(digits)""",
    """def is_coprime_with_ten(n):
    return math.gcd(n, 10) == 1""",
    """def has_odd_popcount(n):
    return n.bit_count() % 2 == 1""",
    """def is_palindromic(n):
    text = str(abs(n))
    return text == text[::-1]""",
    """def has_small_digit_product(n):
    return math.prod(map(int, str(abs(n)))) < 10""",
    """def is_triangular(n):
    k = math.isqrt(8 * n + 1)
    return k * k == 8 * n + 1""",
    """def has_even_tens(n):
    tens, ones = divmod(abs(n), 10)
    return tens % 2 == 0 and ones > 0""",
    """def ends_in_five_or_zero(n):
    return str(n).endswith(('0', '5'))""",
    """def is_binary_palindrome(n):
    bits = format(n, 'b')
    return bits == bits[::-1]""",
    """def has_hex_letter(n):
    return any(c in 'abcdef' for c in hex(n)[2:])""",
    """def is_near_square(n):
    root = round(math.sqrt(abs(n)))
    return abs(root * root - abs(n)) <= 2""",
    """def grows_when_reversed(n):
    return int(str(abs(n))[::-1]) > abs(n)""",
    """def on_the_three_step(n):
    return n in range(1, 40, 3)""",
    """def has_many_pairs(n):
    return math.comb(n, 2) > 100""",
    """def has_small_digit_squares(n):
    return sum(int(d) ** 2 for d in str(abs(n))) < 50""",
    """def is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0""",
    """def is_lucky(n):
    return n % 7 == 0 or '7' in str(n)""",
    """def has_two_digits(n):
    return len(str(abs(n))) == 2""",
    """def is_even_square_root(n):
    return math.isqrt(abs(n)) % 2 == 0""",
    digits=(0, 2, 3, 6, 10, 13, 14, 18, 20, 21, 23),
)
_FLOAT_TESTS = _forms(
    """def has_high_cents(price):
    fraction, _ = math.modf(price)
    return fraction >= 0.5""",
    """def is_near_whole_dollar(price):
    return math.isclose(price, round(price), abs_tol=0.2)""",
    """def has_even_dollars(price):
    return math.trunc(price) % 2 == 0""",
    """def is_affordable_with_tax(price):
    return round(price * 1.08, 2) <= 10""",
    """def has_two_digit_dollars(price):
    return len(str(int(price))) > 1""",
    """def is_dear_split_three(price):
    return price / 3 > 2""",
    """def cents_outweigh_dollars(price):
    dollars, cents = divmod(round(price * 100), 100)
    return cents > dollars""",
    """def fits_sale_range(price):
    return 4.5 < price * 0.75 < 9""",
    """def costs_over_ten_with_tip(price):
    tip = round(price * 0.15, 2)
    return price + tip > 10""",
    """def rounds_up(price):
    return math.ceil(price) - price < 0.5""",
    """def has_one_decimal(price):
    whole, _, decimals = str(price).partition('.')
    return len(decimals) == 1""",
)
_WORD_TESTS = _forms(
    """def has_common_consonant(word):
    return not set(word).isdisjoint('rstln')""",
    """def has_several_es(word):
    return word.casefold().count('e') >= 2""",
    """def earliest_letter_is_vowel(word):
    return sorted(word)[0] in 'aeiou'""",
    """def has_early_letter(word):
    return min(word) < 'd'""",
    """def starts_with_vowel(word):
    return word.startswith(tuple('aeiou'))""",
    """def is_vowel_heavy(word):
    vowels = sum(map(word.count, 'aeiou'))
    return vowels * 2 >= len(word)""",
    """def has_double_letter(word):
    return any(a == b for a, b in zip(word, word[1:]))""",
    """def has_unique_letters(word):
    return len(set(word)) == len(word)""",
    """def has_repeated_letter(word):
    counts = collections.Counter(word)
    return max(counts.values()) > 1""",
    """def has_inner_e(word):
    before, _, after = word.partition('e')
    return bool(before and after)""",
    """def has_late_a(word):
    return word.rfind('a') > len(word) // 2""",
    """def rises_first_to_last(word):
    first, *_, last = word
    return first < last""",
    """def has_vowel_in_middle(word):
    return word[len(word) // 2] in 'aeiou'""",
    """def spans_the_alphabet(word):
    return ord(max(word)) - ord(min(word)) > 15""",
    """def repeats_last_letter(word):
    return word.count(word[-1]) > 1""",
    """def lacks_a_and_e(word):
    return not any(v in word for v in 'ae')""",
    """def is_long_plural_free(word):
    return len(word) > 5 and not word.endswith('s')""",
    """def front_half_sorts_first(word):
    middle = len(word) // 2
    return word[:middle] < word[middle:]""",
    """def has_rare_letter(word):
    return bool(set(word) & set('vwxyzjqk'))""",
    """def has_vowel_second(word):
    return len(word) > 1 and word[1] in 'aeiou'""",
    """def has_even_length(word):
    return len(word) % 2 == 0""",
)
_CHAR_TESTS = _forms(
    """def is_vowel(ch):
    return ch.lower() in 'aeiou'""",
    """def is_early_letter(ch):
    return ch in string.ascii_lowercase[:13]""",
    """def is_consonant(ch):
    return ch.isalpha() and ch not in 'aeiou'""",
    """def is_common_letter(ch):
    return ch in 'rstlne'""",
    """def is_separator(ch):
    return ch.isspace() or ch in string.punctuation""",
    """def is_round_letter(ch):
    return ch in 'abdegopq'""",
    """def is_late_letter(ch):
    return ch > 'm'""",
)
TESTS = {"int": _INT_TESTS, "digit": tuple(h for h in _INT_TESTS if h.digits), "float": _FLOAT_TESTS,
         "word": _WORD_TESTS, "char": _CHAR_TESTS}


@functools.lru_cache(maxsize=None)
def define(helper: SubHelper) -> object:
    """The helper as a function (to run it on the call's own data), compiled once: every C6
    draw with a test to split off tries each helper of the element's kind."""
    names = stdlib_space()
    exec(compile(helper.text, "<helper>", "exec"), names)  # noqa: S102 - our own lines
    return names[helper.name]


def splits(helper: SubHelper, values: list[object]) -> bool:
    """Whether the test is true for some of `values` and false for others."""
    try:
        f = define(helper)
        seen = {bool(f(v)) for v in values}  # type: ignore[operator]
    except Exception:  # noqa: BLE001
        return False
    return seen == {True, False}
