"""What an operator is: the registry's vocabulary.

An `Operator` owns everything specific to one DirectML operator, the way ONNX's reference operators each live in one
small module (onnx/reference/ops): its DirectML name and DML_OPERATOR_TYPE value, the fields of its
DML_*_OPERATOR_DESC in C order, its tensor support table per feature level, its attributes and their checks, its
output shapes, the core function, its rules on a parsed descriptor, its ONNX form for the cross-check, and what
it teaches (its index formula and quiz questions), the nearest fixes of settings it refuses, and the descriptors it
proposes to the layout detective.
Validation, DxDispatch models, C++ export, the cross-check, the framework snippets, the detective and the pages look
operators up in the registry (ops/operators/__init__.py) and never branch on their names.

A `Call` is one call of one operator, checked and frozen: the single representation of a call from a page's URL to
the DirectML worker's request.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import DTypeLike

from ..datatypes import NUMPY_DTYPES, type_name
from ..errors import DescriptorError
from ..guard import check_element_count, check_positive_int, check_tensor
from ..levels import OPERATOR_PREFIX, SupportRow, first_level_supporting, row_in_force
from ..names import enum_suffix
from .fixes import NONE

if TYPE_CHECKING:
    from ..descriptors.validate import ParsedDispatchable
    from ..teaching.quiz import QuizSettings
    from ..tensor_desc import Problem
    from .fixes import Fixes
    from .lessons import Formula, QuestionDraft

# Field kinds of a DML_*_OPERATOR_DESC, each one of the types of DirectML's schema (ops.schema.FIELD_TYPES;
# tests/unit/test_schema.py holds every registered field to its schema's). A tensor field is one DML_TENSOR_DESC*, a
# tensor array field a count plus a DML_TENSOR_DESC array; SCALE_BIAS is a _Maybenull_ DML_SCALE_BIAS*; UINT_ARRAY
# and INT_ARRAY are a `const UINT*` / `const INT*` as long as their COUNT field says; SIZE_2D is a DML_SIZE_2D
# {Width, Height}; SCALAR_UNION is a DML_SCALAR_UNION read as the DML_TENSOR_DATA_TYPE its ENUM field holds.
INPUT, OUTPUT, INPUTS, OUTPUTS = "input", "output", "inputs", "outputs"
COUNT, UINT, ENUM, SCALE_BIAS = "count", "uint", "enum", "scale_bias"
UINT_ARRAY, INT_ARRAY, SIZE_2D, SCALAR_UNION = "uint_array", "int_array", "size_2d", "scalar_union"
TENSOR_KINDS = (INPUT, OUTPUT, INPUTS, OUTPUTS)
ARRAY_KINDS = (UINT_ARRAY, INT_ARRAY)
REQUIRED = object()


@dataclasses.dataclass(frozen=True)
class Enum:
    """A DirectML enum as users write it: full name, bare suffix, any case, or an alias."""

    prefix: str
    names: tuple
    aliases: tuple = ()  # ((alias, name), ...)
    label: str = ""  # the field that holds it, for messages

    def name(self, value, field=None):
        """The canonical member `value` names, else DescriptorError naming `field` and the choices."""
        aliases = dict(self.aliases)
        found = enum_suffix(value, self.prefix, self.names + tuple(aliases))
        if found:
            return aliases.get(found, found)
        spelled = " or ".join(f"{n} ({a})" if (a := self.short(n)) else n for n in self.names)
        raise DescriptorError(f"{field or self.label} {value!r}: expected {spelled}, optionally prefixed with "
                              f"{self.prefix}")

    def exact(self, value):
        """The member `value` spells exactly, with or without the prefix (DxDispatch's strcmp), else None."""
        if not isinstance(value, str):
            return None
        name = value[len(self.prefix):] if value.startswith(self.prefix) else value
        return name if name in self.names else None

    def short(self, name):
        return next((alias for alias, full in self.aliases if full == name), "")

    def code(self, name):
        """The enum's integer value: members count from 0 in declaration order (DirectML.h)."""
        return self.names.index(name)


@dataclasses.dataclass(frozen=True)
class Attribute:
    """A keyword argument of the core function: `check` turns any accepted spelling into the canonical value."""

    name: str
    label: str  # the name messages use: the desc field it becomes ("BlockSize"), or what it is
    check: Callable
    default: object = REQUIRED


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of the operator's DML_*_OPERATOR_DESC, in C order.

    `attribute` is the attribute a non-tensor field carries, or on a tensor field the attribute its DataType
    carries: an output's (ELEMENT_WISE_BIT_COUNT's output type, which its desc has no field of its own for) or an
    input's whose type is its own rather than the call's (a gather's IndicesTensor: INT32, INT64, UINT32 or
    UINT64 whatever the data's type; the arrays given decide it); `resource`
    names the DxDispatch resource bound to a tensor field (array fields get an index appended); `counts` is the array
    field a COUNT field counts, or a tuple of them (SLICE1's DimensionCount counts three arrays); `type_of` names the
    tensor field whose DataType an ENUM field of DML_TENSOR_DATA_TYPE holds (PADDING1's PaddingValueDataType holds
    OutputTensor's), and `type_field` the ENUM field holding the type a SCALAR_UNION is read as (its schema's
    scalar_union_type_field).
    """

    name: str
    kind: str
    attribute: str = ""
    resource: str = ""
    counts: str | tuple = ""
    enum: Enum | None = None
    minimum: int = 0  # the smallest value a UINT field takes (BlockSize: 1)
    type_of: str = ""
    type_field: str = ""

    @property
    def counted(self) -> tuple:
        """The array fields a COUNT field counts."""
        return (self.counts,) if isinstance(self.counts, str) else tuple(self.counts)

    @property
    def is_tensor(self):
        return self.kind in TENSOR_KINDS

    @property
    def is_input(self):
        return self.kind in (INPUT, INPUTS)


def scale_bias_json(value):
    """A DML_SCALE_BIAS as DxDispatch writes it: {"Scale": s, "Bias": b} from the canonical (Scale, Bias) pair."""
    scale, bias = value
    return {"Scale": scale, "Bias": bias}


def field_json(field, value):
    """An attribute's value in its desc field as DxDispatch's JSON holds it: a DML_SCALE_BIAS or DML_SIZE_2D as an
    object from its canonical pair, an array as a list; a value not in canonical form (which validation then names)
    as it is."""
    if field.kind == SCALE_BIAS and isinstance(value, tuple):
        return scale_bias_json(value)
    if field.kind == SIZE_2D and isinstance(value, tuple) and len(value) == 2:
        return {"Width": value[0], "Height": value[1]}
    if field.kind in ARRAY_KINDS and isinstance(value, tuple):
        return list(value)
    if field.kind == SCALAR_UNION and isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"  # JSON has no such numbers
    return value


def check_axis(axis, dimension_count, field="Axis"):
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise DescriptorError(f"{field} {axis!r}: must be an integer")
    if not 0 <= axis < dimension_count:
        raise DescriptorError(f"{field} {axis}: must be in [0, {dimension_count - 1}] for a {dimension_count}-D tensor")
    return int(axis)


def check_sizes(value, field, dims=(1, 8)):
    """A tuple of positive sizes within the element cap, `dims` an exact count or (low, high)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise DescriptorError(f"{field} {value!r}: expected a list of sizes")
    low, high = (dims, dims) if isinstance(dims, int) else dims
    if not low <= len(value) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise DescriptorError(f"{field} {list(value)}: {len(value)} dimensions; this operator needs {wanted}")
    sizes = tuple(check_positive_int(s, f"{field}[{i}]") for i, s in enumerate(value))
    check_element_count(sizes, field)
    return sizes


UINT_MAX = 2**32 - 1
INT_RANGE = (-(2**31), 2**31 - 1)


def _integers(value, field):
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__"):
        raise DescriptorError(f"{field} {value!r:.60}: expected a list of integers, one per dimension")
    for i, v in enumerate(value):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise DescriptorError(f"{field}[{i}] {v!r:.40}: must be an integer")
    return tuple(int(v) for v in value)


def check_uint_array(value, field, minimum=0):
    """A UINT_ARRAY attribute: a tuple of integers in [minimum, UINT_MAX]."""
    values = _integers(value, field)
    for i, v in enumerate(values):
        if not minimum <= v <= UINT_MAX:
            rule = f"at least {minimum}" if v < minimum else f"at most {UINT_MAX:,} (a UINT)"
            raise DescriptorError(f"{field}[{i}] {v}: must be {rule}")
    return values


def check_int_array(value, field, nonzero=False):
    """An INT_ARRAY attribute: a tuple of 32-bit signed integers, none 0 when `nonzero`."""
    values = _integers(value, field)
    low, high = INT_RANGE
    for i, v in enumerate(values):
        if not low <= v <= high:
            raise DescriptorError(f"{field}[{i}] {v}: must be in [{low:,}, {high:,}] (an INT)")
        if nonzero and v == 0:
            raise DescriptorError(f"{field}[{i}] 0: may not be 0")
    return values


def check_dimension_count(values, field, dimension_count):
    """An attribute array must hold one value per dimension (its COUNT field equals the tensors' DimensionCount)."""
    if len(values) != dimension_count:
        raise DescriptorError(f"{field} {list(values)}: {len(values)} values for a {dimension_count}-D tensor; "
                              f"it takes one per dimension")


class Operator:
    """One DirectML operator. Subclasses (one module per operator family) fill the class attributes and implement
    `output_shapes` and `compute`; the rest has a general form they may refine."""

    name: str  # DML_OPERATOR_<name>
    code: int  # its DML_OPERATOR_TYPE value (DirectML.h)
    summary: str  # what it does, in one line
    fields: tuple  # Field, in the C struct's order
    support: tuple  # SupportRow, by the feature level each takes effect at
    attributes: tuple = ()  # Attribute
    arity: tuple = (1, 1)  # (fewest, most) input arrays; most None: any number
    dims: tuple = (1, 8)  # dimension counts the core accepts (the widest row of the support table)
    in_place: bool = False  # OutputTensor may alias an input (its API page says so)
    # Cross-checked on whole buffers through an input and an output desc (the layout copy), not on arrays.
    copies_between_layouts: bool = False
    onnx: str | None = None  # the ONNX operator ONNX Runtime's DirectML provider maps it to (SPEC section 8)
    core_name: str = ""  # the reference core's function (depth_to_space), a name ops.model_for also takes
    # Where a UINT8 byte axis can go when ONNX Runtime runs a type as bytes: "batch" (dimension N, which the
    # operator never mixes), "last" (widens the last dimension), "new" (a dimension of its own after the last, which
    # widened_attrs leaves alone), or None: the operator mixes an element's bytes (a shift carries bits from one byte
    # into the next), so its elements may not run as bytes at all.
    byte_axis: str | None = "last"
    # The ONNX operator's attributes that make it this operator (BitShift's direction LEFT or RIGHT), as
    # (name, value) pairs: onnx_graph writes them and the ONNX model reader tells operators sharing an ONNX one apart.
    onnx_attributes: tuple = ()
    # Other names DirectML.h gives the same DML_OPERATOR_TYPE value (SCATTER_ELEMENTS for SCATTER), which lookups
    # accept; DxDispatch reads only the operator's own name.
    aliases: tuple = ()

    @property
    def full_name(self) -> str:
        return OPERATOR_PREFIX + self.name

    @property
    def desc_struct(self) -> str:
        return f"DML_{self.name}_OPERATOR_DESC"

    def __repr__(self):
        return f"<operator {self.name}>"

    # ------------------------------------------------------------ attributes and calls

    def canonical_attrs(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """The attributes with defaults filled and every value in its canonical form; DescriptorError for an
        unknown, missing or invalid one."""
        names = [a.name for a in self.attributes]
        unknown = sorted(set(attrs) - set(names))
        if unknown:
            raise DescriptorError(f"{unknown[0]}: not an attribute of {self.name}; accepted: "
                                  f"{', '.join(names) or 'none'}")
        result = {}
        for attribute in self.attributes:
            if attribute.name in attrs:
                result[attribute.name] = attribute.check(attrs[attribute.name])
            elif attribute.default is REQUIRED:
                raise DescriptorError(f"{attribute.name}: required by {self.name} ({attribute.label})")
            else:
                result[attribute.name] = attribute.default
        return result

    def check_arity(self, count: int, what: str = "inputs") -> None:
        fewest, most = self.arity
        if count < fewest or (most is not None and count > most):
            wanted = f"exactly {fewest}" if fewest == most else f"at least {fewest}"
            raise DescriptorError(f"{what}: {self.name} takes {wanted} input array(s), got {count}")

    def check_type(self, data_type: str, label: str) -> None:
        """DescriptorError for an input type no feature level supports (the shifts take unsigned types only); the
        field in `label` ("IndicesTensor") may have types of its own."""
        field = label.split("[")[0]
        supported = self.supported_types_of(field) if field in self.own_typed_inputs else self.supported_types
        if data_type not in supported:
            raise DescriptorError(f"{label} DataType {data_type}: {self.name} takes "
                                  f"{', '.join(supported)} at every feature level")

    @functools.cached_property
    def own_typed_inputs(self) -> tuple[str, ...]:
        """The input tensor fields whose DataType is their own, carried by an attribute (a gather's IndicesTensor)."""
        return tuple(f.name for f in self.fields if f.kind == INPUT and f.attribute)

    def data_label(self, count: int) -> str:
        """The first input that holds the call's data type (ONE_HOT's ValuesTensor, after its IndicesTensor)."""
        return next(label for label in self.input_labels(count) if label not in self.own_typed_inputs)

    def data_type_of(self, inputs: Sequence[np.ndarray]) -> str:
        """The call's data type: its first data input's."""
        return type_name(inputs[self.input_labels(len(inputs)).index(self.data_label(len(inputs)))].dtype)

    def input_types(self, data_type: str, count: int, attrs: Mapping[str, Any]) -> list[str]:
        """Each input's DataType: the call's data type, or for an input with a type of its own its attribute's."""
        return [attrs.get(self.field(label).attribute, data_type) if label in self.own_typed_inputs else data_type
                for label in self.input_labels(count)]

    def input_labels(self, count: int) -> list[str]:
        """The desc field each input array binds to: ATensor, BTensor; InputTensors[0], ..."""
        labels = []
        for field in self.fields:
            if field.kind == INPUT:
                labels.append(field.name)
            elif field.kind == INPUTS:
                labels += [f"{field.name}[{i}]" for i in range(count - len(labels))]
        return labels[:count]

    def output_shapes(self, input_shapes: Sequence[Sequence[int]], attrs: dict[str, Any]) -> list[tuple[int, ...]]:
        """The output sizes for these input sizes and canonical attributes; DescriptorError naming the rule."""
        raise NotImplementedError

    @functools.cached_property
    def same_type_everywhere(self) -> bool:
        """Every tensor shares one DataType, unless the support table gives the outputs their own types."""
        return not any(row.output_types for row in self.support)

    @functools.cached_property
    def supported_types(self) -> tuple[str, ...]:
        """The input types some feature level supports, in the tables' order."""
        listed = {t for row in self.support for t in row.types}
        return tuple(t for t in ALL_TYPES if t in listed)

    def supported_types_of(self, field: str) -> tuple[str, ...]:
        """The types some feature level supports for the tensor `field`."""
        listed = {t for row in self.support for t in row.types_for(field, self.field(field).kind == OUTPUT)}
        return tuple(t for t in ALL_TYPES if t in listed)

    def output_types(self, input_types: Sequence[str], output_count: int, attrs: Mapping[str, Any]) -> list[str]:
        """The output DataTypes for canonical attributes: an output field's attribute chooses its type
        (ELEMENT_WISE_BIT_COUNT's UINT32 or UINT8); otherwise the data inputs' one type."""
        chosen = next((attrs[f.attribute] for f in self.fields if f.kind == OUTPUT and f.attribute), None)
        labels = self.input_labels(len(input_types))
        return [chosen or input_types[labels.index(self.data_label(len(input_types)))]] * output_count

    def compute(self, inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
        """The core: output arrays for checked inputs and canonical attributes."""
        raise NotImplementedError

    def check_inputs(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The input arrays checked as one call: count, dimension counts, types, the cap."""
        if isinstance(inputs, np.ndarray) or not isinstance(inputs, (list, tuple)):
            raise DescriptorError(f"inputs: expected a list of arrays, got {type(inputs).__name__}")
        self.check_arity(len(inputs))
        labels = self.input_labels(len(inputs))
        for label, array in zip(labels, inputs):
            check_tensor(array, label, dims=self.dims)
            self.check_type(type_name(array.dtype), label)
        if self.same_type_everywhere:
            data = [(label, array) for label, array in zip(labels, inputs) if label not in self.own_typed_inputs]
            first_label, first = data[0]
            for label, array in data[1:]:
                if array.dtype != first.dtype:
                    raise DescriptorError(f"{label} DataType {array.dtype}: must equal {first_label} DataType "
                                          f"{first.dtype}")
        return list(inputs)

    def attrs_with_input_types(self, inputs: Sequence[np.ndarray], attrs: Mapping[str, Any]) -> dict[str, Any]:
        """`attrs` with each input that has a type of its own giving its attribute that type: the arrays decide."""
        return {**attrs, **{self.field(label).attribute: type_name(array.dtype)
                            for label, array in zip(self.input_labels(len(inputs)), inputs)
                            if label in self.own_typed_inputs}}

    def run(self, inputs: Sequence[np.ndarray], **attrs: Any) -> list[np.ndarray]:
        """The list of output arrays of this operator on `inputs`; DescriptorError naming the field for bad input."""
        inputs = self.check_inputs(inputs)
        attrs = self.canonical_attrs(self.attrs_with_input_types(inputs, attrs))
        self.check_data_type(self.data_type_of(inputs), attrs)
        for shape in self.output_shapes([a.shape for a in inputs], attrs):
            check_element_count(shape, "OutputTensor Sizes")
        return self.compute(inputs, attrs)

    def models(self, desc: Mapping[str, Any]) -> bool:
        """Whether the core computes a dispatchable of this operator whose desc fields are `desc` (its JSON, as
        written); one it does not (UPSAMPLE_2D's LINEAR mode, which averages) is DirectML's alone, as an operator the
        registry lacks is."""
        return True

    def check_data_type(self, data_type: str, attrs: dict[str, Any]) -> None:
        """DescriptorError for attributes the call's data type cannot hold (a padding value of 300 in UINT8)."""

    def index_map(self, input_shapes: Sequence[Sequence[int]], **attrs: Any) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each output, an array of its shape holding each element's (input number, flat index in that input).

        Running the real operator on indices keeps the maps exact by construction: whatever the operator does to
        values, it does to their addresses. Operators that compute rather than move values have no index map."""
        attrs = self.canonical_attrs(attrs)
        shapes = [check_sizes(s, f"{label} Sizes", self.dims) for s, label in
                  zip(input_shapes, self.input_labels(len(input_shapes)))]
        for shape in self.output_shapes(shapes, attrs):  # the cap holds before the map is allocated
            check_element_count(shape, "OutputTensor Sizes")
        flats = self.compute([np.arange(math.prod(s), dtype=np.int64).reshape(s) for s in shapes], attrs)
        if len(shapes) == 1:  # every element comes from input 0: no need to run the operator a second time
            return [(np.zeros(flat.shape, dtype=np.int64), flat) for flat in flats]
        numbers = [np.full(s, i, dtype=np.int64) for i, s in enumerate(shapes)]
        return list(zip(self.compute(numbers, attrs), flats))

    # ------------------------------------------------------------ descriptors

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def tensor_fields(self) -> list[Field]:
        return [f for f in self.fields if f.is_tensor]

    def scalar_fields(self) -> list[Field]:
        return [f for f in self.fields if not f.is_tensor]

    def support_row(self, level: str) -> SupportRow | None:
        """The support row in force at a feature level, or None before the operator exists."""
        return row_in_force(self.support, level)

    @property
    def introduced(self) -> str:
        return self.support[0].level

    def first_level_supporting(self, data_type: str | None = None, dimension_count: int | None = None,
                               output: bool = False, field: str | None = None) -> str | None:
        return first_level_supporting(self.support, data_type, dimension_count, output, field)

    def shape_problems(self, parsed: ParsedDispatchable, path: str) -> list[Problem]:
        """Rules between the parsed descriptor's tensors beyond types and dimension counts ([Problem])."""
        return []

    def implied_output_shapes(self, input_shapes: Sequence[Sequence[int]],
                              attrs: Mapping[str, Any]) -> list[list[int]] | None:
        """The output sizes a descriptor of these settings carries even when they break a rule (which validation
        then names), or None when the settings imply no output shape at all."""
        try:
            return [list(s) for s in self.output_shapes(input_shapes, self.canonical_attrs(attrs))]
        except (DescriptorError, KeyError, TypeError):
            return None

    def dispatchable(self, input_sizes: Sequence[Sequence[int]], data_type: str, attrs: Mapping[str, Any],
                     output_sizes: Sequence[Sequence[int]] | None = None) -> dict[str, Any]:
        """The DxDispatch dispatchable {type, desc} of a call: packed inputs of `data_type` (an input with a type of its
        own, of its attribute's), outputs of the types the attributes choose, the attributes in their fields (as given:
        validation names what is wrong with them). Without `output_sizes` the output fields are left out."""
        given = {a.name: _canonical_or_given(a, attrs) for a in self.attributes}
        input_types = self.input_types(data_type, len(input_sizes), given)
        output_types = self.output_types(input_types, max(1, len(output_sizes or [])), given)
        inputs = [{"DataType": t, "Sizes": [int(s) for s in sizes]} for t, sizes in zip(input_types, input_sizes)]
        outputs = [{"DataType": output_type, "Sizes": [int(s) for s in sizes]}
                   for output_type, sizes in zip(output_types, output_sizes or [])]
        tensor_types = dict(zip(self.input_labels(len(input_sizes)), input_types))
        tensor_types.update(zip([f.name for f in self.fields if f.kind == OUTPUT], output_types))
        desc = {}
        for f in self.fields:
            if f.kind == INPUT:
                desc[f.name] = inputs.pop(0)
            elif f.kind == INPUTS:
                desc[f.name], inputs = inputs, []
            elif f.kind == OUTPUT and outputs:
                desc[f.name] = outputs.pop(0)
            elif f.kind == OUTPUTS:
                desc[f.name], outputs = outputs, []
            elif f.kind == COUNT:
                desc[f.name] = self.field_count(f, len(input_sizes), len(output_sizes or []), given)
            elif f.type_of:
                desc[f.name] = tensor_types[f.type_of]
            elif f.kind == ENUM:
                desc[f.name] = f.enum.name(given[f.attribute], f.name)
            elif f.attribute:
                value = given[f.attribute]
                if value is not None or f.kind != SCALE_BIAS:  # a null ScaleBias (_Maybenull_) is left out
                    desc[f.name] = field_json(f, value)
        return {"type": self.full_name, "desc": desc}

    def field_count(self, field: Field, input_count: int, output_count: int, attrs: Mapping[str, Any]) -> int:
        """The value of COUNT field `field`: the number of tensors in its array, or the length of its attribute
        arrays (as given: an invalid one counts 0, and validation names it)."""
        counted = self.field(field.counted[0])
        if counted.kind in (INPUTS, OUTPUTS):
            return input_count if counted.kind == INPUTS else output_count
        value = attrs.get(counted.attribute)
        return len(value) if isinstance(value, (tuple, list)) else 0

    def desc_attrs(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """The attributes that are fields of the descriptor (SPLIT's sizes live in its output descs instead)."""
        defaults = {a.name: a.default for a in self.attributes if a.default is not REQUIRED}
        return {f.attribute: attrs.get(f.attribute, defaults.get(f.attribute)) for f in self.scalar_fields()
                if f.attribute}

    def attrs_of(self, parsed: ParsedDispatchable) -> dict[str, Any]:
        """The core's attributes for a parsed descriptor, canonical: each field's value under its attribute name, and
        an output's DataType where it carries one."""
        return self.canonical_attrs({f.attribute: parsed.tensors[f.name].DataType if f.is_tensor
                                     else parsed.scalars[f.name] for f in self.fields if f.attribute})

    def call_of(self, parsed: ParsedDispatchable) -> Call:
        """The Call a parsed, valid descriptor makes."""
        inputs = [(label, desc) for label, desc, kind in parsed.tensor_list() if kind.startswith("input")]
        data_type = next(desc.DataType for label, desc in inputs if label not in self.own_typed_inputs)
        return Call.of(self.name, [d.Sizes for _, d in inputs], data_type, **self.attrs_of(parsed))

    # ------------------------------------------------------------ ONNX (the cross-check on ONNX Runtime)

    def onnx_graph(self, attrs: dict[str, Any], shapes: Sequence[Sequence[int]],
                   dtype: np.dtype) -> tuple[list, list]:
        """(nodes, initializers) of an ONNX graph computing this operator on data of `dtype`: inputs x0, x1, ...;
        outputs y0, ..."""
        raise NotImplementedError

    def onnx_missing(self, attrs: dict[str, Any]) -> str | None:
        """Why ONNX has no operator computing this call (PADDING1's SYMMETRIC mode), or None when it has one."""
        if self.onnx is None:
            return (f"ONNX has no operator computing DML_OPERATOR_{self.name} ({self.summary}), so ONNX Runtime "
                    "cannot cross-check it; DirectML itself can, where it runs")
        return None

    def reinterpreted_attrs(self, attrs: dict[str, Any], dtype: np.dtype, as_dtype: np.dtype) -> dict[str, Any]:
        """The attributes for the same call on data of `dtype` moved as `as_dtype` bit patterns of the same width (a
        padding value's bits, read as the other type)."""
        return attrs

    def onnx_text(self, attrs: dict[str, Any], input_count: int) -> str:
        """The ONNX form in words, for the cross-check's report."""
        return f"ONNX {self.onnx}"

    def widened_attrs(self, attrs: dict[str, Any], k: int, ndim: int) -> dict[str, Any]:
        """The attributes for the same call on UINT8 bytes whose last axis is `k` times longer."""
        return attrs

    def widening_note(self, k: int) -> str:
        """What `widened_attrs` changed, in words, for the report ("" when nothing)."""
        return ""

    def route_probes(self, x: np.ndarray, attrs: dict[str, Any]) -> list[tuple[list[np.ndarray], dict[str, Any]]]:
        """(inputs, attrs) of calls whose outputs hold x's bit patterns, which ONNX Runtime must give back unchanged
        before a way of running a type there is trusted: the identity call, where the operator has one."""
        return [self.identity_call(x, attrs)]

    def identity_call(self, x: np.ndarray,
                      attrs: dict[str, Any]) -> tuple[list[np.ndarray], dict[str, Any]] | None:
        """(inputs, attrs) for which the operator returns `x` (1-D), in any shape (OR(x, x); NOT(~x)): how a route
        through ONNX Runtime is checked for bit exactness before it is trusted. None for an operator no call of which
        returns its input (ELEMENT_WISE_BIT_COUNT counts bits)."""
        raise NotImplementedError

    # ------------------------------------------------------------ teaching, fixes and the layout detective
    # An operator that has them sets these from its family's teaching.py, fixes.py and detective.py; the defaults
    # are an operator with nothing to teach, fix or propose.

    def formula(self, call: Call, cell: tuple, side: str, **given: Any) -> Formula:
        """The lessons.Formula taking one element of `call` (`cell`, on `side`: "input" or "output") across, with
        its numbers substituted; `given` is what else the operator needs (BIT_OR: the element's bit patterns)."""
        raise DescriptorError(f"op {self.name}: no index formula for this operator")

    def question(self, quiz: QuizSettings, rng: np.random.Generator, kind: str) -> QuestionDraft:
        """A lessons.QuestionDraft about `quiz.call` (an ops.teaching QuizSettings), drawn with `rng`; `kind` is
        "where" (an input element's destination) or "feeds" (an output element's source)."""
        raise DescriptorError(f"op {self.name}: no questions for this operator")

    def fixes(self, input_sizes: Sequence[Sequence[int]], attrs: Mapping[str, Any]) -> Fixes:
        """The nearest valid settings (fixes.Fixes) to these, which may break the operator's rules."""
        return NONE

    def candidates(self, input_shapes: Sequence[Sequence[int]],
                   output_shapes: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
        """Attributes (dicts) under which the operator takes inputs of `input_shapes` to outputs of
        `output_shapes`: what the layout detective then checks element by element with `index_map`."""
        return []

    def inferred(self, input_shapes: Sequence[Sequence[int]], output_shapes: Sequence[Sequence[int]],
                 sources: Any, outputs: Sequence[np.ndarray]) -> list[dict[str, Any]]:
        """Attributes the detective checks for `outputs` whose elements came from `sources` (identify's: each output
        element's flat index in the inputs, -1 where none): by default the ones the shapes alone propose; an operator
        whose settings the shapes cannot tell (a slice's window and strides, a constant pad's value) reads them off
        `sources` and the outputs."""
        return self.candidates(input_shapes, output_shapes)

    def settings_attrs(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The attributes a descriptor's settings (descriptor_settings' form) hold, by the fields that carry them."""
        return {f.attribute: settings[f.name] for f in self.scalar_fields() if f.attribute and f.name in settings}

    def index_candidates(self, input_shape: Sequence[int], output_shape: Sequence[int],
                         source: np.ndarray) -> list[tuple[dict[str, Any], list[np.ndarray], dict[str, Any]]]:
        """For an operator that chooses elements by an IndicesTensor: (descriptor settings, inputs, attrs) of each
        call whose indices `source` (for each output element its flat index in the input) implies, the inputs being
        the input's flat indices and the indices; the layout detective keeps those whose run gives `source`."""
        return []

    def descriptor_settings(self, input_shapes: Sequence[Sequence[int]], attrs: dict[str, Any]) -> dict[str, Any]:
        """The call's non-tensor desc fields by name, as the layout detective reports a descriptor."""
        output_count = len(self.output_shapes(input_shapes, attrs))
        return {f.name: self.field_count(f, len(input_shapes), output_count, attrs) if f.kind == COUNT
                else attrs[f.attribute] for f in self.scalar_fields() if f.kind == COUNT or f.attribute}

    def describe(self, settings: Mapping[str, Any]) -> str:
        """descriptor_settings in words: 'DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH (CRD)'."""
        words = []
        for f in self.scalar_fields():
            if f.name in settings:
                short = f.enum.short(settings[f.name]) if f.enum else ""
                words.append(f"{f.name} {settings[f.name]}" + (f" ({short})" if short else ""))
        return f"{self.name} with {' and '.join(words)}" if words else self.name

    def channel_mix_ups(self, input_shape: Sequence[int], output_shape: Sequence[int],
                        source: np.ndarray) -> list[tuple[dict[str, Any], np.ndarray, str]]:
        """(attrs, P, applies_to) for each call that matches once the channels are permuted by P: applies_to
        "input channels" (source == op(x[:, P])) or "output channels" (source == op(x)[:, P]), where `source` holds,
        for each output element, its flat index in x."""
        return []

    def mix_up_advice(self, match: tuple[dict[str, Any], np.ndarray, str]) -> dict[str, Any]:
        """One of channel_mix_ups' matches, as the detective reports it ({"descriptor", "permutation",
        "applies_to"}), in words, with what to do about it."""
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Call:
    """One call of one operator, checked: the operator, the data type, every input's sizes and the attributes in
    canonical form (a tuple of (name, value) pairs, hashable, in the operator's order)."""

    operator: Operator
    data_type: str
    input_sizes: tuple
    attrs: tuple = ()

    @classmethod
    def of(cls, op: str | Operator, input_sizes: Sequence[int] | Sequence[Sequence[int]],
           data_type: DTypeLike = "FLOAT32", **attrs: Any) -> Call:
        """A checked Call; DescriptorError naming the field for anything the operator refuses."""
        from . import operator

        found = operator(op)
        data_type = type_name(data_type)
        if isinstance(input_sizes, (str, bytes)) or not isinstance(input_sizes, Sequence) or not input_sizes:
            raise DescriptorError(f"inputs: expected the sizes of each input, got {input_sizes!r:.60}")
        if not isinstance(input_sizes[0], Sequence):  # one input's sizes given bare
            input_sizes = [input_sizes]
        found.check_arity(len(input_sizes))
        labels = found.input_labels(len(input_sizes))
        found.check_type(data_type, found.data_label(len(input_sizes)))
        sizes = tuple(check_sizes(s, f"{label} Sizes", found.dims) for s, label in zip(input_sizes, labels))
        canonical = found.canonical_attrs(attrs)
        for shape in found.output_shapes(sizes, canonical):
            check_element_count(shape, "OutputTensor Sizes")
        return cls(found, data_type, sizes, tuple(canonical.items()))

    @property
    def op(self) -> str:
        """The operator's registry name (DEPTH_TO_SPACE1)."""
        return self.operator.name

    @property
    def attributes(self) -> dict[str, Any]:
        return dict(self.attrs)

    def attr(self, name: str) -> Any:
        return self.attributes[name]

    @property
    def dtype(self) -> np.dtype:
        return NUMPY_DTYPES[self.data_type]

    @property
    def output_sizes(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(s) for s in self.operator.output_shapes(self.input_sizes, self.attributes))

    @property
    def input_types(self) -> tuple[str, ...]:
        return tuple(self.operator.input_types(self.data_type, len(self.input_sizes), self.attributes))

    @property
    def output_types(self) -> tuple[str, ...]:
        return tuple(self.operator.output_types(self.input_types, len(self.output_sizes), self.attributes))

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return self.operator.run(inputs, **self.attributes)

    def replace(self, **changes: Any) -> Call:
        """The same call with some fields changed, checked again."""
        attrs = {**self.attributes, **changes.pop("attrs", {})}
        fields = {"op": self.op, "input_sizes": self.input_sizes, "data_type": self.data_type, **changes}
        return Call.of(fields["op"], fields["input_sizes"], fields["data_type"], **attrs)


def _canonical_or_given(attribute, attrs):
    """The attribute's canonical value, or its value as given when it has none (validation then names it)."""
    value = attrs.get(attribute.name, attribute.default)
    try:
        return value if value is REQUIRED else attribute.check(value)
    except DescriptorError:
        return value


def support_rows(operator, *rows):
    """SupportRows from (level, min_dims, max_dims, types[, source]) tuples."""
    return tuple(SupportRow(operator, *row) for row in rows)


# The seeds' own ordering of the types in their support tables.
ALL_TYPES = ("FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16",
             "UINT8")
NO_64_BIT = tuple(t for t in ALL_TYPES if not t.endswith("64"))
