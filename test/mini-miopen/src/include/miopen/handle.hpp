// The library context behind miopenHandle_t.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>

#include <chrono>

namespace miopen {

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
