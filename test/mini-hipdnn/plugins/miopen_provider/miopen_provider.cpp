// mini-hipdnn MIOpen provider engine plugin (test bed counterpart of hipDNN's
// dnn-providers/miopen-provider).
//
// RFC 0001 §4.5: the provider calls MIOpen's *private* API directly (the
// `_impl` entry points of libMIOpen_private.so declared in
// <miopen/miopen_impl.h>), never the public libMIOpen.so, so a forwarding
// wrapper in libMIOpen.so can never route a call back into hipDNN.
//
// Supports single convolution operations (forward, backward data, backward
// filter) with 2 or 3 spatial dims, symmetric padding (MIOpen has one pad per
// dim), cross-correlation mode, groups, any strides, fp32/fp16/bf16 (all three
// tensors the same type).  Everything else is left to other engines.
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "mini_hipdnn_engine_plugin.h"

#include <miopen/miopen_impl.h>

#include <climits>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace
{

bool toMiopenType(int32_t dt, miopenDataType_t& out)
{
    switch(dt)
    {
    case HIPDNN_DATA_FLOAT: out = miopenFloat; return true;
    case HIPDNN_DATA_HALF: out = miopenHalf; return true;
    case HIPDNN_DATA_BFLOAT16: out = miopenBFloat16; return true;
    default: return false;
    }
}

bool fitsInt(int64_t v) { return v >= 0 && v <= INT_MAX; }

bool supportedShape(const miniHipdnnGraph_t& g)
{
    if(g.numOps != 1)
    {
        return false;
    }
    const auto& op = g.ops[0];
    if(op.kind != MINI_HIPDNN_OP_CONV_FWD && op.kind != MINI_HIPDNN_OP_CONV_BWD_DATA
       && op.kind != MINI_HIPDNN_OP_CONV_BWD_FILTER)
    {
        return false;
    }
    if(op.convMode != HIPDNN_CROSS_CORRELATION || op.spatialDims < 2 || op.spatialDims > 3)
    {
        return false;
    }
    const auto& x = g.tensors[op.x];
    const auto& w = g.tensors[op.w];
    const auto& y = g.tensors[op.y];
    miopenDataType_t t;
    if(x.isVirtual || w.isVirtual || y.isVirtual || !toMiopenType(x.dataType, t) || w.dataType != x.dataType
       || y.dataType != x.dataType)
    {
        return false;
    }
    int r = op.spatialDims + 2;
    if(x.nbDims != r || w.nbDims != r || y.nbDims != r)
    {
        return false;
    }
    for(const auto* tt : {&x, &w, &y})
    {
        for(int i = 0; i < r; ++i)
        {
            if(!fitsInt(tt->dims[i]) || tt->dims[i] == 0 || !fitsInt(tt->strides[i]))
            {
                return false;
            }
        }
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

// MIOpen handle and descriptors for one graph, destroyed on scope exit.
struct Problem
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t x = nullptr, w = nullptr, y = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    std::string error;

    ~Problem()
    {
        for(auto* t : {x, w, y})
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

    bool check(miopenStatus_t s, const char* what)
    {
        if(s == miopenStatusSuccess)
        {
            return true;
        }
        error = std::string("MIOpen provider: ") + what + " failed: " + miopenGetErrorString_impl(s);
        return false;
    }

    bool tensor(miopenTensorDescriptor_t& d, const miniHipdnnTensor_t& t)
    {
        miopenDataType_t dt;
        toMiopenType(t.dataType, dt);
        std::vector<int> dims(t.dims, t.dims + t.nbDims), strides(t.strides, t.strides + t.nbDims);
        return check(miopenCreateTensorDescriptor_impl(&d), "miopenCreateTensorDescriptor")
               && check(miopenSetTensorDescriptor_impl(d, dt, t.nbDims, dims.data(), strides.data()),
                        "miopenSetTensorDescriptor");
    }

    bool build(const miniHipdnnGraph_t& g)
    {
        const auto& op = g.ops[0];
        std::vector<int> pad, stride, dil;
        for(int d = 0; d < op.spatialDims; ++d)
        {
            pad.push_back(static_cast<int>(op.prePad[d]));
            stride.push_back(static_cast<int>(op.stride[d]));
            dil.push_back(static_cast<int>(op.dilation[d]));
        }
        const auto& xt = g.tensors[op.x];
        const auto& wt = g.tensors[op.w];
        int groups = static_cast<int>(xt.dims[1] / wt.dims[1]);
        return check(miopenCreate_impl(&handle), "miopenCreate") && tensor(x, xt) && tensor(w, wt)
               && tensor(y, g.tensors[op.y])
               && check(miopenCreateConvolutionDescriptor_impl(&conv), "miopenCreateConvolutionDescriptor")
               && check(miopenInitConvolutionNdDescriptor_impl(
                            conv, op.spatialDims, pad.data(), stride.data(), dil.data(), miopenConvolution),
                        "miopenInitConvolutionNdDescriptor")
               && check(miopenSetConvolutionGroupCount_impl(conv, groups), "miopenSetConvolutionGroupCount");
    }

    bool workspace(int32_t kind, size_t& bytes)
    {
        switch(kind)
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

int providerSupports(const miniHipdnnGraph_t* g)
{
    if(g == nullptr || !supportedShape(*g))
    {
        return 0;
    }
    Problem p; // MIOpen itself has the last word on the descriptors
    size_t ws = 0;
    return p.build(*g) && p.workspace(g->ops[0].kind, ws) ? 1 : 0;
}

int64_t providerWorkspace(const miniHipdnnGraph_t* g)
{
    Problem p;
    size_t ws = 0;
    if(!p.build(*g) || !p.workspace(g->ops[0].kind, ws))
    {
        return -1;
    }
    return static_cast<int64_t>(ws);
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

int providerExecute(const miniHipdnnGraph_t* g, const miniHipdnnVariantPack_t* pack, char* err, size_t errLen)
{
    Problem p;
    const auto& op = g->ops[0];
    void* xp = pointerFor(pack, g->tensors[op.x].uid);
    void* wp = pointerFor(pack, g->tensors[op.w].uid);
    void* yp = pointerFor(pack, g->tensors[op.y].uid);
    auto* ws = pack->workspace;
    auto wsSize = static_cast<size_t>(pack->workspaceSize);
    const float one = 1.0f, zero = 0.0f;
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    bool ok = xp != nullptr && wp != nullptr && yp != nullptr && p.build(*g);
    if(ok && op.kind == MINI_HIPDNN_OP_CONV_FWD)
    {
        ok = p.check(miopenFindConvolutionForwardAlgorithm_impl(p.handle, p.x, xp, p.w, wp, p.conv, p.y, yp, 1, &found,
                                                                &perf, ws, wsSize, false),
                     "miopenFindConvolutionForwardAlgorithm")
             && p.check(miopenConvolutionForward_impl(p.handle, &one, p.x, xp, p.w, wp, p.conv, perf.fwd_algo, &zero,
                                                      p.y, yp, ws, wsSize),
                        "miopenConvolutionForward");
    }
    else if(ok && op.kind == MINI_HIPDNN_OP_CONV_BWD_DATA)
    {
        ok = p.check(miopenFindConvolutionBackwardDataAlgorithm_impl(p.handle, p.y, yp, p.w, wp, p.conv, p.x, xp, 1,
                                                                     &found, &perf, ws, wsSize, false),
                     "miopenFindConvolutionBackwardDataAlgorithm")
             && p.check(miopenConvolutionBackwardData_impl(p.handle, &one, p.y, yp, p.w, wp, p.conv,
                                                           perf.bwd_data_algo, &zero, p.x, xp, ws, wsSize),
                        "miopenConvolutionBackwardData");
    }
    else if(ok)
    {
        ok = p.check(miopenFindConvolutionBackwardWeightsAlgorithm_impl(p.handle, p.y, yp, p.x, xp, p.conv, p.w, wp, 1,
                                                                        &found, &perf, ws, wsSize, false),
                     "miopenFindConvolutionBackwardWeightsAlgorithm")
             && p.check(miopenConvolutionBackwardWeights_impl(p.handle, &one, p.y, yp, p.x, xp, p.conv,
                                                              perf.bwd_weights_algo, &zero, p.w, wp, ws, wsSize),
                        "miopenConvolutionBackwardWeights");
    }
    if(!ok)
    {
        if(err != nullptr && errLen > 0)
        {
            std::snprintf(err, errLen, "%s", p.error.empty() ? "MIOpen provider: missing data pointer" : p.error.c_str());
        }
        return 1;
    }
    return 0;
}

const miniHipdnnEnginePlugin_v1 kPlugin = {
    MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION, "MIOPEN_ENGINE", 3001, providerSupports, providerWorkspace, providerExecute};

} // namespace

extern "C" __attribute__((visibility("default"))) const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void)
{
    return &kPlugin;
}
