"""Real DxDispatch models, partially: what this project models in a model, and a run of the part it can run.

`ops.run_model` stays strict: anything the core cannot run raises DescriptorError. Most real DxDispatch models mix
the operators the core models with others (ELEMENT_WISE_ADD, GEMM, CONVOLUTION, HLSL shaders, ONNX models), so
`inspect_model` lists every resource and dispatchable with a status:

- VALID ("modelled, valid"): an operator the core models, valid by the registry's rules; the core and DirectML
  compute it;
- DIRECTML_ONLY: any other DirectML operator, valid by what DirectML's schema knows (field types, required fields,
  array counts, enum values, the level that introduced it); only DirectML computes it and judges its own rules;
- INVALID: a resource or DirectML operator refused, with every broken rule;
- NOT_MODELLED: DxDispatch's other dispatchables (HLSL shaders, ONNX models, serialized graphs), buffers read from
  files, operators with no schema in DxDispatch; UNKNOWN_KIND: a type that names nothing DxDispatch knows.

`run_model_partial` runs the commands on the core in order up to the first dispatch it cannot run, then says why each
later command was skipped. Nothing is computed for what the core does not run: a buffer such a dispatch may write is
unknown from there on.

Everything is decided by the strict loader itself (`load_model`, `validate_problems`, `run_model_detailed`) on the
parts of the model that are modelled, so the partial run can never disagree with a strict run of the same part.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field

from ..errors import DescriptorError
from ..guard import element_cap
from ..levels import OPERATOR_PREFIX, level_index
from ..tensor_desc import join_path
from .dxdispatch import load_model, parse_model_text, refused_dispatchables, resource_bytes, run_model_detailed
from .operator_desc import operator_schema
from .validate import modelled_operator, validate_problems

VALID = "modelled, valid"  # the core computes it, and DirectML
DIRECTML_ONLY = "DirectML only"  # an operator the core does not model, valid as far as DirectML's schema knows
INVALID = "invalid"
NOT_MODELLED = "not modelled here"  # HLSL, ONNX, serialized graphs, files: neither the core nor DirectML's operators
UNKNOWN_KIND = "unknown kind"  # a dispatchable that is neither a DirectML operator nor one DxDispatch knows
LOAD_LEVEL = "6_4"  # the level the strict loader validates at

# DML_OPERATOR_TYPE in DirectML.h (DirectML 1.15, DML_TARGET_VERSION 0x6400), in its order, without the DML_OPERATOR_
# prefix and DML_OPERATOR_INVALID. DxDispatch's parser accepts the full name or this suffix (DxDispatch/doc/Guide.md,
# "Abbreviated Enum Values"); a type outside this list is no DirectML operator at all.
DML_OPERATOR_TYPES = tuple("""
ELEMENT_WISE_IDENTITY ELEMENT_WISE_ABS ELEMENT_WISE_ACOS ELEMENT_WISE_ADD ELEMENT_WISE_ASIN ELEMENT_WISE_ATAN
ELEMENT_WISE_CEIL ELEMENT_WISE_CLIP ELEMENT_WISE_COS ELEMENT_WISE_DIVIDE ELEMENT_WISE_EXP ELEMENT_WISE_FLOOR
ELEMENT_WISE_LOG ELEMENT_WISE_LOGICAL_AND ELEMENT_WISE_LOGICAL_EQUALS ELEMENT_WISE_LOGICAL_GREATER_THAN
ELEMENT_WISE_LOGICAL_LESS_THAN ELEMENT_WISE_LOGICAL_NOT ELEMENT_WISE_LOGICAL_OR ELEMENT_WISE_LOGICAL_XOR
ELEMENT_WISE_MAX ELEMENT_WISE_MEAN ELEMENT_WISE_MIN ELEMENT_WISE_MULTIPLY ELEMENT_WISE_POW ELEMENT_WISE_CONSTANT_POW
ELEMENT_WISE_RECIP ELEMENT_WISE_SIN ELEMENT_WISE_SQRT ELEMENT_WISE_SUBTRACT ELEMENT_WISE_TAN ELEMENT_WISE_THRESHOLD
ELEMENT_WISE_QUANTIZE_LINEAR ELEMENT_WISE_DEQUANTIZE_LINEAR ACTIVATION_ELU ACTIVATION_HARDMAX ACTIVATION_HARD_SIGMOID
ACTIVATION_IDENTITY ACTIVATION_LEAKY_RELU ACTIVATION_LINEAR ACTIVATION_LOG_SOFTMAX ACTIVATION_PARAMETERIZED_RELU
ACTIVATION_PARAMETRIC_SOFTPLUS ACTIVATION_RELU ACTIVATION_SCALED_ELU ACTIVATION_SCALED_TANH ACTIVATION_SIGMOID
ACTIVATION_SOFTMAX ACTIVATION_SOFTPLUS ACTIVATION_SOFTSIGN ACTIVATION_TANH ACTIVATION_THRESHOLDED_RELU CONVOLUTION
GEMM REDUCE AVERAGE_POOLING LP_POOLING MAX_POOLING ROI_POOLING SLICE CAST SPLIT JOIN PADDING VALUE_SCALE_2D
UPSAMPLE_2D GATHER SPACE_TO_DEPTH DEPTH_TO_SPACE TILE TOP_K BATCH_NORMALIZATION MEAN_VARIANCE_NORMALIZATION
LOCAL_RESPONSE_NORMALIZATION LP_NORMALIZATION RNN LSTM GRU
ELEMENT_WISE_SIGN ELEMENT_WISE_IS_NAN ELEMENT_WISE_ERF ELEMENT_WISE_SINH ELEMENT_WISE_COSH ELEMENT_WISE_TANH
ELEMENT_WISE_ASINH ELEMENT_WISE_ACOSH ELEMENT_WISE_ATANH ELEMENT_WISE_IF ELEMENT_WISE_ADD1 ACTIVATION_SHRINK
MAX_POOLING1 MAX_UNPOOLING DIAGONAL_MATRIX SCATTER_ELEMENTS SCATTER ONE_HOT RESAMPLE
ELEMENT_WISE_BIT_SHIFT_LEFT ELEMENT_WISE_BIT_SHIFT_RIGHT ELEMENT_WISE_ROUND ELEMENT_WISE_IS_INFINITY
ELEMENT_WISE_MODULUS_TRUNCATE ELEMENT_WISE_MODULUS_FLOOR FILL_VALUE_CONSTANT FILL_VALUE_SEQUENCE CUMULATIVE_SUMMATION
REVERSE_SUBSEQUENCES GATHER_ELEMENTS GATHER_ND SCATTER_ND MAX_POOLING2 SLICE1 TOP_K1 DEPTH_TO_SPACE1 SPACE_TO_DEPTH1
MEAN_VARIANCE_NORMALIZATION1 RESAMPLE1 MATRIX_MULTIPLY_INTEGER QUANTIZED_LINEAR_MATRIX_MULTIPLY CONVOLUTION_INTEGER
QUANTIZED_LINEAR_CONVOLUTION
ELEMENT_WISE_BIT_AND ELEMENT_WISE_BIT_OR ELEMENT_WISE_BIT_XOR ELEMENT_WISE_BIT_NOT ELEMENT_WISE_BIT_COUNT
ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL ACTIVATION_CELU ACTIVATION_RELU_GRAD
AVERAGE_POOLING_GRAD MAX_POOLING_GRAD RANDOM_GENERATOR NONZERO_COORDINATES RESAMPLE_GRAD SLICE_GRAD ADAM_OPTIMIZER
ARGMIN ARGMAX ROI_ALIGN GATHER_ND1
ELEMENT_WISE_ATAN_YX ELEMENT_WISE_CLIP_GRAD ELEMENT_WISE_DIFFERENCE_SQUARE LOCAL_RESPONSE_NORMALIZATION_GRAD
CUMULATIVE_PRODUCT BATCH_NORMALIZATION_GRAD
ELEMENT_WISE_QUANTIZED_LINEAR_ADD DYNAMIC_QUANTIZE_LINEAR ROI_ALIGN1
ROI_ALIGN_GRAD BATCH_NORMALIZATION_TRAINING BATCH_NORMALIZATION_TRAINING_GRAD
ELEMENT_WISE_CLIP1 ELEMENT_WISE_CLIP_GRAD1 PADDING1 ELEMENT_WISE_NEGATE
ACTIVATION_GELU ACTIVATION_SOFTMAX1 ACTIVATION_LOG_SOFTMAX1 ACTIVATION_HARDMAX1 RESAMPLE2 RESAMPLE_GRAD1
DIAGONAL_MATRIX1
MULTIHEAD_ATTENTION
LP_POOLING1 AVERAGE_POOLING1 ACTIVATION_SWISH ACTIVATION_HARD_SWISH QUANTIZED_LINEAR_AVERAGE_POOLING
MATRIX_MULTIPLY_INTEGER_TO_FLOAT
MEAN_VARIANCE_NORMALIZATION2 MULTIHEAD_ATTENTION1 QUANTIZE DEQUANTIZE
RESAMPLE3 FOLD UNFOLD
""".split())
# DirectML.h: "DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS, // Alias name for backwards compatibility."
_DESC_ALIASES = {"SCATTER": "SCATTER_ELEMENTS"}
DOCS_URL = "https://learn.microsoft.com/windows/win32/api/directml/ns-directml-{}"

# The dispatchables DxDispatch knows besides DirectML operators, matched without regard to case
# (DxDispatch/src/model/JsonParsers.cpp, ParseModelDispatchableDesc: _stricmp against "hlsl", "onnx",
# "dmlSerializedGraph"); the names are the sections of DxDispatch/doc/Guide.md that describe them.
OTHER_DISPATCHABLES = {
    "hlsl": ("HLSL compute shader", "DxDispatch Guide: Dispatchable: HLSL Compute Shader",
             "compiled by DXC from its sourcePath and run on the GPU; this app neither reads nor runs shaders"),
    "onnx": ("ONNX model", "DxDispatch Guide: Dispatchable: ONNX Model",
             "run by ONNX Runtime's DirectML provider from its sourcePath; this app never reads model files"),
    "dmlserializedgraph": ("DirectML serialized graph", "DxDispatch Guide: DML Serialized Graph Dispatchable",
                           "a flatbuffer graph read from its sourcePath; this app never reads files"),
}
# Newer DxDispatch commands that print DirectML's own scratch memory (DxDispatch/src/dxdispatch/Executor.cpp,
# Executor::operator()(const Model::PrintInitTemporaryCommand&) and its execution twin); they change no buffer.
_TEMPORARY_PRINTS = {"printinittemporary": "initialization", "printexectemporary": "execution"}
_COMMAND_AT = re.compile(r"^commands\[(\d+)\]")
_DISPATCHABLE_AT = re.compile(r'^dispatchables(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[("(?:[^"\\]|\\.)*")\])')


@dataclass(frozen=True)
class PartStatus:
    """One resource or dispatchable of a model and what this project makes of it.

    `path` is the JSON path of the field that decides the status; `what` says what it is ("DML_OPERATOR_GEMM",
    "HLSL compute shader", "FLOAT32 buffer, 12 bytes"); `reason` is the broken rules (INVALID, UNKNOWN_KIND) or why
    it is not modelled (NOT_MODELLED); `documentation` names where DirectML or DxDispatch documents it, `url` links
    there.
    """

    section: str  # "resources" or "dispatchables"
    name: str
    path: str
    what: str
    status: str
    reason: str = ""
    documentation: str = ""
    url: str = ""
    problems: tuple = ()
    operator: str = ""  # the modelled operator a dispatchable names ("SPLIT"), validated by ops.validate


@dataclass
class ModelInspection:
    resources: list
    dispatchables: list
    root: dict = field(default_factory=dict, repr=False)  # the model's JSON data

    def answers(self, directml=None) -> list[DispatchAnswer]:
        """Who answers each dispatch command, in order: the core and DirectML (compared byte for byte), DirectML
        alone, the core alone, or a refusal with its reason (an operator introduced after this DirectML build's
        feature level among them). `directml`: a DirectMLStatus, by default the worker's own (ops.directml_status)."""
        if directml is None:
            from ..runtime.directml import directml_status  # the worker is asked only when answers are wanted

            directml = directml_status()
        return [_answer(index, command, self, directml) for index, command in enumerate(self.root.get("commands", []))
                if isinstance(command, dict) and str(command.get("type", "")).lower() == "dispatch"]

    @property
    def parts(self):
        return self.resources + self.dispatchables

    @property
    def fully_modelled(self):
        """Whether the core can run every part (no DirectML-only operator, nothing not modelled here)."""
        return all(part.status not in (NOT_MODELLED, DIRECTML_ONLY) for part in self.parts)

    def status_of(self, section, name):
        return next(p for p in getattr(self, section) if p.name == name)


@dataclass(frozen=True)
class RanCommand:
    """A command that ran: `command` is its normalized JSON; a dispatch has its record, a print its line."""

    index: int
    kind: str
    command: dict
    record: object = None  # ops.descriptors.dxdispatch.DispatchRecord, command_index = index in the model
    line: str = ""


@dataclass(frozen=True)
class SkippedCommand:
    index: int
    kind: str
    reason: str


@dataclass
class PartialRun:
    """What ran of a model: buffers after the commands that ran, print lines, and every skipped command with why.

    `stopped_at` is the index of the first command that could not be run and stopped the run (None if none did);
    `model` is the normalized part that ran (None if nothing could be loaded), `refusal` why, if so.
    """

    inspection: ModelInspection
    ran: list
    skipped: list
    stopped_at: int | None = None
    model: dict | None = None
    buffers: dict = field(default_factory=dict)
    buffer_bytes: dict = field(default_factory=dict)
    refusal: str = ""

    @property
    def prints(self):
        return [step.line for step in self.ran if step.kind == "print"]

    @property
    def dispatches(self):
        return [step.record for step in self.ran if step.kind == "dispatch"]


# ---------------------------------------------------------------- reading the model


def _root(model):
    """The model as plain JSON data with resources, dispatchables and commands of the right kinds."""
    if isinstance(model, dict):
        # Through text, so a dict handed in gets exactly the checks (size, depth, plain JSON) that text gets.
        try:
            model = json.dumps(model, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            raise DescriptorError(f"model: not plain JSON data ({type(error).__name__}: {error})") from None
    elif not isinstance(model, (str, bytes)):
        raise DescriptorError(f"model: expected JSON text or a dict, got {type(model).__name__}")
    root = parse_model_text(model)
    if not isinstance(root, dict):
        raise DescriptorError("model: the root must be a JSON object with resources, dispatchables and commands")
    for key, kind in (("resources", dict), ("dispatchables", dict), ("commands", list)):
        if not isinstance(root.get(key), kind):
            raise DescriptorError(f"{key}: missing or not a JSON {'array' if kind is list else 'object'}")
    return root


def _short(value, limit=80):
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _resource_status(name, obj, budget):
    """(PartStatus, bytes) of one resource; `budget` is what the resources before it left of the byte cap."""
    path = join_path("resources", name)
    if isinstance(obj, dict):
        initial, data_type = obj.get("initialValues"), obj.get("initialValuesDataType")
        if isinstance(initial, dict) and "sourcePath" in initial:
            # DxDispatch reads .npy, raw and image files here (Guide.md, "Buffer: File Data Initializer").
            return PartStatus("resources", name, join_path(join_path(path, "initialValues"), "sourcePath"),
                              "buffer read from a file", NOT_MODELLED,
                              f"its values come from the file {_short(initial['sourcePath'])}, which this app never "
                              "reads, so they are unknown here",
                              "DxDispatch Guide: Buffer: File Data Initializer"), 0
        if isinstance(initial, list) and isinstance(data_type, str) and data_type.upper().endswith("UNKNOWN"):
            # Guide.md, "Buffer: List Initializer": values of mixed types, mostly HLSL constant buffers.
            return PartStatus("resources", name, join_path(path, "initialValuesDataType"),
                              "list of mixed-type values (an HLSL constant buffer)", NOT_MODELLED,
                              "initialValuesDataType UNKNOWN: a list initializer of values of different types, "
                              "which only HLSL dispatchables read",
                              "DxDispatch Guide: Buffer: List Initializer"), 0
    if budget < resource_bytes(obj) <= _byte_cap():
        # Judged before loading, so no values are generated for a resource that cannot fit; one over the cap on its
        # own is left to the loader, which names the field (and refuses it before generating values past the cap).
        reason = (f"{path}: {resource_bytes(obj):,} bytes; with the resources before it the model exceeds the byte cap "
                  "for all its buffers")
        return PartStatus("resources", name, path, "buffer", INVALID, reason, problems=(reason,)), 0
    try:
        loaded = load_model({"resources": {name: obj}, "dispatchables": {}, "commands": []})
    except DescriptorError as error:
        return PartStatus("resources", name, path, "buffer", INVALID, str(error), problems=(str(error),)), 0
    normalized = loaded["resources"][name]
    size = normalized.get("sizeInBytes", 0)
    what = f"{normalized.get('initialValuesDataType', '')} buffer, {size:,} bytes".strip()
    if size > budget:
        reason = (f"{path}.sizeInBytes: {size:,} bytes; with the resources before it the model exceeds the "
                  "byte cap for all its buffers")
        return PartStatus("resources", name, path, what, INVALID, reason, problems=(reason,)), 0
    return PartStatus("resources", name, path, what, VALID), size


def _operator_status(name, obj, path, type_path, kind):
    """The status of a dispatchable whose type names a DirectML operator (or nothing known)."""
    modelled = modelled_operator(obj)
    schema, why = operator_schema(kind)
    suffix = kind[len(OPERATOR_PREFIX):] if kind.startswith(OPERATOR_PREFIX) else kind
    if modelled is None and schema is None:
        if suffix not in DML_OPERATOR_TYPES:
            reason = (f"{type_path}: type {_short(kind)} is neither a DML_OPERATOR_TYPE of DirectML.h (with or without "
                      "the DML_OPERATOR_ prefix) nor one of DxDispatch's hlsl, onnx and dmlSerializedGraph "
                      "dispatchables")
            return PartStatus("dispatchables", name, type_path, _short(kind), UNKNOWN_KIND, reason,
                              problems=(reason,))
        desc = _desc_name(suffix)
        # DirectML.h's alias of an operator DxDispatch reads under its other name, or one with no schema in DxDispatch.
        status = INVALID if _schema_under_another_name(kind) else NOT_MODELLED
        return PartStatus("dispatchables", name, type_path, OPERATOR_PREFIX + suffix, status, f"{type_path}: {why}",
                          desc, DOCS_URL.format(desc.lower()), problems=(f"{type_path}: {why}",))
    what = OPERATOR_PREFIX + (modelled or schema.name)
    desc = _desc_name(modelled or schema.name)
    try:
        # The core's operators by the registry's rules, as ops.validate judges them; any other as a model file is
        # read (DxDispatch's exact reading, fields it ignores noted), by what DirectML's schema knows.
        problems = (validate_problems(obj, LOAD_LEVEL, path) if modelled
                    else validate_problems(obj, LOAD_LEVEL, path, strict=True, notes=[]))
    except DescriptorError as error:
        problems = [str(error)]
    texts = tuple(str(p) for p in problems)
    links = {} if modelled else {"documentation": desc, "url": DOCS_URL.format(desc.lower())}
    if texts:
        return PartStatus("dispatchables", name, path, what, INVALID, "; ".join(texts), problems=texts,
                          operator=modelled or schema.name, **links)
    if modelled:
        return PartStatus("dispatchables", name, path, what, VALID, operator=modelled)
    return PartStatus("dispatchables", name, type_path, what, DIRECTML_ONLY,
                      f"{what} holds to everything DirectML's schema knows of it (field types, required fields, array "
                      f"counts, enum values, feature level {schema.level}); the core does not model it, so only "
                      "DirectML computes it, and its own rules (shapes, data types) are DirectML's to judge",
                      operator=schema.name, **links)


def _schema_under_another_name(kind):
    from .. import schema  # imported on first use: see ops/schema/__init__.py

    try:
        schema.schema(kind)
    except DescriptorError:
        return False
    return True


def _desc_name(operator):
    """DirectML's struct for an operator type suffix: GEMM -> DML_GEMM_OPERATOR_DESC."""
    return f"DML_{_DESC_ALIASES.get(operator, operator)}_OPERATOR_DESC"


def _dispatchable_status(name, obj):
    path = join_path("dispatchables", name)
    if not isinstance(obj, dict):
        reason = f"{path}: a dispatchable must be a JSON object with a type"
        return PartStatus("dispatchables", name, path, "?", UNKNOWN_KIND, reason, problems=(reason,))
    type_key = next((key for key in ("type", "Type") if key in obj), "type")
    type_path = join_path(path, type_key)
    kind = obj.get(type_key)
    if not isinstance(kind, str):
        reason = f"{type_path}: type {_short(kind)} must be a string naming the dispatchable's kind"
        return PartStatus("dispatchables", name, type_path, "?", UNKNOWN_KIND, reason, problems=(reason,))
    other = OTHER_DISPATCHABLES.get(kind.lower())
    if other:
        what, documentation, why = other
        return PartStatus("dispatchables", name, type_path, f"{what} ({kind})", NOT_MODELLED, f"{what}: {why}",
                          documentation)
    return _operator_status(name, obj, path, type_path, kind)


def _inspect(root, byte_cap):
    resources, budget = [], byte_cap
    for name, obj in root["resources"].items():
        status, size = _resource_status(name, obj, budget)
        budget -= size
        resources.append(status)
    dispatchables = [_dispatchable_status(name, obj) for name, obj in root["dispatchables"].items()]
    return ModelInspection(resources, dispatchables, root)


def _byte_cap():
    # The strict loader's own bound on the bytes of all resources together (dxdispatch._load).
    return element_cap() * 8


def inspect_model(model: str | bytes | dict) -> ModelInspection:
    """Every resource and dispatchable of a DxDispatch model with its status (VALID, DIRECTML_ONLY, INVALID,
    NOT_MODELLED, UNKNOWN_KIND).

    Accepts JSON text or a dict. Raises DescriptorError only when the text is not JSON or the root lacks
    resources, dispatchables or commands; everything else becomes a status.
    """
    return _inspect(_root(model), _byte_cap())


# ---------------------------------------------------------------- running what can run


def _bound_names(bindings):
    """Resource names a dispatch command's bindings mention (a name, {name, ...} or a list of those)."""
    names = []
    for value in bindings.values() if isinstance(bindings, dict) else ():
        for item in value if isinstance(value, list) else [value]:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str):
                names.append(name)
    return names


def _plan(root, inspection, forced):
    """(commands to run as [(index, command)], {index: (kind, reason)} skipped, stop index or None).

    `forced` maps a command index to the strict loader's reason for refusing it.
    """
    usable = {p.name for p in inspection.resources if p.status == VALID}
    parts = {"resources": {p.name: p for p in inspection.resources},
             "dispatchables": {p.name: p for p in inspection.dispatchables}}
    run, skipped, stop = [], {}, None
    for index, command in enumerate(root["commands"]):
        kind = command.get("type") if isinstance(command, dict) else None
        label = kind.lower() if isinstance(kind, str) else "?"
        if stop is not None:
            skipped[index] = (label, f"not run: commands[{stop}] before it could not be run, so what the buffers "
                                     "hold from there on is unknown here")
            continue
        reason, stops = _blocker(command, f"commands[{index}]", label, usable, parts, root["dispatchables"])
        if reason is None and index in forced:
            reason, stops = forced[index], True
        if reason is None:
            run.append((index, command))
            continue
        skipped[index] = (label, reason)
        if stops:
            stop = index
    return run, skipped, stop


def _blocker(command, path, label, usable, parts, dispatchables):
    """(why this command cannot run here or None, whether that stops the run).

    A print or writeFile that cannot run changes no buffer, so the commands after it still can.
    """
    if not isinstance(command, dict):
        return f"{path}: a command must be a JSON object with a type", True
    if label in ("print", "writefile"):
        resource = command.get("resource")
        if not isinstance(resource, str) or resource not in parts["resources"]:
            return f"{path}.resource: resource {_short(resource)} is not defined in resources", True
        if label == "writefile":
            return f"{path}: writeFile writes the resource to a file, which this app never does", False
        if resource not in usable:
            part = parts["resources"][resource]
            return f"{path}: prints {resource}, which is {part.status}: {part.reason}", False
        return None, False
    if label in _TEMPORARY_PRINTS:
        return (f"{path}: {command.get('type')} prints the temporary buffer DirectML used in its last "
                f"{_TEMPORARY_PRINTS[label]}, which only DirectML's implementation fills; not modelled here"), False
    if label != "dispatch":
        return (f"{path}.type: command type {_short(command.get('type'))}: DxDispatch knows dispatch, print and "
                "writeFile"), True
    name = command.get("dispatchable")
    part = parts["dispatchables"].get(name) if isinstance(name, str) else None
    if part is not None and part.status == DIRECTML_ONLY:
        return (f"{path}: dispatches {name}, {part.what}, which only DirectML computes (the core does not model it); "
                'ops.run_model(model, runtime="directml") runs it'), True
    reason = _dispatch_refusal(command, path, usable, parts, dispatchables)
    return reason, reason is not None


def _dispatch_refusal(command, path, usable, parts, dispatchables):
    """Why a dispatch command can run nowhere here (its dispatchable undefined, invalid, not a DirectML operator, or
    binding a resource that is not valid), else None."""
    name = command.get("dispatchable")
    part = parts["dispatchables"].get(name) if isinstance(name, str) else None
    if part is None:
        return f"{path}.dispatchable: dispatchable {_short(name)} is not defined in dispatchables"
    if part.status == NOT_MODELLED:
        where = f"; see {part.documentation}" if part.documentation else ""
        return f"{path}: dispatches {name}, {part.what}, which is {NOT_MODELLED}{where}"
    if part.status in (INVALID, UNKNOWN_KIND):
        return f"{path}: dispatches {name}, which is {part.status}: {part.reason}"
    # A dispatchable's own bindings are bound at initialization (DxDispatch: OWNED_BY_DML tensors).
    for where, bindings in (("binds", command.get("bindings")), (f"{name} binds", dispatchables[name].get("bindings"))):
        for resource in _bound_names(bindings):
            if resource in parts["resources"] and resource not in usable:
                bound = parts["resources"][resource]
                return f"{path}: {where} {resource}, which is {bound.status}: {bound.reason}"
    return None


# ---------------------------------------------------------------- who answers each dispatch

CORE_AND_DIRECTML = "the core and DirectML, compared byte for byte"
DIRECTML_ALONE = "DirectML alone"
CORE_ALONE = "the core alone"
REFUSED = "refused"


@dataclass(frozen=True)
class DispatchAnswer:
    """Who answers one dispatch command of a model: CORE_AND_DIRECTML, DIRECTML_ALONE, CORE_ALONE (DirectML cannot
    run here), or REFUSED; `reason` says why DirectML or anything is left out."""

    index: int
    dispatchable: str
    answer: str
    reason: str = ""


def _answer(index, command, inspection, status):
    path = f"commands[{index}]"
    parts = {"resources": {p.name: p for p in inspection.resources},
             "dispatchables": {p.name: p for p in inspection.dispatchables}}
    usable = {p.name for p in inspection.resources if p.status == VALID}
    name = command.get("dispatchable")
    refusal = _dispatch_refusal(command, path, usable, parts, inspection.root["dispatchables"])
    if refusal is not None:
        return DispatchAnswer(index, str(name), REFUSED, refusal)
    part = parts["dispatchables"][name]
    from .. import schema  # imported on first use: see ops/schema/__init__.py

    level = schema.schema(part.operator).level
    if not status.available:
        why = f"DirectML cannot run here: {status.reason}"
    elif level_index(level) > level_index(status.max_feature_level):
        why = (f"{part.what} was introduced in feature level {level}; this DirectML build supports feature levels up "
               f"to {status.max_feature_level}")
    else:
        return DispatchAnswer(index, name, CORE_AND_DIRECTML if part.status == VALID else DIRECTML_ALONE)
    if part.status == VALID:
        return DispatchAnswer(index, name, CORE_ALONE, why)
    return DispatchAnswer(index, name, REFUSED, f"{path}: dispatches {name}, which only DirectML computes; {why}")


def run_model_partial(model: str | bytes | dict) -> PartialRun:
    """Run a DxDispatch model's commands in order up to the first dispatch that cannot be run here.

    Returns a PartialRun: the inspection, the commands that ran (dispatch records and print lines, with their
    indices in the model), every skipped command with its reason, and the buffers after the commands that ran.
    A print of a resource that is not modelled is skipped without stopping the run (it changes nothing).
    Raises DescriptorError only when `inspect_model` would.
    """
    root = _root(model)
    inspection = _inspect(root, _byte_cap())
    usable = {p.name for p in inspection.resources if p.status == VALID}
    forced = _refused_dispatches(root, inspection, usable)
    # Each pass either runs or makes a command the strict loader refuses stop the run; that command was in the pass's
    # run, so every stop is earlier than the last. Dispatchables the loader refuses are found above in one pass, so
    # the loop does not take one whole-model load per refused dispatchable.
    for _ in range(len(root["commands"]) + 1):
        run, skipped, stop = _plan(root, inspection, forced)
        used = {c["dispatchable"] for _, c in run if str(c.get("type", "")).lower() == "dispatch"}
        sub = {
            "resources": {name: obj for name, obj in root["resources"].items() if name in usable},
            "dispatchables": {name: obj for name, obj in root["dispatchables"].items() if name in used},
            "commands": [command for _, command in run],
        }
        try:
            result = run_model_detailed(sub)
        except DescriptorError as error:
            refused = _refused_command(str(error), run)
            if refused is None:
                reason = f"nothing was run: {error}"
                skipped.update({index: (str(c.get("type", "?")).lower(), reason) for index, c in run})
                return PartialRun(inspection, [], _skipped_list(skipped), None, refusal=str(error))
            index, reason = refused
            forced[index] = reason
            continue
        return _finish(inspection, run, skipped, stop, sub, result)
    raise AssertionError("unreachable: every pass adds a forced stop before the previous one")


def _refused_dispatches(root, inspection, usable):
    """{index of the first dispatch of each dispatchable the strict loader refuses: why}."""
    candidates = {p.name for p in inspection.dispatchables if p.status == VALID}
    sub = {"resources": {name: obj for name, obj in root["resources"].items() if name in usable},
           "dispatchables": {name: obj for name, obj in root["dispatchables"].items() if name in candidates}}
    try:
        refused = refused_dispatchables(sub)
    except DescriptorError:
        return {}  # the resources themselves are refused: the first pass says so
    forced = {}
    for index, command in enumerate(root["commands"]):
        if not isinstance(command, dict) or str(command.get("type", "")).lower() != "dispatch":
            continue
        name = command.get("dispatchable")
        if isinstance(name, str) and name in refused and name not in forced.values():
            forced[index] = name
    return {index: f"commands[{index}]: dispatches {name}, which the loader refuses: {refused[name]}"
            for index, name in forced.items()}


def _refused_command(text, run):
    """(index in the model, reason) of the command a strict-loader refusal of the part being run points at, or None.

    The loader's messages start with the JSON path of what it refuses: a command of the part ("commands[k]...", k
    counted in the part) or a dispatchable (e.g. its initialization bindings), which stops its first dispatch.
    """
    match = _COMMAND_AT.match(text)
    if match and int(match[1]) < len(run):
        index = run[int(match[1])][0]
        return index, f"commands[{index}]" + text[match.end():]
    match = _DISPATCHABLE_AT.match(text)
    if match:
        name = match[1] if match[1] is not None else json.loads(match[2])
        for index, command in run:
            if command.get("dispatchable") == name and str(command.get("type", "")).lower() == "dispatch":
                return index, f"commands[{index}]: dispatches {name}, which the loader refuses: {text}"
    return None


def _skipped_list(skipped):
    return [SkippedCommand(index, kind, reason) for index, (kind, reason) in sorted(skipped.items())]


def _finish(inspection, run, skipped, stop, sub, result):
    normalized = load_model(sub)
    records, lines = iter(result.dispatches), iter(result.prints)
    ran = []
    for position, (index, _) in enumerate(run):
        command = normalized["commands"][position]
        if command["type"].lower() == "dispatch":
            record = dataclasses.replace(next(records), command_index=index)
            ran.append(RanCommand(index, "dispatch", command, record=record))
        else:
            ran.append(RanCommand(index, "print", command, line=next(lines)))
    return PartialRun(inspection, ran, _skipped_list(skipped), stop, normalized, result.buffers, result.buffer_bytes)
