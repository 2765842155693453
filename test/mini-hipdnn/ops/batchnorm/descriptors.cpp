// The batchnorm operation descriptors of the mini hipDNN (test bed; written
// for this project): inference with variance, training and backward, their
// attribute rules as hipDNN's descriptors check them, their flattened form
// (include/mini_hipdnn_batchnorm.h); and the inference with mean and inverse
// variance (type 17) of the fused backward graph; registered with the backend's operation
// table (src/operations.hpp).
#include "attributes.hpp"
#include "mini_hipdnn_batchnorm.h"
#include "operations.hpp"

#include <map>

namespace mh
{
namespace
{

// HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT: every
// tensor and the compute type are required at finalize.
struct BnInferenceDesc : Desc
{
    BnInferenceDesc() : Desc(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT) {}
    MH_DESC_METHODS
    bool isOperation() const override { return true; }
    std::shared_ptr<TensorDesc> x, mean, variance, scale, bias, y, epsilon;
    hipdnnDataType_t compType = HIPDNN_DATA_FLOAT;
    bool compTypeSet = false;
    std::string name; // HIPDNN_ATTR_OPERATION_NAME_EXT
};

// A batchnorm training (HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT)
// or backward (..._BATCHNORM_BACKWARD_DESCRIPTOR_EXT) operation: its tensors
// by attribute name, with each type's required / both-or-none / all-or-none
// rules checked at finalize as hipDNN's descriptors check them.
struct BnPassDesc : Desc
{
    explicit BnPassDesc(hipdnnBackendDescriptorType_t t) : Desc(t) {}
    MH_DESC_METHODS
    bool isOperation() const override { return true; }
    bool training() const { return type == HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT; }
    bool inference() const { return type == HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT; }
    std::shared_ptr<TensorDesc> at(hipdnnBackendAttributeName_t n) const;
    std::map<hipdnnBackendAttributeName_t, std::shared_ptr<TensorDesc>> tensors;
    hipdnnDataType_t compType = HIPDNN_DATA_FLOAT;
    bool compTypeSet = false;
    std::string name; // HIPDNN_ATTR_OPERATION_NAME_EXT
};

} // namespace

// ---------------------------------------------------------------------------
// batchnorm inference with variance
namespace
{
std::shared_ptr<TensorDesc> BnInferenceDesc::* bnSlot(hipdnnBackendAttributeName_t n)
{
    switch(n)
    {
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT: return &BnInferenceDesc::x;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT: return &BnInferenceDesc::mean;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT: return &BnInferenceDesc::variance;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT: return &BnInferenceDesc::scale;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT: return &BnInferenceDesc::bias;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT: return &BnInferenceDesc::y;
    case HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT: return &BnInferenceDesc::epsilon;
    default: return nullptr;
    }
}
} // namespace

void BnInferenceDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "BatchnormInferenceVarianceExtOperationDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    if(auto slot = bnSlot(n))
    {
        this->*slot = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, w);
        return;
    }
    switch(n)
    {
    case HIPDNN_ATTR_OPERATION_NAME_EXT: setChars(name, t, c, e, w); break;
    case HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT:
    {
        hipdnnDataType_t dt{};
        setScalar(dt, HIPDNN_TYPE_DATA_TYPE, t, c, e, w);
        failIf(bytesOf(dt) == 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": unknown data type");
        compType = dt;
        compTypeSet = true;
        break;
    }
    default: unknownAttr(n, w);
    }
}

void BnInferenceDesc::get(hipdnnBackendAttributeName_t n,
                          hipdnnBackendAttributeType_t t,
                          int64_t r,
                          int64_t* c,
                          void* e) const
{
    const char* w = "BatchnormInferenceVarianceExtOperationDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    if(auto slot = bnSlot(n))
    {
        giveDesc(this->*slot, t, r, c, e, w);
        return;
    }
    switch(n)
    {
    case HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT: getScalar(compType, HIPDNN_TYPE_DATA_TYPE, t, r, c, e, w); break;
    default: unknownAttr(n, w);
    }
}

void BnInferenceDesc::doFinalize()
{
    const std::string w = "BatchnormInferenceVarianceExtOperationDescriptor::finalize: ";
    const std::pair<const std::shared_ptr<TensorDesc>*, const char*> required[] = {
        {&x, "X"}, {&mean, "MEAN"}, {&variance, "VARIANCE"}, {&scale, "SCALE"},
        {&bias, "BIAS"}, {&y, "Y"}, {&epsilon, "EPSILON"}};
    for(const auto& [slot, label] : required)
    {
        failIf(!*slot, HIPDNN_STATUS_BAD_PARAM, w + label + " tensor not set");
    }
    failIf(!compTypeSet, HIPDNN_STATUS_BAD_PARAM, w + "compute data type not set");
}

// ---------------------------------------------------------------------------
// batchnorm training, backward and inference with inverse variance
// (BatchnormOperationDescriptor.cpp, BatchnormBackwardOperationDescriptor.cpp,
// BatchnormInferenceOperationDescriptor.cpp)
namespace
{
struct BnPassRules
{
    const char* what;
    hipdnnBackendAttributeName_t compType;
    std::vector<std::pair<hipdnnBackendAttributeName_t, const char*>> required;
    // Optional groups: every attribute of one set, or none of them.
    std::vector<std::vector<hipdnnBackendAttributeName_t>> together;
    const char* togetherMessage[2];
};

const BnPassRules& bnPassRules(hipdnnBackendDescriptorType_t type)
{
    // Inference with mean and inverse variance (type 17,
    // BatchnormInferenceOperationDescriptor.cpp @14397ef4): the six tensors
    // and the compute type required.
    static const BnPassRules inf{
        "BatchnormInferenceOperationDescriptor",
        HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT,
        {{HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, "X"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, "MEAN"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, "INV_VARIANCE"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, "SCALE"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, "BIAS"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, "Y"}},
        {},
        {"", ""}};
    static const BnPassRules train{
        "BatchnormOperationDescriptor",
        HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT,
        {{HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, "X"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, "SCALE"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, "BIAS"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, "EPSILON"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, "Y"}},
        {{HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT,
          HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT,
          HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT}},
        {"mean and inverse variance tensors must both be set or both be null",
         "running statistics tensors must all be set or all be null"}};
    static const BnPassRules bwd{
        "BatchnormBackwardOperationDescriptor",
        HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT,
        {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, "DY"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, "X"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, "SCALE"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, "DX"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, "DSCALE"},
         {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, "DBIAS"}},
        {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT}},
        {"mean and inverse variance tensors must both be set or both be null", ""}};
    return type == HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT ? train
           : type == HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT ? inf
                                                                                : bwd;
}

bool bnPassTakes(const BnPassRules& r, hipdnnBackendAttributeName_t n)
{
    for(const auto& [a, label] : r.required)
        if(a == n)
            return true;
    for(const auto& set : r.together)
        for(auto a : set)
            if(a == n)
                return true;
    return false;
}
} // namespace

std::shared_ptr<TensorDesc> BnPassDesc::at(hipdnnBackendAttributeName_t n) const
{
    auto it = tensors.find(n);
    return it == tensors.end() ? nullptr : it->second;
}

void BnPassDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const auto& r = bnPassRules(type);
    const std::string w = std::string(r.what) + "::setAttribute";
    requireOpenForSet(*this, w.c_str());
    if(bnPassTakes(r, n))
    {
        tensors[n] = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, w.c_str());
        return;
    }
    if(n == HIPDNN_ATTR_OPERATION_NAME_EXT)
    {
        setChars(name, t, c, e, w.c_str());
        return;
    }
    if(n != r.compType)
    {
        unknownAttr(n, w.c_str());
    }
    hipdnnDataType_t dt{};
    setScalar(dt, HIPDNN_TYPE_DATA_TYPE, t, c, e, w.c_str());
    failIf(bytesOf(dt) == 0, HIPDNN_STATUS_BAD_PARAM, w + ": unknown data type");
    compType = dt;
    compTypeSet = true;
}

void BnPassDesc::get(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t r, int64_t* c, void* e) const
{
    const auto& rules = bnPassRules(type);
    const std::string w = std::string(rules.what) + "::getAttribute";
    requireFinalizedForGet(*this, w.c_str());
    if(bnPassTakes(rules, n))
    {
        giveDesc(at(n), t, r, c, e, w.c_str());
        return;
    }
    if(n != rules.compType)
    {
        unknownAttr(n, w.c_str());
    }
    getScalar(compType, HIPDNN_TYPE_DATA_TYPE, t, r, c, e, w.c_str());
}

void BnPassDesc::doFinalize()
{
    const auto& r = bnPassRules(type);
    const std::string w = std::string(r.what) + "::finalize() failed: ";
    for(const auto& [a, label] : r.required)
    {
        failIf(!at(a), HIPDNN_STATUS_BAD_PARAM, w + label + " tensor not set");
    }
    failIf(!compTypeSet, HIPDNN_STATUS_BAD_PARAM, w + "compute data type not set");
    for(size_t i = 0; i < r.together.size(); ++i)
    {
        size_t set = 0;
        for(auto a : r.together[i])
            set += at(a) ? 1 : 0;
        failIf(set != 0 && set != r.together[i].size(), HIPDNN_STATUS_BAD_PARAM, w + r.togetherMessage[i]);
    }
}

namespace
{
// The engines get epsilon's value in the operation: a pass-by-value tensor
// has no buffer, so it is not one of the flattened tensors.
double epsilonValue(const TensorDesc& eps)
{
    const char* w = "GraphDescriptor::finalize";
    failIf(eps.value.empty(), HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": the epsilon tensor has no value (TENSOR_VALUE_EXT)");
    if(eps.dataType == HIPDNN_DATA_DOUBLE)
    {
        double d = 0;
        std::memcpy(&d, eps.value.data(), sizeof(double));
        return d;
    }
    failIf(eps.dataType != HIPDNN_DATA_FLOAT, HIPDNN_STATUS_NOT_SUPPORTED,
           std::string(w) + ": the test bed reads a FLOAT or DOUBLE epsilon only");
    float f = 0;
    std::memcpy(&f, eps.value.data(), sizeof(float));
    return f;
}
} // namespace


namespace
{
void flattenInference(const Desc& d, GraphDesc& graph, miniHipdnnOp_t& op)
{
    const auto& bn = static_cast<const BnInferenceDesc&>(d);
    op.computeType = bn.compType;
    op.slot[MINI_HIPDNN_BN_X] = graph.tensorIndex(bn.x);
    op.slot[MINI_HIPDNN_BN_Y] = graph.tensorIndex(bn.y);
    op.slot[MINI_HIPDNN_BN_MEAN] = graph.tensorIndex(bn.mean);
    op.slot[MINI_HIPDNN_BN_VARIANCE] = graph.tensorIndex(bn.variance);
    op.slot[MINI_HIPDNN_BN_SCALE] = graph.tensorIndex(bn.scale);
    op.slot[MINI_HIPDNN_BN_BIAS] = graph.tensorIndex(bn.bias);
    op.scalar[MINI_HIPDNN_BN_EPSILON] = epsilonValue(*bn.epsilon);
}

void flattenPass(const Desc& d, GraphDesc& graph, miniHipdnnOp_t& op)
{
    const auto& bn = static_cast<const BnPassDesc&>(d);
    auto index = [&](hipdnnBackendAttributeName_t a) { return bn.at(a) ? graph.tensorIndex(bn.at(a)) : -1; };
    op.computeType = bn.compType;
    if(bn.training())
    {
        op.kind = MINI_HIPDNN_OP_BN_TRAINING;
        op.slot[MINI_HIPDNN_BN_X] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT);
        op.slot[MINI_HIPDNN_BN_Y] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT);
        op.slot[MINI_HIPDNN_BN_SCALE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT);
        op.slot[MINI_HIPDNN_BN_BIAS] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT);
        op.slot[MINI_HIPDNN_BN_MEAN] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT);
        op.slot[MINI_HIPDNN_BN_VARIANCE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT);
        op.flag[MINI_HIPDNN_BN_RUNNING] = bn.at(HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT) ? 1 : 0;
        op.scalar[MINI_HIPDNN_BN_EPSILON] = epsilonValue(*bn.at(HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT));
        return;
    }
    if(bn.inference())
    {
        op.kind = MINI_HIPDNN_OP_BN_INFERENCE_INV;
        op.slot[MINI_HIPDNN_BN_X] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT);
        op.slot[MINI_HIPDNN_BN_Y] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT);
        op.slot[MINI_HIPDNN_BN_MEAN] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT);
        op.slot[MINI_HIPDNN_BN_VARIANCE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT);
        op.slot[MINI_HIPDNN_BN_SCALE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT);
        op.slot[MINI_HIPDNN_BN_BIAS] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT);
        return;
    }
    op.slot[MINI_HIPDNN_BN_X] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT);
    op.slot[MINI_HIPDNN_BN_SCALE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT);
    op.slot[MINI_HIPDNN_BN_DY] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT);
    op.slot[MINI_HIPDNN_BN_DX] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT);
    op.slot[MINI_HIPDNN_BN_DSCALE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT);
    op.slot[MINI_HIPDNN_BN_DBIAS] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT);
    op.slot[MINI_HIPDNN_BN_MEAN] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT);
    op.slot[MINI_HIPDNN_BN_VARIANCE] = index(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT);
}

std::shared_ptr<Desc> createInference(hipdnnBackendDescriptorType_t) { return std::make_shared<BnInferenceDesc>(); }
std::shared_ptr<Desc> createPass(hipdnnBackendDescriptorType_t t) { return std::make_shared<BnPassDesc>(t); }

const OperationType kInference{HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
                               "BATCHNORM_INFERENCE_VARIANCE", createInference, flattenInference};
const OperationType kTraining{HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, "BATCHNORM", createPass, flattenPass};
const OperationType kBackward{HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, "BATCHNORM_BACKWARD", createPass,
                              flattenPass};
const OperationType kInferenceInv{HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT, "BATCHNORM_INFERENCE",
                                  createPass, flattenPass};
const OperationRegistration kRegistered[] = {OperationRegistration(kInference), OperationRegistration(kTraining),
                                             OperationRegistration(kBackward), OperationRegistration(kInferenceInv)};

} // namespace
} // namespace mh
