"""API views of the constraint grid: catalog entries and the structure levels."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ConstraintEntryRead(BaseModel):
    type: str = Field(examples=["str"])
    method: str = Field(examples=["split"])
    syntax: str = Field(description="how the method is written: call, binop, compare, slice, ...", examples=["call"])
    origin: str = Field(examples=["builtin"])


class LevelRead(BaseModel):
    name: str = Field(examples=["C3"])
    nested_calls: bool
    other_methods: bool
    call_chain: bool
    control_flow_depth: int = Field(ge=0, le=3)


class ConstraintsRead(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "total": 1, "types": ["str"], "control_kinds": ["if", "for", "while", "if-elif"],
        "levels": [{"name": "C1", "nested_calls": True, "other_methods": False, "call_chain": False, "control_flow_depth": 0}],
        "entries": [{"type": "str", "method": "split", "syntax": "call", "origin": "builtin"}],
    }]})

    total: int = Field(description="entries after filtering")
    types: list[str]
    levels: list[LevelRead]
    control_kinds: list[str] = Field(description="kinds a custom blueprint may use, outermost first")
    entries: list[ConstraintEntryRead]
