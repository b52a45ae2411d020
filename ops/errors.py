"""The one exception the core raises for anything DirectML would refuse."""


class DescriptorError(ValueError):
    """An operator argument or descriptor breaks a DirectML rule.

    The message names the field (BlockSize, Axis, Sizes, DataType, ...) and the rule.
    """
