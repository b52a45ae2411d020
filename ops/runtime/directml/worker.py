"""The DirectML worker: a process of its own that loads libdirectml.so through the bridge and runs operators.

Started by process.py (`python worker.py LIB_DIR`, with lavapipe and the built libraries on LD_LIBRARY_PATH), it
reads requests on stdin and answers on stdout (wire.py). A crash here (native code, a GPU hang) ends only this
process; the app sees the pipe close and starts another. It imports nothing of the app: ctypes and the standard
library, and its siblings api.py and wire.py as plain modules.

A request names any operator by its wire desc (api.py packs it from its field types; docs/directml.md, "Running any
operator"), its tensors in DirectML's binding order (None for an optional one left out), the feature level, the
DML_EXECUTION_FLAGS and the most temporary and persistent resource memory DirectML may ask for. Inputs whose tensor
is OWNED_BY_DML go to the initializer, which copies them into the persistent resource; the others are bound when the
operator executes.

Compiled operators are kept per descriptor (a class asking for the same settings compiles once; owned inputs' bytes
are part of the key, being baked in), least recently used first out, within COMPILED_BUDGET bytes, each costed by
what its compilation added to this process's resident memory (measured in /proc/self/status), and within the runner's
shared descriptor heap (a compilation that finds it full evicts the oldest and tries again). A descriptor DirectML
refused to compile is remembered with its answer, within REFUSED_BUDGET bytes of keys and diagnostics, so asking
again costs no compilation; a refusal for the worker's own limits (the heap full, the resource budget) is not. Every
answer carries the process's resident size, for process.py's memory limit, and the resources DirectML asked for.
"""

import collections
import ctypes
import functools
import hashlib
import json
import os
import re
import sys
import tempfile

import api
import wire

COMPILED_BUDGET = 128 << 20
REFUSED_BUDGET = 1 << 20
HRESULT_OK = 0
E_OUTOFMEMORY = 0x8007000E
E_INVALIDARG = 0x80070057
HEAP_FULL = "descriptor heap full"  # dmlrun.c's stage when the shared heap has no room for a binding table
RESOURCE_BUDGET = "resource budget"  # its stage when DirectML asks for more temporary and persistent memory than
# the request allows
# vkd3d-proton's (and its shader compiler's) log lines: "tid:level:function: message" (libs/vkd3d-common/debug.c).
# Its err lines are the reason a call failed inside D3D12: they go back with the call as its diagnostics.
LOG_ERROR = re.compile(r"^[0-9a-f]+:err:(\w+): (.*)$")
DIAGNOSTICS_KEPT = 6


def _unsigned(hr):
    return hr & 0xFFFFFFFF


def resident_bytes():
    """This process's resident memory (VmRSS: anonymous, file and shared pages, lavapipe's memfd allocations)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) << 10
    return 0


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
            self.drop_oldest()

    def drop_oldest(self):
        value, cost = self.entries.popitem(last=False)[1]
        if self.release is not None:
            self.release(value)
        self.used -= cost


class Runner:
    def __init__(self, lib_dir):
        self.lib = ctypes.CDLL(os.path.join(lib_dir, "libdmlrun.so"))
        for name in ("dmlrun_stage", "dmlrun_device_name", "dmlrun_driver", "dmlrun_d3d12_version"):
            getattr(self.lib, name).restype = ctypes.c_char_p
        self.lib.dmlrun_compile.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
                                            ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        self.lib.dmlrun_execute.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p,
                                            ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        self.lib.dmlrun_free.argtypes = [ctypes.c_void_p]
        self.lib.dmlrun_create_operator.argtypes = [ctypes.c_int, ctypes.c_void_p]
        self.lib.dmlrun_check_feature_support.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
                                                          ctypes.c_uint, ctypes.c_void_p]
        self.libc = ctypes.CDLL(None)
        self.opened = _unsigned(self.lib.dmlrun_open(os.path.join(lib_dir, "libdirectml.so").encode()))
        self.compiled = Kept(COMPILED_BUDGET, lambda compiled: self._free(compiled[0]))
        self.refused = Kept(REFUSED_BUDGET)  # (hr, stage, diagnostics)

    def _free(self, handle):
        self.lib.dmlrun_free(handle)
        # Give freed heap pages back to the system, so evicting shows in the resident size.
        self.libc.malloc_trim(0)

    def stage(self):
        return self.lib.dmlrun_stage().decode()

    def hello(self):
        answer = {"hr": self.opened, "stage": self.stage(), "device": self.lib.dmlrun_device_name().decode(),
                  "driver": self.lib.dmlrun_driver().decode(),
                  "vkd3d": "vkd3d-proton " + self.lib.dmlrun_d3d12_version().decode().removeprefix("v")}
        if self.opened == HRESULT_OK:
            failures = ctypes.create_string_buffer(1024)
            self.lib.dmlrun_bridge_check(failures, len(failures))
            answer["bridge_failures"] = failures.value.decode()
            answer["max_feature_level"] = self.max_feature_level()
            answer["type_support"] = {name: self.type_supported(code) for name, code in api.DATA_TYPES.items()}
            answer["fp64"] = self.fp64()
        return answer

    def fp64(self):
        values = [ctypes.c_int(-1) for _ in range(4)]
        self.lib.dmlrun_fp64(*map(ctypes.byref, values))
        double_ops, shader_float64, denorm_preserve, independence = (v.value for v in values)
        return {"DoublePrecisionFloatShaderOps": double_ops, "shaderFloat64": shader_float64,
                "shaderDenormPreserveFloat64": denorm_preserve, "denormBehaviorIndependence": independence}

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
        description = api.OperatorDescription(request["desc"], request["inputs"], request["outputs"])
        hr = _unsigned(self.lib.dmlrun_create_operator(request["level"], description.pointer))
        return {"hr": hr, "stage": self.stage() if hr else ""}

    def _compile(self, request, owned):
        """(hr, (handle, resources), measured cost): CreateOperator to the initializer's dispatch, evicting the least
        recently used compiled operators while the shared descriptor heap has no room. `owned` holds the buffer of
        each input whose tensor DirectML owns (bound at initialization) and None for the others."""
        description = api.OperatorDescription(request["desc"], request["inputs"], request["outputs"])
        n_in = len(request["inputs"])
        owned_ptrs = (ctypes.c_void_p * n_in)(*[None if b is None else _address(b) for b in owned])
        owned_sizes = (ctypes.c_uint64 * n_in)(*[0 if b is None else len(b) for b in owned])
        resources = (ctypes.c_uint64 * 3)()
        while True:
            handle = ctypes.c_void_p()
            before = resident_bytes()
            hr = _unsigned(self.lib.dmlrun_compile(request["level"], description.pointer, request["flags"], n_in,
                                                   owned_ptrs, owned_sizes, request["resource_budget"], resources,
                                                   ctypes.byref(handle)))
            cost = max(0, resident_bytes() - before)
            if hr == E_OUTOFMEMORY and self.stage() == HEAP_FULL and self.compiled.entries:
                self.compiled.drop_oldest()
                continue
            asked = {"temporary": resources[0], "persistent": resources[1], "descriptors": resources[2]}
            return hr, (handle, asked), cost

    def _prepared(self, request, owned):
        """((handle, resources), None) of the compiled operator, or (None, (hr, stage, diagnostics, resources)) if
        DirectML refused it. Owned inputs are baked into the persistent resource, so their bytes are in the key."""
        digest = hashlib.sha256(json.dumps([request[k] for k in ("desc", "inputs", "outputs", "level", "flags")])
                                .encode())
        for b in owned:
            digest.update(b"-" if b is None else len(b).to_bytes(8, "little") + b)
        key = digest.hexdigest()  # a desc's arrays may run to thousands of elements: the cache keeps 64 characters
        compiled, refused = self.compiled.get(key), self.refused.get(key)
        if compiled is not None or refused is not None:
            return compiled, refused
        (hr, compiled, cost), errors = diagnosed(lambda: self._compile(request, owned))
        if hr != HRESULT_OK:
            refused = (hr, self.stage(), errors, compiled[1])
            # A full heap is this worker's state and the resource budget the caller's, not DirectML's verdict.
            if self.stage() not in (HEAP_FULL, RESOURCE_BUDGET):
                self.refused.put(key, refused, len(key) + len(json.dumps(refused)))
            return None, refused
        self.compiled.put(key, compiled, cost)
        return compiled, None

    def run(self, request, buffers):
        """Run the request on `buffers`: one per input, then one per output, of those not left out (owned inputs
        included). Owned inputs go to the initializer and are bound as NONE when the operator executes."""
        inputs, outputs = request["inputs"], request["outputs"]
        present = [t for t in inputs + outputs if t is not None]
        if [len(b) for b in buffers] != [t["total_bytes"] for t in present]:
            raise api.PackError("each buffer must hold its tensor's TotalTensorSizeInBytes")
        supplied = iter(buffers)
        by_input = [None if t is None else next(supplied) for t in inputs]
        by_output = [None if t is None else next(supplied) for t in outputs]
        owned = [b if t is not None and t.get("flags") == "OWNED_BY_DML" else None for t, b in zip(inputs, by_input)]
        compiled, refused = self._prepared(request, owned)
        if refused:
            hr, stage, errors, resources = refused
            return {"hr": hr, "stage": stage, "diagnostics": errors, "resources": resources}, []
        handle, resources = compiled
        executed = [None if o is not None else b for b, o in zip(by_input, owned)]
        # The runner reads the inputs and writes the outputs in place: the buffers as read from the pipe, uncopied
        # (bytearrays, see _reader), and the outputs go back from the same memory.
        n_in, n_out = len(inputs), len(outputs)
        in_ptrs = (ctypes.c_void_p * n_in)(*[None if b is None else _address(b) for b in executed])
        in_sizes = (ctypes.c_uint64 * n_in)(*[0 if b is None else len(b) for b in executed])
        out_ptrs = (ctypes.c_void_p * n_out)(*[None if b is None else _address(b) for b in by_output])
        out_sizes = (ctypes.c_uint64 * n_out)(*[0 if b is None else len(b) for b in by_output])
        hr = _unsigned(self.lib.dmlrun_execute(handle, n_in, in_ptrs, in_sizes, n_out, out_ptrs, out_sizes))
        answer = {"hr": hr, "stage": self.stage() if hr else "", "resources": resources}
        return answer, ([b for b in by_output if b is not None] if hr == HRESULT_OK else [])


def _address(buffer):
    return ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))


def diagnosed(call):
    """(call(), vkd3d-proton's err lines written to stderr meanwhile, as "function: message"): fd 2 goes to a file
    for the call, and what it holds is passed on to the real stderr afterwards."""
    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            result = call()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        text = log.read()
    os.write(2, text)
    lines = text.decode(errors="replace").splitlines()
    errors = [f"{m.group(1)}: {m.group(2)}" for m in map(LOG_ERROR.match, lines) if m]
    return result, list(dict.fromkeys(errors))[:DIAGNOSTICS_KEPT]


def _reader(stream):
    def read_line(limit):
        line = stream.readline(limit)
        if not line:
            raise EOFError
        return line

    def read_exactly(n):
        """n bytes into a bytearray of their own: the runner can use it in place (no copy)."""
        data = bytearray(n)
        view, done = memoryview(data), 0
        while done < n:
            got = stream.readinto(view[done:])
            if not got:
                raise EOFError
            done += got
        return data

    return read_line, read_exactly


def main():
    (runner, errors) = diagnosed(lambda: Runner(sys.argv[1]))
    out = sys.stdout.buffer
    wire.write_message(out, {**runner.hello(), "diagnostics": errors, "rss": resident_bytes()})
    if runner.opened != HRESULT_OK:
        return
    read_line, read_exactly = _reader(sys.stdin.buffer)
    while True:
        try:
            request, buffers = wire.read_message(read_line, read_exactly)
        except EOFError:
            return
        call = (lambda request=request: (runner.verdict(request), [])) if request["kind"] == "verdict" else \
            functools.partial(runner.run, request, buffers)
        try:
            (answer, results), errors = diagnosed(call)
        except api.PackError as error:  # the app checks descs first: this is the last line, not the usual refusal
            (answer, results), errors = ({"hr": E_INVALIDARG, "stage": "packing the desc"}, []), [str(error)]
        errors = list(dict.fromkeys(answer.pop("diagnostics", []) + errors))[:DIAGNOSTICS_KEPT]
        wire.write_message(out, {**answer, "diagnostics": errors, "rss": resident_bytes()}, results)


if __name__ == "__main__":
    main()
