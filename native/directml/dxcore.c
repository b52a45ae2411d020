/* libdxcore.so for libdirectml.so: one adapter, the Vulkan device vkd3d-proton runs on.
 *
 * DirectML asks DXCore for the adapter behind its D3D12 device: DXCoreCreateAdapterFactory, then
 * IDXCoreAdapterFactory::GetAdapterByLuid with the device's LUID, then the adapter's HardwareID, DriverDescription,
 * IsIntegrated and DriverVersion properties (observed with a trace). The wheel's own libdxcore.so talks to WSL's
 * /dev/dxg and fails here. Interface layouts and property numbers: Microsoft's DXCore reference
 * (dxcore_interface.h: IDXCoreAdapterFactory, IDXCoreAdapter, DXCoreAdapterProperty). The values are the ones
 * dmlrun.c reads from Vulkan and hands over with dxcore_describe(), so nothing here is invented. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { uint32_t data1; uint16_t data2, data3; uint8_t data4[8]; } guid;
typedef int32_t hresult;
#define S_OK 0
#define E_NOINTERFACE ((hresult)0x80004002)
#define E_NOTIMPL ((hresult)0x80004001)
#define E_INVALIDARG ((hresult)0x80070057)

static const guid IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xc0, 0, 0, 0, 0, 0, 0, 0x46}};
static const guid IID_IDXCoreAdapterFactory = {0x78ee5945, 0xc36e, 0x4b13, {0xa6, 0x69, 0x00, 0x5d, 0xd1, 0x1c, 0x0f, 0x06}};
static const guid IID_IDXCoreAdapter = {0xf0db4c7f, 0xfe5a, 0x42a2, {0xbd, 0x62, 0xf2, 0xa6, 0xcf, 0x6f, 0xc8, 0x3e}};

/* DXCoreAdapterProperty */
enum { DRIVER_VERSION = 1, DRIVER_DESCRIPTION = 2, HARDWARE_ID = 3, DEDICATED_ADAPTER_MEMORY = 7,
       DEDICATED_SYSTEM_MEMORY = 8, SHARED_SYSTEM_MEMORY = 9, IS_HARDWARE = 11, IS_INTEGRATED = 12,
       IS_DETACHABLE = 13, HARDWARE_ID_PARTS = 14 };

static struct {
    uint32_t vendor, device;
    uint64_t driver_version;
    char description[256];
} adapter_info = {0, 0, 0, "unknown Vulkan device"};

void dxcore_describe(uint32_t vendor, uint32_t device, uint64_t driver_version, const char *description)
{
    adapter_info.vendor = vendor;
    adapter_info.device = device;
    adapter_info.driver_version = driver_version;
    snprintf(adapter_info.description, sizeof adapter_info.description, "%s", description);
}

typedef struct { void **vtbl; } object;
static object factory, adapter;

static int same(const guid *a, const guid *b) { return !memcmp(a, b, sizeof *a); }

static hresult query_interface(void *self, const guid *riid, void **out)
{
    if (same(riid, &IID_IDXCoreAdapterFactory)) { *out = &factory; return S_OK; }
    if (same(riid, &IID_IDXCoreAdapter)) { *out = &adapter; return S_OK; }
    if (same(riid, &IID_IUnknown)) { *out = self; return S_OK; }
    *out = NULL;
    return E_NOINTERFACE;
}
/* Both objects live as long as the library: reference counts are not needed. */
static uint32_t add_ref(void *self) { (void)self; return 1; }
static uint32_t release(void *self) { (void)self; return 1; }

static hresult create_adapter_list(void *self, uint32_t n, const guid *attributes, const guid *riid, void **out)
{
    (void)self; (void)n; (void)attributes; (void)riid;
    *out = NULL;
    return E_NOTIMPL;
}
static hresult get_adapter_by_luid(void *self, const void *luid, const guid *riid, void **out)
{
    (void)self; (void)luid;
    return query_interface(&adapter, riid, out);
}
static int is_notification_type_supported(void *self, int type) { (void)self; (void)type; return 0; }
static hresult register_event_notification(void *self, void *a, int b, void *c, void *d, uint32_t *e)
{ (void)self; (void)a; (void)b; (void)c; (void)d; (void)e; return E_NOTIMPL; }
static hresult unregister_event_notification(void *self, uint32_t cookie) { (void)self; (void)cookie; return E_NOTIMPL; }

static void *factory_vtbl[] = {query_interface, add_ref, release, create_adapter_list, get_adapter_by_luid,
                               is_notification_type_supported, register_event_notification,
                               unregister_event_notification};

static size_t property_size(int property)
{
    switch (property) {
    case DRIVER_VERSION: case DEDICATED_ADAPTER_MEMORY: case DEDICATED_SYSTEM_MEMORY: case SHARED_SYSTEM_MEMORY:
        return 8;
    case DRIVER_DESCRIPTION: return strlen(adapter_info.description) + 1;
    case HARDWARE_ID: case HARDWARE_ID_PARTS: return 16;
    case IS_HARDWARE: case IS_INTEGRATED: case IS_DETACHABLE: return 1;
    default: return 0;
    }
}

static int is_valid(void *self) { (void)self; return 1; }
static int is_attribute_supported(void *self, const guid *attribute) { (void)self; (void)attribute; return 1; }
static int is_property_supported(void *self, int property) { (void)self; return property_size(property) != 0; }

static hresult get_property(void *self, int property, size_t size, void *buffer)
{
    (void)self;
    size_t needed = property_size(property);
    if (!needed) return E_NOTIMPL;
    if (size < needed) return E_INVALIDARG;
    memset(buffer, 0, size);
    uint32_t ids[4] = {adapter_info.vendor, adapter_info.device, 0, 0};
    switch (property) {
    case DRIVER_VERSION: memcpy(buffer, &adapter_info.driver_version, 8); break;
    case DRIVER_DESCRIPTION: memcpy(buffer, adapter_info.description, needed); break;
    case HARDWARE_ID: case HARDWARE_ID_PARTS: memcpy(buffer, ids, sizeof ids); break;
    case IS_INTEGRATED: *(uint8_t *)buffer = 1; break;  /* a CPU device shares the system's memory */
    default: break;  /* memory sizes 0, not hardware, not detachable */
    }
    return S_OK;
}
static hresult get_property_size(void *self, int property, size_t *size)
{
    (void)self;
    *size = property_size(property);
    return *size ? S_OK : E_NOTIMPL;
}
static int is_query_state_supported(void *self, int state) { (void)self; (void)state; return 0; }
static hresult query_state(void *self, int s, size_t a, const void *b, size_t c, void *d)
{ (void)self; (void)s; (void)a; (void)b; (void)c; (void)d; return E_NOTIMPL; }
static int is_set_state_supported(void *self, int state) { (void)self; (void)state; return 0; }
static hresult set_state(void *self, int s, size_t a, const void *b, size_t c, const void *d)
{ (void)self; (void)s; (void)a; (void)b; (void)c; (void)d; return E_NOTIMPL; }
static hresult get_factory(void *self, const guid *riid, void **out) { (void)self; return query_interface(&factory, riid, out); }

static void *adapter_vtbl[] = {query_interface, add_ref, release, is_valid, is_attribute_supported,
                               is_property_supported, get_property, get_property_size, is_query_state_supported,
                               query_state, is_set_state_supported, set_state, get_factory};

hresult DXCoreCreateAdapterFactory(const guid *riid, void **out)
{
    factory.vtbl = factory_vtbl;
    adapter.vtbl = adapter_vtbl;
    return query_interface(&factory, riid, out);
}
