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

struct hipdnnHandle
{
    hipStream_t stream = nullptr;
    std::shared_ptr<const mh::EngineList> engines;
};

struct HipdnnBackendDescriptor
{
    std::shared_ptr<mh::Desc> impl;
};

namespace mh
{
// Wraps a descriptor in a new caller-owned C handle (registered as live).
hipdnnBackendDescriptor_t pack(const std::shared_ptr<Desc>& d);
// Looks a C handle up; null when it is null, destroyed or foreign.
std::shared_ptr<Desc> lookup(hipdnnBackendDescriptor_t d);
void unregisterHandle(hipdnnBackendDescriptor_t d);

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
};
bool revisionShape(RevisionShape shape);
} // namespace mh
