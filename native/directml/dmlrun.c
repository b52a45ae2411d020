/* Runs one DirectML operator on vkd3d's D3D12 device: the plain-C face the Python worker calls through ctypes.
 *
 * The D3D12 plumbing (device, queue, buffers, copies, fences) talks to vkd3d directly; DirectML gets the bridge's
 * System V wrappers of the device, the command list and the buffers. The flow is DirectML's documented one
 * ("Binding in DirectML", learn.microsoft.com): CreateOperator, CompileOperator, an IDMLOperatorInitializer
 * dispatched once into the persistent resource, then per run a binding table with the inputs and outputs, a
 * RecordDispatch, and a copy of every output into a read-back buffer. Outputs are uploaded before the run too, so
 * the bytes an operator does not write (padding in a strided output) come back as they were.
 *
 * IDML* layouts, GUIDs and enum values: DirectML.h (microsoft/DirectML). */
#define COBJMACROS
#define WIDL_C_INLINE_WRAPPERS  /* the C macros cannot return structs (descriptor handles) */
#define INITGUID
#include <vkd3d/vkd3d_windows.h>
#include <vkd3d/vkd3d_utils.h>
#include <vulkan/vulkan.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *bridge_wrap(void *real, const char *interface_name);
void dxcore_describe(uint32_t vendor, uint32_t device, uint64_t driver_version, const char *description);

DEFINE_GUID(IID_IDMLDevice_, 0x6dbd6437, 0x96fd, 0x423f, 0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f);
DEFINE_GUID(IID_IDMLOperator_, 0x26caae7a, 0x3081, 0x4633, 0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d);
DEFINE_GUID(IID_IDMLCompiledOperator_, 0x6b15e56a, 0xbf5c, 0x4902, 0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4);
DEFINE_GUID(IID_IDMLOperatorInitializer_, 0x427c1113, 0x435c, 0x469c, 0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13);
DEFINE_GUID(IID_IDMLBindingTable_, 0x29c687dc, 0xde74, 0x4e3b, 0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc);
DEFINE_GUID(IID_IDMLCommandRecorder_, 0xe6857a76, 0x2e3e, 0x4fdd, 0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53);

/* Vtable slots (IUnknown 0-2, IDMLObject 3-6, then each interface's methods in DirectML.h's order). */
enum { DEVICE_CHECK_FEATURE_SUPPORT = 7, DEVICE_CREATE_OPERATOR, DEVICE_COMPILE_OPERATOR,
       DEVICE_CREATE_OPERATOR_INITIALIZER, DEVICE_CREATE_COMMAND_RECORDER, DEVICE_CREATE_BINDING_TABLE,
       DEVICE_GET_DEVICE_REMOVED_REASON = 15 };
enum { DISPATCHABLE_GET_BINDING_PROPERTIES = 8 };
enum { TABLE_BIND_INPUTS = 8, TABLE_BIND_OUTPUTS, TABLE_BIND_TEMPORARY, TABLE_BIND_PERSISTENT, TABLE_RESET };
enum { RECORDER_RECORD_DISPATCH = 8 };
enum { DML_BINDING_TYPE_NONE, DML_BINDING_TYPE_BUFFER };

typedef struct { UINT RequiredDescriptorCount; UINT64 TemporaryResourceSize; UINT64 PersistentResourceSize; } binding_properties;
typedef struct { void *Dispatchable; D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
                 D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle; UINT SizeInDescriptors; } binding_table_desc;
typedef struct { int Type; const void *Desc; } binding_desc;
typedef struct { void *Buffer; UINT64 Offset; UINT64 SizeInBytes; } buffer_binding;

#define SLOT(object, index) ((*(void ***)(object))[index])
typedef HRESULT (*check_feature_fn)(void *, int, UINT, const void *, UINT, void *);
typedef HRESULT (*create_operator_fn)(void *, const void *, REFIID, void **);
typedef HRESULT (*compile_operator_fn)(void *, void *, int, REFIID, void **);
typedef HRESULT (*create_initializer_fn)(void *, UINT, void *const *, REFIID, void **);
typedef HRESULT (*create_recorder_fn)(void *, REFIID, void **);
typedef HRESULT (*create_table_fn)(void *, const binding_table_desc *, REFIID, void **);
typedef HRESULT (*removed_reason_fn)(void *);
typedef binding_properties (*binding_properties_fn)(void *);
typedef void (*bind_many_fn)(void *, UINT, const binding_desc *);
typedef void (*bind_one_fn)(void *, const binding_desc *);
typedef HRESULT (*table_reset_fn)(void *, const binding_table_desc *);
typedef void (*record_fn)(void *, void *, void *, void *);
typedef ULONG (*release_fn)(void *);

static void com_release(void *object) { if (object) ((release_fn)SLOT(object, 2))(object); }

#define MAX_LEVELS 32
static struct {
    ID3D12Device *device;
    void *device_wrapped;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    void *list_wrapped;
    ID3D12Fence *fence;
    UINT64 fence_value;
    HANDLE event;
    HRESULT (*create_device1)(void *, int, int, REFIID, void **);
    struct { int level; void *dml; void *recorder; } levels[MAX_LEVELS];
    char device_name[256];
    char stage[64];
} rt;

const char *dmlrun_stage(void) { return rt.stage; }
const char *dmlrun_device_name(void) { return rt.device_name; }

static HRESULT fail(const char *stage, HRESULT hr)
{
    snprintf(rt.stage, sizeof rt.stage, "%s", stage);
    return hr;
}

/* The Vulkan device vkd3d picks (its first), named for the report and described to DXCore for DirectML. */
static void describe_vulkan_device(void)
{
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "dmlrun", 1, NULL, 0, VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
    VkInstance instance;
    uint32_t count = 1;
    VkPhysicalDevice physical;
    snprintf(rt.device_name, sizeof rt.device_name, "unknown Vulkan device");
    if (vkCreateInstance(&info, NULL, &instance) != VK_SUCCESS) return;
    if (vkEnumeratePhysicalDevices(instance, &count, &physical) >= 0 && count) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        snprintf(rt.device_name, sizeof rt.device_name, "%s", props.deviceName);
        dxcore_describe(props.vendorID, props.deviceID, props.driverVersion, props.deviceName);
    }
    vkDestroyInstance(instance, NULL);
}

static HRESULT wait_idle(void)
{
    HRESULT hr = ID3D12CommandQueue_Signal(rt.queue, rt.fence, ++rt.fence_value);
    if (FAILED(hr)) return hr;
    if (ID3D12Fence_GetCompletedValue(rt.fence) >= rt.fence_value) return S_OK;
    hr = ID3D12Fence_SetEventOnCompletion(rt.fence, rt.fence_value, rt.event);
    if (FAILED(hr)) return hr;
    /* vkd3d implements only untimed waits; the worker's parent enforces the time limit. */
    return vkd3d_wait_event(rt.event, VKD3D_INFINITE) == 0 ? S_OK : E_FAIL;
}

HRESULT dmlrun_open(const char *libdirectml)
{
    if (rt.device) return S_OK;
    describe_vulkan_device();
    HRESULT hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&rt.device);
    if (FAILED(hr)) return fail("D3D12CreateDevice", hr);
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    if (FAILED(hr = ID3D12Device_CreateCommandQueue(rt.device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&rt.queue)))
        return fail("CreateCommandQueue", hr);
    if (FAILED(hr = ID3D12Device_CreateCommandAllocator(rt.device, D3D12_COMMAND_LIST_TYPE_COMPUTE,
                                                        &IID_ID3D12CommandAllocator, (void **)&rt.allocator)))
        return fail("CreateCommandAllocator", hr);
    if (FAILED(hr = ID3D12Device_CreateCommandList(rt.device, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, rt.allocator, NULL,
                                                   &IID_ID3D12GraphicsCommandList, (void **)&rt.list)))
        return fail("CreateCommandList", hr);
    ID3D12GraphicsCommandList_Close(rt.list);
    if (FAILED(hr = ID3D12Device_CreateFence(rt.device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&rt.fence)))
        return fail("CreateFence", hr);
    rt.event = vkd3d_create_event();
    rt.device_wrapped = bridge_wrap(rt.device, "ID3D12Device");
    rt.list_wrapped = bridge_wrap(rt.list, "ID3D12GraphicsCommandList");
    void *library = dlopen(libdirectml, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "[dmlrun] %s\n", dlerror());
        return fail("dlopen libdirectml.so", E_FAIL);
    }
    rt.create_device1 = dlsym(library, "DMLCreateDevice1");
    if (!rt.create_device1) return fail("dlsym DMLCreateDevice1", E_FAIL);
    return S_OK;
}

/* One IDMLDevice per minimum feature level asked for (DMLCreateDevice1 refuses a level the library lacks). */
static HRESULT dml_device(int level, void **dml, void **recorder)
{
    int i;
    for (i = 0; i < MAX_LEVELS && rt.levels[i].dml; i++)
        if (rt.levels[i].level == level) break;
    if (i == MAX_LEVELS) return fail("too many feature levels", E_OUTOFMEMORY);
    if (!rt.levels[i].dml) {
        HRESULT hr = rt.create_device1(rt.device_wrapped, 0, level, &IID_IDMLDevice_, &rt.levels[i].dml);
        if (FAILED(hr)) { rt.levels[i].dml = NULL; return fail("DMLCreateDevice1", hr); }
        hr = ((create_recorder_fn)SLOT(rt.levels[i].dml, DEVICE_CREATE_COMMAND_RECORDER))(
            rt.levels[i].dml, &IID_IDMLCommandRecorder_, &rt.levels[i].recorder);
        if (FAILED(hr)) return fail("CreateCommandRecorder", hr);
        rt.levels[i].level = level;
    }
    *dml = rt.levels[i].dml;
    if (recorder) *recorder = rt.levels[i].recorder;
    return S_OK;
}

HRESULT dmlrun_check_feature_support(int level, int feature, UINT query_size, const void *query, UINT data_size,
                                     void *data)
{
    void *dml;
    HRESULT hr = dml_device(level, &dml, NULL);
    if (FAILED(hr)) return hr;
    hr = ((check_feature_fn)SLOT(dml, DEVICE_CHECK_FEATURE_SUPPORT))(dml, feature, query_size, query, data_size, data);
    return FAILED(hr) ? fail("CheckFeatureSupport", hr) : hr;
}

/* DirectML's own verdict on a descriptor: CreateOperator's HRESULT. */
HRESULT dmlrun_create_operator(int level, const void *operator_desc)
{
    void *dml, *op = NULL;
    HRESULT hr = dml_device(level, &dml, NULL);
    if (FAILED(hr)) return hr;
    hr = ((create_operator_fn)SLOT(dml, DEVICE_CREATE_OPERATOR))(dml, operator_desc, &IID_IDMLOperator_, &op);
    com_release(op);
    return FAILED(hr) ? fail("CreateOperator", hr) : hr;
}

static HRESULT create_buffer(D3D12_HEAP_TYPE heap, UINT64 size, D3D12_RESOURCE_STATES state, ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES props = {heap, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, (size + 15) & ~(UINT64)15, 1, 1, 1,
                                DXGI_FORMAT_UNKNOWN, {1, 0}, D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                                heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS
                                                                : D3D12_RESOURCE_FLAG_NONE};
    return ID3D12Device_CreateCommittedResource(rt.device, &props, D3D12_HEAP_FLAG_NONE, &desc, state, NULL,
                                                &IID_ID3D12Resource, (void **)out);
}

static void transition(ID3D12Resource *resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, D3D12_RESOURCE_BARRIER_FLAG_NONE};
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList_ResourceBarrier(rt.list, 1, &barrier);
}

static void uav_barrier(void)
{
    D3D12_RESOURCE_BARRIER barrier = {D3D12_RESOURCE_BARRIER_TYPE_UAV, D3D12_RESOURCE_BARRIER_FLAG_NONE};
    barrier.UAV.pResource = NULL;
    ID3D12GraphicsCommandList_ResourceBarrier(rt.list, 1, &barrier);
}

static HRESULT begin(void)
{
    HRESULT hr = ID3D12CommandAllocator_Reset(rt.allocator);
    return FAILED(hr) ? hr : ID3D12GraphicsCommandList_Reset(rt.list, rt.allocator, NULL);
}

static HRESULT submit(void)
{
    HRESULT hr = ID3D12GraphicsCommandList_Close(rt.list);
    if (FAILED(hr)) return hr;
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)rt.list};
    ID3D12CommandQueue_ExecuteCommandLists(rt.queue, 1, lists);
    return wait_idle();
}

/* A DirectML buffer: the real resource for D3D12 calls, its wrapper for DirectML's bindings. */
struct buffer { ID3D12Resource *real; void *wrapped; UINT64 size; };

static HRESULT make_buffer(UINT64 size, struct buffer *b)
{
    b->size = size;
    HRESULT hr = create_buffer(D3D12_HEAP_TYPE_DEFAULT, size ? size : 16, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, &b->real);
    if (SUCCEEDED(hr)) { b->wrapped = bridge_wrap(b->real, "ID3D12Resource"); }
    return hr;
}

static void free_buffer(struct buffer *b)
{
    /* Through the wrapper, so the bridge forgets it when the object dies. */
    if (b->wrapped) com_release(b->wrapped);
    b->real = NULL; b->wrapped = NULL;
}

struct prepared {
    void *compiled;
    void *recorder;
    ID3D12DescriptorHeap *heap;
    void *table;
    binding_table_desc table_desc;
    struct buffer persistent, temporary;
};

void dmlrun_free(struct prepared *p)
{
    if (!p) return;
    com_release(p->table);
    if (p->heap) ID3D12DescriptorHeap_Release(p->heap);
    free_buffer(&p->persistent);
    free_buffer(&p->temporary);
    com_release(p->compiled);
    free(p);
}

static void bind_buffer(void *table, int slot, const struct buffer *b)
{
    buffer_binding binding = {b->wrapped, 0, b->size};
    binding_desc desc = {b->wrapped ? DML_BINDING_TYPE_BUFFER : DML_BINDING_TYPE_NONE, b->wrapped ? &binding : NULL};
    ((bind_one_fn)SLOT(table, slot))(table, &desc);
}

/* CreateOperator, CompileOperator and the initializer's dispatch: a compiled operator ready to run many times. */
HRESULT dmlrun_compile(int level, const void *operator_desc, int execution_flags, struct prepared **out)
{
    void *dml, *op = NULL, *initializer = NULL;
    *out = NULL;
    HRESULT hr = dml_device(level, &dml, NULL);
    if (FAILED(hr)) return hr;
    struct prepared *p = calloc(1, sizeof *p);
    if (!p) return fail("calloc", E_OUTOFMEMORY);
    hr = dml_device(level, &dml, &p->recorder);
    if (FAILED(hr = ((create_operator_fn)SLOT(dml, DEVICE_CREATE_OPERATOR))(dml, operator_desc, &IID_IDMLOperator_, &op)))
        { fail("CreateOperator", hr); goto done; }
    if (FAILED(hr = ((compile_operator_fn)SLOT(dml, DEVICE_COMPILE_OPERATOR))(dml, op, execution_flags,
                                                                              &IID_IDMLCompiledOperator_, &p->compiled)))
        { fail("CompileOperator", hr); goto done; }
    if (FAILED(hr = ((create_initializer_fn)SLOT(dml, DEVICE_CREATE_OPERATOR_INITIALIZER))(
                   dml, 1, &p->compiled, &IID_IDMLOperatorInitializer_, &initializer)))
        { fail("CreateOperatorInitializer", hr); goto done; }
    binding_properties run = ((binding_properties_fn)SLOT(p->compiled, DISPATCHABLE_GET_BINDING_PROPERTIES))(p->compiled);
    binding_properties init = ((binding_properties_fn)SLOT(initializer, DISPATCHABLE_GET_BINDING_PROPERTIES))(initializer);
    UINT descriptors = run.RequiredDescriptorCount > init.RequiredDescriptorCount ? run.RequiredDescriptorCount
                                                                                  : init.RequiredDescriptorCount;
    UINT64 temporary = run.TemporaryResourceSize > init.TemporaryResourceSize ? run.TemporaryResourceSize
                                                                              : init.TemporaryResourceSize;
    D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, descriptors ? descriptors : 1,
                                            D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    if (FAILED(hr = ID3D12Device_CreateDescriptorHeap(rt.device, &heap_desc, &IID_ID3D12DescriptorHeap, (void **)&p->heap)))
        { fail("CreateDescriptorHeap", hr); goto done; }
    if (run.PersistentResourceSize && FAILED(hr = make_buffer(run.PersistentResourceSize, &p->persistent)))
        { fail("persistent resource", hr); goto done; }
    if (temporary && FAILED(hr = make_buffer(temporary, &p->temporary)))
        { fail("temporary resource", hr); goto done; }
    p->table_desc.Dispatchable = initializer;
    p->table_desc.CPUDescriptorHandle = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(p->heap);
    p->table_desc.GPUDescriptorHandle = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(p->heap);
    p->table_desc.SizeInDescriptors = heap_desc.NumDescriptors;
    if (FAILED(hr = ((create_table_fn)SLOT(dml, DEVICE_CREATE_BINDING_TABLE))(dml, &p->table_desc,
                                                                              &IID_IDMLBindingTable_, &p->table)))
        { fail("CreateBindingTable", hr); goto done; }
    if (init.TemporaryResourceSize) bind_buffer(p->table, TABLE_BIND_TEMPORARY, &p->temporary);
    if (run.PersistentResourceSize) {
        /* The initializer's outputs are the compiled operators' persistent resources. */
        buffer_binding binding = {p->persistent.wrapped, 0, p->persistent.size};
        binding_desc desc = {DML_BINDING_TYPE_BUFFER, &binding};
        ((bind_many_fn)SLOT(p->table, TABLE_BIND_OUTPUTS))(p->table, 1, &desc);
    }
    if (FAILED(hr = begin())) { fail("command list reset", hr); goto done; }
    ID3D12GraphicsCommandList_SetDescriptorHeaps(rt.list, 1, &p->heap);
    ((record_fn)SLOT(p->recorder, RECORDER_RECORD_DISPATCH))(p->recorder, rt.list_wrapped, initializer, p->table);
    if (FAILED(hr = submit())) { fail("initializer execution", hr); goto done; }
    p->table_desc.Dispatchable = p->compiled;
    if (FAILED(hr = ((table_reset_fn)SLOT(p->table, TABLE_RESET))(p->table, &p->table_desc)))
        { fail("binding table reset", hr); goto done; }
done:
    com_release(initializer);
    com_release(op);
    if (FAILED(hr)) dmlrun_free(p);
    else *out = p;
    return hr;
}

static HRESULT copy_in(struct buffer *dst, const void *data, ID3D12Resource **upload)
{
    HRESULT hr = create_buffer(D3D12_HEAP_TYPE_UPLOAD, dst->size, D3D12_RESOURCE_STATE_GENERIC_READ, upload);
    if (FAILED(hr)) return hr;
    void *mapped;
    D3D12_RANGE none = {0, 0};
    if (FAILED(hr = ID3D12Resource_Map(*upload, 0, &none, &mapped))) return hr;
    memcpy(mapped, data, dst->size);
    ID3D12Resource_Unmap(*upload, 0, NULL);
    transition(dst->real, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList_CopyBufferRegion(rt.list, dst->real, 0, *upload, 0, dst->size);
    transition(dst->real, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    return S_OK;
}

#define MAX_TENSORS 64
/* One run: inputs[i] of input_sizes[i] bytes (NULL for an optional input left unbound), outputs uploaded as
 * given and read back in place. */
HRESULT dmlrun_execute(struct prepared *p, UINT input_count, void *const *inputs, const UINT64 *input_sizes,
                       UINT output_count, void *const *outputs, const UINT64 *output_sizes)
{
    if (input_count > MAX_TENSORS || output_count > MAX_TENSORS) return fail("too many tensors", E_INVALIDARG);
    struct buffer in[MAX_TENSORS] = {0}, out[MAX_TENSORS] = {0};
    ID3D12Resource *uploads[2 * MAX_TENSORS] = {0}, *readback[MAX_TENSORS] = {0};
    binding_desc in_desc[MAX_TENSORS], out_desc[MAX_TENSORS];
    buffer_binding in_binding[MAX_TENSORS], out_binding[MAX_TENSORS];
    UINT n_uploads = 0;
    HRESULT hr;
    if (FAILED(hr = begin())) { fail("command list reset", hr); goto done; }
    for (UINT i = 0; i < input_count; i++) {
        in_desc[i].Type = DML_BINDING_TYPE_NONE;
        in_desc[i].Desc = NULL;
        if (!inputs[i]) continue;
        if (FAILED(hr = make_buffer(input_sizes[i], &in[i])) || FAILED(hr = copy_in(&in[i], inputs[i], &uploads[n_uploads++])))
            { fail("input upload", hr); goto done; }
        in_binding[i] = (buffer_binding){in[i].wrapped, 0, in[i].size};
        in_desc[i] = (binding_desc){DML_BINDING_TYPE_BUFFER, &in_binding[i]};
    }
    for (UINT i = 0; i < output_count; i++) {
        if (FAILED(hr = make_buffer(output_sizes[i], &out[i])) || FAILED(hr = copy_in(&out[i], outputs[i], &uploads[n_uploads++])))
            { fail("output upload", hr); goto done; }
        if (FAILED(hr = create_buffer(D3D12_HEAP_TYPE_READBACK, out[i].size, D3D12_RESOURCE_STATE_COPY_DEST, &readback[i])))
            { fail("read-back buffer", hr); goto done; }
        out_binding[i] = (buffer_binding){out[i].wrapped, 0, out[i].size};
        out_desc[i] = (binding_desc){DML_BINDING_TYPE_BUFFER, &out_binding[i]};
    }
    ((bind_many_fn)SLOT(p->table, TABLE_BIND_INPUTS))(p->table, input_count, in_desc);
    ((bind_many_fn)SLOT(p->table, TABLE_BIND_OUTPUTS))(p->table, output_count, out_desc);
    if (p->temporary.wrapped) bind_buffer(p->table, TABLE_BIND_TEMPORARY, &p->temporary);
    if (p->persistent.wrapped) bind_buffer(p->table, TABLE_BIND_PERSISTENT, &p->persistent);
    uav_barrier();
    ID3D12GraphicsCommandList_SetDescriptorHeaps(rt.list, 1, &p->heap);
    ((record_fn)SLOT(p->recorder, RECORDER_RECORD_DISPATCH))(p->recorder, rt.list_wrapped, p->compiled, p->table);
    uav_barrier();
    for (UINT i = 0; i < output_count; i++) {
        transition(out[i].real, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList_CopyBufferRegion(rt.list, readback[i], 0, out[i].real, 0, out[i].size);
    }
    if (FAILED(hr = submit())) { fail("execution", hr); goto done; }
    for (UINT i = 0; i < output_count; i++) {
        void *mapped;
        D3D12_RANGE all = {0, out[i].size};
        if (FAILED(hr = ID3D12Resource_Map(readback[i], 0, &all, &mapped))) { fail("read back", hr); goto done; }
        memcpy(outputs[i], mapped, out[i].size);
        D3D12_RANGE none = {0, 0};
        ID3D12Resource_Unmap(readback[i], 0, &none);
    }
    void *dml = NULL;
    for (int i = 0; i < MAX_LEVELS && rt.levels[i].dml; i++) if (rt.levels[i].recorder == p->recorder) dml = rt.levels[i].dml;
    if (dml && FAILED(hr = ((removed_reason_fn)SLOT(dml, DEVICE_GET_DEVICE_REMOVED_REASON))(dml)))
        fail("device removed", hr);
done:
    for (UINT i = 0; i < input_count; i++) free_buffer(&in[i]);
    for (UINT i = 0; i < output_count; i++) { free_buffer(&out[i]); if (readback[i]) ID3D12Resource_Release(readback[i]); }
    for (UINT i = 0; i < n_uploads; i++) if (uploads[i]) ID3D12Resource_Release(uploads[i]);
    return hr;
}

/* The bridge's promises, checked on the live device: one wrapper per object (also through QueryInterface), an
 * unbridged interface refused, structs returned by value as vkd3d computes them. Writes what failed, "" if none. */
void dmlrun_bridge_check(char *failures, size_t size)
{
    failures[0] = 0;
#define CHECK(ok, what) do { if (!(ok)) snprintf(failures + strlen(failures), size - strlen(failures), "%s; ", what); } while (0)
    typedef HRESULT (*qi_fn)(void *, REFIID, void **);
    typedef LUID (*luid_fn)(void *);
    typedef D3D12_CPU_DESCRIPTOR_HANDLE (*cpu_handle_fn)(void *);
    CHECK(bridge_wrap(rt.device, "ID3D12Device") == rt.device_wrapped, "wrapping the device twice gave two wrappers");
    void *again = NULL;
    HRESULT hr = ((qi_fn)SLOT(rt.device_wrapped, 0))(rt.device_wrapped, &IID_ID3D12Device, &again);
    CHECK(SUCCEEDED(hr) && again == rt.device_wrapped, "QueryInterface(ID3D12Device) gave another wrapper");
    if (SUCCEEDED(hr)) com_release(again);
    void *unbridged = (void *)1;
    hr = ((qi_fn)SLOT(rt.device_wrapped, 0))(rt.device_wrapped, &IID_IDMLDevice_, &unbridged);
    CHECK(hr == E_NOINTERFACE && unbridged == NULL, "an unbridged interface was not refused with E_NOINTERFACE");
    LUID real = ID3D12Device_GetAdapterLuid(rt.device);
    LUID through = ((luid_fn)SLOT(rt.device_wrapped, 43))(rt.device_wrapped);
    CHECK(real.LowPart == through.LowPart && real.HighPart == through.HighPart, "GetAdapterLuid by value differs");
    ID3D12DescriptorHeap *heap;
    D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    if (SUCCEEDED(ID3D12Device_CreateDescriptorHeap(rt.device, &desc, &IID_ID3D12DescriptorHeap, (void **)&heap))) {
        void *wrapped = bridge_wrap(heap, "ID3D12DescriptorHeap");
        D3D12_CPU_DESCRIPTOR_HANDLE a = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        D3D12_CPU_DESCRIPTOR_HANDLE b = ((cpu_handle_fn)SLOT(wrapped, 9))(wrapped);
        CHECK(a.ptr == b.ptr, "GetCPUDescriptorHandleForHeapStart by value differs");
        com_release(wrapped);
    }
#undef CHECK
}
