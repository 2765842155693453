// The test bed's stand-in for the HIP runtime library: the two calls MIOpen's
// default allocator and deallocator make (ROCm/MIOpen @2d1fd99
// src/hip/handlehip.cpp, default_allocator / default_deallocator), on host
// memory, as every "device" pointer of the test bed is. The mini MIOpen links
// it as MIOpen links libamdhip64, so it is in MIOpen Private's scope, where
// the wrapper looks HIP up at run time. The two counters let a test see
// which allocator was called, and how often.
#include <atomic>
#include <cstddef>
#include <cstdlib>

namespace {
std::atomic<long> malloc_calls{0};
std::atomic<long> free_calls{0};
constexpr int hip_success            = 0;
constexpr int hip_error_out_of_memory = 2; // hipErrorOutOfMemory
constexpr std::size_t device_alignment = 256;
} // namespace

extern "C" __attribute__((visibility("default"))) int hipMalloc(void** ptr, std::size_t size)
{
    if(ptr == nullptr)
        return 1; // hipErrorInvalidValue
    malloc_calls.fetch_add(1);
    const std::size_t rounded = (size + device_alignment - 1) / device_alignment * device_alignment;
    *ptr = std::aligned_alloc(device_alignment, rounded == 0 ? device_alignment : rounded);
    return *ptr == nullptr ? hip_error_out_of_memory : hip_success;
}

extern "C" __attribute__((visibility("default"))) int hipFree(void* ptr)
{
    if(ptr != nullptr)
        free_calls.fetch_add(1);
    std::free(ptr);
    return hip_success;
}

extern "C" __attribute__((visibility("default"))) long hipStandInMallocCalls() { return malloc_calls.load(); }
extern "C" __attribute__((visibility("default"))) long hipStandInFreeCalls() { return free_calls.load(); }
