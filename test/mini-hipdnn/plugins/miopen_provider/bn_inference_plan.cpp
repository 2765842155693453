// The provider's batchnorm inference plan (see bn_inference_plan.hpp). The
// applicability rules are the provider's (MiopenBatchnormApplicabilityChecks
// .cpp/.hpp): 4-D or 5-D tensors of one rank, packed, NCHW / NHWC (NCDHW /
// NDHWC) with x and y in one layout, x and y of one type (FLOAT, HALF or
// BFLOAT16) and shape, scale / bias / mean / variance FLOAT of the derived
// (1, C, 1, ...) shape.
#include "bn_inference_plan.hpp"
#include "provider_types.hpp"

#include "HipdnnDataType.h"

#include <miopen/miopen_impl.h>

#include <climits>
#include <vector>

namespace bn_plan
{
namespace
{

using provider::toMiopenType;

// Packed in the channel-first (N, C, spatial...) or channel-last
// (N, spatial..., C) order; a dimension of extent 1 may have any stride.
bool packedAs(const miniHipdnnTensor_t& t, bool channelLast)
{
    std::vector<int> order;
    order.push_back(0);
    if(!channelLast)
        order.push_back(1);
    for(int d = 2; d < t.nbDims; ++d)
        order.push_back(d);
    if(channelLast)
        order.push_back(1);
    int64_t expect = 1;
    for(auto it = order.rbegin(); it != order.rend(); ++it)
    {
        if(t.dims[*it] != 1 && t.strides[*it] != expect)
            return false;
        expect *= t.dims[*it];
    }
    return true;
}

bool derivedShape(const miniHipdnnTensor_t& p, const miniHipdnnTensor_t& x)
{
    if(p.nbDims != x.nbDims)
        return false;
    for(int d = 0; d < x.nbDims; ++d)
        if(p.dims[d] != (d == 1 ? x.dims[1] : 1))
            return false;
    return p.dims[1] == 1 || p.strides[1] == 1;
}

bool fitsInt(const miniHipdnnTensor_t& t)
{
    for(int d = 0; d < t.nbDims; ++d)
        if(t.dims[d] <= 0 || t.dims[d] > INT_MAX || t.strides[d] <= 0 || t.strides[d] > INT_MAX)
            return false;
    return true;
}

struct Descriptors
{
    miopenHandle_t handle = nullptr;
    std::vector<miopenTensorDescriptor_t> t;
    std::string error;

    ~Descriptors()
    {
        for(auto* d : t)
            miopenDestroyTensorDescriptor_impl(d);
        if(handle != nullptr)
            miopenDestroy_impl(handle);
    }

    bool check(miopenStatus_t s, const char* what) { return provider::succeeded(s, what, error); }

    bool add(const miniHipdnnTensor_t& src)
    {
        miopenDataType_t dt{};
        toMiopenType(src.dataType, dt);
        std::vector<int> dims(src.dims, src.dims + src.nbDims), strides(src.strides, src.strides + src.nbDims);
        miopenTensorDescriptor_t d = nullptr;
        if(!check(miopenCreateTensorDescriptor_impl(&d), "miopenCreateTensorDescriptor"))
            return false;
        t.push_back(d);
        return check(miopenSetTensorDescriptor_impl(d, dt, src.nbDims, dims.data(), strides.data()),
                     "miopenSetTensorDescriptor");
    }
};

void* pointerFor(const miniHipdnnVariantPack_t* pack, int64_t uid)
{
    for(int64_t i = 0; i < pack->count; ++i)
        if(pack->uids[i] == uid)
            return pack->pointers[i];
    return nullptr;
}

} // namespace

bool matches(const miniHipdnnGraph_t& g, std::string& why)
{
    if(g.numOps != 1 || g.ops[0].kind != MINI_HIPDNN_OP_BN_INFERENCE)
    {
        why = "not a single batchnorm inference";
        return false;
    }
    const auto& op = g.ops[0];
    const auto& x = g.tensors[op.x];
    const auto& y = g.tensors[op.y];
    miopenDataType_t unused{};
    if(x.nbDims < 4 || x.nbDims > 5)
        why = "Batchnorm implementation supports only 4D or 5D tensors.";
    else if(x.dataType != y.dataType || !toMiopenType(x.dataType, unused))
        why = "IO tensors must share one of FLOAT, HALF, BFLOAT16";
    else if(y.nbDims != x.nbDims || !fitsInt(x) || !fitsInt(y))
        why = "All IO tensors for batchnorm must have the same shape.";
    else
    {
        for(int d = 0; d < x.nbDims && why.empty(); ++d)
            if(x.dims[d] != y.dims[d])
                why = "All IO tensors for batchnorm must have the same shape.";
    }
    if(!why.empty())
        return false;
    const bool first = packedAs(x, false) && packedAs(y, false);
    const bool last = packedAs(x, true) && packedAs(y, true);
    if(!first && !last)
    {
        why = "packed NCHW / NHWC (NCDHW / NDHWC) in one layout only";
        return false;
    }
    for(int32_t i : {op.bnScale, op.bnBias, op.bnMean, op.bnVariance})
    {
        const auto& p = g.tensors[i];
        if(p.dataType != HIPDNN_DATA_FLOAT)
        {
            why = "scale, bias, mean and variance must be FLOAT";
            return false;
        }
        if(!derivedShape(p, x) || !fitsInt(p))
        {
            why = "scale, bias, mean and variance must have the derived (1, C, 1, ...) shape, packed";
            return false;
        }
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
    const auto& op = g.ops[0];
    const int32_t order[] = {op.x, op.y, op.bnScale, op.bnBias, op.bnMean, op.bnVariance};
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
                        d.t[4], d.t[5], ptrs[2], ptrs[3], ptrs[4], ptrs[5], op.epsilon),
                    "miopenBatchNormalizationForwardInference_V2");
    if(!ok)
        error = d.error;
    return ok;
}

} // namespace bn_plan
