"""Links into the operator pages with a descriptor's settings filled in, as each page reads them from the URL.

Settings are the plain dicts ops.open_onnx_model gives (ModelNode.settings): {"operator", "DataType", and per
operator "Sizes", "BlockSize", "Order", "ASizes", "BSizes", "Axis", "AxisSizes", "InputSizes"}. The query keys are
the pages' own (app_pages/depth_space.py, bitwise_or.py, split_join.py) and the sidebar's DataType ("dtype").
"""

from .url_state import query_of

PAGES = {
    "DEPTH_TO_SPACE1": "app_pages/depth_space.py",
    "SPACE_TO_DEPTH1": "app_pages/depth_space.py",
    "ELEMENT_WISE_BIT_OR": "app_pages/bitwise_or.py",
    "SPLIT": "app_pages/split_join.py",
    "JOIN": "app_pages/split_join.py",
}
PAGE_TITLES = {
    "app_pages/depth_space.py": "Depth <-> Space",
    "app_pages/bitwise_or.py": "Bitwise OR",
    "app_pages/split_join.py": "Split <-> Join",
}


def _joined(values):
    return ",".join(str(int(v)) for v in values)


def operator_link(settings):
    """(page path, query parameters) that open the operator page showing `settings`."""
    operator = settings["operator"]
    query = {"dtype": settings["DataType"]}
    if operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        n, c, h, w = settings["Sizes"]
        query.update(direction="depth_to_space" if operator == "DEPTH_TO_SPACE1" else "space_to_depth",
                     N=n, C=c, H=h, W=w, BlockSize=settings["BlockSize"], Order=settings["Order"])
    elif operator == "ELEMENT_WISE_BIT_OR":
        sizes, b_sizes = settings["Sizes"], settings["BSizes"]
        broadcast = [d for d, (a, b) in enumerate(zip(sizes, b_sizes)) if b == 1 and a != 1]
        query.update(or_sizes=_joined(sizes), or_bcast=_joined(broadcast))
    elif operator == "SPLIT":
        query.update(sj_sizes=_joined(settings["Sizes"]), sj_axis=settings["Axis"], sj_mode="sizes",
                     sj_split=_joined(settings["AxisSizes"]))
    elif operator == "JOIN":
        inputs, axis = settings["InputSizes"], settings["Axis"]
        joined = list(inputs[0])
        joined[axis] = sum(s[axis] for s in inputs)
        query.update(sj_sizes=_joined(joined), sj_axis=axis, sj_mode="sizes",
                     sj_split=_joined(s[axis] for s in inputs))
    else:
        raise ValueError(f"operator {operator!r}: no page shows it")
    return PAGES[operator], query_of(query)
