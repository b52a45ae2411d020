"""DirectML tensor operators with DirectML's exact semantics, in pure numpy.

The names below are what a user of the library calls; everything else is importable from its module by name
(ops.operators.depth_space.ORDERS, ops.descriptors.partial.VALID, ...). No UI code lives here.

    import ops
    y, = ops.run("DEPTH_TO_SPACE1", [x], block_size=2, order="DCR")
    report = ops.cross_check("DEPTH_TO_SPACE1", [x], block_size=2)       # on DirectML where it runs, else ONNX Runtime
    problems = ops.validate({"type": "DML_OPERATOR_SPLIT", "desc": {...}}, "4_1")
"""

import importlib

from .datatypes import DML_TYPES, numpy_dtype, type_name
from .descriptors.dxdispatch import load_model, model_notes, run_model
from .descriptors.export import cpp_snippet, model_for
from .descriptors.layouts import LAYOUT_PRESETS, element_wise_identity, layout_preset
from .descriptors.partial import inspect_model, run_model_partial
from .descriptors.validate import validate, validate_problems
from .detective.channels import channel_permutation, permute_conv_input_channels, permute_conv_output_channels
from .detective.identify import identify
from .detective.origin import origin_coded_input, read_npy, read_printed_array
from .errors import DescriptorError
from .frameworks.onnx_models import cross_check_node, open_onnx_model
from .frameworks.snippets import framework_snippets
from .guard import element_cap_set_to
from .levels import FEATURE_LEVELS
from .operators import OPERATORS, Call, Operator, operator, run
from .runtime.cross_check import cross_check
from .runtime.directml import DirectMLStatus, directml_status
from .runtime.report import CrossCheckReport
from .teaching import QuizSettings, index_formula, quiz_questions
from .tensor_desc import TensorDesc, buffer_tensor_size, memory_map


def __getattr__(name):
    """ops.schema, imported on first use: its table is 150 KB of literals most importers never need, and
    scripts/gen_directml_schema.py imports ops to cross-check the table it is about to write."""
    if name == "schema":
        return importlib.import_module(".schema", __name__)
    raise AttributeError(f"module 'ops' has no attribute {name!r}")


__all__ = [
    # the operators (ops/operators): one object each, and running them
    "Call",
    "DescriptorError",
    "OPERATORS",
    "Operator",
    "operator",
    "run",
    # DirectML's schema as data (ops/schema): every operator's desc, the registry's and the others'
    "schema",
    # types, levels, tensor descriptors and the memory cap
    "DML_TYPES",
    "FEATURE_LEVELS",
    "TensorDesc",
    "buffer_tensor_size",
    "element_cap_set_to",
    "memory_map",
    "numpy_dtype",
    "type_name",
    # descriptors as DxDispatch reads them, and exports (ops/descriptors)
    "cpp_snippet",
    "inspect_model",
    "load_model",
    "model_for",
    "model_notes",
    "run_model",
    "run_model_partial",
    "validate",
    "validate_problems",
    # ELEMENT_WISE_IDENTITY between buffer layouts
    "LAYOUT_PRESETS",
    "element_wise_identity",
    "layout_preset",
    # the cross-check (ops/runtime)
    "CrossCheckReport",
    "DirectMLStatus",
    "cross_check",
    "directml_status",
    # the layout detective (ops/detective)
    "channel_permutation",
    "identify",
    "permute_conv_input_channels",
    "permute_conv_output_channels",
    "origin_coded_input",
    "read_npy",
    "read_printed_array",
    # other frameworks and ONNX models (ops/frameworks)
    "cross_check_node",
    "framework_snippets",
    "open_onnx_model",
    # teaching (ops/teaching)
    "QuizSettings",
    "index_formula",
    "quiz_questions",
]
