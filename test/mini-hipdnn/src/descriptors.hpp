// mini-hipdnn descriptor classes (test bed; written for this project).
#pragma once

#include "backend_internal.hpp"

#include <map>

namespace mh
{

// Runs the common finalize rules (already finalized, fault knob) and then
// the descriptor's own checks.
void Desc_finalize(Desc& d);

#define MH_DESC_METHODS                                                                               \
    void set(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override; \
    void get(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*)     \
        const override;                                                                               \
    void doFinalize() override;

struct TensorDesc : Desc
{
    TensorDesc() : Desc(HIPDNN_BACKEND_TENSOR_DESCRIPTOR) {}
    MH_DESC_METHODS
    int64_t uid = 0;
    hipdnnDataType_t dataType = HIPDNN_DATA_FLOAT;
    bool dataTypeSet = false;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
    std::string name;
    // HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT: hipDNN's default when unset; a data
    // pointer that is not a multiple of it fails at execute.
    int64_t byteAlignment = 16;
    // HIPDNN_ATTR_TENSOR_VALUE_EXT: a pass-by-value scalar, the bytes of one
    // element of dataType. Such a tensor takes no variant-pack pointer.
    std::vector<uint8_t> value;
};

struct ConvDesc : Desc
{
    explicit ConvDesc(hipdnnBackendDescriptorType_t t);
    MH_DESC_METHODS
    bool isOperation() const override { return true; }
    int32_t kind;
    hipdnnBackendAttributeName_t attrX, attrW, attrY;
    std::string label;
    // x / tw_ (filter) / y follow the forward naming: BWD_DATA stores dx in x
    // and dy in y, BWD_FILTER stores dw in tw_ and dy in y.
    std::shared_ptr<TensorDesc> x, tw_, y;
    std::vector<int64_t> prePad, postPad, stride, dilation;
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    bool modeSet = false;
    hipdnnDataType_t compType = HIPDNN_DATA_FLOAT;
    bool compTypeSet = false;
    std::string name; // HIPDNN_ATTR_OPERATION_NAME_EXT
};

struct PointwiseDesc : Desc
{
    PointwiseDesc() : Desc(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR) {}
    MH_DESC_METHODS
    bool isOperation() const override { return true; }
    std::shared_ptr<TensorDesc> in0, in1, out0;
    hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_MODE_ADD;
    bool modeSet = false;
    float lowerClip = 0.0f, upperClip = 0.0f;
    bool hasLowerClip = false, hasUpperClip = false;
    hipdnnDataType_t mathPrec = HIPDNN_DATA_FLOAT;
    bool mathPrecSet = false;
    std::string name; // HIPDNN_ATTR_OPERATION_NAME_EXT
};

struct GraphDesc : Desc
{
    GraphDesc() : Desc(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR) {}
    MH_DESC_METHODS
    hipdnnHandle_t handle = nullptr;
    std::shared_ptr<const EngineList> engines;
    std::vector<std::shared_ptr<Desc>> ops;
    // flattened form handed to engine plugins (built at finalize)
    std::vector<std::shared_ptr<TensorDesc>> tensorDescs;
    std::vector<miniHipdnnTensor_t> tensors;
    std::vector<miniHipdnnOp_t> flatOps;
    miniHipdnnGraph_t view{};

    // The index of a tensor in `tensors` (added at its first use; -1 for
    // null), for an operation's flattening.
    int32_t tensorIndex(const std::shared_ptr<TensorDesc>& t);
};

struct EngineDesc : Desc
{
    EngineDesc() : Desc(HIPDNN_BACKEND_ENGINE_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::shared_ptr<GraphDesc> graph;
    int64_t engineId = 0;
    bool engineIdSet = false;
    const LoadedEngine* engine = nullptr;
};

// HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR: one knob setting (hipDNN's
// KnobSettingDescriptor): the knob's id and, in the test bed, an INT64 value;
// both required at finalize.
struct KnobChoiceDesc : Desc
{
    KnobChoiceDesc() : Desc(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::string id;
    int64_t value = 0;
    bool valueSet = false;
};

struct EngineCfgDesc : Desc
{
    EngineCfgDesc() : Desc(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::shared_ptr<EngineDesc> engine;
    std::vector<std::shared_ptr<KnobChoiceDesc>> knobs; // HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES
    // the settings as the engine receives them (built at finalize; the ids
    // point into `knobs`, which a finalized config keeps unchanged)
    std::vector<miniHipdnnKnobSetting_t> flatKnobs;
    miniHipdnnKnobs_t knobView{};
    int64_t workspace = 0;
};

// The engine's workspace for its graph under the config's knobs; an engine
// that refuses the settings fails with PLUGIN_ERROR and its reason.
int64_t engineWorkspace(const EngineCfgDesc& cfg, const char* what);

struct HeurDesc : Desc
{
    HeurDesc() : Desc(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::shared_ptr<GraphDesc> graph;
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    bool modeSet = false;
    std::vector<const LoadedEngine*> results;
};

struct PlanDesc : Desc
{
    PlanDesc() : Desc(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::shared_ptr<EngineCfgDesc> config;
    int64_t workspace = 0;
};

struct VariantDesc : Desc
{
    VariantDesc() : Desc(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR) {}
    MH_DESC_METHODS
    std::vector<int64_t> uids;
    std::vector<void*> pointers;
    void* workspace = nullptr;
};

void executePlan(hipdnnHandle_t handle, const PlanDesc& plan, const VariantDesc& pack);

} // namespace mh
