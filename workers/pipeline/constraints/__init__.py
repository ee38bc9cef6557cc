"""The constraint grid: types x methods (catalog) x structure levels (knobs, blueprints)."""

from workers.pipeline.constraints.catalog import (
    Catalog, CatalogError, Entry, Signature, load_catalog, parse_catalog,
)
from workers.pipeline.constraints.levels import (
    CONTROL_KINDS, LEVELS, LevelError, draw_blueprint, knobs_to_dict, parse_knobs,
    resolve_level, with_blueprint,
)
from workers.pipeline.constraints.select import SelectionError, filter_entries, select
from workers.pipeline.constraints.syntax import Syntax, canonical_method, classify

__all__ = [
    "CONTROL_KINDS", "LEVELS", "Catalog", "CatalogError", "Entry", "LevelError",
    "SelectionError", "Signature", "Syntax", "canonical_method", "classify", "draw_blueprint",
    "filter_entries", "knobs_to_dict", "load_catalog", "parse_catalog", "parse_knobs",
    "resolve_level", "select", "with_blueprint",
]
