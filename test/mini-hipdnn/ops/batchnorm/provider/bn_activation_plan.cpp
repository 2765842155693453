// The provider's batchnorm inference + activation plan (test bed): the
// two-node graph batchnorm inference with variance (y virtual) -> pointwise
// RELU_FWD, which hipDNN's MIOpen provider runs through MIOpen's
// miopenBatchNormForwardInferenceActivation (MiopenBatchnormPlanBuilder.cpp
// @86387662, isApplicable's two-node case and
// buildPlanFusedFwdInferenceWithVarianceActivation;
// MiopenBatchnormFwdInferenceWithVariancePlan.cpp @12f27dda, execute: spatial,
// alpha 1, beta 0, the graph's epsilon). Its applicability rules
// (MiopenBatchnormApplicabilityChecks.cpp @f843928f): every node's compute
// type FLOAT; the pointwise mode RELU_FWD reading the batchnorm's y; x, mean,
// variance, scale and bias non-virtual, y and the activation's input
// virtual, its output non-virtual; x and the output one io type (FLOAT,
// HALF, BFLOAT16) and shape, 4-D or 5-D, packed in one layout; scale, bias,
// mean, variance FLOAT of the derived shape; the intermediate y FLOAT. The
// activation parameters are mapPointwiseModeToMiopenActivation's (RELU,
// CLIPPEDRELU with an upper clip, CLAMP with both; a non-zero lower clip
// alone is declined). No workspace.
#include "bn_plan_common.hpp"
#include "provider_plans.hpp"

#include "HipdnnPointwiseMode.h"

namespace
{

struct Parts
{
    const miniHipdnnOp_t* bn = nullptr;
    const miniHipdnnOp_t* act = nullptr;
};

// A batchnorm inference and one pointwise operation, in either listing order.
bool split(const miniHipdnnGraph_t& g, Parts& p)
{
    std::array<const miniHipdnnOp_t*, 2> ops;
    const bool ok = bn_plan::opsOfKinds<2>(g, {MINI_HIPDNN_OP_BN_INFERENCE, MINI_HIPDNN_OP_POINTWISE}, ops);
    p = {ops[0], ops[1]};
    return ok;
}

struct Activation
{
    miopenActivationMode_t mode = miopenActivationRELU;
    double alpha = 0.0, beta = 0.0;
};

bool mapRelu(const miniHipdnnOp_t& a, Activation& m)
{
    if(a.hasLowerClip && a.hasUpperClip)
    {
        m = {miopenActivationCLAMP, a.lowerClip, a.upperClip};
        return true;
    }
    if(a.hasUpperClip)
    {
        m = {miopenActivationCLIPPEDRELU, a.upperClip, 0.0};
        return true;
    }
    if(a.hasLowerClip && a.lowerClip != 0.0f)
        return false;
    m = {miopenActivationRELU, 0.0, 0.0};
    return true;
}

bool inRange(const miniHipdnnGraph_t& g, int32_t t) { return t >= 0 && t < g.numTensors; }

bool matches(const miniHipdnnGraph_t& g, std::string& why)
{
    Parts p;
    if(!split(g, p))
    {
        why = "not a batchnorm inference and one pointwise operation";
        return false;
    }
    const auto& bn = *p.bn;
    const auto& act = *p.act;
    if(bn.computeType != HIPDNN_DATA_FLOAT || act.computeType != HIPDNN_DATA_FLOAT)
    {
        why = "Batchnorm plan builder only supports nodes with an fp32 compute_data_type";
        return false;
    }
    if(act.pwMode != HIPDNN_POINTWISE_MODE_RELU_FWD)
    {
        why = "Batchnorm fusion currently only supports RELU_FWD activation";
        return false;
    }
    const int32_t x = bn.slot[MINI_HIPDNN_BN_X], y = bn.slot[MINI_HIPDNN_BN_Y];
    if(act.in0 != y || act.in1 >= 0 || !inRange(g, act.out0) || !inRange(g, y) || !inRange(g, x))
    {
        why = "Activation in_0 must be the batchnorm inference output tensor (y)";
        return false;
    }
    for(int32_t t : {x, bn.slot[MINI_HIPDNN_BN_MEAN], bn.slot[MINI_HIPDNN_BN_VARIANCE], bn.slot[MINI_HIPDNN_BN_SCALE],
                     bn.slot[MINI_HIPDNN_BN_BIAS]})
    {
        if(!inRange(g, t) || g.tensors[t].isVirtual)
        {
            why = "Batchnorm inference input tensors must be non-virtual, output tensor must be virtual";
            return false;
        }
    }
    if(!g.tensors[y].isVirtual)
    {
        why = "Batchnorm inference input tensors must be non-virtual, output tensor must be virtual";
        return false;
    }
    if(g.tensors[act.out0].isVirtual)
    {
        why = "Activation input from batchnorm must be virtual, output must be non virtual";
        return false;
    }
    if(!bn_plan::ioApplicable(g, {x, act.out0}, why))
        return false;
    const auto& yt = g.tensors[y];
    const auto& xt = g.tensors[x];
    if(yt.dataType != HIPDNN_DATA_FLOAT)
    {
        why = "Batchnorm implementation supports only FLOAT data type for intermediate tensors.";
        return false;
    }
    bool sameShape = yt.nbDims == xt.nbDims;
    for(int d = 0; sameShape && d < xt.nbDims; ++d)
        sameShape = yt.dims[d] == xt.dims[d] && (yt.dims[d] == 1 || yt.strides[d] == xt.strides[d]);
    if(!sameShape)
    {
        why = "All tensors for batchnorm must have the same layout.";
        return false;
    }
    if(!bn_plan::paramsApplicable(g, {bn.slot[MINI_HIPDNN_BN_SCALE], bn.slot[MINI_HIPDNN_BN_BIAS],
                                      bn.slot[MINI_HIPDNN_BN_MEAN], bn.slot[MINI_HIPDNN_BN_VARIANCE]},
                                  xt, why))
        return false;
    Activation m;
    if(!mapRelu(act, m))
    {
        why = "standard relu with a non-zero lower_clip is not supported";
        return false;
    }
    return true;
}

bool execute(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error)
{
    std::string why;
    if(!matches(g, why))
    {
        error = "MIOpen provider: " + why;
        return false;
    }
    Parts p;
    split(g, p);
    const auto& bn = *p.bn;
    Activation m;
    mapRelu(*p.act, m);
    const int32_t order[] = {bn.slot[MINI_HIPDNN_BN_X],     p.act->out0,
                             bn.slot[MINI_HIPDNN_BN_SCALE], bn.slot[MINI_HIPDNN_BN_BIAS],
                             bn.slot[MINI_HIPDNN_BN_MEAN],  bn.slot[MINI_HIPDNN_BN_VARIANCE]};
    bn_plan::Descriptors d;
    bool ok = d.check(miopenCreate_impl(&d.handle), "miopenCreate");
    void* ptrs[6] = {};
    for(int i = 0; i < 6 && ok; ++i)
    {
        ok = d.add(g.tensors[order[i]]);
        ptrs[i] = bn_plan::pointerFor(pack, g.tensors[order[i]].uid);
    }
    miopenActivationDescriptor_t a = nullptr;
    ok = ok && d.check(miopenCreateActivationDescriptor_impl(&a), "miopenCreateActivationDescriptor");
    ok = ok && d.check(miopenSetActivationDescriptor_impl(a, m.mode, m.alpha, m.beta, 1.0),
                       "miopenSetActivationDescriptor");
    // The provider's fixed arguments: spatial, alpha 1, beta 0.
    float one = 1.0f, zero = 0.0f;
    ok = ok
         && d.check(miopenBatchNormForwardInferenceActivation_impl(
                        d.handle, miopenBNSpatial, &one, &zero, d.t[0], ptrs[0], d.t[1], ptrs[1], d.t[2], d.t[3],
                        d.t[4], d.t[5], ptrs[2], ptrs[3], ptrs[4], ptrs[5], bn.scalar[MINI_HIPDNN_BN_EPSILON], a),
                    "miopenBatchNormForwardInferenceActivation");
    if(a != nullptr)
        miopenDestroyActivationDescriptor_impl(a);
    if(!ok)
        error = d.error;
    return ok;
}

// A batchnorm inference with one pointwise operation: this plan takes it or
// declines it (no other provider plan runs such a graph).
bool claims(const miniHipdnnGraph_t& g)
{
    Parts p;
    return split(g, p);
}

int64_t noWorkspace(const miniHipdnnGraph_t&) { return 0; } // the builder's getWorkspaceSize is 0

const provider::Plan kPlan{"batchnorm inference + activation", claims, matches, noWorkspace, execute};
const provider::PlanRegistration kRegistered(kPlan);

} // namespace
