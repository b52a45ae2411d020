"""Writes bridge_gen.c: a wrapper for every method of vkd3d-proton's D3D12 interfaces, as libdirectml.so calls them.

libdirectml.so (the Linux build inside the torch-directml wheel) was compiled for WSL against Microsoft's C++ D3D12
headers. vkd3d-proton's methods are System V too (its include/vkd3d_windows.h defines STDMETHODCALLTYPE as nothing
off Windows), but its widl-generated C vtables differ from what DirectML calls in one way: a method returning a
struct (ID3D12Resource::GetDesc, ID3D12DescriptorHeap::GetCPUDescriptorHandleForHeapStart, ...) takes a trailing
`__ret` pointer and returns that pointer, where a C++ caller on Linux gets the struct by value (in RAX for 8 bytes;
for larger ones through a hidden pointer passed *before* `this`). Each wrapper here is a plain C function with the
C++ caller's signature: it unwraps the interface pointers it receives, calls vkd3d-proton's method through the real
object's vtable, wraps the interface pointers it hands back, and returns structs by value. Because DirectML holds
wrappers, every object it sees must be one (COM identity, QueryInterface: bridge.c). The methods whose arguments carry
interface pointers inside structs, and SetName (WCHAR is 4 bytes for DirectML, 2 for vkd3d-proton), are written by
hand in bridge.c (HANDWRITTEN); a method taking such a struct that is not handwritten refuses instead of passing
wrapper pointers into vkd3d-proton.

Run: python3 gen_bridge.py VKD3D_PROTON_INCLUDE_DIR OUT.c   (the directory holding vkd3d-proton's widl-generated
vkd3d_d3d12.h and vkd3d_d3dcommon.h)
"""

import pathlib
import re
import sys

# One wrapper class per kind of object vkd3d-proton creates: the most derived interface gives the vtable, the others
# in the family (and the base interfaces) are answered by QueryInterface with the same wrapper. Every interface
# listed must be in vkd3d-proton's headers (the generator stops otherwise).
FAMILIES = {
    "Device": ["ID3D12Device", *(f"ID3D12Device{n}" for n in range(1, 15))],
    "CommandList": ["ID3D12CommandList", "ID3D12GraphicsCommandList",
                    *(f"ID3D12GraphicsCommandList{n}" for n in range(1, 11))],
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
    "Blob": ["ID3D10Blob"],
    "RootSignatureDeserializer": ["ID3D12RootSignatureDeserializer"],
    "VersionedRootSignatureDeserializer": ["ID3D12VersionedRootSignatureDeserializer"],
}
BASES = ["IUnknown", "ID3D12Object", "ID3D12DeviceChild", "ID3D12Pageable"]

# Written by hand in bridge.c as hw_<Method>.
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
        raise SystemExit(f"gen_bridge: {interface} not found in vkd3d-proton's headers")
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
    visible = [p for p, n in zip(params, names) if n != "__ret"]
    sig = ", ".join(["void *This"] + visible)
    if "__ret" in names:
        ret = params[names.index("__ret")].rsplit("*", 1)[0].strip()  # the struct, returned by value
    if any(base_type(p) in POINTER_STRUCTS for p in params):
        body = f'bridge_refused("{cls}::{name}");'
        if ret != "void":
            body += " return E_NOTIMPL;" if ret == "HRESULT" else f" {ret} none_ = {{0}}; return none_;"
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
    prelude = " ".join([f'TRACE("{cls}::{name}");'] + pre)
    if "__ret" in names:
        return f"static {ret} {fn}({sig}) {{ {prelude} {ret} ret_; {call}; return ret_; }}", fn
    post = ""
    if len(params) >= 2 and params[-1].startswith("void **") and "REFIID" in params[-2]:
        post = f"if (SUCCEEDED(hr) && {names[-1]} && *{names[-1]}) hr = wrap_out({names[-1]}, {names[-2]});"
    elif (params and params[-1].count("*") == 2 and "const" not in params[-1]
          and is_interface(base_type(params[-1]), interfaces)):
        post = (f"if (SUCCEEDED(hr) && {names[-1]} && *{names[-1]}) "
                f'*{names[-1]} = wrap_known(*{names[-1]}, "{base_type(params[-1])}");')
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
    absent = [m for members in FAMILIES.values() for m in members if m not in interfaces]
    if absent:
        raise SystemExit(f"gen_bridge: not in vkd3d-proton's headers: {', '.join(absent)}")
    out = ["/* Generated by gen_bridge.py from vkd3d-proton's headers; do not edit. */", '#include "bridge.h"', ""]
    table = []
    for family, members in FAMILIES.items():
        slots = []
        for ret, name, params in methods_of(header, members[-1]):
            source, fn = wrapper(members[-1], ret, name, params, interfaces)
            if source:
                out.append(source)
            slots.append(f"(void *){fn}")
        out.append(f"static void *vt_{family}[] = {{ {', '.join(slots)} }};")
        out.append(f"static const IID *iids_{family}[] = {{ {', '.join(f'&IID_{m}' for m in members)}, NULL }};")
        names = ", ".join(f'"{m}"' for m in members)
        table.append(f'    {{ "{family}", vt_{family}, iids_{family}, {{ {names}, NULL }} }},')
        out.append("")
    out.append("const struct bridge_family bridge_families[] = {")
    out.extend(table)
    out.append("    { NULL, NULL, NULL, { NULL } },")
    out.append("};")
    out.append(f"const IID *bridge_base_iids[] = {{ {', '.join(f'&IID_{b}' for b in BASES)}, NULL }};")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    pathlib.Path(sys.argv[2]).write_text(generate(sys.argv[1]))
