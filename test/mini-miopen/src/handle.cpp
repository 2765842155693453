// The handle's allocator of internal buffers.
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <string>

// The HIP runtime's calls, as <hip/hip_runtime_api.h> declares them for
// MIOpen; the test bed links its host-memory stand-in (hip-runtime/).
extern "C" int hipMalloc(void** ptr, std::size_t size);
extern "C" int hipFree(void* ptr);

namespace miopen {
namespace {

void* default_allocator(void*, std::size_t sz)
{
    void* ptr        = nullptr;
    const int status = hipMalloc(&ptr, sz);
    if(status != 0)
        MIOPEN_THROW(miopenStatusAllocFailed, "hipMalloc " + std::to_string(sz) + " failed");
    return ptr;
}

void default_deallocator(void*, void* mem) { hipFree(mem); }

} // namespace

Allocator::ManageDataPtr Allocator::operator()(std::size_t n) const
{
    void* p = allocator(context, n);
    if(p == nullptr && n != 0)
        MIOPEN_THROW(miopenStatusAllocFailed,
                     "Custom allocator failed to allocate memory for buffer size " + std::to_string(n));
    return ManageDataPtr{p, Deleter{deallocator, context}};
}

Allocator Handle::DefaultAllocator() { return Allocator{default_allocator, default_deallocator, nullptr}; }

void Handle::SetAllocator(miopenAllocatorFunction a, miopenDeallocatorFunction d, void* context)
{
    allocator.allocator   = a == nullptr ? default_allocator : a;
    allocator.deallocator = d == nullptr ? default_deallocator : d;
    allocator.context     = context;
}

} // namespace miopen
