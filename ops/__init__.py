"""DirectML tensor operators with DirectML's exact semantics, in pure numpy.

No UI code lives here: the app and the tests both call these names.
"""

from .bitwise import bit_or
from .cross_check import CrossCheckReport, cross_check
from .datatypes import DML_TYPES, FLOAT_TYPES, INTEGER_TYPES, NUMPY_DTYPES, element_size, numpy_dtype, type_name
from .depth_space import ORDERS, depth_to_space, order_name, space_to_depth
from .dxdispatch import load_model, run_model
from .errors import DescriptorError
from .guard import DEFAULT_ELEMENT_CAP, element_cap, element_cap_set_to, set_element_cap
from .index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map
from .levels import FEATURE_LEVELS, level_name
from .split_join import join, split
from .tensor_desc import buffer_tensor_size
from .validate import validate

__all__ = [
    "CrossCheckReport",
    "DEFAULT_ELEMENT_CAP",
    "DML_TYPES",
    "DescriptorError",
    "FEATURE_LEVELS",
    "FLOAT_TYPES",
    "INTEGER_TYPES",
    "NUMPY_DTYPES",
    "ORDERS",
    "bit_or",
    "buffer_tensor_size",
    "cross_check",
    "depth_to_space",
    "depth_to_space_map",
    "element_cap",
    "element_cap_set_to",
    "element_size",
    "join",
    "join_map",
    "level_name",
    "load_model",
    "numpy_dtype",
    "order_name",
    "run_model",
    "set_element_cap",
    "space_to_depth",
    "space_to_depth_map",
    "split",
    "split_map",
    "type_name",
    "validate",
]
