/* The one D3D12 function libdirectml.so imports from libd3d12.so (symbol version VER_1, see d3d12.map), called
 * System V. Kept apart from bridge.c because vkd3d's headers declare this name ms_abi. */
struct D3D12_VERSIONED_ROOT_SIGNATURE_DESC;
int bridge_serialize_versioned_root_signature(const struct D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, void **blob,
                                              void **error_blob);

int D3D12SerializeVersionedRootSignature(const struct D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, void **blob,
                                         void **error_blob)
{
    return bridge_serialize_versioned_root_signature(desc, blob, error_blob);
}
