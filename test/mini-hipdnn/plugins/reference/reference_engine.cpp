// mini-hipdnn reference engine plugin.
//
// Runs convolution forward / backward-data / backward-filter and pointwise
// (ADD, MUL, IDENTITY, RELU_FWD with clips) graphs on the CPU, directly from
// the graph semantics: arbitrary strides (NCHW, NHWC, ...), pre/post padding,
// filter strides, dilations, groups inferred from the channel counts
// (groups = x.C / w.C), fp32/fp16/bf16 storage with fp32 arithmetic.
// Intermediate (virtual) tensors live in the caller's workspace as fp32.
// Written for this project, independently of the mini MIOpen kernels.
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "HipdnnPointwiseMode.h"
#include "mini_hipdnn_engine_plugin.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace
{

constexpr int kMaxSpatial = 3;
constexpr int64_t kAlign = 64;

// ---- storage formats --------------------------------------------------------
float halfBitsToFloat(uint16_t h)
{
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t bits;
    if(exp == 0)
    {
        if(man == 0)
        {
            bits = sign;
        }
        else
        {
            // subnormal half: value = man * 2^-24
            float v = static_cast<float>(man) * std::ldexp(1.0f, -24);
            return (h & 0x8000u) ? -v : v;
        }
    }
    else if(exp == 31)
    {
        bits = sign | 0x7F800000u | (man << 13);
    }
    else
    {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

uint16_t floatToHalfBits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, sizeof(x));
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t absx = x & 0x7FFFFFFFu;
    if(absx >= 0x7F800000u) // inf or nan
    {
        return static_cast<uint16_t>(sign | 0x7C00u | (absx > 0x7F800000u ? 0x200u : 0u));
    }
    if(absx >= 0x477FF000u) // rounds to >= 65520 -> inf
    {
        return static_cast<uint16_t>(sign | 0x7C00u);
    }
    if(absx < 0x38800000u) // below the smallest normal half: subnormal or zero
    {
        float a;
        std::memcpy(&a, &absx, sizeof(a));
        float scaled = a * 16777216.0f; // 2^24: units of the smallest subnormal
        auto m = static_cast<uint32_t>(std::nearbyint(scaled)); // ties to even
        return static_cast<uint16_t>(sign | m);
    }
    uint32_t exp = (absx >> 23) - 112u;
    uint32_t man = absx & 0x7FFFFFu;
    uint32_t half = (exp << 10) | (man >> 13);
    uint32_t rest = man & 0x1FFFu;
    if(rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    {
        ++half;
    }
    return static_cast<uint16_t>(sign | half);
}

float bf16BitsToFloat(uint16_t b)
{
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

uint16_t floatToBf16Bits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, sizeof(x));
    if((x & 0x7FFFFFFFu) > 0x7F800000u)
    {
        return static_cast<uint16_t>((x >> 16) | 0x40u); // quiet nan
    }
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7FFFu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

bool storable(int32_t dt)
{
    return dt == HIPDNN_DATA_FLOAT || dt == HIPDNN_DATA_HALF || dt == HIPDNN_DATA_BFLOAT16;
}

// ---- tensor views -------------------------------------------------------------
struct View
{
    char* base = nullptr;
    int32_t dt = HIPDNN_DATA_FLOAT;
    int nb = 0;
    int64_t dims[MINI_HIPDNN_MAX_DIMS] = {};
    int64_t strides[MINI_HIPDNN_MAX_DIMS] = {};

    float load(int64_t off) const
    {
        switch(dt)
        {
        case HIPDNN_DATA_HALF:
        {
            uint16_t b;
            std::memcpy(&b, base + off * 2, 2);
            return halfBitsToFloat(b);
        }
        case HIPDNN_DATA_BFLOAT16:
        {
            uint16_t b;
            std::memcpy(&b, base + off * 2, 2);
            return bf16BitsToFloat(b);
        }
        default:
        {
            float v;
            std::memcpy(&v, base + off * 4, 4);
            return v;
        }
        }
    }

    void store(int64_t off, float v) const
    {
        switch(dt)
        {
        case HIPDNN_DATA_HALF:
        {
            uint16_t b = floatToHalfBits(v);
            std::memcpy(base + off * 2, &b, 2);
            break;
        }
        case HIPDNN_DATA_BFLOAT16:
        {
            uint16_t b = floatToBf16Bits(v);
            std::memcpy(base + off * 2, &b, 2);
            break;
        }
        default: std::memcpy(base + off * 4, &v, 4); break;
        }
    }

    // offset of [a, b, spatial...]
    int64_t at(int64_t a, int64_t b, const int64_t* sp) const
    {
        int64_t off = a * strides[0] + b * strides[1];
        for(int i = 2; i < nb; ++i)
        {
            off += sp[i - 2] * strides[i];
        }
        return off;
    }
};

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

// Iterates a multi-index over `dims` (n entries).
bool nextIndex(int64_t* idx, const int64_t* dims, int n)
{
    for(int i = n - 1; i >= 0; --i)
    {
        if(++idx[i] < dims[i])
        {
            return true;
        }
        idx[i] = 0;
    }
    return false;
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
    case MINI_HIPDNN_OP_BN_INFERENCE:
        in = {op.x, op.bnMean, op.bnVariance, op.bnScale, op.bnBias};
        out = op.y;
        break;
    case MINI_HIPDNN_OP_BN_TRAINING: // also writes the saved statistics, which no other op reads
        in = {op.x, op.bnScale, op.bnBias};
        out = op.y;
        break;
    case MINI_HIPDNN_OP_BN_BACKWARD: // also writes dscale and dbias
        in = {op.x, op.bnDy, op.bnScale};
        if(op.bnMean >= 0)
        {
            in.push_back(op.bnMean);
            in.push_back(op.bnVariance);
        }
        out = op.bnDx;
        break;
    default:
        in = {op.in0};
        if(op.in1 >= 0)
        {
            in.push_back(op.in1);
        }
        out = op.out0;
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

// Batchnorm inference: x and y of one shape (rank 3 to 5), every statistic
// and affine tensor (1, C, 1, ...); any storable type.
bool validBnInference(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    for(int32_t t : {op.x, op.y, op.bnMean, op.bnVariance, op.bnScale, op.bnBias})
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType))
        {
            return false;
        }
    }
    const auto& x = g.tensors[op.x];
    const auto& y = g.tensors[op.y];
    if(x.nbDims < 3 || x.nbDims > 5 || y.nbDims != x.nbDims)
    {
        return false;
    }
    for(int d = 0; d < x.nbDims; ++d)
    {
        if(x.dims[d] != y.dims[d])
        {
            return false;
        }
    }
    for(int32_t t : {op.bnMean, op.bnVariance, op.bnScale, op.bnBias})
    {
        const auto& p = g.tensors[t];
        if(p.nbDims != x.nbDims)
        {
            return false;
        }
        for(int d = 0; d < x.nbDims; ++d)
        {
            if(p.dims[d] != (d == 1 ? x.dims[1] : 1))
            {
                return false;
            }
        }
    }
    return true;
}

// Batchnorm training / backward: the io tensors of x's shape (rank 3 to 5),
// the per-channel ones (1, C, 1, ...), the optional saved statistics both or
// neither; running statistics are not run by the test bed's engines.
bool validBnPass(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    const bool training = op.kind == MINI_HIPDNN_OP_BN_TRAINING;
    const std::vector<int32_t> io = training ? std::vector<int32_t>{op.x, op.y} : std::vector<int32_t>{op.x, op.bnDy, op.bnDx};
    std::vector<int32_t> params = training ? std::vector<int32_t>{op.bnScale, op.bnBias}
                                           : std::vector<int32_t>{op.bnScale, op.bnDscale, op.bnDbias};
    if(op.bnRunning != 0 || (op.bnMean < 0) != (op.bnVariance < 0))
    {
        return false;
    }
    if(op.bnMean >= 0)
    {
        params.push_back(op.bnMean);
        params.push_back(op.bnVariance);
    }
    for(int32_t t : io)
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType))
            return false;
    }
    const auto& x = g.tensors[op.x];
    if(x.nbDims < 3 || x.nbDims > 5)
        return false;
    for(int32_t t : io)
        for(int d = 0; d < x.nbDims; ++d)
            if(g.tensors[t].nbDims != x.nbDims || g.tensors[t].dims[d] != x.dims[d])
                return false;
    for(int32_t t : params)
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType) || g.tensors[t].nbDims != x.nbDims)
            return false;
        for(int d = 0; d < x.nbDims; ++d)
            if(g.tensors[t].dims[d] != (d == 1 ? x.dims[1] : 1))
                return false;
    }
    return true;
}

bool validOp(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    switch(op.kind)
    {
    case MINI_HIPDNN_OP_POINTWISE: return validPointwise(g, op);
    case MINI_HIPDNN_OP_BN_INFERENCE: return validBnInference(g, op);
    case MINI_HIPDNN_OP_BN_TRAINING:
    case MINI_HIPDNN_OP_BN_BACKWARD: return validBnPass(g, op);
    default: return validConv(g, op);
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
        default: break;
        }
        out.store(offsetOf(out, idx, false), res);
    } while(nextIndex(idx, out.dims, out.nb));
}

// y = scale * (x - mean) / sqrt(variance + epsilon) + bias, per channel, in double.
void bnInference(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.x)];
    const View& y = v[static_cast<size_t>(op.y)];
    const View* p[4] = {&v[static_cast<size_t>(op.bnMean)], &v[static_cast<size_t>(op.bnVariance)],
                        &v[static_cast<size_t>(op.bnScale)], &v[static_cast<size_t>(op.bnBias)]};
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const int64_t c = idx[1];
        const double mean = p[0]->load(c * p[0]->strides[1]);
        const double var = p[1]->load(c * p[1]->strides[1]);
        const double scale = p[2]->load(c * p[2]->strides[1]);
        const double bias = p[3]->load(c * p[3]->strides[1]);
        int64_t xo = 0, yo = 0;
        for(int d = 0; d < x.nb; ++d)
        {
            xo += idx[d] * x.strides[d];
            yo += idx[d] * y.strides[d];
        }
        const double out = scale * (x.load(xo) - mean) / std::sqrt(var + op.epsilon) + bias;
        y.store(yo, static_cast<float>(out));
    } while(nextIndex(idx, x.dims, x.nb));
}

// The element offset of `idx` in `v`.
int64_t offsetIn(const View& v, const int64_t* idx)
{
    int64_t o = 0;
    for(int d = 0; d < v.nb; ++d)
        o += idx[d] * v.strides[d];
    return o;
}

// Per-channel mean and biased variance of x, in double (two passes).
void channelMoments(const View& x, std::vector<double>& mean, std::vector<double>& var)
{
    const int64_t C = x.dims[1];
    int64_t m = 1;
    for(int d = 0; d < x.nb; ++d)
        m *= d == 1 ? 1 : x.dims[d];
    mean.assign(static_cast<size_t>(C), 0.0);
    var.assign(static_cast<size_t>(C), 0.0);
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
        mean[static_cast<size_t>(idx[1])] += x.load(offsetIn(x, idx));
    while(nextIndex(idx, x.dims, x.nb));
    for(auto& v : mean)
        v /= static_cast<double>(m);
    int64_t jdx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const double e = x.load(offsetIn(x, jdx)) - mean[static_cast<size_t>(jdx[1])];
        var[static_cast<size_t>(jdx[1])] += e * e;
    } while(nextIndex(jdx, x.dims, x.nb));
    for(auto& v : var)
        v /= static_cast<double>(m);
}

double perChannel(const View& p, int64_t c) { return p.load(c * p.strides[1]); }

// Training: batch statistics, y = scale * (x - mean) / sqrt(var + eps) + bias;
// the saved mean and inverse standard deviation when the graph has them.
void bnTraining(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.x)];
    const View& y = v[static_cast<size_t>(op.y)];
    const View& scale = v[static_cast<size_t>(op.bnScale)];
    const View& bias = v[static_cast<size_t>(op.bnBias)];
    std::vector<double> mean, var;
    channelMoments(x, mean, var);
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const int64_t c = idx[1];
        const double inv = 1.0 / std::sqrt(var[static_cast<size_t>(c)] + op.epsilon);
        const double out = perChannel(scale, c) * (x.load(offsetIn(x, idx)) - mean[static_cast<size_t>(c)]) * inv
                           + perChannel(bias, c);
        y.store(offsetIn(y, idx), static_cast<float>(out));
    } while(nextIndex(idx, x.dims, x.nb));
    if(op.bnMean < 0)
        return;
    const View& sm = v[static_cast<size_t>(op.bnMean)];
    const View& si = v[static_cast<size_t>(op.bnVariance)];
    for(int64_t c = 0; c < x.dims[1]; ++c)
    {
        sm.store(c * sm.strides[1], static_cast<float>(mean[static_cast<size_t>(c)]));
        si.store(c * si.strides[1], static_cast<float>(1.0 / std::sqrt(var[static_cast<size_t>(c)] + op.epsilon)));
    }
}

// hipDNN's backward has no epsilon: without saved statistics they are
// recomputed with hipDNN's default (BATCHNORM_DEFAULT_EPSILON).
constexpr double kBatchnormDefaultEpsilon = 1e-5;

// Backward: dbias = sum(dy), dscale = sum(dy * xhat),
// dx = scale * inv / m * (m * dy - dbias - xhat * dscale), per channel.
void bnBackward(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.x)];
    const View& dy = v[static_cast<size_t>(op.bnDy)];
    const View& dx = v[static_cast<size_t>(op.bnDx)];
    const View& scale = v[static_cast<size_t>(op.bnScale)];
    const int64_t C = x.dims[1];
    std::vector<double> mean, inv;
    if(op.bnMean >= 0)
    {
        for(int64_t c = 0; c < C; ++c)
        {
            mean.push_back(perChannel(v[static_cast<size_t>(op.bnMean)], c));
            inv.push_back(perChannel(v[static_cast<size_t>(op.bnVariance)], c));
        }
    }
    else
    {
        channelMoments(x, mean, inv);
        for(auto& s : inv)
            s = 1.0 / std::sqrt(s + kBatchnormDefaultEpsilon);
    }
    std::vector<double> sumDy(static_cast<size_t>(C), 0.0), sumDyXhat(static_cast<size_t>(C), 0.0);
    int64_t m = 1;
    for(int d = 0; d < x.nb; ++d)
        m *= d == 1 ? 1 : x.dims[d];
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const auto c = static_cast<size_t>(idx[1]);
        const double g = dy.load(offsetIn(dy, idx));
        sumDy[c] += g;
        sumDyXhat[c] += g * (x.load(offsetIn(x, idx)) - mean[c]) * inv[c];
    } while(nextIndex(idx, x.dims, x.nb));
    int64_t jdx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const auto c = static_cast<size_t>(jdx[1]);
        const double xhat = (x.load(offsetIn(x, jdx)) - mean[c]) * inv[c];
        const double g = dy.load(offsetIn(dy, jdx));
        const double k = perChannel(scale, jdx[1]) * inv[c] / static_cast<double>(m);
        dx.store(offsetIn(dx, jdx), static_cast<float>(k * (static_cast<double>(m) * g - sumDy[c] - xhat * sumDyXhat[c])));
    } while(nextIndex(jdx, x.dims, x.nb));
    const View& ds = v[static_cast<size_t>(op.bnDscale)];
    const View& db = v[static_cast<size_t>(op.bnDbias)];
    for(int64_t c = 0; c < C; ++c)
    {
        ds.store(c * ds.strides[1], static_cast<float>(sumDyXhat[static_cast<size_t>(c)]));
        db.store(c * db.strides[1], static_cast<float>(sumDy[static_cast<size_t>(c)]));
    }
}

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
        case MINI_HIPDNN_OP_BN_INFERENCE: bnInference(op, views); break;
        case MINI_HIPDNN_OP_BN_TRAINING: bnTraining(op, views); break;
        case MINI_HIPDNN_OP_BN_BACKWARD: bnBackward(op, views); break;
        default:
            pointwise(op, views[op.in0], op.in1 >= 0 ? &views[op.in1] : nullptr, views[op.out0]);
            break;
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
