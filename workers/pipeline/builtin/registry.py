"""(type, method) -> form, and the receiver type each entry's programs take."""

from __future__ import annotations

from workers.pipeline.builtin.forms_coll import dict_form, list_form, set_form, tuple_form
from workers.pipeline.builtin.forms_misc import builtin_form, float_form, receiver_type, signature_form
from workers.pipeline.builtin.forms_ops import syntax_form
from workers.pipeline.builtin.forms_str import str_form
from workers.pipeline.builtin.piece import Form
from workers.pipeline.constraints.catalog import Entry

_BY_TYPE = {"str": str_form, "list": list_form, "tuple": tuple_form, "set": set_form,
            "dict": dict_form, "float": float_form}
_ITERATOR_BUILTINS = ("enumerate", "filter", "reversed", "zip")


class UnsupportedConstraint(ValueError):
    """The builtin generator has no form for this entry (a config entry without signature)."""


def subject_type(entry: Entry) -> str:
    if entry.type in _BY_TYPE:
        return entry.type
    if entry.type in _ITERATOR_BUILTINS:
        return "list"
    if entry.type == "range":
        return "int"
    return receiver_type(entry)


def form_for(entry: Entry) -> Form:
    form = None
    if entry.signature is not None:
        form = signature_form(entry)
    elif entry.type in _BY_TYPE:
        form = syntax_form(entry.syntax.kind, entry.syntax.name, entry.type) \
            or _BY_TYPE[entry.type](entry.method)
    elif entry.type == entry.method:
        form = builtin_form(entry.method)
    if form is None:
        raise UnsupportedConstraint(
            f"the builtin generator cannot write {entry.type}.{entry.method}; declare its "
            "signature in the catalog file ([signatures]) or use an LLM teacher")
    return form
