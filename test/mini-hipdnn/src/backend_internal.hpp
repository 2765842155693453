// mini-hipdnn backend internals (test bed; written for this project).
#pragma once

#include "hipdnn_backend.h"
#include "mini_hipdnn_engine_plugin.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mh
{

// Every failure inside the backend is an Error carrying the hipDNN status the
// C API returns for it.
struct Error
{
    hipdnnStatus_t status;
    std::string message;
};

[[noreturn]] void fail(hipdnnStatus_t status, const std::string& message);

inline void failIf(bool cond, hipdnnStatus_t status, const std::string& message)
{
    if(cond)
    {
        fail(status, message);
    }
}

// ---------------------------------------------------------------------------
// engine plugins
struct LoadedEngine
{
    std::string path;
    void* library = nullptr;
    const miniHipdnnEnginePlugin_v1* api = nullptr;
    int64_t id = 0; // engineNameToId(api->name)
};

// hipDNN's engine id of an engine name: 64-bit FNV-1a over the name's bytes,
// as a signed int64 (no mask).
int64_t engineNameToId(const std::string& name);

using EngineList = std::vector<LoadedEngine>;

std::shared_ptr<const EngineList> loadEngines();

// ---------------------------------------------------------------------------
// descriptors
struct Desc
{
    explicit Desc(hipdnnBackendDescriptorType_t t) : type(t) {}
    virtual ~Desc() = default;

    hipdnnBackendDescriptorType_t type;
    bool finalized = false;

    virtual void set(hipdnnBackendAttributeName_t name,
                     hipdnnBackendAttributeType_t attrType,
                     int64_t count,
                     const void* elements)
        = 0;
    virtual void get(hipdnnBackendAttributeName_t name,
                     hipdnnBackendAttributeType_t attrType,
                     int64_t requested,
                     int64_t* count,
                     void* elements) const
        = 0;
    virtual void doFinalize() = 0;
    virtual bool isOperation() const { return false; }
};

std::shared_ptr<Desc> createDesc(hipdnnBackendDescriptorType_t type);

} // namespace mh

// One per hipdnnCreate, used by its caller's thread(s) only: nothing in it is
// shared with another handle but the (immutable) engine list, as hipDNN's
// handle owns its own plugin resource manager over the shared plugin manager
// (backend/src/handle/Handle.cpp @52e53843).
struct hipdnnHandle
{
    hipStream_t stream = nullptr;
    std::shared_ptr<const mh::EngineList> engines;
};

// The C handle of a descriptor, as hipDNN's: a caller-owned wrapper around
// the descriptor object, valid while its object is set (hipDNN's isValid,
// backend/src/descriptors/BackendDescriptor.cpp in tfalders/rocm-libraries
// @f6b59e29). No registry: hipDNN keeps none, so a destroyed or foreign
// pointer is the caller's bug. The test bed clears `live` before freeing, so
// a use after destroy is caught while the memory is not reused (hipDNN reads
// freed memory).
struct HipdnnBackendDescriptor
{
    static constexpr std::uint64_t kLive = 0x6d68646e6c697665ull; // "mhdnlive"
    std::shared_ptr<mh::Desc> impl;
    std::uint64_t live = kLive;
};

namespace mh
{
// Wraps a descriptor in a new caller-owned C handle.
hipdnnBackendDescriptor_t pack(const std::shared_ptr<Desc>& d);
// The descriptor of a C handle; null when the handle is null or not live.
std::shared_ptr<Desc> lookup(hipdnnBackendDescriptor_t d);
// Frees a C handle (not its descriptor, which others may share).
void unpack(hipdnnBackendDescriptor_t d);

bool envFlag(const char* name);
std::string envString(const char* name);

// Test knob MINI_HIPDNN_TEST_REVISION_SHAPE (comma-separated): behave like an
// older hipDNN revision in one respect the wrapper can observe.
enum class RevisionShape
{
    OldNumbering,      // "old-numbering": 17 batchnorm inference, 18 conv backward data, 19 SDPA, no pointwise
    ConvModeInt64,     // "conv-mode-int64": CONV_MODE only as HIPDNN_TYPE_INT64
    NoTensorAlignment, // "no-tensor-alignment": no HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, nothing checked
    BatchnormUnnumbered, // "batchnorm-unnumbered": the unnumbered enum (@f0c57afb): 20 batchnorm inference
                         // with variance, no batchnorm training or backward
    NoBatchnormInferenceInv, // "no-batchnorm-inference-inv": no type 17 (no revision is known to
                             // lack it alone; it tests that the wrapper's probe lists it)
};
bool revisionShape(RevisionShape shape);
} // namespace mh
