"""DirectML tensor operators with DirectML's exact semantics, in pure numpy.

No UI code lives here: the app and the tests both call these names.
"""

from .datatypes import (
    DML_TYPES,
    FLOAT_TYPES,
    INTEGER_TYPES,
    NUMPY_DTYPES,
    element_size,
    numpy_dtype,
    type_name,
)
from .descriptors.dxdispatch import (
    load_model,
    model_notes,
    model_run_bytes,
    run_byte_budget,
    run_model,
    run_model_detailed,
)
from .descriptors.export import cpp_snippet, model_for, normalize_model
from .descriptors.layouts import (
    LAYOUT_PRESETS,
    copy_order,
    element_wise_identity,
    identity_problems,
    layout_preset,
    logical_tensor,
)
from .descriptors.partial import (
    INVALID,
    NOT_MODELLED,
    UNKNOWN_KIND,
    VALID,
    ModelInspection,
    PartialRun,
    PartStatus,
    inspect_model,
    run_model_partial,
)
from .descriptors.validate import validate, validate_problems
from .detective.channels import (
    channel_permutation,
    inverse_permutation,
    permute_conv_input_channels,
    permute_conv_output_channels,
)
from .detective.examples import EXAMPLES as DETECTIVE_EXAMPLES
from .detective.examples import detective_example
from .detective.identify import IdentifyReport, descriptor_sources, identify, mix_up_diff
from .detective.origin import (
    NPY_BYTE_CAP,
    origin_coded_input,
    origin_coded_inputs,
    read_npy,
    read_printed_array,
    to_npy_bytes,
)
from .errors import DescriptorError
from .frameworks.example_model import example_upscaling_model
from .frameworks.onnx_models import (
    ONNX_BYTE_CAP,
    ModelNode,
    OnnxModelReport,
    Rearrangement,
    cross_check_node,
    extract_node,
    open_onnx_model,
)
from .frameworks.snippets import FRAMEWORKS, Snippet, framework_snippets
from .guard import DEFAULT_ELEMENT_CAP, element_cap, element_cap_set_to, set_element_cap
from .levels import FEATURE_LEVELS, level_name
from .operators import OPERATORS, Call, operator, run
from .operators.bitwise import bit_or
from .operators.depth_space import ORDERS, depth_to_space, order_name, space_to_depth
from .operators.index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map
from .operators.split_join import join, split
from .runtime.cross_check import cross_check
from .runtime.directml import DirectMLStatus, directml_status
from .runtime.report import CrossCheckReport
from .teaching import Formula, Question, QuizSettings, Term, index_formula, quiz_questions
from .tensor_desc import TensorDesc, buffer_tensor_size, memory_map

__all__ = [
    "bit_or",
    "buffer_tensor_size",
    "cpp_snippet",
    "cross_check",
    "directml_status",
    "DirectMLStatus",
    "CrossCheckReport",
    "DEFAULT_ELEMENT_CAP",
    "depth_to_space",
    "depth_to_space_map",
    "DescriptorError",
    "DML_TYPES",
    "element_cap",
    "element_cap_set_to",
    "element_size",
    "FEATURE_LEVELS",
    "FLOAT_TYPES",
    "INTEGER_TYPES",
    "join",
    "join_map",
    "level_name",
    "load_model",
    "model_notes",
    "memory_map",
    "model_for",
    "normalize_model",
    "numpy_dtype",
    "NUMPY_DTYPES",
    "order_name",
    "ORDERS",
    "model_run_bytes",
    "run_byte_budget",
    "run_model",
    "run_model_detailed",
    "set_element_cap",
    "space_to_depth",
    "space_to_depth_map",
    "split",
    "split_map",
    "OPERATORS",
    "Call",
    "operator",
    "run",
    "TensorDesc",
    "type_name",
    "validate",
    "validate_problems",
    # the layout detective (ops/detective)
    "channel_permutation",
    "descriptor_sources",
    "DETECTIVE_EXAMPLES",
    "detective_example",
    "identify",
    "IdentifyReport",
    "inverse_permutation",
    "mix_up_diff",
    "NPY_BYTE_CAP",
    "origin_coded_input",
    "origin_coded_inputs",
    "permute_conv_input_channels",
    "permute_conv_output_channels",
    "read_npy",
    "read_printed_array",
    "to_npy_bytes",
    # the same operation elsewhere (ops/frameworks)
    "framework_snippets",
    "FRAMEWORKS",
    "Snippet",
    # opening an ONNX model (ops/frameworks/onnx_models.py)
    "cross_check_node",
    "example_upscaling_model",
    "extract_node",
    "ModelNode",
    "ONNX_BYTE_CAP",
    "OnnxModelReport",
    "open_onnx_model",
    "Rearrangement",
    # real models, partially (ops/descriptors/partial.py)
    "inspect_model",
    "INVALID",
    "ModelInspection",
    "NOT_MODELLED",
    "PartialRun",
    "PartStatus",
    "run_model_partial",
    "UNKNOWN_KIND",
    "VALID",
    # DML_ELEMENT_WISE_IDENTITY and tensor layouts (ops/operators/identity.py)
    "copy_order",
    "element_wise_identity",
    "identity_problems",
    "LAYOUT_PRESETS",
    "layout_preset",
    "logical_tensor",
    # teaching aids (ops/teaching)
    "Formula",
    "index_formula",
    "Question",
    "quiz_questions",
    "QuizSettings",
    "Term",
]
