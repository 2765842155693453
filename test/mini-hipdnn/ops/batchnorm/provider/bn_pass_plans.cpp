// The provider's batchnorm training and backward plans (test bed):
// MiopenBatchnormFwdTrainingPlan.cpp and MiopenBatchnormBwdPlan.cpp, with
// the applicability rules of MiopenBatchnormApplicabilityChecks.cpp (the
// inference's, plus more than one value per channel, and the optional
// saved statistics FLOAT of the derived shape). Each calls MIOpen Private's
// _impl entry point with the provider's fixed arguments: spatial mode,
// every alpha 1 and beta 0, no running statistics (the provider's table:
// its training has none), and for the backward hipDNN's default epsilon
// (its operation has none).
#include "bn_inference_plan.hpp"
#include "bn_plan_common.hpp"

namespace bn_plan
{
namespace
{

// hipdnn_data_sdk::utilities::BATCHNORM_DEFAULT_EPSILON.
constexpr double kDefaultEpsilon = 1e-5;

bool moreThanOnePerChannel(const miniHipdnnTensor_t& x)
{
    int64_t m = x.dims[0];
    for(int d = 2; d < x.nbDims; ++d)
        m *= x.dims[d];
    return m > 1;
}

// The saved statistics' indices, when the graph has them.
std::vector<int32_t> saved(const miniHipdnnOp_t& op)
{
    return op.slot[MINI_HIPDNN_BN_MEAN] >= 0 ? std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE]} : std::vector<int32_t>{};
}

// A handle, one MIOpen descriptor per tensor of `order` (then the saved
// statistics', when the graph has them) and their variant-pack pointers.
bool bind(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::vector<int32_t> order, Descriptors& d,
          std::vector<void*>& ptrs)
{
    for(int32_t i : saved(g.ops[0]))
        order.push_back(i);
    bool ok = d.check(miopenCreate_impl(&d.handle), "miopenCreate");
    for(size_t i = 0; i < order.size() && ok; ++i)
    {
        ok = d.add(g.tensors[order[i]]);
        ptrs.push_back(pointerFor(pack, g.tensors[order[i]].uid));
    }
    return ok;
}

bool executeTraining(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, Descriptors& d)
{
    const auto& op = g.ops[0];
    const bool save = op.slot[MINI_HIPDNN_BN_MEAN] >= 0;
    std::vector<void*> ptrs;
    if(!bind(g, pack, {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]}, d, ptrs))
        return false;
    float one = 1.0f, zero = 0.0f;
    // Without saved statistics the scale's descriptor stands in for theirs
    // (MIOpen reads a descriptor for each; nothing is written through it).
    auto* meanDesc = save ? d.t[4] : d.t[2];
    auto* varDesc = save ? d.t[5] : d.t[2];
    return d.check(miopenBatchNormalizationForwardTraining_V2_impl(
                       d.handle, miopenBNSpatial, &one, &zero, d.t[0], ptrs[0], d.t[1], ptrs[1], d.t[2], d.t[3],
                       meanDesc, varDesc, ptrs[2], ptrs[3], 0.0, nullptr, nullptr, op.scalar[MINI_HIPDNN_BN_EPSILON],
                       save ? ptrs[4] : nullptr, save ? ptrs[5] : nullptr),
                   "miopenBatchNormalizationForwardTraining_V2");
}

bool executeBackward(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, Descriptors& d)
{
    const auto& op = g.ops[0];
    const bool useSaved = op.slot[MINI_HIPDNN_BN_MEAN] >= 0;
    std::vector<void*> ptrs;
    if(!bind(g, pack, {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_DY], op.slot[MINI_HIPDNN_BN_DX], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_DSCALE], op.slot[MINI_HIPDNN_BN_DBIAS]}, d, ptrs))
        return false;
    float one = 1.0f, zero = 0.0f;
    // As the provider's non-fused plan: the scale's descriptor for the bias
    // and for absent saved statistics.
    auto* meanDesc = useSaved ? d.t[6] : d.t[3];
    auto* varDesc = useSaved ? d.t[7] : d.t[3];
    return d.check(miopenBatchNormalizationBackward_V2_impl(
                       d.handle, miopenBNSpatial, &one, &zero, &one, &zero, d.t[0], ptrs[0], d.t[1], ptrs[1], d.t[2],
                       ptrs[2], d.t[3], d.t[3], meanDesc, varDesc, ptrs[3], ptrs[4], ptrs[5], kDefaultEpsilon,
                       useSaved ? ptrs[6] : nullptr, useSaved ? ptrs[7] : nullptr),
                   "miopenBatchNormalizationBackward_V2");
}

} // namespace

bool matchesPass(const miniHipdnnGraph_t& g, std::string& why)
{
    const auto& op = g.ops[0];
    const bool training = op.kind == MINI_HIPDNN_OP_BN_TRAINING;
    if(training && op.flag[MINI_HIPDNN_BN_RUNNING] != 0)
    {
        why = "Batchnorm training only supports computing batch statistics without updating running statistics.";
        return false;
    }
    const bool io = training ? ioApplicable(g, {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y]}, why) : ioApplicable(g, {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_DY], op.slot[MINI_HIPDNN_BN_DX]}, why);
    if(!io)
        return false;
    std::vector<int32_t> params = training ? std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]}
                                           : std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_DSCALE], op.slot[MINI_HIPDNN_BN_DBIAS]};
    for(int32_t i : saved(op))
        params.push_back(i);
    if(!paramsApplicable(g, params, g.tensors[op.slot[MINI_HIPDNN_BN_X]], why))
        return false;
    if(!moreThanOnePerChannel(g.tensors[op.slot[MINI_HIPDNN_BN_X]]))
    {
        why = "The product of the batch size and spatial dimensions must be greater than 1 for batchnorm.";
        return false;
    }
    return true;
}

bool executePass(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error)
{
    Descriptors d;
    const bool ok = g.ops[0].kind == MINI_HIPDNN_OP_BN_TRAINING ? executeTraining(g, pack, d) : executeBackward(g, pack, d);
    if(!ok)
        error = d.error;
    return ok;
}

} // namespace bn_plan
