// The provider's batchnorm inference + DReLU + backward plan (test bed): the
// three-node graph batchnorm inference with mean and inverse variance (type
// 17, y virtual) -> pointwise RELU_BWD (in_0 the gradient dy, in_1 that y,
// out_0 virtual) -> batchnorm backward (type 20, its dy the pointwise's
// output), which hipDNN's MIOpen provider runs through MIOpen's
// miopenBatchNormBackwardActivation with the inference node's bias and a
// RELU activation (MiopenBatchnormPlanBuilder.cpp, newest stored @92e478c6
// of the zpengmei/rocm-libraries fork: isApplicable's three-node case,
// batchnormBwdFusionCheckTensors; MiopenBatchnormBwdPlan.cpp @5c38d115,
// execute: spatial, every alpha 1 and beta 0, hipDNN's default epsilon, the
// saved statistics when the backward node has them). Its rules, in the
// builder's order: every node's compute type FLOAT; the pointwise RELU_BWD;
// in_1 set and the inference's y; out_0 the backward's dy; the backward's
// x, scale and (when set) mean and inverse variance the inference's; x,
// mean, inverse variance, scale, bias non-virtual and y virtual; in_0
// non-virtual; in_1 and out_0 (the backward's dy) virtual; dx, dscale,
// dbias non-virtual (@ec383f43 and @86387662 had in_0 and in_1 the other
// way round: in_0 y, in_1 dy; docs/hipdnn-compatibility.md); then the shape and
// type rules of MiopenBatchnormApplicabilityChecks.cpp @f843928f (x, dy, dx
// one io type and shape, 4-D or 5-D, packed in one layout; the per-channel
// tensors FLOAT of the derived shape; the intermediates FLOAT; more than one
// value per channel). The test bed runs RELU_BWD without clips only (the
// provider's activation mapping of a clipped RELU_BWD was not read). No
// workspace.
#include "bn_plan_common.hpp"
#include "provider_plans.hpp"

#include "HipdnnPointwiseMode.h"

namespace
{

struct Parts
{
    const miniHipdnnOp_t* bn = nullptr;
    const miniHipdnnOp_t* act = nullptr;
    const miniHipdnnOp_t* bwd = nullptr;
};

// One inference with inverse variance, one pointwise and one backward, in
// any listing order.
bool split(const miniHipdnnGraph_t& g, Parts& p)
{
    std::array<const miniHipdnnOp_t*, 3> ops;
    const bool ok = bn_plan::opsOfKinds<3>(
        g, {MINI_HIPDNN_OP_BN_INFERENCE_INV, MINI_HIPDNN_OP_POINTWISE, MINI_HIPDNN_OP_BN_BACKWARD}, ops);
    p = {ops[0], ops[1], ops[2]};
    return ok;
}

bool inRange(const miniHipdnnGraph_t& g, int32_t t) { return t >= 0 && t < g.numTensors; }

bool matches(const miniHipdnnGraph_t& g, std::string& why)
{
    Parts p;
    if(!split(g, p))
    {
        why = "not a batchnorm inference, a pointwise and a batchnorm backward operation";
        return false;
    }
    const auto& bn = *p.bn;
    const auto& act = *p.act;
    const auto& bwd = *p.bwd;
    if(bn.computeType != HIPDNN_DATA_FLOAT || act.computeType != HIPDNN_DATA_FLOAT
       || bwd.computeType != HIPDNN_DATA_FLOAT)
    {
        why = "Batchnorm plan builder only supports nodes with an fp32 compute_data_type";
        return false;
    }
    if(act.pwMode != HIPDNN_POINTWISE_MODE_RELU_BWD)
    {
        why = "Batchnorm fusion currently only supports RELU_BWD activation";
        return false;
    }
    const int32_t x = bn.slot[MINI_HIPDNN_BN_X], y = bn.slot[MINI_HIPDNN_BN_Y];
    const int32_t mean = bn.slot[MINI_HIPDNN_BN_MEAN], inv = bn.slot[MINI_HIPDNN_BN_VARIANCE];
    const int32_t scale = bn.slot[MINI_HIPDNN_BN_SCALE], bias = bn.slot[MINI_HIPDNN_BN_BIAS];
    if(!inRange(g, act.in1))
    {
        why = "the RELU_BWD has no in_1 (the forward input, y)";
        return false;
    }
    if(act.in1 != y || !inRange(g, y))
    {
        why = "the RELU_BWD's in_1 is not the inference's y";
        return false;
    }
    if(act.out0 != bwd.slot[MINI_HIPDNN_BN_DY] || !inRange(g, act.out0))
    {
        why = "Batchnorm backward dy input must be the activation output tensor";
        return false;
    }
    if(bwd.slot[MINI_HIPDNN_BN_X] != x)
    {
        why = "Batchnorm backward must use the same X tensor as batchnorm inference";
        return false;
    }
    if(bwd.slot[MINI_HIPDNN_BN_MEAN] >= 0 && bwd.slot[MINI_HIPDNN_BN_MEAN] != mean)
    {
        why = "Batchnorm backward must use the same mean tensor as batchnorm inference";
        return false;
    }
    if(bwd.slot[MINI_HIPDNN_BN_VARIANCE] >= 0 && bwd.slot[MINI_HIPDNN_BN_VARIANCE] != inv)
    {
        why = "Batchnorm backward must use the same inv_variance tensor as batchnorm inference";
        return false;
    }
    if(bwd.slot[MINI_HIPDNN_BN_SCALE] != scale)
    {
        why = "Batchnorm backward must use the same scale tensor as batchnorm inference";
        return false;
    }
    for(int32_t t : {x, mean, inv, scale, bias})
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
    if(!inRange(g, act.in0) || g.tensors[act.in0].isVirtual)
    {
        why = "the RELU_BWD's in_0 (the gradient dy) is virtual";
        return false;
    }
    if(!g.tensors[act.out0].isVirtual)
    {
        why = "Activation input from batchnorm must be virtual, output must be virtual";
        return false;
    }
    const int32_t dx = bwd.slot[MINI_HIPDNN_BN_DX], dscale = bwd.slot[MINI_HIPDNN_BN_DSCALE],
                  dbias = bwd.slot[MINI_HIPDNN_BN_DBIAS];
    for(int32_t t : {dx, dscale, dbias})
    {
        if(!inRange(g, t) || g.tensors[t].isVirtual)
        {
            why = "Batchnorm backward dy input must be virtual, output tensors must be non-virtual";
            return false;
        }
    }
    if(act.hasLowerClip || act.hasUpperClip)
    {
        why = "the test bed runs RELU_BWD without clips only";
        return false;
    }
    if(!bn_plan::ioApplicable(g, {x, act.in0, dx}, why))
        return false;
    const auto& xt = g.tensors[x];
    for(int32_t t : {y, act.out0})
    {
        const auto& it = g.tensors[t];
        if(it.dataType != HIPDNN_DATA_FLOAT)
        {
            why = "Batchnorm implementation supports only FLOAT data type for intermediate tensors.";
            return false;
        }
        bool sameShape = it.nbDims == xt.nbDims;
        for(int d = 0; sameShape && d < xt.nbDims; ++d)
            sameShape = it.dims[d] == xt.dims[d] && (it.dims[d] == 1 || it.strides[d] == xt.strides[d]);
        if(!sameShape)
        {
            why = "All tensors for batchnorm must have the same layout.";
            return false;
        }
    }
    if(!bn_plan::paramsApplicable(g, {scale, bias, mean, inv, dscale, dbias}, xt, why))
        return false;
    int64_t perChannel = xt.dims[0];
    for(int d = 2; d < xt.nbDims; ++d)
        perChannel *= xt.dims[d];
    if(perChannel <= 1)
    {
        why = "more than one value per channel is required for batch statistics";
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
    const auto& bwd = *p.bwd;
    const bool saved = bwd.slot[MINI_HIPDNN_BN_MEAN] >= 0;
    // x, dy (the pointwise's in_0), dx, scale, bias, mean, inverse variance,
    // dscale, dbias.
    const int32_t order[] = {bn.slot[MINI_HIPDNN_BN_X],     p.act->in0,
                             bwd.slot[MINI_HIPDNN_BN_DX],   bn.slot[MINI_HIPDNN_BN_SCALE],
                             bn.slot[MINI_HIPDNN_BN_BIAS],  bn.slot[MINI_HIPDNN_BN_MEAN],
                             bn.slot[MINI_HIPDNN_BN_VARIANCE], bwd.slot[MINI_HIPDNN_BN_DSCALE],
                             bwd.slot[MINI_HIPDNN_BN_DBIAS]};
    bn_plan::Descriptors d;
    bool ok = d.check(miopenCreate_impl(&d.handle), "miopenCreate");
    void* ptrs[9] = {};
    for(int i = 0; i < 9 && ok; ++i)
    {
        ok = d.add(g.tensors[order[i]]);
        ptrs[i] = bn_plan::pointerFor(pack, g.tensors[order[i]].uid);
    }
    miopenActivationDescriptor_t a = nullptr;
    ok = ok && d.check(miopenCreateActivationDescriptor_impl(&a), "miopenCreateActivationDescriptor");
    ok = ok && d.check(miopenSetActivationDescriptor_impl(a, miopenActivationRELU, 0.0, 0.0, 1.0),
                       "miopenSetActivationDescriptor");
    // The provider's fixed arguments: spatial, every alpha 1 and beta 0,
    // hipDNN's default epsilon (unused with the saved statistics).
    const float one = 1.0f, zero = 0.0f;
    ok = ok
         && d.check(miopenBatchNormBackwardActivation_impl(
                        d.handle, miopenBNSpatial, &one, &zero, &one, &zero, d.t[0], ptrs[0], d.t[1], ptrs[1],
                        d.t[2], ptrs[2], d.t[3], d.t[4], d.t[5], d.t[6], ptrs[3], ptrs[4], ptrs[7], ptrs[8], 1e-5,
                        saved ? ptrs[5] : nullptr, saved ? ptrs[6] : nullptr, a),
                    "miopenBatchNormBackwardActivation");
    if(a != nullptr)
        miopenDestroyActivationDescriptor_impl(a);
    if(!ok)
        error = d.error;
    return ok;
}

// Three operations with a batchnorm inference with inverse variance: this
// plan takes them or declines them.
bool claims(const miniHipdnnGraph_t& g)
{
    Parts p;
    return split(g, p);
}

int64_t noWorkspace(const miniHipdnnGraph_t&) { return 0; } // the builder's getMaxWorkspaceSize is 0

const provider::Plan kPlan{"batchnorm inference + DReLU + backward", claims, matches, noWorkspace, execute};
const provider::PlanRegistration kRegistered(kPlan);

} // namespace
