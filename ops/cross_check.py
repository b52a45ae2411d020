class CrossCheckReport:
    pass


def cross_check(op, inputs, **attrs):
    raise NotImplementedError("being written")
