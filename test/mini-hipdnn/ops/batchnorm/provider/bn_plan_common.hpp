// What the provider's batchnorm plans share (test bed): the layout, shape
// and type rules of MiopenBatchnormApplicabilityChecks.cpp, MIOpen tensor
// descriptors made from the graph's tensors, the variant pack's pointers.
#pragma once

#include "mini_hipdnn_batchnorm.h"
#include "mini_hipdnn_engine_plugin.h"
#include "provider_types.hpp"

#include "HipdnnDataType.h"

#include <miopen/miopen_impl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace bn_plan
{

using provider::toMiopenType;

// The graph's operations, one of each kind of `kinds`, in any listing order
// (hipDNN hands the provider a sorted graph; the test bed keeps the user's):
// ops[i] is the one of kinds[i]. False unless the graph has exactly these.
template <std::size_t N>
bool opsOfKinds(const miniHipdnnGraph_t& g, const std::array<int32_t, N>& kinds,
                std::array<const miniHipdnnOp_t*, N>& ops)
{
    ops.fill(nullptr);
    if(g.numOps != static_cast<int32_t>(N))
        return false;
    for(int32_t i = 0; i < g.numOps; ++i)
        for(std::size_t k = 0; k < N; ++k)
            if(g.ops[i].kind == kinds[k] && ops[k] == nullptr)
            {
                ops[k] = &g.ops[i];
                break;
            }
    return std::all_of(ops.begin(), ops.end(), [](const miniHipdnnOp_t* o) { return o != nullptr; });
}

// Packed in the channel-first (N, C, spatial...) or channel-last
// (N, spatial..., C) order; a dimension of extent 1 may have any stride.
inline bool packedAs(const miniHipdnnTensor_t& t, bool channelLast)
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

inline bool derivedShape(const miniHipdnnTensor_t& p, const miniHipdnnTensor_t& x)
{
    if(p.nbDims != x.nbDims)
        return false;
    for(int d = 0; d < x.nbDims; ++d)
        if(p.dims[d] != (d == 1 ? x.dims[1] : 1))
            return false;
    return p.dims[1] == 1 || p.strides[1] == 1;
}

inline bool fitsInt(const miniHipdnnTensor_t& t)
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

inline void* pointerFor(const miniHipdnnVariantPack_t* pack, int64_t uid)
{
    for(int64_t i = 0; i < pack->count; ++i)
        if(pack->uids[i] == uid)
            return pack->pointers[i];
    return nullptr;
}

// The io tensors (x first): 4-D or 5-D, one type of FLOAT / HALF / BFLOAT16,
// one shape, packed in one layout; `why` names the first rule broken.
inline bool ioApplicable(const miniHipdnnGraph_t& g, std::initializer_list<int32_t> io, std::string& why)
{
    const auto& x = g.tensors[*io.begin()];
    miopenDataType_t unused{};
    if(x.nbDims < 4 || x.nbDims > 5)
        why = "Batchnorm implementation supports only 4D or 5D tensors.";
    for(int32_t i : io)
    {
        const auto& t = g.tensors[i];
        if(!why.empty())
            break;
        if(t.dataType != x.dataType || !toMiopenType(t.dataType, unused))
            why = "IO tensors must share one of FLOAT, HALF, BFLOAT16";
        else if(t.nbDims != x.nbDims || !fitsInt(t))
            why = "All IO tensors for batchnorm must have the same shape.";
        for(int d = 0; d < x.nbDims && why.empty(); ++d)
            if(t.dims[d] != x.dims[d])
                why = "All IO tensors for batchnorm must have the same shape.";
    }
    if(!why.empty())
        return false;
    for(bool last : {false, true})
    {
        bool all = true;
        for(int32_t i : io)
            all = all && packedAs(g.tensors[i], last);
        if(all)
            return true;
    }
    why = "packed NCHW / NHWC (NCDHW / NDHWC) in one layout only";
    return false;
}

// The per-channel tensors: FLOAT, the derived (1, C, 1, ...) shape, packed.
inline bool paramsApplicable(const miniHipdnnGraph_t& g, const std::vector<int32_t>& params, const miniHipdnnTensor_t& x,
                             std::string& why)
{
    for(int32_t i : params)
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

} // namespace bn_plan
