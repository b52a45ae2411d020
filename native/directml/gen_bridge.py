"""Writes bridge_gen.c: System V wrappers for every method of vkd3d's D3D12 interfaces.

libdirectml.so (the Linux build inside the torch-directml wheel) was compiled for WSL, whose D3D12 calls COM methods
with the System V convention and returns small structs by value. vkd3d declares every method
`__attribute__((ms_abi))` (vkd3d_windows.h: `#define __stdcall __attribute__((ms_abi))`) and returns structs
through a trailing `__ret` pointer. Each wrapper here is a plain C function (System V on Linux) that unwraps the
interface pointers it receives, calls vkd3d's method through the real object's vtable, and wraps the interface
pointers it hands back. The methods whose structs carry interface pointers are written by hand in bridge.c
(HANDWRITTEN below); methods that take such structs but are not handwritten refuse instead of passing wrapper
pointers into vkd3d.

Run: python3 gen_bridge.py VKD3D_INCLUDE_DIR OUT.c
"""

import pathlib
import re
import sys

# One wrapper class per object kind vkd3d creates: the most derived interface in the header gives the vtable,
# the others in the family (and the base interfaces) are answered by QueryInterface with the same wrapper.
FAMILIES = {
    "Device": ["ID3D12Device", "ID3D12Device1", "ID3D12Device2", "ID3D12Device3", "ID3D12Device4",
               "ID3D12Device5", "ID3D12Device6", "ID3D12Device7", "ID3D12Device8", "ID3D12Device9",
               "ID3D12Device10"],
    "CommandList": ["ID3D12CommandList", "ID3D12GraphicsCommandList", "ID3D12GraphicsCommandList1",
                    "ID3D12GraphicsCommandList2", "ID3D12GraphicsCommandList3", "ID3D12GraphicsCommandList4",
                    "ID3D12GraphicsCommandList5", "ID3D12GraphicsCommandList6", "ID3D12GraphicsCommandList7"],
    "Resource": ["ID3D12Resource", "ID3D12Resource1", "ID3D12Resource2"],
    "Heap": ["ID3D12Heap", "ID3D12Heap1"],
    "Fence": ["ID3D12Fence", "ID3D12Fence1"],
    "CommandQueue": ["ID3D12CommandQueue"],
    "CommandAllocator": ["ID3D12CommandAllocator"],
    "DescriptorHeap": ["ID3D12DescriptorHeap"],
    "QueryHeap": ["ID3D12QueryHeap"],
    "CommandSignature": ["ID3D12CommandSignature"],
    "RootSignature": ["ID3D12RootSignature"],
    "PipelineState": ["ID3D12PipelineState"],
    "PipelineLibrary": ["ID3D12PipelineLibrary", "ID3D12PipelineLibrary1"],
    "MetaCommand": ["ID3D12MetaCommand"],
    "ShaderCacheSession": ["ID3D12ShaderCacheSession"],
    "Blob": ["ID3D10Blob"],
    "RootSignatureDeserializer": ["ID3D12RootSignatureDeserializer"],
    "VersionedRootSignatureDeserializer": ["ID3D12VersionedRootSignatureDeserializer"],
}
BASES = ["IUnknown", "ID3D12Object", "ID3D12DeviceChild", "ID3D12Pageable"]

# Written by hand in bridge.c as hw_<Method>: their arguments carry interface pointers inside structs.
HANDWRITTEN = {"ResourceBarrier", "CreateComputePipelineState", "CopyTextureRegion", "SetName"}
# Structs holding interface pointers; a method taking one that is not handwritten is refused.
POINTER_STRUCTS = {"D3D12_RESOURCE_BARRIER", "D3D12_TEXTURE_COPY_LOCATION", "D3D12_COMPUTE_PIPELINE_STATE_DESC",
                   "D3D12_GRAPHICS_PIPELINE_STATE_DESC", "D3D12_PIPELINE_STATE_STREAM_DESC",
                   "D3D12_STATE_OBJECT_DESC", "D3D12_RENDER_PASS_RENDER_TARGET_DESC",
                   "D3D12_RENDER_PASS_DEPTH_STENCIL_DESC", "D3D12_BARRIER_GROUP"}

METHOD = re.compile(r"\n    ([\w *]+?)\s*\(STDMETHODCALLTYPE \*(\w+)\)\(\s*(.*?)\);", re.S)


def interface_names(header_text):
    return set(re.findall(r"typedef struct (\w+)Vtbl \{", header_text))


def methods_of(header_text, interface):
    body = re.search(r"typedef struct %sVtbl \{(.*?)\} %sVtbl;" % (interface, interface), header_text, re.S)
    if body is None:
        raise SystemExit(f"gen_bridge: {interface} not found in vkd3d's headers")
    for ret, name, params in METHOD.findall(body.group(1)):
        params = [" ".join(p.split()) for p in params.split(",")]
        yield ret.strip(), name, params[1:]  # params[0] is This


def param_name(param):
    return re.sub(r"\[.*\]", "", re.split(r"[\s*]+", param)[-1])


def base_type(param):
    return param.replace("const", " ").replace("*", " ").split()[0]


def is_interface(type_name, interfaces):
    return type_name in interfaces or type_name in ("IUnknown", "ID3DBlob")


def wrapper(cls, ret, name, params, interfaces):
    """C source of one wrapper, and the name its vtable slot points to."""
    fn = f"w_{cls}_{name}"
    if name in ("QueryInterface", "AddRef", "Release"):
        return "", f"b_{name}"
    if name in HANDWRITTEN:
        return "", f"hw_{name}"
    names = [param_name(p) for p in params]
    real = f"(({cls} *)REAL(This))"
    if any(base_type(p) in POINTER_STRUCTS for p in params):
        body = f'bridge_refused("{cls}::{name}");'
        if ret != "void":
            body += " return E_NOTIMPL;" if ret == "HRESULT" else " return 0;"
        sig = ", ".join(["void *This"] + params)
        return f"static {ret} {fn}({sig}) {{ {body} }}", fn
    pre, args = [], []
    for i, (param, pname) in enumerate(zip(params, names)):
        t = base_type(param)
        stars = param.count("*")
        if pname == "__ret":
            args.append("&ret_")
        elif is_interface(t, interfaces) and stars == 2 and "const" in param.split("*")[1] and i > 0:
            # An input array of interface pointers, its count the parameter before it.
            pre.append(f"{t} *un_{pname}[BRIDGE_MAX_ARRAY]; if ({names[i - 1]} > BRIDGE_MAX_ARRAY) "
                       f"bridge_fatal(\"{cls}::{name}: array too long\"); "
                       f"for (UINT k = 0; k < {names[i - 1]}; k++) un_{pname}[k] = unwrap({pname}[k]);")
            args.append(f"{pname} ? un_{pname} : NULL")
        elif is_interface(t, interfaces) and stars == 1:
            args.append(f"unwrap({pname})")
        else:
            args.append(pname)
    call = f"{real}->lpVtbl->{name}({', '.join([real] + args)})"
    trace = f'TRACE("{cls}::{name}");'
    visible = [p for p, n in zip(params, names) if n != "__ret"]
    sig = ", ".join(["void *This"] + visible)
    prelude = " ".join([trace] + pre)
    if "__ret" in names:
        ret_type = params[names.index("__ret")].rsplit("*", 1)[0].strip()
        return f"static {ret_type} {fn}({sig}) {{ {prelude} {ret_type} ret_; {call}; return ret_; }}", fn
    post = ""
    if len(params) >= 2 and params[-1].startswith("void **") and "REFIID" in params[-2]:
        post = f"if (SUCCEEDED(hr) && {names[-1]} && *{names[-1]}) hr = wrap_out({names[-1]}, {names[-2]});"
    elif (params and params[-1].count("*") == 2 and "const" not in params[-1]
          and is_interface(base_type(params[-1]), interfaces)):
        post = f'if (SUCCEEDED(hr) && {names[-1]} && *{names[-1]}) *{names[-1]} = wrap_known(*{names[-1]}, "{base_type(params[-1])}");'
    if ret == "void":
        return f"static void {fn}({sig}) {{ {prelude} {call}; }}", fn
    if ret == "HRESULT":
        return (f"static HRESULT {fn}({sig}) {{ {prelude} HRESULT hr = {call}; {post} "
                f'if (FAILED(hr)) TRACE_HR("{cls}::{name}", hr); return hr; }}'), fn
    return f"static {ret} {fn}({sig}) {{ {prelude} return {call}; }}", fn


def generate(include_dir):
    include = pathlib.Path(include_dir)
    header = (include / "vkd3d_d3d12.h").read_text() + (include / "vkd3d_d3dcommon.h").read_text()
    interfaces = interface_names(header)
    out = ["/* Generated by gen_bridge.py from vkd3d's headers; do not edit. */", '#include "bridge.h"', ""]
    table = []
    for family, members in FAMILIES.items():
        present = [m for m in members if m in interfaces]
        cls = present[-1]
        slots = []
        for ret, name, params in methods_of(header, cls):
            source, fn = wrapper(cls, ret, name, params, interfaces)
            if source:
                out.append(source)
            slots.append(f"(void *){fn}")
        out.append(f"static void *vt_{family}[] = {{ {', '.join(slots)} }};")
        iids = ", ".join(f"&IID_{m}" for m in present)
        out.append(f"static const IID *iids_{family}[] = {{ {iids}, NULL }};")
        table.append(f'    {{ "{family}", vt_{family}, iids_{family}, {{ {", ".join(chr(34) + m + chr(34) for m in present)}, NULL }} }},')
        out.append("")
    out.append("const struct bridge_family bridge_families[] = {")
    out.extend(table)
    out.append("    { NULL, NULL, NULL, { NULL } },")
    out.append("};")
    base_iids = ", ".join(f"&IID_{b}" for b in BASES)
    out.append(f"const IID *bridge_base_iids[] = {{ {base_iids}, NULL }};")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    pathlib.Path(sys.argv[2]).write_text(generate(sys.argv[1]))
