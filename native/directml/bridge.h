/* The face of vkd3d-proton's D3D12 objects that libdirectml.so expects (see gen_bridge.py for why). Built against
 * vkd3d-proton's own headers: include/vkd3d_windows.h and the widl-generated vkd3d_d3d12.h of its build. */
#ifndef DML_BRIDGE_H
#define DML_BRIDGE_H
#define COBJMACROS
#include "vkd3d_windows.h"
#include "vkd3d_d3d12.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRIDGE_MAX_ARRAY 1024

struct bridge_family {
    const char *name;
    void **vtbl;
    const IID **iids;        /* the interfaces QueryInterface answers with this wrapper */
    const char *names[20];   /* the same interfaces by name, for out-parameters typed IFoo ** */
};
extern const struct bridge_family bridge_families[];
extern const IID *bridge_base_iids[];

/* A wrapper: what DirectML holds. Its vtable has DirectML's signatures; `real` is vkd3d-proton's object. */
struct bridge_object {
    void **vtbl;
    void *real;
    const struct bridge_family *family;
};

extern int bridge_trace;
#define REAL(This) (((struct bridge_object *)(This))->real)
#define TRACE(what) do { if (bridge_trace) fprintf(stderr, "[bridge] %s\n", what); } while (0)
#define TRACE_HR(what, hr) do { if (bridge_trace) fprintf(stderr, "[bridge] %s -> 0x%08x\n", what, (unsigned)(hr)); } while (0)

void *bridge_unwrap(void *p);
#define unwrap(p) ((__typeof__(p))bridge_unwrap((void *)(p)))
HRESULT wrap_out(void **object, REFIID riid);
void *wrap_known(void *real, const char *interface_name);
void bridge_refused(const char *method);
void bridge_fatal(const char *message);

HRESULT b_QueryInterface(void *This, REFIID riid, void **object);
ULONG b_AddRef(void *This);
ULONG b_Release(void *This);
HRESULT hw_SetName(void *This, const WCHAR *name);
void hw_ResourceBarrier(void *This, UINT count, const D3D12_RESOURCE_BARRIER *barriers);
HRESULT hw_CreateComputePipelineState(void *This, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid, void **state);
void hw_CopyTextureRegion(void *This, const D3D12_TEXTURE_COPY_LOCATION *dst, UINT x, UINT y, UINT z,
                          const D3D12_TEXTURE_COPY_LOCATION *src, const D3D12_BOX *box);

/* What the runner uses: a wrapper for an object it created itself. */
void *bridge_wrap(void *real, const char *interface_name);
#endif
