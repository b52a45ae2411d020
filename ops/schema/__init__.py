"""DirectML's operator schema: every operator's desc, field by field, as data.

The facts live in directml_table.py, generated from DirectML's own sources by scripts/gen_directml_schema.py
(docs/schema.md); this module gives them types. Nothing here knows an operator by name: a reader, a packer or a
catalogue asks the schema.

    from ops import schema
    conv = schema.schema("CONVOLUTION")       # also "DML_OPERATOR_CONVOLUTION" or 53
    conv.code, conv.level, conv.in_place       # 53, "1_0", False
    [f.name for f in conv.inputs]              # ["InputTensor", "FilterTensor", "BiasTensor"]: DirectML's bind order
    conv.field("Strides").count_field          # "DimensionCount", which also counts Dilations, StartPadding, ...
    schema.ENUMS[conv.field("Mode").enum].value("CROSS_CORRELATION")   # 1
    conv.size, [(f.name, offset) for f, offset in conv.layout]          # the C struct on x86-64 System V
"""

from __future__ import annotations

import dataclasses
import functools

from ..errors import DescriptorError
from . import directml_table as _table

INPUT_TENSOR, OUTPUT_TENSOR, ATTRIBUTE = "INPUT_TENSOR", "OUTPUT_TENSOR", "ATTRIBUTE"
PREFIX = "DML_OPERATOR_"
COMMIT = next(source["commit"] for source in _table.SOURCES if source["key"] == "schema")
SOURCES = _table.SOURCES


@dataclasses.dataclass(frozen=True)
class CLayout:
    """How a field of one type sits in a desc (x86-64 System V): its C type as DxDispatch writes it, size and
    alignment; for a pointer, what it points to (one, or `array` of them) and that element's size and alignment."""

    c_type: str
    size: int
    align: int
    pointee: str | None
    pointee_size: int
    pointee_align: int
    array: bool


FIELD_TYPES: dict[str, CLayout] = {name: CLayout(**layout) for name, layout in _table.FIELD_TYPES.items()}


@dataclasses.dataclass(frozen=True)
class SchemaEnum:
    """A DirectML enum: its members in declaration order with their DirectML.h values; a flag enum's values are bits
    (NONE = 0), combined by OR."""

    name: str
    prefix: str  # DML_CONVOLUTION_MODE_; a flag enum's is singular: DML_TENSOR_FLAG_
    flags: bool
    members: tuple  # ((name, value), ...)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.members)

    def value(self, member: str) -> int:
        """The value of `member`, spelled exactly as DirectML.h does, with or without the prefix (DxDispatch compares
        with strcmp); DescriptorError naming the enum and its members otherwise."""
        values = dict(self.members)
        name = member.removeprefix(self.prefix) if isinstance(member, str) else member
        if name not in values:
            raise DescriptorError(f"{self.name} {member!r}: expected one of {', '.join(self.names)}, optionally "
                                  f"prefixed with {self.prefix} (exact case)")
        return values[name]

    def member(self, value: int) -> str:
        """The member holding `value` (not for combinations of flags)."""
        for name, member_value in self.members:
            if member_value == value:
                return name
        raise DescriptorError(f"{self.name} {value!r}: no member has this value")


ENUMS: dict[str, SchemaEnum] = {name: SchemaEnum(name, **enum) for name, enum in _table.ENUMS.items()}


@dataclasses.dataclass(frozen=True)
class SchemaField:
    """One field of an operator's DML_*_OPERATOR_DESC, in struct order.

    `kind` is INPUT_TENSOR, OUTPUT_TENSOR or ATTRIBUTE; `type` one of FIELD_TYPES. `reader` is the DxDispatch
    function that reads it from a model's JSON (ParseBoolField for some UINT fields: the JSON holds true or false);
    `enum` the ENUMS entry a UINT field holds; an array's `count_field` is the UINT field holding its element count,
    and a count field's `counted_arrays` the arrays it counts; a SCALAR_UNION's `scalar_union_type_field` holds the
    DML_TENSOR_DATA_TYPE its bytes are read as; `nulled_when_fused`: DxDispatch leaves the field null when the
    operator is read as another's fused activation.
    """

    name: str
    kind: str
    type: str
    optional: bool
    reader: str
    enum: str | None
    count_field: str | None
    scalar_union_type_field: str | None
    nulled_when_fused: bool
    counted_arrays: tuple = ()

    @property
    def is_tensor(self) -> bool:
        return self.kind != ATTRIBUTE

    @property
    def is_array(self) -> bool:
        return self.c.array

    @property
    def c(self) -> CLayout:
        return FIELD_TYPES[self.type]


@dataclasses.dataclass(frozen=True)
class OperatorSchema:
    """One DirectML operator: its DML_OPERATOR_TYPE value, the feature level that introduced it, whether its outputs
    may alias its inputs (in-place execution), its desc's fields in struct order and the tensor fields DirectML binds
    as inputs and outputs, in binding order (an array field binds one buffer per element)."""

    name: str  # without DML_OPERATOR_
    code: int
    level: str
    in_place: bool
    activation: bool  # an ACTIVATION_* operator (not ACTIVATION_RELU_GRAD), usable as a fused activation
    fields: tuple  # SchemaField
    inputs: tuple  # SchemaField, in DirectML's binding order
    outputs: tuple

    @property
    def full_name(self) -> str:
        return PREFIX + self.name

    @property
    def desc_struct(self) -> str:
        return f"DML_{self.name}_OPERATOR_DESC"

    @property
    def attributes(self) -> tuple:
        return tuple(f for f in self.fields if f.kind == ATTRIBUTE)

    def field(self, name: str) -> SchemaField:
        for f in self.fields:
            if f.name == name:
                return f
        raise DescriptorError(f"{self.desc_struct} has no field {name!r}; its fields: "
                              f"{', '.join(f.name for f in self.fields)}")

    @functools.cached_property
    def layout(self) -> tuple:
        """((field, byte offset), ...): the C struct's layout, each field at the next multiple of its alignment."""
        offset, placed = 0, []
        for f in self.fields:
            offset = -(-offset // f.c.align) * f.c.align
            placed.append((f, offset))
            offset += f.c.size
        return tuple(placed)

    @property
    def align(self) -> int:
        return max(f.c.align for f in self.fields)

    @property
    def size(self) -> int:
        """sizeof the desc struct: past its last field, rounded up to its alignment."""
        last, offset = self.layout[-1]
        return -(-(offset + last.c.size) // self.align) * self.align


def _schema(row) -> OperatorSchema:
    values = dict(zip(_table.OPERATOR_COLUMNS, row))
    fields = [dict(zip(_table.FIELD_COLUMNS, field)) for field in values["fields"]]
    for f in fields:
        f["reader"] = f"Parse{f['reader']}Field"  # the table keeps DxDispatch's names without Parse and Field
        f["counted_arrays"] = tuple(g["name"] for g in fields if g["count_field"] == f["name"])
    by_name = {f["name"]: SchemaField(**f) for f in fields}
    return OperatorSchema(values["name"], values["code"], values["level"], values["in_place"], values["activation"],
                          tuple(by_name.values()), tuple(by_name[n] for n in values["bind_inputs"]),
                          tuple(by_name[n] for n in values["bind_outputs"]))


SCHEMAS: dict[str, OperatorSchema] = {row[0]: _schema(row) for row in _table.OPERATORS}
# Every DML_OPERATOR_TYPE member with its value, INVALID (0), aliases and operators with no schema at COMMIT included.
OPERATOR_TYPES: dict[str, int] = dict(_table.OPERATOR_TYPES)
_BY_CODE = {s.code: s for s in SCHEMAS.values()}
_ALIASES = {alias: name for name, alias in _table.OPERATOR_TYPE_ALIASES.items()}  # SCATTER_ELEMENTS -> SCATTER


def schema(name_or_code: str | int) -> OperatorSchema:
    """The schema of an operator named exactly as DirectML.h does, with or without DML_OPERATOR_, or of its
    DML_OPERATOR_TYPE value; DescriptorError saying why not."""
    if isinstance(name_or_code, bool) or not isinstance(name_or_code, (str, int)):
        raise DescriptorError(f"operator type {name_or_code!r}: expected a DML_OPERATOR_TYPE name or value")
    if isinstance(name_or_code, int):
        if name_or_code in _BY_CODE:
            return _BY_CODE[name_or_code]
        members = [name for name, code in OPERATOR_TYPES.items() if code == name_or_code]
        known = f" ({PREFIX}{members[0]}) has no schema in DxDispatch at {COMMIT[:7]}" if members else \
            f" is no DML_OPERATOR_TYPE (1 to {max(OPERATOR_TYPES.values())})"
        raise DescriptorError(f"operator type {name_or_code}{known}")
    name = name_or_code.removeprefix(PREFIX)
    name = _ALIASES.get(name, name)
    if name in SCHEMAS:
        return SCHEMAS[name]
    if name in OPERATOR_TYPES:
        raise DescriptorError(f"operator type {name_or_code!r} has no schema in DxDispatch at {COMMIT[:7]}")
    other_case = next((n for n in SCHEMAS if n.lower() == name.lower()), None)
    hint = f"; names are exact: {PREFIX}{other_case}" if other_case else ""
    raise DescriptorError(f"operator type {name_or_code!r}: not a DirectML operator{hint}")


__all__ = ["ATTRIBUTE", "COMMIT", "ENUMS", "FIELD_TYPES", "INPUT_TENSOR", "OPERATOR_TYPES", "OUTPUT_TENSOR", "SCHEMAS",
           "SOURCES", "CLayout", "OperatorSchema", "SchemaEnum", "SchemaField", "schema"]
