"""Structure axis of the grid: the six standard levels, custom knobs and seeded blueprints."""

from __future__ import annotations

import random
from collections.abc import Mapping

from workers.pipeline.records import Knobs

CONTROL_KINDS: tuple[str, ...] = ("if", "for", "while", "if-elif")
MAX_DEPTH = 3

# METHOD.md section 1; blueprints are drawn per cell (see draw_blueprint).
LEVELS: dict[str, Knobs] = {
    "C1": Knobs(nested_calls=True, other_methods=False, call_chain=False, control_flow_depth=0),
    "C2": Knobs(nested_calls=True, other_methods=True, call_chain=False, control_flow_depth=0),
    "C3": Knobs(nested_calls=True, other_methods=True, call_chain=False, control_flow_depth=1),
    "C4": Knobs(nested_calls=True, other_methods=True, call_chain=False, control_flow_depth=2),
    "C5": Knobs(nested_calls=True, other_methods=True, call_chain=False, control_flow_depth=3),
    "C6": Knobs(nested_calls=True, other_methods=True, call_chain=True, control_flow_depth=3),
}


class LevelError(ValueError):
    """An unknown level name or a knob setting outside its range."""


def validate_knobs(knobs: Knobs) -> Knobs:
    if not 0 <= knobs.control_flow_depth <= MAX_DEPTH:
        raise LevelError(f"control_flow_depth must be 0..{MAX_DEPTH}, got {knobs.control_flow_depth}")
    bad = [k for k in knobs.blueprint if k not in CONTROL_KINDS]
    if bad:
        raise LevelError(f"blueprint kinds must be among {CONTROL_KINDS}, got {bad}")
    if knobs.blueprint and len(knobs.blueprint) != knobs.control_flow_depth:
        raise LevelError("blueprint length must equal control_flow_depth")
    return knobs


def draw_blueprint(depth: int, rng: random.Random) -> tuple[str, ...]:
    """Outermost first; each kind nests in the previous one (as the reference prompt says).
    A blueprint of tests alone whose arms no `SAMPLE_INPUTS` inputs can all run is drawn
    again (if-elif three deep: each input ends in one of four leaf arms)."""
    while True:
        kinds = tuple(rng.choice(CONTROL_KINDS) for _ in range(depth))
        if leaf_arms(kinds) <= SAMPLE_INPUTS:
            return kinds


SAMPLE_INPUTS = 3  # inputs a program keeps (the default batch's inputs per program)


def leaf_arms(kinds: tuple[str, ...]) -> int:
    """Inputs needed to run every arm of a blueprint of tests alone: the arms off the deep
    path at each level plus every arm of the last (0 when a loop lets one input take many
    paths)."""
    if not kinds or any(k in ("for", "while") for k in kinds):
        return 0
    arms = [2 if k == "if-elif" else 1 for k in kinds]
    return sum(a - 1 for a in arms[:-1]) + arms[-1]


def with_blueprint(knobs: Knobs, rng: random.Random) -> Knobs:
    """Knobs with a blueprint drawn when the depth asks for one and none is set."""
    if knobs.blueprint or knobs.control_flow_depth == 0:
        return knobs
    return Knobs(knobs.nested_calls, knobs.other_methods, knobs.call_chain,
                 knobs.control_flow_depth, draw_blueprint(knobs.control_flow_depth, rng))


_TRUE = {"1", "yes", "true", "y", "on"}
_FALSE = {"0", "no", "false", "n", "off"}
_KNOB_NAMES = {"nested": "nested_calls", "nested_calls": "nested_calls",
               "other": "other_methods", "other_methods": "other_methods",
               "chain": "call_chain", "call_chain": "call_chain",
               "depth": "control_flow_depth", "control_flow_depth": "control_flow_depth",
               "blueprint": "blueprint"}


def parse_knobs(text: str) -> Knobs:
    """Custom knobs from "nested=1,other=0,chain=1,depth=2[,blueprint=for/while]"."""
    values: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, raw = part.partition("=")
        field_name = _KNOB_NAMES.get(name.strip())
        if not sep or field_name is None:
            raise LevelError(f"bad knob {part!r}; expected one of {sorted(_KNOB_NAMES)}=value")
        raw = raw.strip().lower()
        if field_name == "control_flow_depth":
            if not raw.isdigit():
                raise LevelError(f"depth must be an integer, got {raw!r}")
            values[field_name] = int(raw)
        elif field_name == "blueprint":
            values[field_name] = tuple(k for k in raw.split("/") if k)
        elif raw in _TRUE or raw in _FALSE:
            values[field_name] = raw in _TRUE
        else:
            raise LevelError(f"{name} must be yes/no, got {raw!r}")
    return validate_knobs(Knobs(**values))  # type: ignore[arg-type]


def resolve_level(level: str | Knobs) -> tuple[str, Knobs]:
    """("C3", knobs) for a standard name; ("custom", knobs) for Knobs or "custom:<knobs>"."""
    if isinstance(level, Knobs):
        return "custom", validate_knobs(level)
    if level in LEVELS:
        return level, LEVELS[level]
    if level.startswith("custom:"):
        return "custom", parse_knobs(level[len("custom:"):])
    raise LevelError(f"unknown level {level!r}; use C1..C6 or custom:nested=1,other=0,...")


def knobs_to_dict(knobs: Knobs) -> Mapping[str, object]:
    return {"nested_calls": knobs.nested_calls, "other_methods": knobs.other_methods,
            "call_chain": knobs.call_chain, "control_flow_depth": knobs.control_flow_depth,
            "blueprint": list(knobs.blueprint)}
