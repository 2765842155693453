// mini-hipdnn reference engine plugin.
//
// Runs convolution forward / backward-data / backward-filter and pointwise
// (ADD, MUL, IDENTITY, RELU_FWD with clips, RELU_BWD) graphs on the CPU, directly from
// the graph semantics: arbitrary strides (NCHW, NHWC, ...), pre/post padding,
// filter strides, dilations, groups inferred from the channel counts
// (groups = x.C / w.C), fp32/fp16/bf16 storage with fp32 arithmetic.
// Intermediate (virtual) tensors live in the caller's workspace as fp32.
// Written for this project, independently of the mini MIOpen kernels.
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "HipdnnPointwiseMode.h"
#include "mini_hipdnn_engine_plugin.h"
#include "mini_hipdnn_registry.hpp"
#include "reference_engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace
{

using ref::nextIndex;
using ref::storable;
using ref::View;

constexpr int kMaxSpatial = 3;
constexpr int64_t kAlign = 64;

int64_t spanElements(const miniHipdnnTensor_t& t)
{
    int64_t span = 1;
    for(int i = 0; i < t.nbDims; ++i)
    {
        if(t.dims[i] <= 0)
        {
            return 0;
        }
        span += (t.dims[i] - 1) * (t.strides[i] < 0 ? -t.strides[i] : t.strides[i]);
    }
    return span;
}

int64_t virtualBytes(const miniHipdnnTensor_t& t)
{
    int64_t b = spanElements(t) * 4;
    return (b + kAlign - 1) / kAlign * kAlign;
}

// ---- validation ------------------------------------------------------------------
bool validConv(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    if(op.x < 0 || op.w < 0 || op.y < 0 || op.x >= g.numTensors || op.w >= g.numTensors || op.y >= g.numTensors)
    {
        return false;
    }
    const auto& x = g.tensors[op.x];
    const auto& w = g.tensors[op.w];
    const auto& y = g.tensors[op.y];
    int r = x.nbDims;
    if(r < 3 || r - 2 > kMaxSpatial || w.nbDims != r || y.nbDims != r || op.spatialDims != r - 2)
    {
        return false;
    }
    if(op.convMode != HIPDNN_CROSS_CORRELATION && op.convMode != HIPDNN_CONVOLUTION)
    {
        return false;
    }
    if(!storable(op.computeType))
    {
        return false;
    }
    for(const auto* t : {&x, &w, &y})
    {
        if(!t->isVirtual && !storable(t->dataType))
        {
            return false;
        }
        for(int i = 0; i < r; ++i)
        {
            if(t->dims[i] <= 0)
            {
                return false;
            }
        }
    }
    int64_t C = x.dims[1], K = w.dims[0], Cg = w.dims[1];
    if(Cg <= 0 || C % Cg != 0)
    {
        return false;
    }
    int64_t G = C / Cg;
    if(K % G != 0 || y.dims[0] != x.dims[0] || y.dims[1] != K)
    {
        return false;
    }
    for(int d = 0; d < r - 2; ++d)
    {
        if(op.stride[d] <= 0 || op.dilation[d] <= 0 || op.prePad[d] < 0 || op.postPad[d] < 0)
        {
            return false;
        }
        int64_t eff = op.dilation[d] * (w.dims[2 + d] - 1) + 1;
        int64_t span = x.dims[2 + d] + op.prePad[d] + op.postPad[d] - eff;
        if(span < 0 || span / op.stride[d] + 1 != y.dims[2 + d])
        {
            return false;
        }
    }
    return true;
}

bool broadcastable(const miniHipdnnTensor_t& in, const miniHipdnnTensor_t& out)
{
    if(in.nbDims != out.nbDims)
    {
        return false;
    }
    for(int i = 0; i < in.nbDims; ++i)
    {
        if(in.dims[i] != out.dims[i] && in.dims[i] != 1)
        {
            return false;
        }
    }
    return true;
}

bool validPointwise(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    if(op.in0 < 0 || op.out0 < 0 || op.in0 >= g.numTensors || op.out0 >= g.numTensors || op.in1 >= g.numTensors)
    {
        return false;
    }
    const auto& a = g.tensors[op.in0];
    const auto& o = g.tensors[op.out0];
    for(const auto* t : {&a, &o})
    {
        if(!t->isVirtual && !storable(t->dataType))
        {
            return false;
        }
    }
    if(!broadcastable(a, o))
    {
        return false;
    }
    switch(op.pwMode)
    {
    case HIPDNN_POINTWISE_MODE_ADD:
    case HIPDNN_POINTWISE_MODE_MUL:
    {
        if(op.in1 < 0)
        {
            return false;
        }
        const auto& b = g.tensors[op.in1];
        return (b.isVirtual || storable(b.dataType)) && broadcastable(b, o);
    }
    case HIPDNN_POINTWISE_MODE_RELU_BWD:
    {
        // out = in_0 where in_1 > 0, else 0 (in_0 the gradient, in_1 the
        // forward input: the order the MIOpen provider's fused backward graph
        // takes, docs/hipdnn-compatibility.md); the test bed runs it without
        // clips.
        if(op.in1 < 0 || op.hasLowerClip || op.hasUpperClip)
        {
            return false;
        }
        const auto& b = g.tensors[op.in1];
        return (b.isVirtual || storable(b.dataType)) && broadcastable(b, o);
    }
    case HIPDNN_POINTWISE_MODE_RELU_FWD:
    case HIPDNN_POINTWISE_MODE_IDENTITY: return op.in1 < 0;
    default: return false;
    }
}

void opIO(const miniHipdnnOp_t& op, std::vector<int32_t>& in, int32_t& out)
{
    in.clear();
    switch(op.kind)
    {
    case MINI_HIPDNN_OP_CONV_FWD:
        in = {op.x, op.w};
        out = op.y;
        break;
    case MINI_HIPDNN_OP_CONV_BWD_DATA:
        in = {op.y, op.w};
        out = op.x;
        break;
    case MINI_HIPDNN_OP_CONV_BWD_FILTER:
        in = {op.x, op.y};
        out = op.w;
        break;
    case MINI_HIPDNN_OP_POINTWISE:
        in = {op.in0};
        if(op.in1 >= 0)
        {
            in.push_back(op.in1);
        }
        out = op.out0;
        break;
    default:
        // an op folder's operation (or an unknown kind: no inputs, no output)
        out = -1;
        if(const ref::Operation* o = ref::findOperation(op.kind))
        {
            o->io(op, in, out);
        }
        break;
    }
}

// Execution order: an op runs once all its inputs are user tensors or were
// produced by an op that already ran.  Empty result: not executable.
std::vector<int> schedule(const miniHipdnnGraph_t& g)
{
    std::vector<int> producer(static_cast<size_t>(g.numTensors), -1);
    std::vector<int32_t> in;
    int32_t out = -1;
    for(int i = 0; i < g.numOps; ++i)
    {
        opIO(g.ops[i], in, out);
        if(out < 0)
        {
            continue; // writes nothing another operation reads
        }
        if(producer[static_cast<size_t>(out)] != -1)
        {
            return {}; // two producers
        }
        producer[static_cast<size_t>(out)] = i;
    }
    for(int t = 0; t < g.numTensors; ++t)
    {
        if(g.tensors[t].isVirtual && producer[static_cast<size_t>(t)] == -1)
        {
            return {}; // virtual input nobody computes
        }
    }
    std::vector<int> order;
    std::vector<bool> done(static_cast<size_t>(g.numOps), false);
    bool progress = true;
    while(progress && static_cast<int>(order.size()) < g.numOps)
    {
        progress = false;
        for(int i = 0; i < g.numOps; ++i)
        {
            if(done[static_cast<size_t>(i)])
            {
                continue;
            }
            opIO(g.ops[i], in, out);
            bool ready = true;
            for(int32_t t : in)
            {
                int p = producer[static_cast<size_t>(t)];
                ready = ready && (p == -1 || done[static_cast<size_t>(p)]);
            }
            if(ready)
            {
                done[static_cast<size_t>(i)] = true;
                order.push_back(i);
                progress = true;
            }
        }
    }
    if(static_cast<int>(order.size()) != g.numOps)
    {
        return {};
    }
    return order;
}

bool validOp(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    switch(op.kind)
    {
    case MINI_HIPDNN_OP_POINTWISE: return validPointwise(g, op);
    case MINI_HIPDNN_OP_CONV_FWD:
    case MINI_HIPDNN_OP_CONV_BWD_DATA:
    case MINI_HIPDNN_OP_CONV_BWD_FILTER: return validConv(g, op);
    default:
    {
        const ref::Operation* o = ref::findOperation(op.kind);
        return o != nullptr && o->valid(g, op);
    }
    }
}

int refSupports(const miniHipdnnGraph_t* g)
{
    if(g == nullptr || g->numOps <= 0)
    {
        return 0;
    }
    for(int i = 0; i < g->numOps; ++i)
    {
        const auto& op = g->ops[i];
        if(!validOp(*g, op))
        {
            return 0;
        }
    }
    return schedule(*g).empty() ? 0 : 1;
}

int64_t refWorkspaceOf(const miniHipdnnGraph_t* g)
{
    int64_t total = 0;
    for(int t = 0; t < g->numTensors; ++t)
    {
        if(g->tensors[t].isVirtual)
        {
            total += virtualBytes(g->tensors[t]);
        }
    }
    return total;
}

// ---- kernels ------------------------------------------------------------------------
struct ConvGeom
{
    int sp = 0;
    int64_t N = 0, C = 0, K = 0, Cg = 0, Kg = 0;
    int64_t in[kMaxSpatial] = {}, out[kMaxSpatial] = {}, flt[kMaxSpatial] = {};
};

ConvGeom geometry(const View& x, const View& w, const View& y)
{
    ConvGeom c;
    c.sp = x.nb - 2;
    c.N = x.dims[0];
    c.C = x.dims[1];
    c.K = w.dims[0];
    c.Cg = w.dims[1];
    c.Kg = c.K / (c.C / c.Cg);
    for(int d = 0; d < c.sp; ++d)
    {
        c.in[d] = x.dims[2 + d];
        c.out[d] = y.dims[2 + d];
        c.flt[d] = w.dims[2 + d];
    }
    return c;
}

// Maps output position o and filter tap r to the input position; false when
// it falls into the padding.  wr receives the stored filter tap (mirrored in
// HIPDNN_CONVOLUTION mode).
bool tap(const miniHipdnnOp_t& op, const ConvGeom& c, const int64_t* o, const int64_t* r, int64_t* i, int64_t* wr)
{
    for(int d = 0; d < c.sp; ++d)
    {
        i[d] = o[d] * op.stride[d] - op.prePad[d] + r[d] * op.dilation[d];
        if(i[d] < 0 || i[d] >= c.in[d])
        {
            return false;
        }
        wr[d] = op.convMode == HIPDNN_CONVOLUTION ? c.flt[d] - 1 - r[d] : r[d];
    }
    return true;
}

void convFwd(const miniHipdnnOp_t& op, const View& x, const View& w, const View& y)
{
    ConvGeom c = geometry(x, w, y);
    int64_t o[kMaxSpatial], r[kMaxSpatial], i[kMaxSpatial], wr[kMaxSpatial];
    for(int64_t n = 0; n < c.N; ++n)
    {
        for(int64_t k = 0; k < c.K; ++k)
        {
            int64_t g = k / c.Kg;
            std::fill(o, o + kMaxSpatial, 0);
            do
            {
                float acc = 0.0f;
                for(int64_t cc = 0; cc < c.Cg; ++cc)
                {
                    std::fill(r, r + kMaxSpatial, 0);
                    do
                    {
                        if(tap(op, c, o, r, i, wr))
                        {
                            acc += x.load(x.at(n, g * c.Cg + cc, i)) * w.load(w.at(k, cc, wr));
                        }
                    } while(nextIndex(r, c.flt, c.sp));
                }
                y.store(y.at(n, k, o), acc);
            } while(nextIndex(o, c.out, c.sp));
        }
    }
}

void convBwdData(const miniHipdnnOp_t& op, const View& dx, const View& w, const View& dy)
{
    ConvGeom c = geometry(dx, w, dy);
    // accumulate in fp32 over the dense logical shape of dx, then store
    int64_t inCount = 1;
    for(int d = 0; d < c.sp; ++d)
    {
        inCount *= c.in[d];
    }
    std::vector<float> acc(static_cast<size_t>(c.N * c.C * inCount), 0.0f);
    auto dense = [&](int64_t n, int64_t ch, const int64_t* p) {
        int64_t lin = 0;
        for(int d = 0; d < c.sp; ++d)
        {
            lin = lin * c.in[d] + p[d];
        }
        return static_cast<size_t>((n * c.C + ch) * inCount + lin);
    };
    int64_t o[kMaxSpatial], r[kMaxSpatial], i[kMaxSpatial], wr[kMaxSpatial];
    for(int64_t n = 0; n < c.N; ++n)
    {
        for(int64_t k = 0; k < c.K; ++k)
        {
            int64_t g = k / c.Kg;
            std::fill(o, o + kMaxSpatial, 0);
            do
            {
                float gy = dy.load(dy.at(n, k, o));
                for(int64_t cc = 0; cc < c.Cg; ++cc)
                {
                    std::fill(r, r + kMaxSpatial, 0);
                    do
                    {
                        if(tap(op, c, o, r, i, wr))
                        {
                            acc[dense(n, g * c.Cg + cc, i)] += gy * w.load(w.at(k, cc, wr));
                        }
                    } while(nextIndex(r, c.flt, c.sp));
                }
            } while(nextIndex(o, c.out, c.sp));
        }
    }
    for(int64_t n = 0; n < c.N; ++n)
    {
        for(int64_t ch = 0; ch < c.C; ++ch)
        {
            std::fill(i, i + kMaxSpatial, 0);
            do
            {
                dx.store(dx.at(n, ch, i), acc[dense(n, ch, i)]);
            } while(nextIndex(i, c.in, c.sp));
        }
    }
}

void convBwdFilter(const miniHipdnnOp_t& op, const View& x, const View& dw, const View& dy)
{
    ConvGeom c = geometry(x, dw, dy);
    int64_t o[kMaxSpatial], r[kMaxSpatial], i[kMaxSpatial], wr[kMaxSpatial];
    for(int64_t k = 0; k < c.K; ++k)
    {
        int64_t g = k / c.Kg;
        for(int64_t cc = 0; cc < c.Cg; ++cc)
        {
            std::fill(r, r + kMaxSpatial, 0);
            do
            {
                float acc = 0.0f;
                int64_t stored[kMaxSpatial] = {};
                for(int64_t n = 0; n < c.N; ++n)
                {
                    std::fill(o, o + kMaxSpatial, 0);
                    do
                    {
                        if(tap(op, c, o, r, i, wr))
                        {
                            acc += dy.load(dy.at(n, k, o)) * x.load(x.at(n, g * c.Cg + cc, i));
                        }
                    } while(nextIndex(o, c.out, c.sp));
                }
                for(int d = 0; d < c.sp; ++d)
                {
                    stored[d] = op.convMode == HIPDNN_CONVOLUTION ? c.flt[d] - 1 - r[d] : r[d];
                }
                dw.store(dw.at(k, cc, stored), acc);
            } while(nextIndex(r, c.flt, c.sp));
        }
    }
}

int64_t offsetOf(const View& v, const int64_t* idx, bool broadcast)
{
    int64_t off = 0;
    for(int d = 0; d < v.nb; ++d)
    {
        int64_t id = (broadcast && v.dims[d] == 1) ? 0 : idx[d];
        off += id * v.strides[d];
    }
    return off;
}

void pointwise(const miniHipdnnOp_t& op, const View& a, const View* b, const View& out)
{
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    float lower = op.hasLowerClip ? op.lowerClip : 0.0f;
    float upper = op.hasUpperClip ? op.upperClip : std::numeric_limits<float>::infinity();
    do
    {
        float va = a.load(offsetOf(a, idx, true));
        float res = va;
        switch(op.pwMode)
        {
        case HIPDNN_POINTWISE_MODE_ADD: res = va + b->load(offsetOf(*b, idx, true)); break;
        case HIPDNN_POINTWISE_MODE_MUL: res = va * b->load(offsetOf(*b, idx, true)); break;
        case HIPDNN_POINTWISE_MODE_RELU_FWD: res = std::min(std::max(va, lower), upper); break;
        case HIPDNN_POINTWISE_MODE_RELU_BWD: res = b->load(offsetOf(*b, idx, true)) > 0.0f ? va : 0.0f; break;
        default: break;
        }
        out.store(offsetOf(out, idx, false), res);
    } while(nextIndex(idx, out.dims, out.nb));
}

} // namespace

namespace ref
{
OperationRegistration::OperationRegistration(const Operation& o)
{
    mini_hipdnn::addEntry(o, [&](const Operation& e) { return e.kind == o.kind; }, "a reference engine operation kind");
}

const Operation* findOperation(int32_t kind)
{
    return mini_hipdnn::findEntry<Operation>([&](const Operation& e) { return e.kind == kind; });
}
} // namespace ref

namespace
{

// The reference engine has no knobs: it reads none of the settings, as an
// engine reads only the knobs it has by name (docs/forwarding.md "Knobs").
int64_t refWorkspace(const miniHipdnnGraph_t* g, const miniHipdnnKnobs_t*, char*, size_t)
{
    return refWorkspaceOf(g);
}

int refExecute(const miniHipdnnGraph_t* g,
               const miniHipdnnKnobs_t*,
               const miniHipdnnVariantPack_t* pack,
               char* err,
               size_t errLen)
{
    auto failWith = [&](const char* msg) {
        if(err != nullptr && errLen > 0)
        {
            std::snprintf(err, errLen, "%s", msg);
        }
        return 1;
    };
    if(refSupports(g) == 0)
    {
        return failWith("reference engine: graph not supported");
    }
    if(refWorkspaceOf(g) > pack->workspaceSize || (refWorkspaceOf(g) > 0 && pack->workspace == nullptr))
    {
        return failWith("reference engine: workspace too small");
    }
    std::vector<View> views(static_cast<size_t>(g->numTensors));
    char* ws = static_cast<char*>(pack->workspace);
    int64_t wsOff = 0;
    for(int t = 0; t < g->numTensors; ++t)
    {
        const auto& td = g->tensors[t];
        View& v = views[static_cast<size_t>(t)];
        v.nb = td.nbDims;
        for(int d = 0; d < td.nbDims; ++d)
        {
            v.dims[d] = td.dims[d];
            v.strides[d] = td.strides[d];
        }
        if(td.isVirtual)
        {
            v.base = ws + wsOff;
            v.dt = HIPDNN_DATA_FLOAT;
            wsOff += virtualBytes(td);
            continue;
        }
        v.dt = td.dataType;
        for(int64_t k = 0; k < pack->count; ++k)
        {
            if(pack->uids[k] == td.uid)
            {
                v.base = static_cast<char*>(pack->pointers[k]);
            }
        }
        if(v.base == nullptr)
        {
            return failWith("reference engine: missing data pointer");
        }
    }
    for(int i : schedule(*g))
    {
        const auto& op = g->ops[i];
        switch(op.kind)
        {
        case MINI_HIPDNN_OP_CONV_FWD: convFwd(op, views[op.x], views[op.w], views[op.y]); break;
        case MINI_HIPDNN_OP_CONV_BWD_DATA: convBwdData(op, views[op.x], views[op.w], views[op.y]); break;
        case MINI_HIPDNN_OP_CONV_BWD_FILTER: convBwdFilter(op, views[op.x], views[op.w], views[op.y]); break;
        case MINI_HIPDNN_OP_POINTWISE:
            pointwise(op, views[op.in0], op.in1 >= 0 ? &views[op.in1] : nullptr, views[op.out0]);
            break;
        default: ref::findOperation(op.kind)->run(op, views); break; // validOp found it
        }
    }
    return 0;
}

const miniHipdnnEnginePlugin_v1 kPlugin = {
    MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION,
    "MINI_REFERENCE_ENGINE",
    refSupports,
    refWorkspace,
    refExecute,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void)
{
    return &kPlugin;
}
