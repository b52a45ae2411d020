"""How the layout detective recognises SPLIT and JOIN: every Axis along which the parts agree with the whole tensor
on every other dimension and add up to it, and the descriptor with the parts' sizes along that Axis."""

from ..base import COUNT, Operator


def _whole_and_parts(op, input_shapes, output_shapes):
    if op.field(op.whole_name).is_input:
        return input_shapes, output_shapes
    return output_shapes, input_shapes


def candidates(op, input_shapes, output_shapes):
    """Every Axis (with SPLIT, the parts' sizes along it) that takes these inputs to these outputs."""
    wholes, parts = _whole_and_parts(op, input_shapes, output_shapes)
    if len(wholes) != 1:
        return []
    whole = tuple(wholes[0])
    # SPLIT is told its parts' sizes along Axis; JOIN's are its inputs' own.
    takes_sizes = any(a.name == "sizes" for a in op.attributes)
    found = []
    for axis in range(len(whole)):
        agree = all(len(p) == len(whole) and all(p[d] == whole[d] for d in range(len(whole)) if d != axis)
                    for p in parts)
        if agree and sum(p[axis] for p in parts) == whole[axis]:
            found.append({"axis": axis, **({"sizes": tuple(p[axis] for p in parts)} if takes_sizes else {})})
    return found


def descriptor_settings(op, input_shapes, attrs):
    """The desc's Axis and count, and the parts' sizes along Axis (AxisSizes)."""
    _, parts = _whole_and_parts(op, input_shapes, op.output_shapes(input_shapes, attrs))
    axis_sizes = [int(p[attrs["axis"]]) for p in parts]
    return {**Operator.descriptor_settings(op, input_shapes, attrs), "AxisSizes": axis_sizes}


def describe(op, settings):
    count = next(f.name for f in op.fields if f.kind == COUNT)
    return (f"{op.name} along Axis {settings['Axis']} with {count} {settings[count]} "
            f"(sizes {settings['AxisSizes']})")
