"""A stand-in for DirectML.h, enough for g++ -fsyntax-only to check the C++ the app exports.

Written from DirectML's schema as data (ops.schema): every enum with its values, DML_OPERATOR_TYPE, and every
operator's desc struct field by field, so any operator the schema holds is in the header and its export compiled,
without a line here. The tensor, ScaleBias, Size2D and scalar-union types and the Windows typedefs they use are
DirectML.h's (microsoft/DirectML), written once below.
"""

from ops import schema

_BASE = """
#include <cmath>
#include <cstdint>
typedef unsigned int UINT; typedef uint64_t UINT64; typedef int32_t INT; typedef float FLOAT; typedef double DOUBLE;
typedef int BOOL; typedef uint8_t BYTE; typedef int8_t INT8; typedef uint8_t UINT8; typedef int16_t INT16;
typedef uint16_t UINT16; typedef int32_t INT32; typedef uint32_t UINT32; typedef int64_t INT64;
#define TRUE 1
#define FALSE 0
"""

_STRUCTS = """
struct DML_BUFFER_TENSOR_DESC { DML_TENSOR_DATA_TYPE DataType; DML_TENSOR_FLAGS Flags; UINT DimensionCount;
  const UINT* Sizes; const UINT* Strides; UINT64 TotalTensorSizeInBytes; UINT GuaranteedBaseOffsetAlignment; };
struct DML_TENSOR_DESC { DML_TENSOR_TYPE Type; const void* Desc; };
struct DML_OPERATOR_DESC { DML_OPERATOR_TYPE Type; const void* Desc; };
struct DML_SCALE_BIAS { FLOAT Scale; FLOAT Bias; };
struct DML_SIZE_2D { UINT Width; UINT Height; };
union DML_SCALAR_UNION { BYTE Bytes[8]; INT8 Int8; UINT8 UInt8; INT16 Int16; UINT16 UInt16; INT32 Int32;
  UINT32 UInt32; INT64 Int64; UINT64 UInt64; FLOAT Float32; DOUBLE Float64; };
"""

# Each field type as DirectML.h declares it (a UINT holding an enum is declared as the enum, and the UINT fields
# DxDispatch reads as true/false are BOOLs there).
_C_TYPES = {"TENSOR_DESC": "const DML_TENSOR_DESC*", "TENSOR_DESC_ARRAY": "const DML_TENSOR_DESC*",
            "OPERATOR_DESC": "const DML_OPERATOR_DESC*", "OPERATOR_DESC_ARRAY": "const DML_OPERATOR_DESC*",
            "UINT": "UINT", "UINT64": "UINT64", "INT": "INT", "FLOAT": "FLOAT", "UINT_ARRAY": "const UINT*",
            "INT_ARRAY": "const INT*", "FLOAT_ARRAY": "const FLOAT*", "SCALE_BIAS": "const DML_SCALE_BIAS*",
            "SIZE_2D": "DML_SIZE_2D", "SCALAR_UNION": "DML_SCALAR_UNION", "BOOL": "BOOL"}


def _field_type(field):
    if field.enum is not None:
        return field.enum
    return "BOOL" if field.reader == "ParseBoolField" else _C_TYPES[field.type]


def _enums():
    lines = [f"enum {name} {{ {', '.join(f'{enum.prefix}{member} = {value}' for member, value in enum.members)} }};"
             for name, enum in schema.ENUMS.items()]
    values = ", ".join(f"{schema.PREFIX}{name} = {value}" for name, value in schema.OPERATOR_TYPES.items())
    lines.append(f"enum DML_OPERATOR_TYPE {{ {values} }};")
    return "\n".join(lines) + "\n"


def _descs():
    return "".join(f"struct {s.desc_struct} {{ {' '.join(f'{_field_type(f)} {f.name};' for f in s.fields)} }};\n"
                   for s in schema.SCHEMAS.values())


MOCK_HEADER = _BASE + _enums() + _STRUCTS + _descs()
