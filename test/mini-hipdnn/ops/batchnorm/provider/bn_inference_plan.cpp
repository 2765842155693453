// The provider's batchnorm inference plan (see bn_inference_plan.hpp). The
// applicability rules are the provider's (MiopenBatchnormApplicabilityChecks
// .cpp/.hpp): 4-D or 5-D tensors of one rank, packed, NCHW / NHWC (NCDHW /
// NDHWC) with x and y in one layout, x and y of one type (FLOAT, HALF or
// BFLOAT16) and shape, scale / bias / mean / variance FLOAT of the derived
// (1, C, 1, ...) shape.
#include "bn_inference_plan.hpp"
#include "bn_plan_common.hpp"
#include "provider_plans.hpp"

namespace bn_plan
{
namespace
{

bool matchesInference(const miniHipdnnGraph_t& g, std::string& why)
{
    const auto& op = g.ops[0];
    return ioApplicable(g, {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y]}, why)
           && paramsApplicable(g, {op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS], op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE]}, g.tensors[op.slot[MINI_HIPDNN_BN_X]], why);
}

} // namespace

bool matches(const miniHipdnnGraph_t& g, std::string& why)
{
    if(g.numOps != 1)
    {
        why = "not a single batchnorm operation";
        return false;
    }
    switch(g.ops[0].kind)
    {
    case MINI_HIPDNN_OP_BN_INFERENCE: return matchesInference(g, why);
    case MINI_HIPDNN_OP_BN_TRAINING:
    case MINI_HIPDNN_OP_BN_BACKWARD: return matchesPass(g, why);
    default: why = "not a batchnorm operation"; return false;
    }
}

bool execute(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error)
{
    std::string why;
    if(!matches(g, why))
    {
        error = "MIOpen provider: " + why;
        return false;
    }
    const auto& op = g.ops[0];
    if(op.kind != MINI_HIPDNN_OP_BN_INFERENCE)
    {
        return executePass(g, pack, error);
    }
    const int32_t order[] = {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS], op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE]};
    Descriptors d;
    bool ok = d.check(miopenCreate_impl(&d.handle), "miopenCreate");
    void* ptrs[6] = {};
    for(int i = 0; i < 6 && ok; ++i)
    {
        ok = d.add(g.tensors[order[i]]);
        ptrs[i] = pointerFor(pack, g.tensors[order[i]].uid);
    }
    // The provider's fixed arguments: spatial, alpha 1, beta 0.
    float one = 1.0f, zero = 0.0f;
    ok = ok
         && d.check(miopenBatchNormalizationForwardInference_V2_impl(
                        d.handle, miopenBNSpatial, &one, &zero, d.t[0], ptrs[0], d.t[1], ptrs[1], d.t[2], d.t[3],
                        d.t[4], d.t[5], ptrs[2], ptrs[3], ptrs[4], ptrs[5], op.scalar[MINI_HIPDNN_BN_EPSILON]),
                    "miopenBatchNormalizationForwardInference_V2");
    if(!ok)
        error = d.error;
    return ok;
}

} // namespace bn_plan

namespace
{

// One batchnorm operation: the batchnorm plans take it or decline it.
bool claims(const miniHipdnnGraph_t& g)
{
    if(g.numOps != 1)
        return false;
    const int32_t k = g.ops[0].kind;
    return k == MINI_HIPDNN_OP_BN_INFERENCE || k == MINI_HIPDNN_OP_BN_TRAINING || k == MINI_HIPDNN_OP_BN_BACKWARD;
}

int64_t noWorkspace(const miniHipdnnGraph_t&) { return 0; } // the provider's batchnorm plans need none

const provider::Plan kPlan{"batchnorm", claims, bn_plan::matches, noWorkspace, bn_plan::execute};
const provider::PlanRegistration kRegistered(kPlan);

} // namespace
