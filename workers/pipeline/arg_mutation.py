"""LLM argument mutation as in the reference (METHOD.md section 2): one teacher call rewrites
only the call's arguments, given freshly sampled reference values."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from workers.pipeline.parsing import ParsedProgram, parse_completion

MUTATION_TEMPLATE_VERSION = "mutate-v1"

SYSTEM = "You are a code generator."


@dataclass(frozen=True)
class ReferenceValues:
    length: int
    integers: tuple[int, ...]
    strings: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"length": self.length, "integers": list(self.integers), "strings": list(self.strings)}


def _reference_string(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:  # random alphanumeric, 5-10 chars
        return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(5, 10)))
    if kind == 1:  # one character repeated 5-15 times
        return rng.choice(string.ascii_lowercase) * rng.randint(5, 15)
    alphabet = string.ascii_letters + string.digits + ",.;:!?-_ "
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(5, 10)))


def sample_reference_values(seed: int, key: str) -> ReferenceValues:
    """L in 5..15; L integers in 5..20; L strings of the three reference kinds."""
    rng = random.Random(f"refvals:{seed}:{key}")
    length = rng.randint(5, 15)
    return ReferenceValues(
        length=length,
        integers=tuple(rng.randint(5, 20) for _ in range(length)),
        strings=tuple(_reference_string(rng) for _ in range(length)),
    )


def build_mutation_messages(code: str, entry_point: str, args: str, refs: ReferenceValues) -> tuple[dict[str, str], ...]:
    user = "\n".join(
        [
            "Here is a Python program and the call that tests it:",
            "```python",
            code.rstrip(),
            f"print({entry_point}({args}))",
            "```",
            "Rewrite ONLY the arguments of that call so the program is tested on a new input.",
            "Use these freshly sampled reference values where they fit the argument types:",
            f"- length L = {refs.length}",
            f"- integers: {list(refs.integers)}",
            f"- strings: {list(refs.strings)}",
            "Rules:",
            "- str, list, dict and set arguments must be longer than 5;",
            "- keep the argument types the function expects; the call must run without error;",
            "- do not change the functions; no comments; no default parameter values;",
            "- exactly one print, outside the functions, calling the entry function once;",
            "- output the whole program as one fenced python block.",
        ]
    )
    return ({"role": "system", "content": SYSTEM}, {"role": "user", "content": user})


def parse_mutation(text: str, entry_point: str) -> str | None:
    """The new argument text, or None when the completion breaks the rules or calls another
    function than the entry."""
    parsed = parse_completion(text)
    if not isinstance(parsed, ParsedProgram) or parsed.entry_point != entry_point:
        return None
    return parsed.args
