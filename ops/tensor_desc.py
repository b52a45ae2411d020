def buffer_tensor_size(data_type, sizes, strides=None):
    raise NotImplementedError("being written")
