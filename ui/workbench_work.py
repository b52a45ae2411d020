"""The workbench's heavy work, shared between sessions through the server's cache, keyed by the model text's digest.

A class opening one workbench link used to run the model, draw its heatmaps and cross-check its dispatches once per
visitor: 30 visitors on one heavy link waited 55 s each where one took 1.35 s. Here each is done once per model
(and element cap) for the whole server; the others wait for that computation (serve.cache.SharedCache) and share
its results, which no page changes.
"""

import hashlib

from ops import cross_check, run_model_partial
from ops.descriptors.dxdispatch import run_model_detailed
from viz.workbench_fig import tensor_heatmap

from . import workbench_state as wb
from .shared import CACHE


def digest(text):
    """The key of a model text (str) in the cache: its SHA-256."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def run(key, model):
    """run_model_detailed(model) of the model whose text has digest `key`."""
    return CACHE.get(("wb_run", key), lambda: run_model_detailed(model))


def partial_run(key, raw):
    return CACHE.get(("wb_partial", key), lambda: run_model_partial(raw))


def heatmap(key, name, array, title, zrange=None):
    """The heatmap `name` (a dispatch's input or output) of the model `key`."""
    return CACHE.get(("wb_heatmap", key, name, zrange), lambda: tensor_heatmap(array, title, zrange))


def checked(key, index, record, dispatchable):
    """(verdict text parts) of the cross-check of the model's commands[index]: (available, matches, provider, note),
    or the DescriptorError that refused it."""
    def check():
        inputs, attrs, expected = wb.cross_check_call(record, dispatchable)
        report = cross_check(record.operator, inputs, expected=expected, **attrs)
        return report.available, report.matches, report.provider, report.note

    return CACHE.get(("wb_check", key, index), check)
