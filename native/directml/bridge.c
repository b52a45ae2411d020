/* The bridge's runtime: one wrapper per vkd3d-proton object (COM identity), QueryInterface limited to the interfaces
 * the bridge can present, the methods whose arguments need more than unwrapping, and the one D3D12 export
 * libdirectml.so imports. Built into libd3d12.so, the name libdirectml.so's DT_NEEDED asks for. */
#define INITGUID
#include "bridge.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

int bridge_trace;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* real object -> wrapper, open addressing; a slot whose wrapper died holds TOMBSTONE. */
#define TABLE_SIZE 65536
#define TOMBSTONE ((struct bridge_object *)1)
static struct bridge_object *table[TABLE_SIZE];

static size_t slot_of(const void *real) { return ((uintptr_t)real >> 4) * 2654435761u % TABLE_SIZE; }

static struct bridge_object *find(const void *real)
{
    for (size_t i = slot_of(real), n = 0; n < TABLE_SIZE; i = (i + 1) % TABLE_SIZE, n++) {
        if (!table[i]) return NULL;
        if (table[i] != TOMBSTONE && table[i]->real == real) return table[i];
    }
    return NULL;
}

static void insert(struct bridge_object *w)
{
    for (size_t i = slot_of(w->real), n = 0; n < TABLE_SIZE; i = (i + 1) % TABLE_SIZE, n++)
        if (!table[i] || table[i] == TOMBSTONE) { table[i] = w; return; }
    bridge_fatal("more live D3D12 objects than the bridge can track");
}

static void forget(struct bridge_object *w)
{
    for (size_t i = slot_of(w->real), n = 0; n < TABLE_SIZE && table[i]; i = (i + 1) % TABLE_SIZE, n++)
        if (table[i] == w) { table[i] = TOMBSTONE; return; }
}

void bridge_fatal(const char *message)
{
    fprintf(stderr, "[bridge] fatal: %s\n", message);
    abort();
}

void bridge_refused(const char *method)
{
    fprintf(stderr, "[bridge] %s is not bridged (its structs carry interface pointers)\n", method);
}

static int is_wrapper(const void *p)
{
    /* A wrapper's first word is one of the families' vtables; any COM object's first word is readable. */
    void *const *vtbl = *(void *const *const *)p;
    for (const struct bridge_family *f = bridge_families; f->name; f++)
        if (vtbl == (void *const *)f->vtbl) return 1;
    return 0;
}

void *bridge_unwrap(void *p)
{
    return p && is_wrapper(p) ? ((struct bridge_object *)p)->real : p;
}

static void *wrap_family(void *real, const struct bridge_family *family)
{
    pthread_mutex_lock(&lock);
    struct bridge_object *w = find(real);
    if (!w) {
        w = calloc(1, sizeof *w);
        if (!w) bridge_fatal("out of memory");
        w->vtbl = family->vtbl;
        w->real = real;
        w->family = family;
        insert(w);
    }
    pthread_mutex_unlock(&lock);
    return w;
}

static const struct bridge_family *family_of_iid(REFIID riid)
{
    for (const struct bridge_family *f = bridge_families; f->name; f++)
        for (const IID **iid = f->iids; *iid; iid++)
            if (IsEqualGUID(riid, *iid)) return f;
    return NULL;
}

static int is_base_iid(REFIID riid)
{
    for (const IID **iid = bridge_base_iids; *iid; iid++)
        if (IsEqualGUID(riid, *iid)) return 1;
    return 0;
}

void *wrap_known(void *real, const char *interface_name)
{
    if (!strcmp(interface_name, "ID3DBlob")) interface_name = "ID3D10Blob";
    for (const struct bridge_family *f = bridge_families; f->name; f++)
        for (const char *const *n = f->names; *n; n++)
            if (!strcmp(*n, interface_name)) return wrap_family(real, f);
    fprintf(stderr, "[bridge] no wrapper for %s\n", interface_name);
    bridge_fatal("an object of an interface the bridge does not know");
    return NULL;
}

/* The family of an object handed out as IUnknown or another base interface: the one whose interface it answers. */
static const struct bridge_family *family_of_object(IUnknown *object)
{
    for (const struct bridge_family *f = bridge_families; f->name; f++) {
        IUnknown *same = NULL;
        if (SUCCEEDED(object->lpVtbl->QueryInterface(object, f->iids[0], (void **)&same))) {
            same->lpVtbl->Release(same);
            return f;
        }
    }
    return NULL;
}

/* An object vkd3d-proton created for an interface id: wrapped, or released and refused when the bridge cannot
 * present that interface (DirectML then sees E_NOINTERFACE, as from a D3D12 without it). */
HRESULT wrap_out(void **object, REFIID riid)
{
    const struct bridge_family *family = is_base_iid(riid) ? family_of_object(*object) : family_of_iid(riid);
    if (!family) {
        IUnknown *unknown = *object;
        unknown->lpVtbl->Release(unknown);
        *object = NULL;
        if (bridge_trace)
            fprintf(stderr, "[bridge] an object of the unbridged interface {%08x-%04x-%04x} refused\n",
                    (unsigned)riid->Data1, riid->Data2, riid->Data3);
        return E_NOINTERFACE;
    }
    *object = wrap_family(*object, family);
    return S_OK;
}

void *bridge_wrap(void *real, const char *interface_name)
{
    bridge_trace = getenv("DML_BRIDGE_TRACE") != NULL;
    return wrap_known(real, interface_name);
}

HRESULT b_QueryInterface(void *This, REFIID riid, void **object)
{
    struct bridge_object *w = This;
    const struct bridge_family *family = is_base_iid(riid) ? w->family : family_of_iid(riid);
    if (!family) {
        if (bridge_trace)
            fprintf(stderr, "[bridge] QueryInterface {%08x-%04x-%04x} not bridged: E_NOINTERFACE\n",
                    (unsigned)riid->Data1, riid->Data2, riid->Data3);
        *object = NULL;
        return E_NOINTERFACE;
    }
    IUnknown *real = w->real;
    HRESULT hr = real->lpVtbl->QueryInterface(real, riid, object);
    if (SUCCEEDED(hr)) *object = wrap_family(*object, family);
    else if (bridge_trace)
        fprintf(stderr, "[bridge] QueryInterface {%08x} -> 0x%08x from vkd3d-proton\n", (unsigned)riid->Data1, (unsigned)hr);
    return hr;
}

ULONG b_AddRef(void *This)
{
    IUnknown *real = REAL(This);
    return real->lpVtbl->AddRef(real);
}

ULONG b_Release(void *This)
{
    struct bridge_object *w = This;
    IUnknown *real = w->real;
    pthread_mutex_lock(&lock);
    ULONG left = real->lpVtbl->Release(real);
    /* The object is gone: a later object at the same address must get a wrapper of its own family. */
    if (!left) { forget(w); free(w); }
    pthread_mutex_unlock(&lock);
    return left;
}

/* DirectML's WCHAR is wchar_t, 4 bytes on Linux (UTF-32); vkd3d-proton's is 2 (include/vkd3d_windows.h:
 * `typedef unsigned short WCHAR`, UTF-16). The name is converted, code points past U+FFFF as surrogate pairs, and
 * passed on: vkd3d-proton keeps it as the object's WKPDID_D3DDebugObjectNameW private data (libs/vkd3d/utils.c,
 * d3d12_object_SetName), which dmlrun_bridge_check reads back. */
HRESULT hw_SetName(void *This, const WCHAR *name)
{
    const uint32_t *wide = (const uint32_t *)name;
    WCHAR narrow[256];
    size_t n = 0;
    TRACE("SetName");
    if (!wide) return E_INVALIDARG;
    for (; *wide && n + 2 < sizeof narrow / sizeof *narrow; wide++) {
        uint32_t c = *wide;
        if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;  /* not a Unicode scalar value */
        if (c > 0xffff) {
            c -= 0x10000;
            narrow[n++] = 0xd800 | (c >> 10);
            narrow[n++] = 0xdc00 | (c & 0x3ff);
        } else {
            narrow[n++] = c;
        }
    }
    narrow[n] = 0;
    ID3D12Object *object = REAL(This);
    return object->lpVtbl->SetName(object, narrow);
}

void hw_ResourceBarrier(void *This, UINT count, const D3D12_RESOURCE_BARRIER *barriers)
{
    TRACE("ResourceBarrier");
    D3D12_RESOURCE_BARRIER unwrapped[BRIDGE_MAX_ARRAY];
    if (count > BRIDGE_MAX_ARRAY) bridge_fatal("ResourceBarrier: too many barriers");
    for (UINT i = 0; i < count; i++) {
        unwrapped[i] = barriers[i];
        switch (barriers[i].Type) {
        case D3D12_RESOURCE_BARRIER_TYPE_TRANSITION:
            unwrapped[i].Transition.pResource = unwrap(barriers[i].Transition.pResource);
            break;
        case D3D12_RESOURCE_BARRIER_TYPE_ALIASING:
            unwrapped[i].Aliasing.pResourceBefore = unwrap(barriers[i].Aliasing.pResourceBefore);
            unwrapped[i].Aliasing.pResourceAfter = unwrap(barriers[i].Aliasing.pResourceAfter);
            break;
        case D3D12_RESOURCE_BARRIER_TYPE_UAV:
            unwrapped[i].UAV.pResource = unwrap(barriers[i].UAV.pResource);
            break;
        }
    }
    ID3D12GraphicsCommandList *list = REAL(This);
    list->lpVtbl->ResourceBarrier(list, count, unwrapped);
}

HRESULT hw_CreateComputePipelineState(void *This, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid,
                                      void **state)
{
    TRACE("CreateComputePipelineState");
    D3D12_COMPUTE_PIPELINE_STATE_DESC unwrapped = *desc;
    unwrapped.pRootSignature = unwrap(desc->pRootSignature);
    const char *dump = getenv("DML_BRIDGE_DUMP_SHADERS");
    if (dump) {
        static int n;
        char path[4096];
        snprintf(path, sizeof path, "%s/cs%03d.dxbc", dump, n++);
        FILE *f = fopen(path, "wb");
        if (f) { fwrite(desc->CS.pShaderBytecode, 1, desc->CS.BytecodeLength, f); fclose(f); }
    }
    ID3D12Device *device = REAL(This);
    HRESULT hr = device->lpVtbl->CreateComputePipelineState(device, &unwrapped, riid, state);
    if (SUCCEEDED(hr) && state && *state) hr = wrap_out(state, riid);
    if (FAILED(hr)) TRACE_HR("CreateComputePipelineState", hr);
    return hr;
}

void hw_CopyTextureRegion(void *This, const D3D12_TEXTURE_COPY_LOCATION *dst, UINT x, UINT y, UINT z,
                          const D3D12_TEXTURE_COPY_LOCATION *src, const D3D12_BOX *box)
{
    TRACE("CopyTextureRegion");
    D3D12_TEXTURE_COPY_LOCATION d = *dst, s = *src;
    d.pResource = unwrap(dst->pResource);
    s.pResource = unwrap(src->pResource);
    ID3D12GraphicsCommandList *list = REAL(This);
    list->lpVtbl->CopyTextureRegion(list, &d, x, y, z, &s, box);
}

/* The one D3D12 function libdirectml.so imports from libd3d12.so (symbol version VER_1, d3d12.map). It forwards to
 * vkd3d-proton's export of the same name, looked up in libvkd3d-proton-d3d12.so itself so that this library's own
 * definition is not found instead, and wraps the blobs it returns. */
typedef HRESULT (*serialize_fn)(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *, ID3DBlob **, ID3DBlob **);

HRESULT D3D12SerializeVersionedRootSignature(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, ID3DBlob **blob,
                                             ID3DBlob **error_blob)
{
    static serialize_fn serialize;
    if (!serialize) {
        void *proton = dlopen("libvkd3d-proton-d3d12.so", RTLD_NOW | RTLD_LOCAL);
        serialize = proton ? (serialize_fn)dlsym(proton, "D3D12SerializeVersionedRootSignature") : NULL;
        if (!serialize) bridge_fatal("libvkd3d-proton-d3d12.so has no D3D12SerializeVersionedRootSignature");
    }
    TRACE("D3D12SerializeVersionedRootSignature");
    HRESULT hr = serialize(desc, blob, error_blob);
    if (blob && *blob) *blob = wrap_known(*blob, "ID3D10Blob");
    if (error_blob && *error_blob) *error_blob = wrap_known(*error_blob, "ID3D10Blob");
    if (FAILED(hr)) TRACE_HR("D3D12SerializeVersionedRootSignature", hr);
    return hr;
}
