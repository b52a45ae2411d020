"""A stand-in for DirectML.h, enough for g++ -fsyntax-only to check the C++ the app exports.

The tensor types and structs are DirectML.h's (microsoft/DirectML); the operator desc structs, the enums their fields
use and the DML_OPERATOR_TYPE values are written from the registry, so an operator added there is in the header, and
its export compiled, without a line here.
"""

from ops.datatypes import DML_TYPES
from ops.operators import OPERATORS
from ops.operators.base import COUNT, ENUM, INPUT, INPUTS, OUTPUT, OUTPUTS, SCALE_BIAS, UINT

_FIELD_TYPES = {INPUT: "const DML_TENSOR_DESC*", OUTPUT: "const DML_TENSOR_DESC*", INPUTS: "const DML_TENSOR_DESC*",
                OUTPUTS: "const DML_TENSOR_DESC*", COUNT: "UINT", UINT: "UINT", SCALE_BIAS: "const DML_SCALE_BIAS*"}

_TENSORS = """
#include <cstdint>
typedef unsigned int UINT; typedef uint64_t UINT64; typedef float FLOAT;
enum DML_TENSOR_DATA_TYPE { DML_TENSOR_DATA_TYPE_UNKNOWN, %s };
enum DML_TENSOR_TYPE { DML_TENSOR_TYPE_INVALID, DML_TENSOR_TYPE_BUFFER };
enum DML_TENSOR_FLAGS { DML_TENSOR_FLAG_NONE = 0, DML_TENSOR_FLAG_OWNED_BY_DML = 1 };
struct DML_BUFFER_TENSOR_DESC { DML_TENSOR_DATA_TYPE DataType; DML_TENSOR_FLAGS Flags; UINT DimensionCount;
  const UINT* Sizes; const UINT* Strides; UINT64 TotalTensorSizeInBytes; UINT GuaranteedBaseOffsetAlignment; };
struct DML_TENSOR_DESC { DML_TENSOR_TYPE Type; const void* Desc; };
struct DML_SCALE_BIAS { FLOAT Scale; FLOAT Bias; };
""" % ", ".join(f"DML_TENSOR_DATA_TYPE_{t}" for t in DML_TYPES)


def _enum_type(enum):
    return enum.prefix.removesuffix("_")


def _operator_header():
    operators = sorted(OPERATORS.values(), key=lambda op: op.code)
    enums = {f.enum for op in operators for f in op.fields if f.kind == ENUM}
    lines = [f"enum {_enum_type(e)} {{ {', '.join(e.prefix + name for name in e.names)} }};"
             for e in sorted(enums, key=_enum_type)]
    values = ", ".join(f"{op.full_name} = {op.code}" for op in operators)
    lines.append(f"enum DML_OPERATOR_TYPE {{ DML_OPERATOR_INVALID, {values} }};")
    lines.append("struct DML_OPERATOR_DESC { DML_OPERATOR_TYPE Type; const void* Desc; };")
    for op in operators:
        fields = " ".join(f"{_enum_type(f.enum) if f.kind == ENUM else _FIELD_TYPES[f.kind]} {f.name};"
                          for f in op.fields)
        lines.append(f"struct {op.desc_struct} {{ {fields} }};")
    return "\n".join(lines) + "\n"


MOCK_HEADER = _TENSORS + _operator_header()
