"""What runs in the child process that opens an uploaded .onnx file (ops.isolated): the ONNX checker and shape
inference, whose memory and time no count of the file's fields bounds.

Shape inference runs with data propagation: the shapes a PyTorch export computes at run time (Shape -> Slice ->
Concat -> Reshape before a DepthToSpace) are only known with it, and the page needs a node's input sizes to give its
DirectML settings. Propagation is also what a Shape -> Concat fan multiplies (fan^levels values from a 2 KB file),
so it runs here, within the child's limits, and only the inferred shapes come back: name, element type and
dimensions of every value of the main graph, as JSON.
"""

import onnx  # imported once by the fork server that forks the children (ops.isolated.PRELOAD)

from ..errors import DescriptorError
from ..runtime.report import first_line

# The inferred dimensions handed back, all values together: a shape of millions of dimensions is no model's.
MAX_DIMENSIONS = 300_000


def _check(model):
    try:
        onnx.checker.check_model(model)
    except (onnx.checker.ValidationError, ValueError) as error:
        raise DescriptorError(f"model: the ONNX checker refuses it ({first_line(error)})") from None


def _shape(value_info):
    tensor_type = value_info.type.tensor_type
    if not tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tensor_type.shape.dim]


def check_and_infer(data):
    """{"values": [[name, element type, dims or None], ...] of the main graph's inputs, inferred values and outputs,
    "note": why inference failed, or None}; DescriptorError when the checker refuses the model."""
    model = onnx.ModelProto.FromString(data)
    _check(model)
    note = None
    try:
        model = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
    except MemoryError:
        raise
    except Exception as error:  # inference fails in many ways on odd models; the listing goes on without shapes
        note = f"Shape inference failed ({first_line(error)}); shapes it would have found are unknown."
    graph = model.graph
    values, dimensions = [], 0
    for info in list(graph.input) + list(graph.value_info) + list(graph.output):
        shape = _shape(info)
        dimensions += len(shape or ())
        if dimensions > MAX_DIMENSIONS:
            raise DescriptorError(f"model: shape inference finds more than {MAX_DIMENSIONS:,} dimensions in all; "
                                  "this app opens models whose values have fewer")
        values.append([info.name, info.type.tensor_type.elem_type, shape])
    return {"values": values, "note": note}
