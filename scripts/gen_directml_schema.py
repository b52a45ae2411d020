"""Writes ops/schema/directml_table.py: every DirectML operator's desc as data, from DirectML's own sources.

The facts come from microsoft/DirectML at COMMIT (MIT) and two pages of Microsoft's documentation, each file checked
against the sha256 pinned in SOURCES before a line of it is read:

- DxDispatch/src/dxdispatch/DirectMLHelpers/DirectMLSchema.h: every DML_OPERATOR_SCHEMA (the operator's name, its
  in-place support flag, its fields in struct order with kind, type, name and optionality);
- DxDispatch/src/dxdispatch/DirectMLHelpers/GeneratedSchemaHelpers.h: the element count of every array field (see
  array_counts);
- DxDispatch/src/dxdispatch/DirectMLHelpers/SchemaHelpers.h: the C type DxDispatch writes for each field type into a
  desc (WriteOperatorDescField), hence the desc's layout; GeneratedSchemaTypes.h: the field types' order, checked;
- DxDispatch/src/model/JsonParsersGenerated.cpp: how DxDispatch reads each field from a model's JSON (its reader
  function; whether it is required, which is always the schema's not Optional (checked); the enum a UINT field
  holds; the data type field of a scalar union; the fields left null when the operator is a fused activation), the
  enums with their members in declaration order, and each operator's bind points (GetBindPoints: which tensors
  DirectML binds as inputs and outputs, in what order);
- Releases.md: the operators each feature level from 3_1 to 6_4 added;
- MicrosoftDocs/win32 desktop-src/direct3d12/dml-feature-level-history.md: the operators 2_0, 2_1, 3_0 and 3_1 added;
- MicrosoftDocs/sdk-api sdk-api-src/content/directml/ne-directml-dml_operator_type.md: DML_OPERATOR_TYPE's members
  in DirectML.h's order as of DirectML 1.0 (INVALID .. GRU), so the feature level 1_0 operators.

DML_OPERATOR_TYPE's values (DirectML.h is not in microsoft/DirectML): DirectML.h declares the members of each feature
level in one block after the previous level's (its DML_TARGET_VERSION sections), in the order the documentation lists
them, counting from INVALID = 0; DML_OPERATOR_SCATTER is an alias of DML_OPERATOR_SCATTER_ELEMENTS. The generator
numbers them so and stops unless the result agrees with ops/descriptors/partial.py's DML_OPERATOR_TYPES (DirectML.h's
order, kept by hand), the codes of the registered operators (ops.OPERATORS), and the values observed on DirectML
itself (OBSERVED_CODES).

Enum values: DirectML.h's enums count from 0 in declaration order, except DML_FEATURE_LEVEL (0xMm00 for level M_m,
as ops/runtime/directml/api.py's FEATURE_LEVEL_CODES) and the flag enums of the parser's DIRECTML FLAGS section
(NONE = 0, then one bit each in declaration order).

Run (the documentation pages saved as their text, fetched once; they are never committed):
    python scripts/gen_directml_schema.py [--directml GIT_DIR_OR_CHECKOUT] [--docs DIR] [--check]
        --directml  a bare git directory holding COMMIT, or a checkout of it (default: $DML_SCHEMA_DIRECTML, else
                    /work/.mirror/microsoft+DirectML/repo)
        --docs      the directory holding the two pages, each under its file name (default: $DML_SCHEMA_DOCS, else
                    /work/wt/schema-docs)
        --check     compare with the checked-in table instead of writing it; exit status 1 if they differ
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "ops" / "schema" / "directml_table.py"
# Where the sources are on the project's machine: the mirror of microsoft/DirectML, and the two documentation pages as
# read_file returned their text (saved outside the repository, never committed).
DEFAULT_DIRECTML = "/work/.mirror/microsoft+DirectML/repo"
DEFAULT_DOCS = "/work/wt/schema-docs"
REPO = "microsoft/DirectML"
COMMIT = "a9614e82c9226b09826d18c5e63926a774ca5ab5"
HELPERS = "DxDispatch/src/dxdispatch/DirectMLHelpers/"

# (key, repository, path, commit, sha256 of the text: a leading byte order mark removed, line ends as LF).
SOURCES = (
    ("schema", REPO, HELPERS + "DirectMLSchema.h", COMMIT,
     "87f549d79fe1d4fb056b3ba9fca519cea39b56e0c8c8edb3fe34b3bcf5ceedb1"),
    ("schema_helpers", REPO, HELPERS + "GeneratedSchemaHelpers.h", COMMIT,
     "2193bad256a70c922423fd7f3792adc06cad420e3e707747f813a2cc5b679242"),
    ("writer", REPO, HELPERS + "SchemaHelpers.h", COMMIT,
     "6f732ac62bf1951d18a8fac3d6833574105406bbe231238b47342e0afb3796b3"),
    ("schema_types", REPO, HELPERS + "GeneratedSchemaTypes.h", COMMIT,
     "5040ded683a9b8111c4b702ba36a781ca317afc1f8ed53688f3ca580a3b40056"),
    ("parsers", REPO, "DxDispatch/src/model/JsonParsersGenerated.cpp", COMMIT,
     "ab9bb66a48cfd46b202e38eec237ee12014bb35276127b23d0639429112976f2"),
    ("releases", REPO, "Releases.md", COMMIT,
     "a2e02e2a55af651d59a5e0f700eab7af8c6f07b75dd61eaab822186152d85738"),
    ("level_history", "MicrosoftDocs/win32", "desktop-src/direct3d12/dml-feature-level-history.md",
     "12241390647c9c5646a9d27e656fb1d1b020a0f0",
     "c1a19e798b526451d4aeace9482df233e1be77058fd0382bb21c49997ed6a41b"),
    ("operator_type_page", "MicrosoftDocs/sdk-api", "sdk-api-src/content/directml/ne-directml-dml_operator_type.md",
     "1f7b0a22c4201b51f763179bb58102c90ca11978",
     "b30d69229aa42719f3d0f98ebe380ce0ce6f352448399be2016c98271bde636e"),
)
DOC_KEYS = ("level_history", "operator_type_page")

# DML_OPERATOR_TYPE values seen on DirectML 1.13 on this machine (../shared/directml-linux/any-operator/README.md:
# the operator each value created and ran); the registered operators' codes are checked too.
OBSERVED_CODES = {"ELEMENT_WISE_IDENTITY": 1, "ELEMENT_WISE_ADD": 4, "ACTIVATION_ELU": 35, "CONVOLUTION": 53,
                  "GEMM": 54, "REDUCE": 55, "SLICE": 60, "SPLIT": 62, "JOIN": 63, "UPSAMPLE_2D": 66, "RNN": 76,
                  "ELEMENT_WISE_ADD1": 89, "FILL_VALUE_SEQUENCE": 104, "CUMULATIVE_PRODUCT": 145,
                  "ELEMENT_WISE_CLIP1": 153}
# DirectML.h: "DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS" (quoted in ops/descriptors/partial.py); the
# schema and DxDispatch name the operator SCATTER.
ALIASES = {"SCATTER": "SCATTER_ELEMENTS"}
# A DML_SCHEMA_FIELD list with no DML_OPERATOR_SCHEMA using it (an internal operator of DirectML's own generator).
UNUSED_FIELD_LISTS = {"RNN_ZERO"}
# The feature levels in order (ops/levels.py FEATURE_LEVELS, checked).
LEVELS = ("1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4")

# The C types DxDispatch writes into a desc (SchemaHelpers.h), on x86-64 System V as libdirectml.so for Linux is
# built: (size, alignment). Pointers are 8 bytes; Windows' BOOL is an int; DML_SIZE_2D is DirectML.h's
# struct { UINT Width; UINT Height; }; a DML_SCALAR_UNION is written as its uint64_t member (8 bytes, aligned 8).
C_TYPES = {"pointer": (8, 8), "uint32_t": (4, 4), "int32_t": (4, 4), "float": (4, 4), "uint64_t": (8, 8),
           "BOOL": (4, 4), "DML_SIZE_2D": (8, 4)}
# What a pointer field points to (one, or an array of them): DML_TENSOR_DESC and DML_OPERATOR_DESC are
# { enum Type; const void* Desc; } (16 bytes, aligned 8), DML_SCALE_BIAS is { FLOAT Scale; FLOAT Bias; }.
POINTEES = {"DML_TENSOR_DESC": (16, 8), "DML_OPERATOR_DESC": (16, 8), "DML_SCALE_BIAS": (8, 4),
            "uint32_t": (4, 4), "int32_t": (4, 4), "float": (4, 4)}

# How DxDispatch's reader functions take their arguments after (value, "Name"): "allocator", "required" (whether
# the JSON must hold the field), "fused" (the nested operator is read as a fused activation), "type_field" (a scalar
# union's data type field), "default" (an enum's default, {}).
READER_ARGS = {
    "ParseDmlTensorDescField": ("allocator", "required"),
    "ParseDmlTensorDescArrayField": ("allocator", "required"),
    "ParseDmlOperatorDescField": ("fused", "allocator", "required"),
    "ParseDmlOperatorDescArrayField": ("fused", "allocator", "required"),
    "ParseUInt32Field": ("required",),
    "ParseInt32Field": ("required",),
    "ParseFloat32Field": ("required",),
    "ParseBoolField": ("required",),
    "ParseUInt32ArrayField": ("allocator", "required"),
    "ParseInt32ArrayField": ("allocator", "required"),
    "ParseFloat32ArrayField": ("allocator", "required"),
    "ParseDmlScaleBiasField": ("allocator", "required"),
    "ParseDmlSize2dField": ("allocator", "required"),
    "ParseDmlScalarUnionField": ("type_field", "allocator", "required"),
}
ENUM_READER_ARGS = ("required", "default")
# The schema types each reader may fill (an enum reader fills UINT fields only).
READER_TYPES = {
    "ParseDmlTensorDescField": {"TENSOR_DESC"}, "ParseDmlTensorDescArrayField": {"TENSOR_DESC_ARRAY"},
    "ParseDmlOperatorDescField": {"OPERATOR_DESC"}, "ParseDmlOperatorDescArrayField": {"OPERATOR_DESC_ARRAY"},
    "ParseUInt32Field": {"UINT"}, "ParseInt32Field": {"INT"}, "ParseFloat32Field": {"FLOAT"},
    "ParseBoolField": {"BOOL", "UINT"}, "ParseUInt32ArrayField": {"UINT_ARRAY"}, "ParseInt32ArrayField": {"INT_ARRAY"},
    "ParseFloat32ArrayField": {"FLOAT_ARRAY"}, "ParseDmlScaleBiasField": {"SCALE_BIAS"},
    "ParseDmlSize2dField": {"SIZE_2D"}, "ParseDmlScalarUnionField": {"SCALAR_UNION"},
}


class SourceError(SystemExit):
    """A source is missing, is not the pinned one, or says something the generator cannot attribute."""

    def __init__(self, message):
        super().__init__(f"gen_directml_schema: {message}")


def fail(message):
    raise SourceError(message)


def normalized(data: bytes) -> str:
    """The text of a file: UTF-8, a leading byte order mark removed, line ends as LF (a page saved from the
    documentation or a checkout made on Windows hashes as the repository's file does)."""
    return data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def read_sources(directml: str, docs: str | None) -> dict[str, str]:
    """Every source's text by key, each checked against its pinned sha256; SourceError naming what is wrong."""
    directml_path = pathlib.Path(directml)
    is_git_dir = (directml_path / "objects").is_dir() and (directml_path / "HEAD").is_file()
    texts = {}
    for key, repo, path, commit, sha256 in SOURCES:
        if key in DOC_KEYS:
            if not docs:
                fail(f"{repo} {path}: give the directory holding the saved page with --docs or $DML_SCHEMA_DOCS")
            file = pathlib.Path(docs) / pathlib.PurePosixPath(path).name
            if not file.is_file():
                fail(f"{file}: missing (save {repo} {path} at {commit[:7]} there)")
            data = file.read_bytes()
        elif is_git_dir:
            shown = subprocess.run(["git", "--git-dir", str(directml_path), "show", f"{commit}:{path}"],
                                   capture_output=True)
            if shown.returncode:
                fail(f"{directml_path}: no {path} at {commit} ({shown.stderr.decode().strip()})")
            data = shown.stdout
        else:
            file = directml_path / path
            if not file.is_file():
                fail(f"{file}: missing ({directml} is neither a git directory holding {commit} nor a checkout)")
            data = file.read_bytes()
        text = normalized(data)
        if text_sha256(text) != sha256:
            fail(f"{repo} {path}: sha256 {text_sha256(text)}, not the pinned {sha256} of commit {commit}")
        texts[key] = text
    return texts


# ---------------------------------------------------------------- DirectMLSchema.h

FIELD_LIST = re.compile(r"constexpr DML_SCHEMA_FIELD DML_(\w+)_OPERATOR_SCHEMA_FIELDS\[(\d+)\] \{\n(.*?)\n\};", re.S)
FIELD = re.compile(r"DML_SCHEMA_FIELD \{ DML_SCHEMA_FIELD_KIND_(\w+), DML_SCHEMA_FIELD_TYPE_(\w+), \"(\w+)\", "
                   r"(true|false) \},")
SCHEMA = re.compile(r"constexpr DML_OPERATOR_SCHEMA DML_(\w+)_OPERATOR_SCHEMA \{\n\s*\"DML_OPERATOR_(\w+)\",\n"
                    r"\s*DML_OPERATOR_(\w+),\n\s*([\w |]+),\n\s*(\d+),\n\s*DML_(\w+)_OPERATOR_SCHEMA_FIELDS,\n\};")


def enum_members(text, name):
    """The members of a C enum `name` in `text`, in declaration order."""
    body = re.search(r"enum %s\n\{\n(.*?)\n\};" % name, text, re.S)
    if body is None:
        fail(f"enum {name} not found")
    return [line.strip().rstrip(",").split("=")[0].strip() for line in body.group(1).splitlines() if line.strip()]


def parse_schemas(text):
    """([(name, in_place, [(kind, type, field name, optional)])] in DirectMLSchema.h's order, the field types it
    declares in order)."""
    kinds = [m.removeprefix("DML_SCHEMA_FIELD_KIND_") for m in enum_members(text, "DML_SCHEMA_FIELD_KIND")]
    types = [m.removeprefix("DML_SCHEMA_FIELD_TYPE_") for m in enum_members(text, "DML_SCHEMA_FIELD_TYPE")]
    lists = {}
    for name, count, body in FIELD_LIST.findall(text):
        lines = [line.strip() for line in body.splitlines()]
        fields = [FIELD.fullmatch(line) for line in lines]
        if not all(fields) or len(fields) != int(count):
            fail(f"DML_{name}_OPERATOR_SCHEMA_FIELDS: {count} fields declared, lines not read: "
                 f"{[line for line, f in zip(lines, fields) if not f]}")
        lists[name] = [(f[1], f[2], f[3], f[4] == "true") for f in fields]
    schemas = []
    for struct, name, enum_name, flags, count, fields in SCHEMA.findall(text):
        if not struct == name == enum_name == fields:
            fail(f"DML_{struct}_OPERATOR_SCHEMA names DML_OPERATOR_{name}, {enum_name} and fields {fields}")
        if int(count) != len(lists.get(fields, ())):
            fail(f"DML_{name}_OPERATOR_SCHEMA: FieldCount {count}, field list of {len(lists.get(fields, ()))}")
        flag_names = {f.strip().removeprefix("DML_SCHEMA_OPERATOR_SUPPORT_FLAG_") for f in flags.split("|")}
        if not flag_names <= {"NONE", "IN_PLACE_EXECUTION"}:
            fail(f"DML_{name}_OPERATOR_SCHEMA: unknown support flags {flags}")
        for kind, field_type, field_name, _ in lists[fields]:
            if kind not in kinds or field_type not in types:
                fail(f"DML_{name}_OPERATOR_SCHEMA {field_name}: kind {kind} or type {field_type} not declared")
        schemas.append((name, "IN_PLACE_EXECUTION" in flag_names, lists[fields]))
    declared = len(re.findall(r"^constexpr DML_OPERATOR_SCHEMA ", text, re.M))
    if declared != len(schemas):
        fail(f"DirectMLSchema.h declares {declared} DML_OPERATOR_SCHEMAs, {len(schemas)} read")
    unused = set(lists) - {name for name, _, _ in schemas}
    if unused != UNUSED_FIELD_LISTS:
        fail(f"field lists with no schema: {sorted(unused)}, expected {sorted(UNUSED_FIELD_LISTS)}")
    return schemas, types


# ---------------------------------------------------------------- GeneratedSchemaHelpers.h, SchemaHelpers.h

GET_FIELDS = re.compile(r"inline std::vector<OperatorField> GetFields\(const DML_(\w+)_OPERATOR_DESC& desc\)\n\{\n"
                        r"    return \{\n(.*?)\n    \};\n\}", re.S)
FIELD_COPY = re.compile(r"OperatorField\(&DML_(\w+)_OPERATOR_SCHEMA\.Fields\[(\d+)\], ToOperatorFieldType\("
                        r"static_cast<([^>]+)>\(desc\.(\w+)\)(?:, desc\.(\w+))?\)\),")


def array_counts(text, schemas):
    """{operator: {array field: count field}}.

    The rule: an array's element count is the field DxDispatch's GetFields (GeneratedSchemaHelpers.h) passes beside
    it, ToOperatorFieldType(desc.Array, desc.Count), the length DxDispatch itself reads when it copies a desc. The
    count must be a UINT attribute of the same desc; an array with no count there stops the generator, and so does a
    count on a field that is not an array.
    """
    copies = {}
    for struct, body in GET_FIELDS.findall(text):
        lines = [line.strip() for line in body.splitlines()]
        matches = [FIELD_COPY.fullmatch(line) for line in lines]
        if not all(matches):
            fail(f"GetFields(DML_{struct}_OPERATOR_DESC): lines not read: "
                 f"{[line for line, m in zip(lines, matches) if not m]}")
        copies[struct] = [(m[1], int(m[2]), m[4], m[5]) for m in matches]
    counts = {}
    for name, _, fields in schemas:
        if name not in copies:
            fail(f"GeneratedSchemaHelpers.h has no GetFields(DML_{name}_OPERATOR_DESC)")
        by_name = {f[2]: f for f in fields}
        if [(s, i, n) for s, i, n, _ in copies[name]] != [(name, i, f[2]) for i, f in enumerate(fields)]:
            fail(f"GetFields(DML_{name}_OPERATOR_DESC) copies fields other than the schema's, in another order")
        counts[name] = {}
        for _, _, field, count in copies[name]:
            is_array = by_name[field][1].endswith("_ARRAY")
            if is_array and not count:
                fail(f"{name}.{field}: an array with no count in GetFields; its length cannot be attributed")
            if count and not is_array:
                fail(f"{name}.{field}: a count ({count}) on a field that is not an array")
            if count:
                if count not in by_name or by_name[count][:2] != ("ATTRIBUTE", "UINT"):
                    fail(f"{name}.{field}: its count {count} is not a UINT attribute of the desc")
                counts[name][field] = count
    if set(copies) != {name for name, _, _ in schemas}:
        fail(f"GetFields for descs with no schema: {sorted(set(copies) - {n for n, _, _ in schemas})}")
    return counts


def field_c_types(writer_text, schema_types_text, types):
    """{field type: the C type DxDispatch writes for it into a desc}, from WriteOperatorDescField (SchemaHelpers.h);
    GeneratedSchemaTypes.h's variant must list the field types in DirectMLSchema.h's order."""
    variant = re.findall(r"// DML_SCHEMA_FIELD_TYPE_(\w+)", schema_types_text)
    if variant != types:
        fail(f"GeneratedSchemaTypes.h lists the field types {variant}, DirectMLSchema.h {types}")
    written = {}
    for field_type, body in re.findall(r"case DML_SCHEMA_FIELD_TYPE_(\w+):\n\s*\{(.*?)\} break;", writer_text, re.S):
        target = re.search(r"dst->Write\((\w+)\);", body)
        declared = target and re.search(r"^\s*([A-Za-z_]\w*\s*\*?)\s*\b%s\s*=" % target[1], body, re.M)
        if not declared:
            fail(f"SchemaHelpers.h: what DML_SCHEMA_FIELD_TYPE_{field_type} writes is not read")
        written[field_type] = declared[1].replace(" ", "")
    if set(written) != set(types):
        fail(f"SchemaHelpers.h writes the field types {sorted(written)}, DirectMLSchema.h declares {types}")
    layouts = {}
    for field_type in types:
        c_type = written[field_type]
        pointee = c_type[:-1] if c_type.endswith("*") else None
        if pointee is not None and pointee not in POINTEES:
            fail(f"{field_type}: a pointer to {pointee}, whose layout this generator does not know")
        if pointee is None and c_type not in C_TYPES:
            fail(f"{field_type}: C type {c_type}, whose layout this generator does not know")
        size, align = C_TYPES["pointer" if pointee else c_type]
        element_size, element_align = POINTEES[pointee] if pointee else (0, 0)
        layouts[field_type] = {"c_type": c_type, "size": size, "align": align, "pointee": pointee,
                               "pointee_size": element_size, "pointee_align": element_align,
                               "array": field_type.endswith("_ARRAY")}
    return layouts


# ---------------------------------------------------------------- JsonParsersGenerated.cpp

SECTION = re.compile(r"// =+\n// DIRECTML (\w+)\n// =+\n")
ENUM_PARSER = re.compile(r"^(\w+) (Parse\w+)\(const rapidjson::Value& value\)\n\{\n(.*?)\n\}", re.S | re.M)
ENUM_MEMBER = re.compile(r'if \(!strcmp\(valueString, "(\w+)"\) \|\| !strcmp\(valueString, "(\w+)"\)\) '
                         r"\{ return (\w+); \}")
FIELD_READER = re.compile(r"^(\w+) (Parse\w+Field)\(const rapidjson::Value& object, ", re.M)
OPERATOR_PARSER = re.compile(r"DML_OPERATOR_DESC\* ParseDml\w+OperatorDesc\(const rapidjson::Value& value, bool fused, "
                             r"BucketAllocator& allocator\)\n\{\n(.*?)\n\}", re.S)
ASSIGNMENT = re.compile(r"desc->(\w+) = (fused \? nullptr : )?(AsPointer\()?(\*)?(Parse\w+)\(value, \"(\w+)\"(.*?)\)"
                        r"(\))?( \? 1 : 0)?;")
BIND_POINTS = re.compile(r"BindPoints GetBindPoints\(const DML_(\w+)_OPERATOR_DESC& desc\)\n\{\n(.*?)\n\}", re.S)
BIND_POINT = re.compile(r'bindPoints\.(inputs|outputs)\.push_back\(\{"(\w+)", (1|desc\.(\w+)), (true|false)\}\);')


def parse_enums(text):
    """({enum: {"prefix", "flags", "members"}} in the parser's order, {reader function: enum}, the operators
    DxDispatch reads a desc of).

    Values: declaration order from 0; DML_FEATURE_LEVEL's are 0xMm00; in a flag enum NONE is 0 and each later member
    the next bit (see the module's docstring)."""
    sections = SECTION.split(text)
    by_section = dict(zip(sections[1::2], sections[2::2]))
    if set(by_section) != {"ENUMS", "FLAGS", "OPERATORS"}:
        fail(f"JsonParsersGenerated.cpp sections: {sorted(by_section)}")
    enums = {}
    for section in ("ENUMS", "FLAGS"):
        for enum, function, body in ENUM_PARSER.findall(by_section[section]):
            if section == "FLAGS" and not function.startswith("ParseSingleFlagFrom"):
                continue  # ParseDml<Flags>(value): the OR of single flags, parsed by the function above it
            lines = [line.strip() for line in body.splitlines() if "strcmp" in line]
            members = [ENUM_MEMBER.fullmatch(line) for line in lines]
            if not members or not all(members):
                fail(f"{function}: members not read: {[line for line, m in zip(lines, members) if not m]}")
            names = []
            for full, short, returned in (m.groups() for m in members):
                if full != returned or not full.endswith("_" + short):
                    fail(f"{function}: {full!r} / {short!r} returns {returned}")
                names.append(short)
            prefixes = {m[1][: -len(m[2])] for m in members}
            if len(prefixes) != 1:
                fail(f"{enum}: members with different prefixes {sorted(prefixes)}")
            if enum == "DML_OPERATOR_TYPE":
                continue  # its values are DirectML.h's order, which this parser does not keep (see operator_codes)
            if section == "FLAGS":
                if names[0] != "NONE":
                    fail(f"{enum}: a flag enum whose first member is {names[0]}, not NONE")
                values = [0] + [1 << i for i in range(len(names) - 1)]
            elif enum == "DML_FEATURE_LEVEL":
                values = [int(major) << 12 | int(minor) << 8 for major, minor in (n.split("_") for n in names)]
            else:
                values = list(range(len(names)))
            enums[enum] = {"prefix": prefixes.pop(), "flags": section == "FLAGS",
                           "members": tuple(zip(names, values))}
    readers = {function: enum for enum, function in FIELD_READER.findall(text) if enum in enums}
    # The operators a dispatchable's "type" may name: ParseDmlOperatorDesc's list (DxDispatch's enum parser
    # ParseDmlOperatorType, used by nothing, lacks ROI_ALIGN_GRAD at this commit).
    operator_types = re.findall(r'if \(!strcmp\(type, "DML_OPERATOR_(\w+)"\) \|\| !strcmp\(type, "\1"\)\) '
                                r"return ParseDml\w+OperatorDesc\(descValue, fused, allocator\);", text)
    return enums, readers, operator_types


def parse_readers(text, enum_readers):
    """{operator: [(field, reader, required, enum, type field, nulled when fused)]} in the order DxDispatch reads the
    desc, and {operator: {"inputs": [(field, count field, required)], "outputs": [...]}} (GetBindPoints)."""
    readers = {}
    for body in OPERATOR_PARSER.findall(text):
        struct = re.search(r"Allocate<DML_(\w+)_OPERATOR_DESC>\(\);", body)
        typed = re.search(r"opDesc->Type = DML_OPERATOR_(\w+);", body)
        if not struct or not typed or struct[1] != typed[1]:
            fail(f"an operator parser allocating {struct and struct[1]} and typing {typed and typed[1]}")
        name = struct[1]
        lines = [line.strip() for line in body.splitlines() if line.strip().startswith("desc->")]
        fields = []
        for line in lines:
            m = ASSIGNMENT.fullmatch(line)
            if not m or m[1] != m[6] or bool(m[3]) != bool(m[8]):
                fail(f"{name}: DxDispatch's reading not understood: {line}")
            field, nulled, reader, rest = m[1], bool(m[2]), m[5], m[7]
            args = [a.strip() for a in rest.split(",")][1:] if rest else []
            expected = ENUM_READER_ARGS if reader in enum_readers else READER_ARGS.get(reader)
            if expected is None or len(args) != len(expected):
                fail(f"{name}.{field}: reader {reader} with arguments {args} not understood")
            named = dict(zip(expected, args))
            if named.get("allocator", "allocator") != "allocator" or named.get("default", "{}") != "{}":
                fail(f"{name}.{field}: arguments {args} not understood")
            if named.get("fused", "true") != "true":
                fail(f"{name}.{field}: a nested operator not read as a fused activation")
            type_field = named.get("type_field", '""').strip('"') or None
            fields.append((field, reader, named["required"] == "true", enum_readers.get(reader), type_field, nulled))
        readers[name] = fields
    bind_points = {}
    for name, body in BIND_POINTS.findall(text):
        lines = [line.strip() for line in body.splitlines() if "push_back" in line]
        points = [BIND_POINT.fullmatch(line) for line in lines]
        if not all(points):
            fail(f"GetBindPoints(DML_{name}_OPERATOR_DESC): lines not read")
        bind_points[name] = {side: [(p[2], p[4], p[5] == "true") for p in points if p[1] == side]
                             for side in ("inputs", "outputs")}
    return readers, bind_points


# ---------------------------------------------------------------- feature levels and DML_OPERATOR_TYPE

LEVEL_INTRO = re.compile(r"Introduce[sd]? .*?DML_FEATURE_LEVEL[ _](\d)[._](\d)")
NEW_OPERATORS = re.compile(r"^\s*- (?:Adds|Added) (\d+) new operators(:|\.)$")
ONE_NEW_OPERATOR = re.compile(r"^\s*- Added DML_OPERATOR_(\w+)\.$")
LIST_ITEM = re.compile(r"^\s*- DML_OPERATOR_(\w+),?(?: \(.*\))?$")


def releases_levels(text):
    """({level: [operators it added, in order]}, [(levels, count)] for releases that give only a count), from
    Releases.md: a release's block opens at a line introducing a feature level; an operator is new there when it is
    an item of the list under "Adds/Added N new operators:" (N checked) or alone in "Added DML_OPERATOR_X.". Other
    mentions (operators updated, made fusable, given types) are not additions."""
    added, counted = {}, []
    level = None
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("# "):
            level = None
        intro = LEVEL_INTRO.search(line)
        if intro:
            levels = [f"{a}_{b}" for a, b in re.findall(r"DML_FEATURE_LEVEL[ _](\d)[._](\d)", line)]
            level = levels[0] if len(levels) == 1 else tuple(levels)
        new = NEW_OPERATORS.match(line)
        if new and level is not None:
            if new[2] == ".":  # a count with no list (DirectML 1.1.0, 1.4.0)
                counted.append((level if isinstance(level, tuple) else (level,), int(new[1])))
                continue
            items = []
            for following in lines[number + 1:]:
                item = LIST_ITEM.match(following)
                if not item:
                    break
                items.append(item[1])
            if len(items) != int(new[1]):
                fail(f"Releases.md: {level} adds {new[1]} operators, {len(items)} listed: {items}")
            added.setdefault(level, []).extend(items)
        one = ONE_NEW_OPERATOR.match(line)
        if one and level is not None:
            added.setdefault(level, []).append(one[1])
        if new and level is None:
            fail(f"Releases.md line {number + 1}: new operators outside a feature level's block")
    return added, counted


def history_levels(text):
    """{level: [operators it added, in order]} from the feature-level history page: in each level's section, the
    bullet list right after "Added support for the following ... operators"."""
    added = {}
    for level, body in re.findall(r"^## DML_FEATURE_LEVEL_(\d_\d)\n(.*?)(?=^## |\Z)", text, re.S | re.M):
        lines = body.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("Added support for the following")]
        if len(starts) > 1:
            fail(f"feature level history: {level} has {len(starts)} lists of added operators")
        items = []
        for line in lines[starts[0] + 1:] if starts else []:
            item = re.fullmatch(r"\* \*\*DML_OPERATOR_(\w+)\*\*", line)
            if not item and (items or line):
                break
            if item:
                items.append(item[1])
        if starts and not items:
            fail(f"feature level history: {level}'s list of added operators not read")
        if items:
            added[level] = items
    return added


def operator_type_page(text):
    """DML_OPERATOR_TYPE's members as the page lists them (its ### -field headings), INVALID first."""
    members = re.findall(r"^### -field DML_OPERATOR_(\w+)$", text, re.M)
    if not members or members[0] != "INVALID":
        fail("the DML_OPERATOR_TYPE page: members not read")
    return members


def operator_codes(levels_added, page_members):
    """{member: DML_OPERATOR_TYPE value}: the 1_0 members in the page's order from INVALID = 0, then each later
    level's additions in order, an alias taking its target's value."""
    order = list(page_members)
    for level in LEVELS[1:]:
        order += levels_added.get(level, [])
    codes, value = {}, 0
    for member in order:
        if member in codes:
            fail(f"DML_OPERATOR_{member} listed twice")
        if member in ALIASES:
            codes[member] = codes[ALIASES[member]]
            continue
        codes[member] = value
        value += 1
    return codes


def combined_levels(releases, history, counted, page_members):
    """{level: operators added} from Releases.md (3_1 on) and the history page (2_0 to 3_1), which must agree where
    both speak (3_1) and with Releases.md's bare counts."""
    both = set(releases) & set(history)
    for level in both:
        if releases[level] != history[level]:
            fail(f"{level}: Releases.md adds {releases[level]}, the history page {history[level]}")
    added = {**history, **releases}
    for levels, count in counted:
        listed = sum(len(added.get(level, ())) for level in levels)
        if listed != count:
            fail(f"Releases.md: {'+'.join(levels)} add {count} operators; the lists hold {listed}")
    unknown = set(added) - set(LEVELS)
    if unknown:
        fail(f"unknown feature levels {sorted(unknown)}")
    seen = set(page_members)
    for level in LEVELS[1:]:
        again = seen & set(added.get(level, ()))
        if again:
            fail(f"{level} adds {sorted(again)}, added before")
        seen |= set(added.get(level, ()))
    return added


# ---------------------------------------------------------------- the cross-checks with this project

def project_facts():
    """What this project already states: partial.py's DML_OPERATOR_TYPES (DirectML.h's order), the registry's codes,
    the feature levels, the worker's DML_TENSOR_DATA_TYPE values and DML_FEATURE_LEVEL codes."""
    sys.path.insert(0, str(ROOT))
    import ops
    from ops.descriptors import partial
    from ops.runtime.directml import api

    return {"partial": tuple(partial.DML_OPERATOR_TYPES), "partial_aliases": dict(partial._DESC_ALIASES),
            "registry": {name: op.code for name, op in ops.OPERATORS.items()}, "levels": tuple(ops.FEATURE_LEVELS),
            "data_types": dict(api.DATA_TYPES), "level_codes": tuple(api.FEATURE_LEVEL_CODES)}


def cross_check(codes, schemas, parser_operator_types, enums, facts):
    names = [name for name, _, _ in schemas]
    if facts["levels"] != LEVELS:
        fail(f"ops.FEATURE_LEVELS {facts['levels']} is not {LEVELS}")
    partial_order = [name for name in facts["partial"] if name not in ALIASES]
    derived_order = [name for name in codes if name != "INVALID" and name not in ALIASES]
    if partial_order != derived_order:
        first = next(i for i, (a, b) in enumerate(zip(partial_order + [None], derived_order + [None])) if a != b)
        fail(f"DML_OPERATOR_TYPE order: partial.py has {partial_order[first:first + 3]} at value {first + 1}, the "
             f"documentation {derived_order[first:first + 3]}")
    if ALIASES != facts["partial_aliases"]:
        fail(f"aliases {ALIASES} disagree with partial.py's {facts['partial_aliases']}")
    for source, known in (("observed on DirectML", OBSERVED_CODES), ("ops.OPERATORS", facts["registry"])):
        for name, code in known.items():
            if codes.get(name) != code:
                fail(f"DML_OPERATOR_{name}: {code} {source}, {codes.get(name)} derived")
    if set(parser_operator_types) != set(names):
        fail(f"DxDispatch's ParseDmlOperatorDesc and the schemas know different operators: "
             f"{sorted(set(parser_operator_types) ^ set(names))}")
    missing = set(names) - set(codes)
    if missing:
        fail(f"schemas with no DML_OPERATOR_TYPE value: {sorted(missing)}")
    data_types = {name: value for name, value in enums["DML_TENSOR_DATA_TYPE"]["members"]}
    if any(data_types.get(name) != value for name, value in facts["data_types"].items()):
        fail(f"DML_TENSOR_DATA_TYPE {data_types} disagrees with the worker's {facts['data_types']}")
    level_codes = tuple(value for _, value in enums["DML_FEATURE_LEVEL"]["members"])
    if level_codes != facts["level_codes"][:len(level_codes)]:
        fail(f"DML_FEATURE_LEVEL {level_codes} disagrees with the worker's {facts['level_codes']}")


# ---------------------------------------------------------------- the table

FIELD_COLUMNS = ("name", "kind", "type", "optional", "reader", "enum", "count_field", "scalar_union_type_field",
                 "nulled_when_fused")
WIDTH = 120
OPERATOR_COLUMNS = ("name", "code", "level", "in_place", "activation", "fields", "bind_inputs", "bind_outputs")


def short_reader(function):
    """A reader's name as the table keeps it: ParseDmlTensorDescField -> DmlTensorDesc (ops.schema puts the Parse
    and Field back)."""
    return function.removeprefix("Parse").removesuffix("Field")


def build_table(texts, facts):
    schemas, types = parse_schemas(texts["schema"])
    counts = array_counts(texts["schema_helpers"], schemas)
    layouts = field_c_types(texts["writer"], texts["schema_types"], types)
    enums, enum_readers, parser_operator_types = parse_enums(texts["parsers"])
    readers, bind_points = parse_readers(texts["parsers"], enum_readers)
    releases, counted = releases_levels(texts["releases"])
    history = history_levels(texts["level_history"])
    page_members = operator_type_page(texts["operator_type_page"])
    added = combined_levels(releases, history, counted, page_members)
    codes = operator_codes(added, page_members)
    cross_check(codes, schemas, parser_operator_types, enums, facts)
    level_of = {name: "1_0" for name in page_members[1:]}
    level_of.update({name: level for level, names in added.items() for name in names})
    level_source = {level: "releases" if level in releases else "level_history" for level in added}
    level_source["1_0"] = "operator_type_page"

    operators = []
    for name, in_place, fields in schemas:
        read = readers.get(name)
        if read is None or [r[0] for r in read] != [f[2] for f in fields]:
            fail(f"{name}: DxDispatch reads the fields {read and [r[0] for r in read]}, the schema has "
                 f"{[f[2] for f in fields]}")
        rows = []
        for (kind, field_type, field, optional), (_, reader, required, enum, type_field, nulled) in zip(fields, read):
            allowed = {"UINT"} if enum else READER_TYPES[reader]
            if field_type not in allowed:
                fail(f"{name}.{field}: a {field_type} field read by {reader}")
            if nulled != (kind != "ATTRIBUTE"):
                fail(f"{name}.{field}: left null when fused: {nulled}, but a {kind} field")
            if type_field is not None:
                sibling = next((r for r in read if r[0] == type_field), None)
                if sibling is None or sibling[3] != "DML_TENSOR_DATA_TYPE":
                    fail(f"{name}.{field}: its data type field {type_field} is not a DML_TENSOR_DATA_TYPE field")
            if required == optional:
                fail(f"{name}.{field}: optional in the schema is {optional}, DxDispatch's required {required}")
            rows.append((field, kind, field_type, optional, short_reader(reader), enum, counts[name].get(field),
                         type_field, nulled))
        points = bind_points.get(name)
        for side, kind in (("inputs", "INPUT_TENSOR"), ("outputs", "OUTPUT_TENSOR")):
            tensors = [(f, counts[name].get(f), not o) for k, _, f, o in fields if k == kind]
            if points is None or points[side] != tensors:
                fail(f"{name}: GetBindPoints binds {side} {points and points[side]}, the schema's tensors are "
                     f"{tensors} (name, count, required)")
        if name not in level_of:
            fail(f"{name}: no feature level introduces it")
        activation = name.startswith("ACTIVATION_") and not name.endswith("_GRAD")
        operators.append((name, codes[name], level_of[name], in_place, activation, tuple(rows),
                          tuple(f for f, _, _ in points["inputs"]), tuple(f for f, _, _ in points["outputs"])))
    schema_codes = {op[1] for op in operators}
    without_schema = {m: c for m, c in codes.items() if c not in schema_codes and m != "INVALID"}
    if set(without_schema) != set(added.get("6_4", ())):
        fail(f"DML_OPERATOR_TYPEs with no schema {sorted(without_schema)}: expected only 6_4's additions")
    enum_column = FIELD_COLUMNS.index("enum")
    referenced = {row[enum_column] for op in operators for row in op[5] if row[enum_column]}
    if not referenced <= set(enums):
        fail(f"enums read but not parsed: {sorted(referenced - set(enums))}")

    sources = tuple({"key": key, "repo": repo, "path": path, "commit": commit, "sha256": sha256}
                    for key, repo, path, commit, sha256 in SOURCES)
    data = {
        "SOURCES": sources,
        "LEVEL_SOURCES": dict(sorted(level_source.items())),
        "FIELD_TYPES": layouts,
        "ENUMS": enums,
        "OPERATOR_TYPES": {member: code for member, code in sorted(codes.items(), key=lambda item: item[1])},
        "OPERATOR_TYPE_ALIASES": dict(ALIASES),
        "FIELD_COLUMNS": FIELD_COLUMNS,
        "OPERATOR_COLUMNS": OPERATOR_COLUMNS,
        "OPERATORS": tuple(sorted(operators, key=lambda op: op[1])),
    }
    return data


def content_sha256(data):
    """The sha256 of the table's data, serialized canonically (sorted keys, tuples as lists): what CI checks when
    the sources are absent."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def literal(value, indent=0, before=0):
    """`value` as a Python literal on one line if it fits in WIDTH after `indent` spaces and `before` characters (and
    a comma), else one item per line."""
    text = repr(value)
    if indent + before + len(text) + 1 <= WIDTH or not isinstance(value, (dict, tuple)) or not value:
        return text
    inner = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{inner}{key!r}: {literal(item, indent + 4, len(repr(key)) + 2)}," for key, item in value.items()]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{inner}{literal(item, indent + 4)}," for item in value]
    return "(\n" + "\n".join(items) + "\n" + " " * indent + ")"


def operators_literal(operators):
    """OPERATORS with one line per operator's scalars and one per field."""
    lines = ["("]
    for name, code, level, in_place, activation, fields, inputs, outputs in operators:
        lines.append(f"    ({name!r}, {code}, {level!r}, {in_place}, {activation}, (")
        lines += [f"        {literal(field, 8)}," for field in fields]
        closing = f"    ), {inputs!r}, {outputs!r}),"
        if len(closing) > WIDTH:
            closing = f"    ),\n        {literal(inputs, 8)},\n        {literal(outputs, 8)}),"
        lines.append(closing)
    return "\n".join(lines + [")"])


def module_text(data):
    activations = sum(op[4] for op in data["OPERATORS"])
    lines = [
        '"""DirectML\'s operator schema as data. Generated by scripts/gen_directml_schema.py: do not edit; regenerate.',
        "",
        f"{len(data['OPERATORS'])} operator schemas ({len(data['OPERATORS']) - activations} operators and "
        f"{activations} activations, ACTIVATION_* but ACTIVATION_RELU_GRAD),",
        f"{len(data['ENUMS'])} enums, the C layout of the {len(data['FIELD_TYPES'])} field types. Sources "
        "(repository, path, commit, sha256 of the text):",
        "",
    ]
    for source in data["SOURCES"]:
        lines.append(f"- {source['repo']} {source['path']}")
        lines.append(f"  @{source['commit']} sha256 {source['sha256']}")
    lines += [
        "",
        "DirectMLSchema.h gives each operator's fields (name, kind, type, optional) and in-place flag;",
        "GeneratedSchemaHelpers.h each array's count field; SchemaHelpers.h the C type written for each field type;",
        "JsonParsersGenerated.cpp DxDispatch's reader and required flag for each field, the enum a UINT holds, a",
        "scalar union's data type field, the fields left null in a fused activation, the enums and the bind points.",
        "Feature levels: LEVEL_SOURCES names the source of each level's additions. DML_OPERATOR_TYPE values: each",
        "level's additions numbered in order after the previous level's (see the generator), checked against",
        "ops/descriptors/partial.py, the registry and values observed on DirectML. The API is ops/schema/__init__.py.",
        '"""',
        "",
    ]
    for name, value in data.items():
        text = operators_literal(value) if name == "OPERATORS" else literal(value, 0, len(name) + 3)
        lines += [f"{name} = {text}", ""]
    lines.append(f"CONTENT_SHA256 = {content_sha256(data)!r}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directml", default=os.environ.get("DML_SCHEMA_DIRECTML", DEFAULT_DIRECTML))
    parser.add_argument("--docs", default=os.environ.get("DML_SCHEMA_DOCS", DEFAULT_DOCS))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = module_text(build_table(read_sources(args.directml, args.docs), project_facts()))
    if args.check:
        if OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} differs from what the pinned sources give; run "
                  "scripts/gen_directml_schema.py", file=sys.stderr)
            return 1
        print(f"{OUT.relative_to(ROOT)} is what the pinned sources give")
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
