// The library context behind miopenHandle_t.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>

#include <chrono>
#include <cstddef>
#include <memory>

namespace miopen {

// The handle's allocator of internal buffers, as MIOpen's (ROCm/MIOpen
// @2d1fd99 src/include/miopen/allocator.hpp): a buffer is freed by the
// deallocator it was obtained with, whatever is registered later.
struct Allocator
{
    miopenAllocatorFunction allocator;
    miopenDeallocatorFunction deallocator;
    void* context;

    struct Deleter
    {
        miopenDeallocatorFunction deallocator;
        void* context;
        void operator()(void* p) const
        {
            if(p != nullptr)
                deallocator(context, p);
        }
    };
    using ManageDataPtr = std::unique_ptr<void, Deleter>;

    ManageDataPtr operator()(std::size_t n) const;
};

struct Handle : miopenHandle
{
    Handle() = default;
    explicit Handle(miopenAcceleratorQueue_t s) : stream(s) {}

    miopenAcceleratorQueue_t GetStream() const { return stream; }
    void SetStream(miopenAcceleratorQueue_t s) { stream = s; }

    void EnableProfiling(bool enable) { profiling = enable; }
    bool IsProfilingEnabled() const { return profiling; }
    float GetKernelTime() const { return last_time_ms; }
    void SetKernelTime(float ms) { last_time_ms = ms; }

    // Null restores the default (HIP's hipMalloc / hipFree), each on its own,
    // as MIOpen's Handle::SetAllocator (src/hip/handlehip.cpp @2d1fd99). The
    // allocator is kept beside the handle (handle.cpp), not in it: the
    // handle's size is what the address-reuse tests of the wrapper rely on.
    void SetAllocator(miopenAllocatorFunction a, miopenDeallocatorFunction d, void* context);
    // An internal buffer of n bytes (MIOpen's Handle::Create).
    Allocator::ManageDataPtr Create(std::size_t n) const;
    ~Handle();

private:
    miopenAcceleratorQueue_t stream = nullptr; // stored only: all work runs on the host
    bool profiling                  = false;
    float last_time_ms              = 0.0f;
};

// Measures the wall time of one operation and stores it on the handle when
// profiling is on (what miopenGetKernelTime reports).
class OperationTimer
{
public:
    explicit OperationTimer(Handle& h) : handle(h), start(std::chrono::steady_clock::now()) {}
    ~OperationTimer()
    {
        if(handle.IsProfilingEnabled())
        {
            const auto d = std::chrono::steady_clock::now() - start;
            handle.SetKernelTime(std::chrono::duration<float, std::milli>(d).count());
        }
    }
    OperationTimer(const OperationTimer&) = delete;
    OperationTimer& operator=(const OperationTimer&) = delete;

private:
    Handle& handle;
    std::chrono::steady_clock::time_point start;
};

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenHandle, miopen::Handle)
