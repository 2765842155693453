// mini-hipdnn MIOpen provider engine plugin (test bed counterpart of hipDNN's
// dnn-providers/miopen-provider).
//
// RFC 0001 §4.5: the provider calls MIOpen's *private* API directly (the
// `_impl` entry points of libMIOpen_private.so declared in
// <miopen/miopen_impl.h>), never the public libMIOpen.so, so a forwarding
// wrapper in libMIOpen.so can never route a call back into hipDNN.
//
// Graphs it takes (everything else is declined so other engines get it):
//  * one convolution op (forward, backward data, backward filter);
//  * conv forward -> [pointwise ADD with a (1,C,1,..) bias] -> pointwise RELU_FWD,
//    mapped to a MIOpen fusion plan (conv op, optional bias op, activation op) the
//    way hipDNN's provider does it (MiopenConvFwdBiasActivPlanBuilder):
//      no clip              -> miopenActivationRELU
//      upper clip only      -> miopenActivationCLIPPEDRELU, alpha = upper
//      lower and upper clip -> miopenActivationCLAMP, alpha = lower, beta = upper
//      lower clip only      -> RELU if lower == 0, declined otherwise.
// Convolutions: 1, 2 or 3 spatial dims (1-D, NCL or NLC, padded to 2-D with a
// trailing spatial dim of extent 1, as hipDNN's provider does), symmetric
// padding (MIOpen has one pad per dim), cross-correlation, positive strides
// and dilations, groups = x.C / w.C, fp32/fp16/bf16 with one type for x, w and
// the output. The fused plan's workspace is hipDNN's provider's: the bytes of
// x, w and the output, each rounded up to 256.
//  * a graph an op folder's plan claims (provider_plans.hpp;
//    test/mini-hipdnn/ops/<op>/provider/).
// Knobs (global.benchmarking, global.workspace_size_limit): conv_knobs.hpp.
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "HipdnnPointwiseMode.h"
#include "conv_knobs.hpp"
#include "mini_hipdnn_engine_plugin.h"
#include "mini_hipdnn_registry.hpp"
#include "provider_plans.hpp"
#include "provider_types.hpp"

#include <miopen/miopen_impl.h>

#include <climits>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using provider::toMiopenType;

bool fitsInt(int64_t v) { return v >= 0 && v <= INT_MAX; }

bool tensorFits(const miniHipdnnTensor_t& t)
{
    for(int i = 0; i < t.nbDims; ++i)
    {
        if(!fitsInt(t.dims[i]) || t.dims[i] == 0 || !fitsInt(t.strides[i]))
        {
            return false;
        }
    }
    return true;
}

// What the provider recognised in a graph.
struct Match
{
    bool fused = false;
    int conv = -1;       // op index of the convolution
    int bias = -1;       // op index of the ADD (fused, optional)
    int act = -1;        // op index of the RELU_FWD (fused)
    int biasTensor = -1; // tensor index of the bias operand
    int out = -1;        // tensor index of the graph's output (fused: activation output)
    miopenActivationMode_t mode = miopenActivationRELU;
    double alpha = 0.0, beta = 0.0, gamma = 0.0;
};

// Convolution checks shared by single and fused graphs: `y` is the tensor whose
// shape the convolution produces (for fused graphs the virtual conv output).
bool convSupported(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    if(op.convMode != HIPDNN_CROSS_CORRELATION || op.spatialDims < 1 || op.spatialDims > 3)
    {
        return false;
    }
    const auto& x = g.tensors[op.x];
    const auto& w = g.tensors[op.w];
    const auto& y = g.tensors[op.y];
    int r = op.spatialDims + 2;
    if(x.nbDims != r || w.nbDims != r || y.nbDims != r || !tensorFits(x) || !tensorFits(w) || !tensorFits(y))
    {
        return false;
    }
    if(w.dims[1] == 0 || x.dims[1] % w.dims[1] != 0)
    {
        return false;
    }
    int64_t groups = x.dims[1] / w.dims[1];
    if(w.dims[0] % groups != 0 || y.dims[1] != w.dims[0] || y.dims[0] != x.dims[0])
    {
        return false;
    }
    for(int d = 0; d < op.spatialDims; ++d)
    {
        if(op.prePad[d] != op.postPad[d] || !fitsInt(op.prePad[d]) || op.stride[d] <= 0 || op.dilation[d] <= 0
           || !fitsInt(op.stride[d]) || !fitsInt(op.dilation[d]))
        {
            return false;
        }
        int64_t eff = op.dilation[d] * (w.dims[2 + d] - 1) + 1;
        int64_t span = x.dims[2 + d] + 2 * op.prePad[d] - eff;
        if(span < 0 || span / op.stride[d] + 1 != y.dims[2 + d])
        {
            return false;
        }
    }
    return true;
}

bool singleConv(const miniHipdnnGraph_t& g, Match& m)
{
    const auto& op = g.ops[0];
    if(op.kind != MINI_HIPDNN_OP_CONV_FWD && op.kind != MINI_HIPDNN_OP_CONV_BWD_DATA
       && op.kind != MINI_HIPDNN_OP_CONV_BWD_FILTER)
    {
        return false;
    }
    const auto& x = g.tensors[op.x];
    const auto& w = g.tensors[op.w];
    const auto& y = g.tensors[op.y];
    miopenDataType_t t;
    if(x.isVirtual || w.isVirtual || y.isVirtual || !toMiopenType(x.dataType, t) || w.dataType != x.dataType
       || y.dataType != x.dataType || !convSupported(g, op))
    {
        return false;
    }
    m.conv = 0;
    return true;
}

// hipDNN's MIOpen provider: the activation parameters for RELU_FWD
// (MiopenUtils.cpp, mapPointwiseModeToMiopenActivation).
bool mapRelu(const miniHipdnnOp_t& a, Match& m)
{
    if(a.hasLowerClip && a.hasUpperClip)
    {
        m.mode = miopenActivationCLAMP;
        m.alpha = a.lowerClip;
        m.beta = a.upperClip;
        return true;
    }
    if(a.hasUpperClip)
    {
        m.mode = miopenActivationCLIPPEDRELU;
        m.alpha = a.upperClip;
        return true;
    }
    if(a.hasLowerClip && a.lowerClip != 0.0f)
    {
        return false; // "standard relu with a non-zero lower_clip is not supported"
    }
    m.mode = miopenActivationRELU;
    return true;
}

// conv fwd -> [ADD bias] -> RELU_FWD, in any listing order (hipDNN hands the
// provider a topologically sorted graph; the test bed keeps the user's order).
bool fusedConvBiasActiv(const miniHipdnnGraph_t& g, Match& m)
{
    if(g.numOps != 2 && g.numOps != 3)
    {
        return false;
    }
    int conv = -1;
    for(int i = 0; i < g.numOps; ++i)
    {
        if(g.ops[i].kind != MINI_HIPDNN_OP_POINTWISE)
        {
            if(conv >= 0 || g.ops[i].kind != MINI_HIPDNN_OP_CONV_FWD)
            {
                return false;
            }
            conv = i;
        }
    }
    if(conv < 0)
    {
        return false;
    }
    auto consumerOf = [&](int tensor) {
        int found = -1;
        for(int i = 0; i < g.numOps; ++i)
        {
            const auto& o = g.ops[i];
            if(o.kind == MINI_HIPDNN_OP_POINTWISE && (o.in0 == tensor || o.in1 == tensor))
            {
                if(found >= 0)
                {
                    return -2; // read twice: not a chain
                }
                found = i;
            }
        }
        return found;
    };
    const auto& c = g.ops[conv];
    int second = consumerOf(c.y);
    if(second < 0)
    {
        return false;
    }
    int act = -1, bias = -1;
    if(g.ops[second].pwMode == HIPDNN_POINTWISE_MODE_RELU_FWD)
    {
        if(g.numOps != 2)
        {
            return false; // "activation forward cannot be followed by another node"
        }
        act = second;
    }
    else if(g.ops[second].pwMode == HIPDNN_POINTWISE_MODE_ADD)
    {
        if(g.numOps != 3 || g.ops[second].in1 < 0)
        {
            return false;
        }
        bias = second;
        act = consumerOf(g.ops[bias].out0);
        if(act < 0 || g.ops[act].pwMode != HIPDNN_POINTWISE_MODE_RELU_FWD || g.ops[act].in0 != g.ops[bias].out0)
        {
            return false;
        }
    }
    else
    {
        return false;
    }
    const auto& a = g.ops[act];
    if(a.in1 >= 0 || a.in0 != (bias >= 0 ? g.ops[bias].out0 : c.y))
    {
        return false;
    }

    // Virtual-ness and data types as hipDNN's provider checks them.
    const auto& x = g.tensors[c.x];
    const auto& w = g.tensors[c.w];
    const auto& cy = g.tensors[c.y];
    const auto& out = g.tensors[a.out0];
    miopenDataType_t t;
    if(x.isVirtual || w.isVirtual || !cy.isVirtual || out.isVirtual || !toMiopenType(x.dataType, t)
       || w.dataType != x.dataType || out.dataType != x.dataType)
    {
        return false;
    }
    if(c.computeType != HIPDNN_DATA_FLOAT || a.computeType != HIPDNN_DATA_FLOAT)
    {
        return false;
    }
    int biasTensor = -1;
    if(bias >= 0)
    {
        const auto& b = g.ops[bias];
        biasTensor = b.in0 == c.y ? b.in1 : b.in0;
        const auto& bt = g.tensors[biasTensor];
        const auto& bout = g.tensors[b.out0];
        if(bt.isVirtual || !bout.isVirtual || !toMiopenType(bt.dataType, t) || b.computeType != bt.dataType
           || (cy.dataType != HIPDNN_DATA_FLOAT && cy.dataType != bt.dataType)
           || (bout.dataType != HIPDNN_DATA_FLOAT && bout.dataType != bt.dataType))
        {
            return false;
        }
        // MIOpen's bias operator adds a (1, C, 1, ...) tensor.
        if(bt.nbDims != cy.nbDims || bt.dims[0] != 1 || bt.dims[1] != cy.dims[1] || !tensorFits(bt))
        {
            return false;
        }
        for(int i = 2; i < bt.nbDims; ++i)
        {
            if(bt.dims[i] != 1)
            {
                return false;
            }
        }
        // The sum must keep the convolution's shape (no broadcast of the conv output).
        for(int i = 0; i < cy.nbDims; ++i)
        {
            if(bout.nbDims != cy.nbDims || bout.dims[i] != cy.dims[i])
            {
                return false;
            }
        }
    }
    else if(cy.dataType != HIPDNN_DATA_FLOAT)
    {
        return false; // "convolution node output must be float"
    }
    if(out.nbDims != cy.nbDims)
    {
        return false;
    }
    for(int i = 0; i < cy.nbDims; ++i)
    {
        if(out.dims[i] != cy.dims[i])
        {
            return false;
        }
    }
    if(!tensorFits(out) || !convSupported(g, c) || !mapRelu(a, m))
    {
        return false;
    }
    m.fused = true;
    m.conv = conv;
    m.bias = bias;
    m.act = act;
    m.biasTensor = biasTensor;
    m.out = a.out0;
    return true;
}

bool matchGraph(const miniHipdnnGraph_t& g, Match& m)
{
    if(g.numOps == 1)
    {
        return singleConv(g, m);
    }
    return fusedConvBiasActiv(g, m);
}

// MIOpen handle and descriptors for one graph, destroyed on scope exit.
struct Problem
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t x = nullptr, w = nullptr, y = nullptr, b = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    miopenFusionPlanDescriptor_t plan = nullptr;
    std::string error;

    ~Problem()
    {
        if(plan != nullptr)
        {
            miopenDestroyFusionPlan_impl(plan);
        }
        for(auto* t : {x, w, y, b})
        {
            if(t != nullptr)
            {
                miopenDestroyTensorDescriptor_impl(t);
            }
        }
        if(conv != nullptr)
        {
            miopenDestroyConvolutionDescriptor_impl(conv);
        }
        if(handle != nullptr)
        {
            miopenDestroy_impl(handle);
        }
    }

    bool check(miopenStatus_t s, const char* what) { return provider::succeeded(s, what, error); }

    bool found(int returnedAlgoCount)
    {
        if(returnedAlgoCount > 0)
        {
            return true;
        }
        error = "MIOpen provider: Find returned no algorithm";
        return false;
    }

    bool tensor(miopenTensorDescriptor_t& d, const miniHipdnnTensor_t& t)
    {
        miopenDataType_t dt;
        toMiopenType(t.dataType, dt);
        std::vector<int> dims(t.dims, t.dims + t.nbDims), strides(t.strides, t.strides + t.nbDims);
        if(t.nbDims == 3)
        {
            // 1-D: a trailing spatial dim of extent 1, with the stride the
            // last one has (so NCL stays packed NCHW and NLC packed NHWC).
            dims.push_back(1);
            strides.push_back(strides.back());
        }
        return check(miopenCreateTensorDescriptor_impl(&d), "miopenCreateTensorDescriptor")
               && check(miopenSetTensorDescriptor_impl(d, dt, static_cast<int>(dims.size()), dims.data(),
                                                       strides.data()),
                        "miopenSetTensorDescriptor");
    }

    // Tensor and convolution descriptors from the op's padding / strides /
    // dilations; group count = x.C / w.C.  For fused graphs `y` describes the
    // activation output (what the plan writes).
    bool build(const miniHipdnnGraph_t& g, const Match& m)
    {
        const auto& op = g.ops[m.conv];
        std::vector<int> pad, stride, dil;
        for(int d = 0; d < op.spatialDims; ++d)
        {
            pad.push_back(static_cast<int>(op.prePad[d]));
            stride.push_back(static_cast<int>(op.stride[d]));
            dil.push_back(static_cast<int>(op.dilation[d]));
        }
        if(op.spatialDims == 1)
        {
            pad.push_back(0);
            stride.push_back(1);
            dil.push_back(1);
        }
        const auto& xt = g.tensors[op.x];
        const auto& wt = g.tensors[op.w];
        int groups = static_cast<int>(xt.dims[1] / wt.dims[1]);
        return check(miopenCreate_impl(&handle), "miopenCreate") && tensor(x, xt) && tensor(w, wt)
               && tensor(y, g.tensors[m.fused ? m.out : op.y]) && (m.biasTensor < 0 || tensor(b, g.tensors[m.biasTensor]))
               && check(miopenCreateConvolutionDescriptor_impl(&conv), "miopenCreateConvolutionDescriptor")
               && check(miopenInitConvolutionNdDescriptor_impl(conv, static_cast<int>(pad.size()), pad.data(),
                                                                stride.data(), dil.data(), miopenConvolution),
                        "miopenInitConvolutionNdDescriptor")
               && check(miopenSetConvolutionGroupCount_impl(conv, groups), "miopenSetConvolutionGroupCount")
               && (!m.fused || fusionPlan(m));
    }

    // conv -> [bias] -> activation, compiled (MiopenConvFwdBiasActivPlan).
    bool fusionPlan(const Match& m)
    {
        miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, activOp = nullptr;
        return check(miopenCreateFusionPlan_impl(&plan, miopenVerticalFusion, x), "miopenCreateFusionPlan")
               && check(miopenCreateOpConvForward_impl(plan, &convOp, conv, w), "miopenCreateOpConvForward")
               && (m.biasTensor < 0 || check(miopenCreateOpBiasForward_impl(plan, &biasOp, b), "miopenCreateOpBiasForward"))
               && check(miopenCreateOpActivationForward_impl(plan, &activOp, m.mode), "miopenCreateOpActivationForward")
               && check(miopenCompileFusionPlan_impl(handle, plan), "miopenCompileFusionPlan");
    }

    // The single convolution's descriptors in its direction's call order.
    provider::ConvQuery query(const miniHipdnnGraph_t& g, const Match& m) const
    {
        const int32_t kind = g.ops[m.conv].kind;
        switch(kind)
        {
        case MINI_HIPDNN_OP_CONV_FWD: return {kind, handle, w, x, y, conv};
        case MINI_HIPDNN_OP_CONV_BWD_DATA: return {kind, handle, y, w, x, conv};
        default: return {kind, handle, y, x, w, conv};
        }
    }

    bool workspace(const miniHipdnnGraph_t& g, const Match& m, size_t& bytes)
    {
        if(m.fused)
        {
            // hipDNN's provider does not ask the fusion plan: it reserves the
            // bytes of x, w and y, each rounded up to 256 (never 0).
            size_t xb = 0, wb = 0, yb = 0;
            auto align256 = [](size_t v) { return (v + 255) / 256 * 256; };
            bool ok = check(miopenGetTensorNumBytes_impl(x, &xb), "miopenGetTensorNumBytes")
                      && check(miopenGetTensorNumBytes_impl(w, &wb), "miopenGetTensorNumBytes")
                      && check(miopenGetTensorNumBytes_impl(y, &yb), "miopenGetTensorNumBytes");
            bytes = align256(xb) + align256(wb) + align256(yb);
            return ok;
        }
        switch(g.ops[m.conv].kind)
        {
        case MINI_HIPDNN_OP_CONV_FWD:
            return check(miopenConvolutionForwardGetWorkSpaceSize_impl(handle, w, x, conv, y, &bytes),
                         "miopenConvolutionForwardGetWorkSpaceSize");
        case MINI_HIPDNN_OP_CONV_BWD_DATA:
            return check(miopenConvolutionBackwardDataGetWorkSpaceSize_impl(handle, y, w, conv, x, &bytes),
                         "miopenConvolutionBackwardDataGetWorkSpaceSize");
        default:
            return check(miopenConvolutionBackwardWeightsGetWorkSpaceSize_impl(handle, y, x, conv, w, &bytes),
                         "miopenConvolutionBackwardWeightsGetWorkSpaceSize");
        }
    }
};

// Algorithms found on the first execution of a problem (kind + tensors + conv
// parameters), reused afterwards, as hipDNN's provider keeps its plan's choice.
std::mutex gAlgoMutex;
std::map<std::string, int> gAlgoCache;

// The knobs are part of the key: a benchmarked search is not served to a
// plan without benchmarking, nor a choice under one limit to another.
std::string problemKey(const miniHipdnnGraph_t& g, const Match& m, const provider::ConvKnobs& knobs)
{
    const auto& op = g.ops[m.conv];
    std::ostringstream k;
    k << op.kind << ':' << op.spatialDims << ':' << knobs.benchmarking << ':'
      << (knobs.hasWorkspaceLimit ? knobs.workspaceLimit : -1);
    for(int d = 0; d < op.spatialDims; ++d)
    {
        k << ',' << op.prePad[d] << '/' << op.stride[d] << '/' << op.dilation[d];
    }
    for(int ti : {op.x, op.w, op.y})
    {
        const auto& t = g.tensors[ti];
        k << '|' << t.dataType;
        for(int i = 0; i < t.nbDims; ++i)
        {
            k << ',' << t.dims[i] << '/' << t.strides[i];
        }
    }
    return k.str();
}

int providerSupports(const miniHipdnnGraph_t* g)
{
    if(const provider::Plan* plan = provider::planFor(g))
    {
        std::string why;
        return plan->matches(*g, why) ? 1 : 0;
    }
    Match m;
    if(g == nullptr || !matchGraph(*g, m))
    {
        return 0;
    }
    Problem p; // MIOpen itself has the last word on the descriptors / fusion plan
    size_t ws = 0;
    return p.build(*g, m) && p.workspace(*g, m, ws) ? 1 : 0;
}

// The workspace limit applies to the single convolutions only (the real
// provider offers it for convolutions; its fused plans and the op folders'
// ignore it).
int64_t providerWorkspace(const miniHipdnnGraph_t* g, const miniHipdnnKnobs_t* knobs, char* err, size_t errLen)
{
    if(const provider::Plan* plan = provider::planFor(g))
    {
        return plan->workspace(*g);
    }
    Match m;
    Problem p;
    size_t ws = 0;
    if(g == nullptr || !matchGraph(*g, m) || !p.build(*g, m) || !p.workspace(*g, m, ws))
    {
        return -1;
    }
    if(m.fused)
    {
        return static_cast<int64_t>(ws);
    }
    size_t planned = 0;
    if(!provider::plannedWorkspace(p.query(*g, m), provider::readKnobs(knobs), ws, planned, p.error))
    {
        if(err != nullptr && errLen > 0)
        {
            std::snprintf(err, errLen, "%s", p.error.c_str());
        }
        return -1;
    }
    return static_cast<int64_t>(planned);
}

void* pointerFor(const miniHipdnnVariantPack_t* pack, int64_t uid)
{
    for(int64_t i = 0; i < pack->count; ++i)
    {
        if(pack->uids[i] == uid)
        {
            return pack->pointers[i];
        }
    }
    return nullptr;
}

bool executeFused(Problem& p, const miniHipdnnGraph_t& g, const Match& m, const miniHipdnnVariantPack_t* pack)
{
    const auto& op = g.ops[m.conv];
    void* xp = pointerFor(pack, g.tensors[op.x].uid);
    void* wp = pointerFor(pack, g.tensors[op.w].uid);
    void* yp = pointerFor(pack, g.tensors[m.out].uid);
    void* bp = m.biasTensor >= 0 ? pointerFor(pack, g.tensors[m.biasTensor].uid) : nullptr;
    if(xp == nullptr || wp == nullptr || yp == nullptr || (m.biasTensor >= 0 && bp == nullptr))
    {
        p.error = "MIOpen provider: missing data pointer";
        return false;
    }
    const float one = 1.0f, zero = 0.0f;
    miopenOperatorArgs_t args = nullptr;
    if(!p.check(miopenCreateOperatorArgs_impl(&args), "miopenCreateOperatorArgs"))
    {
        return false;
    }
    int idx = 0;
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, activOp = nullptr;
    bool ok = p.check(miopenFusionPlanGetOp_impl(p.plan, idx++, &convOp), "miopenFusionPlanGetOp")
              && p.check(miopenSetOpArgsConvForward_impl(args, convOp, &one, &zero, wp), "miopenSetOpArgsConvForward");
    if(ok && m.biasTensor >= 0)
    {
        ok = p.check(miopenFusionPlanGetOp_impl(p.plan, idx++, &biasOp), "miopenFusionPlanGetOp")
             && p.check(miopenSetOpArgsBiasForward_impl(args, biasOp, &one, &zero, bp), "miopenSetOpArgsBiasForward");
    }
    ok = ok && p.check(miopenFusionPlanGetOp_impl(p.plan, idx, &activOp), "miopenFusionPlanGetOp")
         && p.check(miopenSetOpArgsActivForward_impl(args, activOp, &one, &zero, m.alpha, m.beta, m.gamma),
                    "miopenSetOpArgsActivForward")
         && p.check(miopenExecuteFusionPlan_v2_impl(p.handle, p.plan, p.x, xp, p.y, yp, args, pack->workspace,
                                                    static_cast<size_t>(pack->workspaceSize)),
                    "miopenExecuteFusionPlan_v2");
    miopenDestroyOperatorArgs_impl(args);
    return ok;
}

// MIOpen's Find of the direction on Private: up to `request` results, sorted
// by time.
bool findAlgorithms(Problem& p, int32_t kind, void* xp, void* wp, void* yp, void* ws, size_t wsSize, int request,
                    bool exhaustive, std::vector<miopenConvAlgoPerf_t>& perf, int& found)
{
    perf.assign(static_cast<size_t>(request), miopenConvAlgoPerf_t{});
    if(kind == MINI_HIPDNN_OP_CONV_FWD)
    {
        return p.check(miopenFindConvolutionForwardAlgorithm_impl(p.handle, p.x, xp, p.w, wp, p.conv, p.y, yp, request,
                                                                  &found, perf.data(), ws, wsSize, exhaustive),
                       "miopenFindConvolutionForwardAlgorithm");
    }
    if(kind == MINI_HIPDNN_OP_CONV_BWD_DATA)
    {
        return p.check(miopenFindConvolutionBackwardDataAlgorithm_impl(p.handle, p.y, yp, p.w, wp, p.conv, p.x, xp,
                                                                       request, &found, perf.data(), ws, wsSize,
                                                                       exhaustive),
                       "miopenFindConvolutionBackwardDataAlgorithm");
    }
    return p.check(miopenFindConvolutionBackwardWeightsAlgorithm_impl(p.handle, p.y, yp, p.x, xp, p.conv, p.w, wp,
                                                                      request, &found, perf.data(), ws, wsSize,
                                                                      exhaustive),
                   "miopenFindConvolutionBackwardWeightsAlgorithm");
}

int algorithmOf(int32_t kind, const miopenConvAlgoPerf_t& perf)
{
    switch(kind)
    {
    case MINI_HIPDNN_OP_CONV_FWD: return perf.fwd_algo;
    case MINI_HIPDNN_OP_CONV_BWD_DATA: return perf.bwd_data_algo;
    default: return perf.bwd_weights_algo;
    }
}

// The algorithm of the plan's first execution. Without knobs: the first of
// one result, as hipDNN's provider takes it. Benchmarking: MIOpen's
// exhaustive search over every solution, the fastest taken. A workspace
// limit: the fastest result that needs no more than the plan's workspace
// (the limit); none fitting fails the execution.
bool chooseAlgorithm(Problem& p, const miniHipdnnGraph_t& g, const Match& m, const provider::ConvKnobs& knobs,
                     void* xp, void* wp, void* yp, void* ws, size_t wsSize, int& algo)
{
    const int32_t kind = g.ops[m.conv].kind;
    int request = 1;
    if(knobs.benchmarking || knobs.hasWorkspaceLimit)
    {
        size_t n = 0;
        if(!provider::solutionTotal(p.query(g, m), n, p.error))
        {
            return false;
        }
        request = static_cast<int>(n);
    }
    std::vector<miopenConvAlgoPerf_t> perf;
    int found = 0;
    if(!findAlgorithms(p, kind, xp, wp, yp, ws, wsSize, request, knobs.benchmarking, perf, found) || !p.found(found))
    {
        return false;
    }
    if(knobs.benchmarking)
    {
        provider::noteBenchmark(kind == MINI_HIPDNN_OP_CONV_FWD ? "forward"
                                : kind == MINI_HIPDNN_OP_CONV_BWD_DATA ? "backward data"
                                                                       : "backward weights",
                                found);
    }
    for(int i = 0; i < found; ++i)
    {
        if(!knobs.hasWorkspaceLimit || perf[static_cast<size_t>(i)].memory <= wsSize)
        {
            algo = algorithmOf(kind, perf[static_cast<size_t>(i)]);
            return true;
        }
    }
    p.error = "MIOpen provider: no MIOpen solution within the workspace limit of " + std::to_string(wsSize) + " bytes";
    return false;
}

bool executeConv(Problem& p,
                 const miniHipdnnGraph_t& g,
                 const Match& m,
                 const provider::ConvKnobs& knobs,
                 const miniHipdnnVariantPack_t* pack)
{
    const auto& op = g.ops[m.conv];
    void* xp = pointerFor(pack, g.tensors[op.x].uid);
    void* wp = pointerFor(pack, g.tensors[op.w].uid);
    void* yp = pointerFor(pack, g.tensors[op.y].uid);
    if(xp == nullptr || wp == nullptr || yp == nullptr)
    {
        p.error = "MIOpen provider: missing data pointer";
        return false;
    }
    auto* ws = pack->workspace;
    auto wsSize = static_cast<size_t>(pack->workspaceSize);
    const float one = 1.0f, zero = 0.0f;
    const std::string key = problemKey(g, m, knobs);
    int algo = -1;
    {
        std::lock_guard<std::mutex> lock(gAlgoMutex);
        auto it = gAlgoCache.find(key);
        if(it != gAlgoCache.end())
        {
            algo = it->second;
        }
    }
    bool ok = algo >= 0 || chooseAlgorithm(p, g, m, knobs, xp, wp, yp, ws, wsSize, algo);
    if(op.kind == MINI_HIPDNN_OP_CONV_FWD)
    {
        ok = ok
             && p.check(miopenConvolutionForward_impl(p.handle, &one, p.x, xp, p.w, wp, p.conv,
                                                      static_cast<miopenConvFwdAlgorithm_t>(algo), &zero, p.y, yp, ws,
                                                      wsSize),
                        "miopenConvolutionForward");
    }
    else if(op.kind == MINI_HIPDNN_OP_CONV_BWD_DATA)
    {
        ok = ok
             && p.check(miopenConvolutionBackwardData_impl(p.handle, &one, p.y, yp, p.w, wp, p.conv,
                                                           static_cast<miopenConvBwdDataAlgorithm_t>(algo), &zero, p.x,
                                                           xp, ws, wsSize),
                        "miopenConvolutionBackwardData");
    }
    else
    {
        ok = ok
             && p.check(miopenConvolutionBackwardWeights_impl(p.handle, &one, p.y, yp, p.x, xp, p.conv,
                                                              static_cast<miopenConvBwdWeightsAlgorithm_t>(algo),
                                                              &zero, p.w, wp, ws, wsSize),
                        "miopenConvolutionBackwardWeights");
    }
    if(ok)
    {
        std::lock_guard<std::mutex> lock(gAlgoMutex);
        gAlgoCache.emplace(key, algo);
    }
    return ok;
}

int providerExecute(const miniHipdnnGraph_t* g,
                    const miniHipdnnKnobs_t* knobs,
                    const miniHipdnnVariantPack_t* pack,
                    char* err,
                    size_t errLen)
{
    const provider::Plan* plan = provider::planFor(g);
    if(plan != nullptr && pack != nullptr)
    {
        std::string error;
        if(plan->execute(*g, pack, error))
        {
            return 0;
        }
        if(err != nullptr && errLen > 0)
        {
            std::snprintf(err, errLen, "%s", error.c_str());
        }
        return 1;
    }
    Match m;
    Problem p;
    bool ok = g != nullptr && pack != nullptr && matchGraph(*g, m);
    if(!ok)
    {
        p.error = "MIOpen provider: graph not supported";
    }
    ok = ok && p.build(*g, m) && (m.fused ? executeFused(p, *g, m, pack) : executeConv(p, *g, m, provider::readKnobs(knobs), pack));
    if(!ok)
    {
        if(err != nullptr && errLen > 0)
        {
            std::snprintf(err, errLen, "%s", p.error.empty() ? "MIOpen provider: execution failed" : p.error.c_str());
        }
        return 1;
    }
    return 0;
}

const miniHipdnnEnginePlugin_v1 kPlugin = {
    MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION, "MIOPEN_ENGINE", providerSupports, providerWorkspace, providerExecute};

} // namespace

provider::PlanRegistration::PlanRegistration(const Plan& p)
{
    mini_hipdnn::addEntry(p, [&](const Plan& e) { return &e == &p; }, "a provider plan");
}

const provider::Plan* provider::planFor(const miniHipdnnGraph_t* g)
{
    return g == nullptr ? nullptr : mini_hipdnn::findEntry<Plan>([&](const Plan& p) { return p.claims(*g); });
}

extern "C" __attribute__((visibility("default"))) const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void)
{
    return &kPlugin;
}
