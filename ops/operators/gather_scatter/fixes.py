"""The nearest valid settings of the gather and scatter family to invalid ones (ops/operators/fixes.py says what
"nearest" means). A fix changes the settings named after the core's attributes (axis, index_dimensions,
input_dimensions, indices_dimensions, batch_dimensions) or one tensor's sizes (sizes: InputTensor's;
indices_sizes, updates_sizes, values_sizes). Each rule the operator checks
(GatherScatter.rules) offers the changes that mend it, kept when the settings then break no rule at all, else when
they break a later one."""

from ..fixes import NONE, Fix, Fixes, values_text

# The setting holding each tensor's sizes, by the desc field.
SIZES = {"InputTensor": "sizes", "IndicesTensor": "indices_sizes", "UpdatesTensor": "updates_sizes",
         "ValuesTensor": "values_sizes"}
LABELS = {"axis": "Axis", "index_dimensions": "IndexDimensions", "input_dimensions": "InputDimensionCount",
          "indices_dimensions": "IndicesDimensionCount", "batch_dimensions": "BatchDimensionCount"}


def _attribute_fix(name, value):
    return Fix(f"{LABELS[name]} {value}", ((name, value),))


def _sizes_fix(field, sizes):
    return Fix(f"{field} Sizes {values_text(sizes)}", ((SIZES[field], tuple(sizes)),))


def _leading_ones(sizes):
    """How many of `sizes` lead before the first size over 1."""
    return next((d for d, s in enumerate(sizes) if s != 1), len(sizes))


def _candidates(op, sizes, attrs, field):
    """The changes that mend the rule about `field`."""
    rank = len(next(iter(sizes.values())))
    tensor = field.split(".")[0]
    if field == "Axis":
        return [_attribute_fix("axis", rank - 1)]
    if field in ("IndexDimensions", "InputDimensionCount", "IndicesDimensionCount", "BatchDimensionCount"):
        return _count_candidates(op, sizes, attrs, field, rank)
    if field.endswith(".DimensionCount") and tensor in sizes:
        own = sizes[tensor]
        ones = _leading_ones(own)
        fitted = (1,) * (rank - len(own)) + own if len(own) < rank else own[min(ones, len(own) - rank):]
        return [_sizes_fix(tensor, fitted)] if len(fitted) == rank else []
    if field.endswith(".DimensionCount"):  # the result needs more dimensions: fewer index dimensions
        q = attrs["indices_dimensions"]
        return [_attribute_fix("indices_dimensions", q - 1)] if q > attrs.get("batch_dimensions", 0) + 1 else []
    return _sizes_candidates(op, sizes, attrs, tensor, rank)


def _count_candidates(op, sizes, attrs, field, rank):
    name = next(key for key, label in LABELS.items() if label == field)
    value = attrs[name]
    if name == "index_dimensions":  # at most Axis + 1
        fixes = [_attribute_fix(name, attrs["axis"] + 1)]
        return fixes + ([_attribute_fix("axis", value - 1)] if value - 1 < rank else [])
    if name == "batch_dimensions":
        return [_attribute_fix(name, attrs["indices_dimensions"] - 1)]
    tensor = "InputTensor" if name == "input_dimensions" else "IndicesTensor"
    return [_attribute_fix(name, min(max(value, 1), len(sizes[tensor])))]


def _sizes_candidates(op, sizes, attrs, tensor, rank):
    own = list(sizes[tensor])
    if op.name == "ONE_HOT":
        if tensor == "ValuesTensor":
            return [_sizes_fix(tensor, (2,))]
        own[attrs["axis"]] = 1
        return [_sizes_fix(tensor, own)]
    if tensor == "UpdatesTensor":
        return [_sizes_fix(tensor, op.expected_updates(sizes, attrs))]
    if "axis" in attrs and "index_dimensions" not in attrs:  # GATHER_ELEMENTS and SCATTER
        axis, whole = attrs["axis"], sizes["InputTensor"]
        along = min(own[axis], whole[axis]) if op.name == "SCATTER" else own[axis]
        return [_sizes_fix(tensor, tuple(whole[:axis]) + (along,) + tuple(whole[axis + 1:]))]
    ones = _leading_ones(own)
    leading_ones = [1] * len(own)
    if "index_dimensions" in attrs:  # GATHER: the indices are the last IndexDimensions
        fixes = [_attribute_fix("index_dimensions", rank - ones)] if rank - ones <= attrs["axis"] + 1 else []
        return fixes + [_sizes_fix(tensor, leading_ones[:rank - attrs["index_dimensions"]]
                                   + own[rank - attrs["index_dimensions"]:])]
    # The ND operators: the meaningful dimensions are the last InputDimensionCount or IndicesDimensionCount.
    name = "input_dimensions" if tensor == "InputTensor" else "indices_dimensions"
    count = attrs[name]
    if any(s != 1 for s in own[:len(own) - count]):
        return [_attribute_fix(name, len(own) - ones), _sizes_fix(tensor, leading_ones[:len(own) - count]
                                                                  + own[len(own) - count:])]
    b, m = attrs.get("batch_dimensions", 0), attrs["input_dimensions"]  # too many coordinates per tuple
    fixes = [_sizes_fix(tensor, own[:-1] + [m - b])] if m - b >= 1 else []
    if b + own[-1] <= len(sizes["InputTensor"]):
        fixes.append(_attribute_fix("input_dimensions", b + own[-1]))
    return fixes


def _applied(op, sizes, attrs, fix):
    changes = fix.as_dict
    fields = {setting: field for field, setting in SIZES.items()}
    new_sizes = {field: tuple(changes.get(SIZES[field], value)) for field, value in sizes.items()}
    new_attrs = {**attrs, **{k: v for k, v in changes.items() if k not in fields}}
    return new_sizes, new_attrs


def nearest_fixes(op, input_sizes, attrs):
    """The first rule these settings break, and the changes that mend it: those leaving every rule kept first."""
    sizes = op.sizes_by_field(input_sizes)
    broken = op.rules(sizes, attrs)
    if not broken:
        return NONE
    field, message = broken[0]
    whole, partial = [], []
    for fix in _candidates(op, sizes, attrs, field):
        still = op.rules(*_applied(op, sizes, attrs, fix))
        if not still:
            whole.append(fix)
        elif still[0][0] != field:
            partial.append(fix)
    return Fixes(message, tuple(whole or partial))
