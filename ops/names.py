"""DirectML enum names as users write them: any case, with or without the enum's prefix."""


def enum_suffix(value, prefix, allowed):
    """The member of `allowed` that `value` names ('DML_TENSOR_DATA_TYPE_UINT8', 'uint8' -> 'UINT8'), else None."""
    if not isinstance(value, str):
        return None
    name = value.strip().upper()
    if name.startswith(prefix):
        name = name[len(prefix):]
    return name if name in allowed else None
