"""One random change to JSON data, for property tests: every path into a document, and a copy with the value at one
of them deleted or replaced."""

import copy

from hypothesis import strategies as st


def json_paths(obj, prefix=()):
    """Every path (a tuple of keys and indices) into `obj`, the root's () first."""
    yield prefix
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from json_paths(value, prefix + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from json_paths(value, prefix + (i,))


DELETE = object()  # set_at's value that deletes


def set_at(obj, path, value):
    """Replace the value at `path` (keys and indices) inside `obj`, in place; DELETE deletes it."""
    target = obj
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value


def mutated(obj, data, value):
    """A deep copy of `obj` with the value at one path, drawn from `data` (hypothesis' st.data()), deleted or replaced
    by `value`."""
    result = copy.deepcopy(obj)
    path = data.draw(st.sampled_from([p for p in json_paths(result) if p]))
    set_at(result, path, DELETE if data.draw(st.booleans()) else value)
    return result
