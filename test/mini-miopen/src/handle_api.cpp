// Public entry points of the handle family.
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/version.h>

extern "C" const char* miopenGetErrorString(miopenStatus_t error)
{
    switch(error)
    {
    case miopenStatusSuccess: return "miopenStatusSuccess";
    case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
    case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
    case miopenStatusBadParm: return "miopenStatusBadParm";
    case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
    case miopenStatusInternalError: return "miopenStatusInternalError";
    case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
    case miopenStatusUnknownError: return "miopenStatusUnknownError";
    case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
    case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
    case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "Unknown error status";
}

extern "C" miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch)
{
    return miopen::try_([&] {
        // The numbers come from the CMake generated <miopen/version.h>.
        miopen::deref(major) = MIOPEN_VERSION_MAJOR;
        miopen::deref(minor) = MIOPEN_VERSION_MINOR;
        miopen::deref(patch) = MIOPEN_VERSION_PATCH;
    });
}

extern "C" miopenStatus_t miopenCreate(miopenHandle_t* handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return miopen::try_([&] {
        auto& out = miopen::deref(handle);
        out       = miopen::to_handle(new miopen::Handle());
    });
}

extern "C" miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                 miopenAcceleratorQueue_t stream)
{
    MIOPEN_LOG_FUNCTION(handle, stream);
    return miopen::try_([&] {
        auto& out = miopen::deref(handle);
        out       = miopen::to_handle(new miopen::Handle(stream));
    });
}

extern "C" miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return miopen::try_([&] { miopen::deref(handle).SetStream(streamID); });
}

extern "C" miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t* streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return miopen::try_([&] { miopen::deref(streamID) = miopen::deref(handle).GetStream(); });
}

// As MIOpen's (src/handle_api.cpp @2d1fd99): a null allocator or deallocator
// restores the default, each on its own.
extern "C" miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                             miopenAllocatorFunction allocator,
                                             miopenDeallocatorFunction deallocator,
                                             void* allocatorContext)
{
    // Not logged, as in MIOpen.
    return miopen::try_(
        [&] { miopen::deref(handle).SetAllocator(allocator, deallocator, allocatorContext); });
}

// Null is accepted: MIOpen deletes the object, and deleting null is a no-op
// (miopen_destroy_object in MIOpen's object.hpp).
extern "C" miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return miopen::try_([&] { delete static_cast<miopen::Handle*>(handle); });
}

// Deliberately written without `extern "C"` or an export macro: it gets C
// language linkage from its declaration in <miopen/miopen.h>, and its
// visibility from the library's version script.
miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time)
{
    MIOPEN_LOG_FUNCTION(handle, time);
    return miopen::try_([&] { miopen::deref(time) = miopen::deref(handle).GetKernelTime(); });
}

extern "C" miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable)
{
    MIOPEN_LOG_FUNCTION(handle, enable);
    return miopen::try_([&] { miopen::deref(handle).EnableProfiling(enable); });
}
