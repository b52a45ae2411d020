"""The catalogue's tables, from DirectML's schema (ops.schema), the examples generated from it (ops.catalogue) and
the ONNX twins (ops.runtime.onnx_twins): the same for every visitor, made once for the server."""

from __future__ import annotations

import functools
import json
from typing import Any

from ops import OPERATORS, schema
from ops.catalogue import example, names
from ops.levels import level_index
from ops.runtime import onnx_twins

# What the catalogue can be narrowed to (cat_show, in the link).
SHOWN = {"all": "every operator", "core": "modelled by the core", "directml": "DirectML alone",
         "twin": "with an ONNX twin"}
KINDS = {schema.INPUT_TENSOR: "input tensor", schema.OUTPUT_TENSOR: "output tensor", schema.ATTRIBUTE: "attribute"}
# A search is a name's part: longer text matches nothing, and is never searched.
MAX_QUERY_CHARS = 60


def core_models(name: str) -> bool:
    return name in OPERATORS


def above_level(level: str, supported: str) -> bool:
    """Whether an operator introduced in feature level `level` is past a DirectML build supporting `supported`."""
    return level_index(level) > level_index(supported)


def twin_tolerance(name: str) -> str:
    """The tolerance name of the operator's ONNX twin, "" where it has none."""
    found = onnx_twins.twin(name)
    return "" if found is None else found.tolerance.name


@functools.cache
def overview_rows() -> tuple[dict[str, Any], ...]:
    """One row per operator, in DML_OPERATOR_TYPE order."""
    rows = []
    for name in names():
        op = schema.schema(name)
        rows.append({"operator": op.name, "DML_OPERATOR_TYPE": op.code, "feature level": op.level,
                     "core models it": core_models(op.name), "ONNX twin": twin_tolerance(op.name) or "none",
                     "inputs": ", ".join(f.name for f in op.inputs), "outputs": ", ".join(f.name for f in op.outputs),
                     "attributes": len(op.attributes), "in place": op.in_place})
    return tuple(rows)


def matches(row: dict[str, Any], query: str, show: str) -> bool:
    """Whether an overview row is shown for the search `query` (a part of the operator's name, its fields' or its
    tensors', any case) and the narrowing `show` (a SHOWN key)."""
    if show == "core" and not row["core models it"]:
        return False
    if show == "directml" and row["core models it"]:
        return False
    if show == "twin" and row["ONNX twin"] == "none":
        return False
    wanted = query.strip().lower().removeprefix("dml_operator_")
    return not wanted or wanted in searchable(row["operator"])


@functools.cache
def searchable(name: str) -> str:
    op = schema.schema(name)
    return " ".join([op.name, *(f.name for f in op.fields)]).lower()


def shown_names(query: str, show: str) -> list[str]:
    return [row["operator"] for row in overview_rows() if matches(row, query, show)]


@functools.cache
def field_rows(name: str) -> tuple[dict[str, Any], ...]:
    """The operator's desc fields in struct order: kind, type, optionality, enum, the count field of an array."""
    return tuple({"field": f.name, "kind": KINDS[f.kind], "type": f.type, "optional": f.optional,
                  "enum": f.enum or "", "counted by": f.count_field or ""} for f in schema.schema(name).fields)


def enums(name: str) -> list[schema.SchemaEnum]:
    """The enums the operator's fields (and none twice) hold."""
    used = dict.fromkeys(f.enum for f in schema.schema(name).fields if f.enum)
    return [schema.ENUMS[e] for e in used]


@functools.cache
def example_text(name: str) -> str:
    """The operator's minimal example as a DxDispatch model's text (ops.catalogue)."""
    return json.dumps(example(name).model(), indent=2)
