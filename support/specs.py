"""Plain-loop specifications, straight from the definitions, that property tests hold the fast core to (the
Tensor Puzzles way): slow and obvious on purpose."""

import itertools

from ops.tensor_desc import normalize_tensor_desc, packed_strides, type_name


def make_tensor_desc(data_type, sizes, strides=None, **fields):
    """TensorDesc from Python values (fields as in the C struct), checked like a JSON desc."""
    obj = {"DataType": type_name(data_type), "Sizes": [int(s) for s in sizes], **fields}
    if strides is not None:
        obj["Strides"] = [int(s) for s in strides]
    return normalize_tensor_desc(obj)


def identity_spec(input_buffer, input_sizes, input_strides, output_buffer, output_strides):
    """Plain loops over every logical index, straight from the definitions (for tests): returns a new buffer."""
    result = output_buffer.copy()
    in_strides = input_strides or packed_strides(input_sizes)
    out_strides = output_strides or packed_strides(input_sizes)
    for index in itertools.product(*(range(s) for s in input_sizes)):
        source = sum(i * s for i, s in zip(index, in_strides))
        destination = sum(i * s for i, s in zip(index, out_strides))
        result[destination] = input_buffer[source]
    return result
