def load_model(model):
    raise NotImplementedError("being written")


def run_model(model):
    raise NotImplementedError("being written")
