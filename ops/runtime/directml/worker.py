"""The DirectML worker: a process of its own that loads libdirectml.so through the bridge and runs operators.

Started by process.py under the glibc vkd3d 2.x needs (`ld-linux-x86-64.so.2 --library-path ... python worker.py
LIB_DIR`), it reads requests on stdin and answers on stdout (wire.py). A crash here (native code, a GPU hang) ends
only this process; the app sees the pipe close and starts another. It imports nothing of the app: ctypes and the
standard library, and its siblings api.py and wire.py as plain modules.

Compiled operators are kept per descriptor (a class asking for the same settings compiles once), least recently
used first out, within COMPILED_BUDGET bytes: each costs its persistent and temporary resources plus an estimate of
its pipeline and binding objects (COMPILED_OVERHEAD). A descriptor DirectML refused to compile is remembered with
its answer, within REFUSED_BUDGET bytes of keys and diagnostics, so asking again costs no compilation.
"""

import collections
import ctypes
import json
import os
import re
import sys
import tempfile

import api
import wire

COMPILED_BUDGET = 64 << 20
COMPILED_OVERHEAD = 256 << 10
REFUSED_BUDGET = 1 << 20
HRESULT_OK = 0
# vkd3d-shader's own diagnostics ("E8013: Call to intrinsic function dx.op.bitcastI32toF32 is unhandled."): the
# reason a shader DirectML compiled could not be translated.
DIAGNOSTIC = re.compile(r"\b[EW]\d{4}: .*")
DIAGNOSTICS_KEPT = 6


def _unsigned(hr):
    return hr & 0xFFFFFFFF


class Kept:
    """Entries by key, least recently used first out past `budget` bytes; `release` frees what one holds."""

    def __init__(self, budget, release=None):
        self.budget, self.release = budget, release
        self.entries = collections.OrderedDict()  # key -> (value, cost)
        self.used = 0

    def get(self, key):
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return self.entries[key][0]

    def put(self, key, value, cost):
        self.entries[key] = (value, cost)
        self.used += cost
        while self.used > self.budget and len(self.entries) > 1:
            old, old_cost = self.entries.popitem(last=False)[1]
            if self.release is not None:
                self.release(old)
            self.used -= old_cost


class Runner:
    def __init__(self, lib_dir):
        self.lib = ctypes.CDLL(os.path.join(lib_dir, "libdmlrun.so"))
        self.lib.dmlrun_stage.restype = ctypes.c_char_p
        self.lib.dmlrun_device_name.restype = ctypes.c_char_p
        self.lib.dmlrun_compile.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
        self.lib.dmlrun_execute.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p,
                                            ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        self.lib.dmlrun_free.argtypes = [ctypes.c_void_p]
        self.lib.dmlrun_create_operator.argtypes = [ctypes.c_int, ctypes.c_void_p]
        self.lib.dmlrun_check_feature_support.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
                                                          ctypes.c_uint, ctypes.c_void_p]
        self.opened = _unsigned(self.lib.dmlrun_open(os.path.join(lib_dir, "libdirectml.so").encode()))
        self.compiled = Kept(COMPILED_BUDGET, self.lib.dmlrun_free)
        self.refused = Kept(REFUSED_BUDGET)  # (hr, stage, diagnostics)

    def stage(self):
        return self.lib.dmlrun_stage().decode()

    def hello(self):
        self.lib.dmlrun_d3d12_version.restype = ctypes.c_char_p
        self.lib.dmlrun_driver.restype = ctypes.c_char_p
        vkd3d = "vkd3d-proton " + self.lib.dmlrun_d3d12_version().decode().removeprefix("v")
        answer = {"hr": self.opened, "stage": self.stage(), "device": self.lib.dmlrun_device_name().decode(),
                  "driver": self.lib.dmlrun_driver().decode(), "vkd3d": vkd3d}
        if self.opened == HRESULT_OK:
            failures = ctypes.create_string_buffer(1024)
            self.lib.dmlrun_bridge_check(failures, len(failures))
            answer["bridge_failures"] = failures.value.decode()
            answer["max_feature_level"] = self.max_feature_level()
            answer["type_support"] = {name: self.type_supported(code) for name, code in api.DATA_TYPES.items()}
        return answer

    def max_feature_level(self):
        levels = (ctypes.c_int * len(api.FEATURE_LEVEL_CODES))(*api.FEATURE_LEVEL_CODES)
        query = api.FeatureLevelsQuery(len(levels), levels)
        data = ctypes.c_int(0)
        hr = self.lib.dmlrun_check_feature_support(0x1000, api.FEATURE_FEATURE_LEVELS, ctypes.sizeof(query),
                                                   ctypes.byref(query), 4, ctypes.byref(data))
        return data.value if _unsigned(hr) == HRESULT_OK else None

    def type_supported(self, code):
        query, data = ctypes.c_int(code), ctypes.c_int(0)
        hr = self.lib.dmlrun_check_feature_support(0x1000, api.FEATURE_TENSOR_DATA_TYPE_SUPPORT, 4,
                                                   ctypes.byref(query), 4, ctypes.byref(data))
        return _unsigned(hr) == HRESULT_OK and bool(data.value)

    def verdict(self, request):
        description = api.OperatorDescription(request["op"], request["inputs"], request["outputs"], request["attrs"])
        hr = _unsigned(self.lib.dmlrun_create_operator(request["level"], description.pointer))
        return {"hr": hr, "stage": self.stage() if hr else ""}

    def _prepared(self, request):
        """(handle, None) of the compiled operator, or (None, (hr, stage, diagnostics)) if DirectML refused it."""
        key = json.dumps([request[k] for k in ("op", "inputs", "outputs", "attrs", "level", "flags")])
        handle, refused = self.compiled.get(key), self.refused.get(key)
        if handle is not None or refused is not None:
            return handle, refused
        description = api.OperatorDescription(request["op"], request["inputs"], request["outputs"], request["attrs"])
        handle = ctypes.c_void_p()
        (hr, errors) = diagnosed(lambda: _unsigned(self.lib.dmlrun_compile(
            request["level"], description.pointer, request["flags"], ctypes.byref(handle))))
        if hr != HRESULT_OK:
            refused = (hr, self.stage(), errors)
            self.refused.put(key, refused, len(key) + len(json.dumps(refused)))
            return None, refused
        self.compiled.put(key, handle, COMPILED_OVERHEAD + sum(t["total_bytes"] for t in request["inputs"] +
                                                               request["outputs"]))
        return handle, None

    def run(self, request, buffers):
        handle, refused = self._prepared(request)
        if refused:
            hr, stage, errors = refused
            return {"hr": hr, "stage": stage, "diagnostics": errors}, []
        data = iter(buffers)
        in_arrays = [ctypes.create_string_buffer(next(data), t["total_bytes"]) for t in request["inputs"]]
        out_arrays = [ctypes.create_string_buffer(next(data), t["total_bytes"]) for t in request["outputs"]]
        n_in, n_out = len(in_arrays), len(out_arrays)
        in_ptrs = (ctypes.c_void_p * n_in)(*[ctypes.addressof(a) for a in in_arrays])
        in_sizes = (ctypes.c_uint64 * n_in)(*[t["total_bytes"] for t in request["inputs"]])
        out_ptrs = (ctypes.c_void_p * n_out)(*[ctypes.addressof(a) for a in out_arrays])
        out_sizes = (ctypes.c_uint64 * n_out)(*[t["total_bytes"] for t in request["outputs"]])
        hr = _unsigned(self.lib.dmlrun_execute(handle, n_in, in_ptrs, in_sizes, n_out, out_ptrs, out_sizes))
        if hr != HRESULT_OK:
            return {"hr": hr, "stage": self.stage()}, []
        return {"hr": hr, "stage": ""}, [a.raw for a in out_arrays]


def diagnosed(call):
    """(call(), vkd3d-shader's error lines written to stderr meanwhile): fd 2 goes to a file for the call."""
    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            result = call()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        lines = log.read().decode(errors="replace").splitlines()
    errors = list(dict.fromkeys(m.group(0) for m in map(DIAGNOSTIC.search, lines) if m and m.group(0)[0] == "E"))
    return result, errors[:DIAGNOSTICS_KEPT]


def _reader(stream):
    def read_line(limit):
        line = stream.readline(limit)
        if not line:
            raise EOFError
        return line

    def read_exactly(n):
        data = stream.read(n)
        if len(data) != n:
            raise EOFError
        return data

    return read_line, read_exactly


def main():
    runner = Runner(sys.argv[1])
    out = sys.stdout.buffer
    wire.write_message(out, runner.hello())
    if runner.opened != HRESULT_OK:
        return
    read_line, read_exactly = _reader(sys.stdin.buffer)
    while True:
        try:
            request, buffers = wire.read_message(read_line, read_exactly)
        except EOFError:
            return
        if request["kind"] == "verdict":
            (answer, results), errors = diagnosed(lambda: (runner.verdict(request), []))
        else:
            (answer, results), errors = diagnosed(lambda: runner.run(request, buffers))
        wire.write_message(out, {"diagnostics": errors, **answer}, results)


if __name__ == "__main__":
    main()
