def validate(dispatchable, feature_level):
    raise NotImplementedError("being written")
