// The handle's allocator of internal buffers.
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <map>
#include <mutex>
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

namespace {
std::mutex registered_mutex;
std::map<const Handle*, Allocator>& registered()
{
    static std::map<const Handle*, Allocator> m;
    return m;
}
} // namespace

void Handle::SetAllocator(miopenAllocatorFunction a, miopenDeallocatorFunction d, void* context)
{
    const std::lock_guard<std::mutex> lock(registered_mutex);
    registered()[this] = Allocator{a == nullptr ? default_allocator : a,
                                   d == nullptr ? default_deallocator : d,
                                   context};
}

Allocator::ManageDataPtr Handle::Create(std::size_t n) const
{
    Allocator a{default_allocator, default_deallocator, nullptr};
    {
        const std::lock_guard<std::mutex> lock(registered_mutex);
        const auto it = registered().find(this);
        if(it != registered().end())
            a = it->second;
    }
    return a(n);
}

Handle::~Handle()
{
    const std::lock_guard<std::mutex> lock(registered_mutex);
    registered().erase(this);
}

} // namespace miopen
