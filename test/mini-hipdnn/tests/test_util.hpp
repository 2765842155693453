// Helpers for the mini-hipdnn tests: build descriptors through the C ABI
// only, and the fixture every suite on a backend handle derives from.
#pragma once

#include "hipdnn_backend.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tu
{

std::string lastError(); // peek, does not clear

// 64-bit FNV-1a of a name as a signed id (what hipDNN's engine ids are), written for the tests.
int64_t fnv1a64(const std::string& name);

// Throws std::runtime_error (with the backend's last error) on failure.
void check(hipdnnStatus_t s, const char* what);

std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims); // row-major (NCHW...)
std::vector<int64_t> channelsLastStrides(const std::vector<int64_t>& dims); // NHWC / NDHWC

hipdnnBackendDescriptor_t tensor(int64_t uid,
                                 hipdnnDataType_t dt,
                                 const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& strides,
                                 bool isVirtual = false);

// A finalized pass-by-value tensor (dims/strides [1]) holding `n` bytes, one
// element of `dt` (HIPDNN_ATTR_TENSOR_VALUE_EXT).
hipdnnBackendDescriptor_t valueTensor(int64_t uid, hipdnnDataType_t dt, const void* bytes, int64_t n);

struct ConvParams
{
    std::vector<int64_t> pre, post, stride, dilation;
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t compute = HIPDNN_DATA_FLOAT;
};

// For BWD_DATA pass (dx, w, dy); for BWD_FILTER pass (x, dw, dy).
hipdnnBackendDescriptor_t convOp(hipdnnBackendDescriptorType_t type,
                                 hipdnnBackendDescriptor_t x,
                                 hipdnnBackendDescriptor_t w,
                                 hipdnnBackendDescriptor_t y,
                                 const ConvParams& p);

hipdnnBackendDescriptor_t pointwiseOp(hipdnnPointwiseMode_t mode,
                                      hipdnnBackendDescriptor_t in0,
                                      hipdnnBackendDescriptor_t in1, // may be null
                                      hipdnnBackendDescriptor_t out0,
                                      const float* lowerClip = nullptr,
                                      const float* upperClip = nullptr,
                                      hipdnnDataType_t mathPrec = HIPDNN_DATA_FLOAT);

hipdnnBackendDescriptor_t graph(hipdnnHandle_t h, const std::vector<hipdnnBackendDescriptor_t>& ops);

struct PlanInfo
{
    hipdnnBackendDescriptor_t plan = nullptr;
    int64_t workspace = 0;
    int64_t engineId = 0;
    std::string engineName;
    int64_t numResults = 0;
};

// A finalized KNOB_CHOICE descriptor: knob `id` set to `value`.
hipdnnBackendDescriptor_t knobChoice(const char* id, int64_t value);

// graph -> heuristic (fallback) -> first engine config [+ knob choices] ->
// finalize -> plan
PlanInfo plan(hipdnnBackendDescriptor_t graph, const std::vector<hipdnnBackendDescriptor_t>& knobs = {});

void execute(hipdnnHandle_t h,
             const PlanInfo& p,
             const std::vector<int64_t>& uids,
             const std::vector<void*>& ptrs);

void destroyAll(std::vector<hipdnnBackendDescriptor_t>& ds);

// fp16 / bf16 encoders/decoders written for the tests
uint16_t toHalf(float f);
float fromHalf(uint16_t h);
uint16_t toBf16(float f);
float fromBf16(uint16_t b);

// A backend handle for one test, the engine plugin paths set to `pluginDir`
// for it (none: the backend's default directory alone) and reset after it;
// every descriptor given to keep() or made by create() is destroyed after it.
class BackendTest : public ::testing::Test
{
protected:
    explicit BackendTest(const char* pluginDir = nullptr) : _pluginDir(pluginDir) {}
    void SetUp() override;
    void TearDown() override;
    hipdnnBackendDescriptor_t keep(hipdnnBackendDescriptor_t d)
    {
        _descs.push_back(d);
        return d;
    }
    hipdnnBackendDescriptor_t create(hipdnnBackendDescriptorType_t t);

    hipdnnHandle_t _h = nullptr;
    std::vector<hipdnnBackendDescriptor_t> _descs;

private:
    const char* _pluginDir;
};

class ScopedEnv
{
public:
    ScopedEnv(const char* name, const char* value);
    ~ScopedEnv();

private:
    std::string _name, _old;
    bool _had;
};

} // namespace tu
