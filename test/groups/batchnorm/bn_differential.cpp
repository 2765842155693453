// Differential test of the batchnorm family through the public API, one
// operation per run (--op inference|training|backward, legacy and _V2 forms):
// --cases random problems from --seed, each result checked against this
// program's own double-precision reference.
// test/consumers/check_differential.py runs it disabled and enabled on each
// hipDNN engine and compares outcomes and routing.
//
// Problems: 4-D / 5-D, NCHW / NHWC (NCDHW / NDHWC) or padded rows, fp32 /
// fp16 / bf16 x and y, fp32 or x-typed per-channel tensors, epsilon a random
// double; a few cases with alpha/beta other than 1/0, per-activation mode
// (parameters (1, C, [D,] H, W), packed, one per element of an image),
// a null estimate (MIOpen then uses the batch's statistics) or a buffer off
// the 16-byte alignment.
//
// Training: y and (when both buffers are given) the saved mean and inverse
// variance; a few cases pass running statistics (checked against MIOpen's
// update). Backward: dx, dscale, dbias from the saved statistics (computed
// here) or, when a saved buffer is null, from the batch's own with epsilon,
// mostly hipDNN's default 1e-5.
//
// Output (test/consumers/test_protocol.hpp, differential_util.hpp's
// CaseReport): one `case` record per case on stdout, then a `summary`; with
// --report-errors an `error` record (forwarded_error.hpp) before the case
// record of a failed call; a `begin` marker on stderr before each case's calls.
#include <miopen/miopen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bn_case.hpp"
#include "differential_util.hpp"
#include "forwarded_error.hpp"

namespace {

using namespace differential;
using bn_case::tolerance;
using bn_case::type_name;

struct Problem
{
    std::vector<int> dims;
    bool channels_last = false, padded = false;
    miopenDataType_t io = miopenFloat, param = miopenFloat;
    bool v2 = false;
    double epsilon = 1e-5;
    float alpha = 1.0f, beta = 0.0f;
    miopenBatchNormMode_t mode = miopenBNSpatial;
    bool null_mean = false; // inference: no estimate; backward: no saved statistics (one of them null)
    int misaligned = 0;     // bytes x's pointer is off
    bool save = true;       // training: both saved-statistics buffers given
    bool running = false;   // training: running mean and variance given
    double factor = 0.1;    // training: expAvgFactor
};

enum class Op
{
    Inference,
    Training,
    Backward
};

// The direction word of the case lines ("bwd" is conv_differential's backward-data).
const char* op_dir(Op op) { return op == Op::Inference ? "inf" : op == Op::Training ? "trn" : "bnbwd"; }

Problem draw(Rng& r, Op op)
{
    Problem p;
    const int rank = r.chance(0.3) ? 5 : 4;
    p.dims = {r.range(1, 3), r.range(1, 6)};
    for(int d = 2; d < rank; ++d)
        p.dims.push_back(r.range(1, 5));
    p.channels_last = r.chance(0.5);
    p.padded = r.chance(0.03);
    p.io = r.pick(std::vector<miopenDataType_t>{miopenFloat, miopenHalf, miopenBFloat16});
    p.param = p.io != miopenFloat && r.chance(0.06) ? p.io : miopenFloat;
    p.v2 = r.chance(0.5);
    p.epsilon = std::ldexp(1.0 + r.value(), -r.range(3, 17)); // a double, rarely a float
    if(r.chance(0.02))
        p.alpha = 0.5f;
    if(r.chance(0.02))
        p.beta = 1.0f;
    if(r.chance(0.03))
        p.mode = miopenBNPerActivation;
    p.null_mean = r.chance(0.03);
    if(r.chance(0.05))
        p.misaligned = p.io == miopenFloat ? 4 : 2;
    if(op == Op::Training)
    {
        p.save = !r.chance(0.2);
        p.running = r.chance(0.1);
        p.factor = r.value() * 0.5 + 0.25;
    }
    if(op == Op::Backward)
    {
        p.null_mean = r.chance(0.4);
        if(!r.chance(0.15))
            p.epsilon = 1e-5; // hipDNN's default: forwardable without saved statistics
    }
    return p;
}

// Strides in elements: packed in the layout, or with rows padded by 3.
std::vector<int> strides_of(const Problem& p) { return bn_case::strides_of(p.dims, p.channels_last, p.padded ? 3 : 0); }

// The parameter tensors' lengths: per channel (1, C, 1, ...) or, per
// activation, (1, C, [D,] H, W); packed.
std::vector<int> param_dims(const Problem& p)
{
    std::vector<int> d(p.dims.size(), 1);
    for(size_t i = 1; i < d.size(); ++i)
        d[i] = i == 1 || p.mode == miopenBNPerActivation ? p.dims[i] : 1;
    return d;
}

std::vector<int> packed_strides(const std::vector<int>& d)
{
    std::vector<int> s(d.size(), 1);
    for(size_t i = d.size() - 1; i > 0; --i)
        s[i - 1] = s[i] * d[i];
    return s;
}

// The parameter element that x's element `idx` (logical N, C, ...) uses.
size_t param_index(const Problem& p, const std::vector<int>& idx)
{
    const std::vector<int> pd = param_dims(p), ps = packed_strides(pd);
    size_t at = 0;
    for(size_t d = 1; d < idx.size(); ++d)
        at += size_t(pd[d] == 1 ? 0 : idx[d]) * size_t(ps[d]);
    return at;
}

size_t param_count(const Problem& p)
{
    size_t n = 1;
    for(int d : param_dims(p))
        n *= size_t(d);
    return n;
}

struct Buffer
{
    std::vector<unsigned char> bytes;
    size_t off = 0;
    void* ptr() { return bytes.data() + off; }
    const void* ptr() const { return bytes.data() + off; }
};

Buffer alloc(miopenDataType_t t, size_t elems, size_t misaligned)
{
    Buffer b;
    b.bytes.assign(elems * type_size(t) + 64, 0);
    const auto base = reinterpret_cast<std::uintptr_t>(b.bytes.data());
    b.off = (16 - base % 16) % 16 + misaligned;
    return b;
}

struct Outcome
{
    miopenStatus_t status = miopenStatusSuccess;
    double maxerr = 0;
    std::string why;
};

Outcome run_case(miopenHandle_t h, const Problem& p, Rng& r, bool corrupt, int calls)
{
    const int rank = static_cast<int>(p.dims.size());
    const std::vector<int> st = strides_of(p);
    size_t span = 1;
    for(int d = 0; d < rank; ++d)
        span += size_t(p.dims[size_t(d)] - 1) * size_t(st[size_t(d)]);
    const int c = int(param_count(p)); // parameter elements: channels, or per activation C x spatial
    const std::vector<int> pd = param_dims(p), ps = packed_strides(pd);
    miopenTensorDescriptor_t xd, yd, sd;
    miopenCreateTensorDescriptor(&xd);
    miopenCreateTensorDescriptor(&yd);
    miopenCreateTensorDescriptor(&sd);
    miopenSetTensorDescriptor(xd, p.io, rank, p.dims.data(), st.data());
    miopenSetTensorDescriptor(yd, p.io, rank, p.dims.data(), st.data());
    miopenSetTensorDescriptor(sd, p.param, rank, pd.data(), ps.data());
    Buffer x = alloc(p.io, span, size_t(p.misaligned)), y = alloc(p.io, span, 0);
    Buffer prm[4] = {alloc(p.param, size_t(c), 0), alloc(p.param, size_t(c), 0), alloc(p.param, size_t(c), 0),
                     alloc(p.param, size_t(c), 0)};
    for(size_t i = 0; i < span; ++i)
    {
        store_elem(p.io, x.ptr(), i, 4.0f * r.value());
        store_elem(p.io, y.ptr(), i, 99.0f);
    }
    for(int k = 0; k < 4; ++k) // scale, bias, mean, variance (> 0)
        for(size_t i = 0; i < size_t(c); ++i)
            store_elem(p.param, prm[k].ptr(), i, k == 3 ? 0.25f + std::fabs(r.value()) : r.value());
    float alpha = p.alpha, beta = p.beta;
    void* mean = p.null_mean ? nullptr : prm[2].ptr();
    Outcome o;
    for(int call = 0; call < calls; ++call) // --calls 2: the same call again (a plan-cache hit when forwarded)
    {
        o.status = p.v2 ? miopenBatchNormalizationForwardInference_V2(h, p.mode, &alpha, &beta, xd, x.ptr(), yd, y.ptr(),
                                                                  sd, sd, sd, sd, prm[0].ptr(), prm[1].ptr(), mean,
                                                                  prm[3].ptr(), p.epsilon)
                    : miopenBatchNormalizationForwardInference(h, p.mode, &alpha, &beta, xd, x.ptr(), yd, y.ptr(), sd,
                                                               prm[0].ptr(), prm[1].ptr(), mean, prm[3].ptr(),
                                                               p.epsilon);
    }
    if(o.status == miopenStatusSuccess)
    {
        // The reference: per channel, the given estimates or (no mean) the
        // batch's own mean and biased variance, in double.
        std::vector<size_t> offsets, channel;
        std::vector<int> idx(size_t(rank), 0);
        for(bool more = true; more;)
        {
            size_t off = 0;
            for(int d = 0; d < rank; ++d)
                off += size_t(idx[size_t(d)]) * size_t(st[size_t(d)]);
            offsets.push_back(off);
            channel.push_back(param_index(p, idx));
            more = false;
            for(int d = rank - 1; d >= 0 && !more; --d)
            {
                if(++idx[size_t(d)] < p.dims[size_t(d)])
                    more = true;
                else
                    idx[size_t(d)] = 0;
            }
        }
        if(corrupt)
            store_elem(p.io, y.ptr(), offsets[0], load_elem(p.io, y.ptr(), offsets[0]) + 1.0f);
        for(int ch = 0; ch < c; ++ch)
        {
            std::vector<size_t> mine;
            for(size_t k = 0; k < offsets.size(); ++k)
                if(channel[k] == size_t(ch))
                    mine.push_back(offsets[k]);
            double m = load_elem(p.param, prm[2].ptr(), size_t(ch)), v = load_elem(p.param, prm[3].ptr(), size_t(ch));
            if(p.null_mean)
            {
                double s = 0, s2 = 0;
                for(size_t off : mine)
                    s += load_elem(p.io, x.ptr(), off);
                m = s / double(mine.size());
                for(size_t off : mine)
                    s2 += std::pow(load_elem(p.io, x.ptr(), off) - m, 2);
                v = s2 / double(mine.size());
            }
            const double sc = load_elem(p.param, prm[0].ptr(), size_t(ch)), bi = load_elem(p.param, prm[1].ptr(), size_t(ch));
            for(size_t off : mine)
            {
                const double want = sc * (load_elem(p.io, x.ptr(), off) - m) / std::sqrt(v + p.epsilon) + bi;
                const double err = std::fabs(load_elem(p.io, y.ptr(), off) - want) / (1.0 + std::fabs(want));
                o.maxerr = std::max(o.maxerr, err);
            }
        }
        if(!(o.maxerr <= tolerance(p.io)))
            o.why = "tolerance";
    }
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(yd);
    miopenDestroyTensorDescriptor(sd);
    return o;
}

// The tensors of one problem: x's strides and span, the parameter shape,
// and each parameter element's x offsets (a channel's, or per activation one
// position's across the batch), for the references.
struct Geometry
{
    int rank = 0, c = 0; // c: parameter elements
    std::vector<int> st, pd, ps;
    size_t span = 1;
    std::vector<std::vector<size_t>> channel_offsets;
};

Geometry geometry(const Problem& p)
{
    Geometry g;
    g.rank = static_cast<int>(p.dims.size());
    g.st = strides_of(p);
    for(int d = 0; d < g.rank; ++d)
        g.span += size_t(p.dims[size_t(d)] - 1) * size_t(g.st[size_t(d)]);
    g.c = int(param_count(p));
    g.pd = param_dims(p);
    g.ps = packed_strides(g.pd);
    g.channel_offsets.resize(size_t(g.c));
    std::vector<int> idx(size_t(g.rank), 0);
    for(bool more = true; more;)
    {
        size_t off = 0;
        for(int d = 0; d < g.rank; ++d)
            off += size_t(idx[size_t(d)]) * size_t(g.st[size_t(d)]);
        g.channel_offsets[param_index(p, idx)].push_back(off);
        more = false;
        for(int d = g.rank - 1; d >= 0 && !more; --d)
        {
            if(++idx[size_t(d)] < p.dims[size_t(d)])
                more = true;
            else
                idx[size_t(d)] = 0;
        }
    }
    return g;
}

// The io descriptor (x's lengths and strides) and the per-channel one.
struct Descriptors
{
    miopenTensorDescriptor_t io = nullptr, param = nullptr;
    Descriptors(const Problem& p, const Geometry& g)
    {
        miopenCreateTensorDescriptor(&io);
        miopenCreateTensorDescriptor(&param);
        miopenSetTensorDescriptor(io, p.io, g.rank, p.dims.data(), g.st.data());
        miopenSetTensorDescriptor(param, p.param, g.rank, g.pd.data(), g.ps.data());
    }
    ~Descriptors()
    {
        miopenDestroyTensorDescriptor(io);
        miopenDestroyTensorDescriptor(param);
    }
};

Buffer random_io(const Problem& p, const Geometry& g, Rng& r, size_t misaligned)
{
    Buffer b = alloc(p.io, g.span, misaligned);
    for(size_t i = 0; i < g.span; ++i)
        store_elem(p.io, b.ptr(), i, 4.0f * r.value());
    return b;
}

Buffer filled(miopenDataType_t t, size_t n, float v)
{
    Buffer b = alloc(t, n, 0);
    for(size_t i = 0; i < n; ++i)
        store_elem(t, b.ptr(), i, v);
    return b;
}

// Batch mean and biased variance of one channel, in double.
void moments(const Problem& p, const Buffer& x, const std::vector<size_t>& mine, double& mean, double& var)
{
    double s = 0, s2 = 0;
    for(size_t off : mine)
        s += load_elem(p.io, x.ptr(), off);
    mean = s / double(mine.size());
    for(size_t off : mine)
        s2 += std::pow(load_elem(p.io, x.ptr(), off) - mean, 2);
    var = s2 / double(mine.size());
}

void track(Outcome& o, double got, double want)
{
    o.maxerr = std::max(o.maxerr, std::fabs(got - want) / (1.0 + std::fabs(want)));
}

void judge(Outcome& o, const Problem& p)
{
    if(!(o.maxerr <= tolerance(p.io)))
        o.why = "tolerance";
}

Outcome run_training(miopenHandle_t h, const Problem& p, Rng& r, bool corrupt, int calls)
{
    const Geometry g = geometry(p);
    const Descriptors d(p, g);
    const size_t c = size_t(g.c);
    Buffer x = random_io(p, g, r, size_t(p.misaligned)), y = filled(p.io, g.span, 99.0f);
    Buffer scale = alloc(p.param, c, 0), bias = alloc(p.param, c, 0), rm = alloc(p.param, c, 0),
           rv = alloc(p.param, c, 0), sm = filled(p.param, c, -7.0f), sv = filled(p.param, c, -7.0f);
    std::vector<double> rm0(c), rv0(c);
    for(size_t i = 0; i < c; ++i)
    {
        store_elem(p.param, scale.ptr(), i, r.value());
        store_elem(p.param, bias.ptr(), i, r.value());
        store_elem(p.param, rm.ptr(), i, r.value());
        store_elem(p.param, rv.ptr(), i, 0.25f + std::fabs(r.value()));
        rm0[i] = load_elem(p.param, rm.ptr(), i);
        rv0[i] = load_elem(p.param, rv.ptr(), i);
    }
    float alpha = p.alpha, beta = p.beta;
    void* run_mean = p.running ? rm.ptr() : nullptr;
    void* run_var = p.running ? rv.ptr() : nullptr;
    void* save_mean = p.save ? sm.ptr() : nullptr;
    void* save_inv = p.save ? sv.ptr() : nullptr;
    Outcome o;
    for(int call = 0; call < calls; ++call)
    {
        o.status = p.v2 ? miopenBatchNormalizationForwardTraining_V2(
                              h, p.mode, &alpha, &beta, d.io, x.ptr(), d.io, y.ptr(), d.param, d.param, d.param,
                              d.param, scale.ptr(), bias.ptr(), p.factor, run_mean, run_var, p.epsilon, save_mean, save_inv)
                        : miopenBatchNormalizationForwardTraining(h, p.mode, &alpha, &beta, d.io, x.ptr(), d.io, y.ptr(),
                                                                  d.param, scale.ptr(), bias.ptr(), p.factor, run_mean,
                                                                  run_var, p.epsilon, save_mean, save_inv);
    }
    if(o.status != miopenStatusSuccess)
        return o;
    if(corrupt)
        store_elem(p.io, y.ptr(), g.channel_offsets[0][0], load_elem(p.io, y.ptr(), g.channel_offsets[0][0]) + 1.0f);
    for(size_t ch = 0; ch < c; ++ch)
    {
        const auto& mine = g.channel_offsets[ch];
        double m = 0, v = 0;
        moments(p, x, mine, m, v);
        const double inv = 1.0 / std::sqrt(v + p.epsilon);
        const double sc = load_elem(p.param, scale.ptr(), ch), bi = load_elem(p.param, bias.ptr(), ch);
        for(size_t off : mine)
            track(o, load_elem(p.io, y.ptr(), off), sc * (load_elem(p.io, x.ptr(), off) - m) * inv + bi);
        if(p.save)
        {
            track(o, load_elem(p.param, sm.ptr(), ch), m);
            track(o, load_elem(p.param, sv.ptr(), ch), inv);
        }
        if(p.running) // MIOpen's update, once per call; the variance unbiased
        {
            const double n = double(mine.size()), unbiased = n > 1 ? v * n / (n - 1) : v;
            double want_m = rm0[ch], want_v = rv0[ch];
            for(int call = 0; call < calls; ++call)
            {
                want_m = (1 - p.factor) * want_m + p.factor * m;
                want_v = (1 - p.factor) * want_v + p.factor * unbiased;
            }
            track(o, load_elem(p.param, rm.ptr(), ch), want_m);
            track(o, load_elem(p.param, rv.ptr(), ch), want_v);
        }
    }
    judge(o, p);
    return o;
}

Outcome run_backward(miopenHandle_t h, const Problem& p, Rng& r, bool corrupt, int calls)
{
    const Geometry g = geometry(p);
    const Descriptors d(p, g);
    const size_t c = size_t(g.c);
    Buffer x = random_io(p, g, r, size_t(p.misaligned)), dy = random_io(p, g, r, 0), dx = filled(p.io, g.span, 99.0f);
    Buffer scale = alloc(p.param, c, 0), ds = filled(p.param, c, 99.0f), db = filled(p.param, c, 99.0f),
           sm = alloc(p.param, c, 0), sv = alloc(p.param, c, 0);
    for(size_t ch = 0; ch < c; ++ch)
    {
        store_elem(p.param, scale.ptr(), ch, r.value());
        double m = 0, v = 0;
        moments(p, x, g.channel_offsets[ch], m, v);
        store_elem(p.param, sm.ptr(), ch, float(m)); // what a training pass saved
        store_elem(p.param, sv.ptr(), ch, float(1.0 / std::sqrt(v + p.epsilon)));
    }
    // Without saved statistics: one or both saved buffers null.
    const int which_null = p.null_mean ? r.range(0, 2) : -1;
    const void* saved_mean = which_null == 0 || which_null == 2 ? nullptr : sm.ptr();
    const void* saved_inv = which_null == 1 || which_null == 2 ? nullptr : sv.ptr();
    const float ad = p.alpha, bd = 0.0f, ap = 1.0f, bp = p.beta;
    Outcome o;
    for(int call = 0; call < calls; ++call)
    {
        o.status = p.v2 ? miopenBatchNormalizationBackward_V2(h, p.mode, &ad, &bd, &ap, &bp, d.io, x.ptr(), d.io, dy.ptr(),
                                                              d.io, dx.ptr(), d.param, d.param, d.param, d.param,
                                                              scale.ptr(), ds.ptr(), db.ptr(), p.epsilon, saved_mean,
                                                              saved_inv)
                        : miopenBatchNormalizationBackward(h, p.mode, &ad, &bd, &ap, &bp, d.io, x.ptr(), d.io, dy.ptr(),
                                                           d.io, dx.ptr(), d.param, scale.ptr(), ds.ptr(), db.ptr(),
                                                           p.epsilon, saved_mean, saved_inv);
    }
    if(o.status != miopenStatusSuccess)
        return o;
    if(corrupt)
        store_elem(p.io, dx.ptr(), g.channel_offsets[0][0], load_elem(p.io, dx.ptr(), g.channel_offsets[0][0]) + 1.0f);
    const bool use_saved = saved_mean != nullptr && saved_inv != nullptr;
    for(size_t ch = 0; ch < c; ++ch)
    {
        const auto& mine = g.channel_offsets[ch];
        double m = 0, v = 0, inv = 0;
        moments(p, x, mine, m, v);
        inv = 1.0 / std::sqrt(v + p.epsilon);
        if(use_saved)
        {
            m = load_elem(p.param, sm.ptr(), ch);
            inv = load_elem(p.param, sv.ptr(), ch);
        }
        double sum_dy = 0, sum_dy_xhat = 0;
        for(size_t off : mine)
        {
            const double gy = load_elem(p.io, dy.ptr(), off);
            sum_dy += gy;
            sum_dy_xhat += gy * (load_elem(p.io, x.ptr(), off) - m) * inv;
        }
        const double n = double(mine.size()), k = load_elem(p.param, scale.ptr(), ch) * inv / n;
        for(size_t off : mine)
        {
            const double xhat = (load_elem(p.io, x.ptr(), off) - m) * inv;
            track(o, load_elem(p.io, dx.ptr(), off), k * (n * load_elem(p.io, dy.ptr(), off) - sum_dy - xhat * sum_dy_xhat));
        }
        track(o, load_elem(p.param, ds.ptr(), ch), sum_dy_xhat);
        track(o, load_elem(p.param, db.ptr(), ch), sum_dy);
    }
    judge(o, p);
    return o;
}

std::string describe(const Problem& p)
{
    std::string s = std::string(p.v2 ? "v2 " : "legacy ") + type_name(p.io) + " ";
    const bool five = p.dims.size() == 5;
    s += p.padded ? "padded" : p.channels_last ? (five ? "NDHWC" : "NHWC") : (five ? "NCDHW" : "NCHW");
    s += " " + std::to_string(p.dims.size()) + "d dims=";
    for(size_t i = 0; i < p.dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(p.dims[i]);
    char eps[64];
    std::snprintf(eps, sizeof eps, " eps=%.17g", p.epsilon);
    s += eps;
    if(p.param != miopenFloat)
        s += std::string(" param=") + type_name(p.param);
    if(p.alpha != 1.0f || p.beta != 0.0f)
        s += " alpha/beta";
    if(p.mode != miopenBNSpatial)
        s += " per-activation";
    if(p.null_mean)
        s += " null-mean";
    if(p.misaligned)
        s += " misaligned=" + std::to_string(p.misaligned);
    return s;
}

std::string describe(const Problem& p, Op op)
{
    std::string s = describe(p);
    if(op == Op::Training)
        s += std::string(p.save ? "" : " no-save") + (p.running ? " running" : "");
    return s;
}

// The case's record (differential_util.hpp's CaseReport).
CaseReport report(long i, const Problem& p, Op op, const Outcome& o)
{
    static const char* entries[] = {"miopenBatchNormalizationForwardInference",
                                    "miopenBatchNormalizationForwardTraining", "miopenBatchNormalizationBackward"};
    const bool five = p.dims.size() == 5;
    CaseReport r;
    r.index      = i;
    r.dir        = op_dir(op);
    r.api        = p.v2 ? "v2" : "legacy";
    r.type       = type_name(p.io);
    r.layout     = p.padded ? "padded" : p.channels_last ? (five ? "NDHWC" : "NHWC") : (five ? "NCDHW" : "NCHW");
    r.rank       = std::to_string(p.dims.size()) + "d";
    r.entry      = std::string(entries[static_cast<int>(op)]) + (p.v2 ? "_V2" : "");
    r.problem    = std::string(op_dir(op)) + " " + describe(p, op);
    r.misaligned = p.misaligned != 0;
    r.types      = {type_name(p.io)};
    r.status     = o.status;
    r.step       = "compute";
    r.maxerr     = o.maxerr;
    r.tol        = tolerance(p.io);
    r.why        = words(o.why);
    return r;
}

// --report-errors: for a failed call, what the wrapper's own API and the
// error string say (forwarded_error.hpp), one `error` record.
void report_error(long i, miopenStatus_t status)
{
    protocol::Record r("error");
    r.field("case", i);
    consumer::attribution(r, status).emit();
}

} // namespace

int main(int argc, char** argv)
{
    long cases = 1000, corrupt_case = -1;
    int calls = 1;
    bool report_errors = false;
    unsigned long long seed = 1;
    Op op = Op::Inference;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        const std::string a = argv[i];
        if(a == "--op")
        {
            const std::string v = argv[i + 1];
            op = v == "training" ? Op::Training : v == "backward" ? Op::Backward : Op::Inference;
            if(v != "inference" && op == Op::Inference)
                return 2;
            continue;
        }
        const unsigned long long v = std::strtoull(argv[i + 1], nullptr, 10);
        if(a == "--cases")
            cases = long(v);
        else if(a == "--seed")
            seed = v;
        else if(a == "--corrupt-case")
            corrupt_case = long(v);
        else if(a == "--calls")
            calls = int(v);
        else if(a == "--report-errors")
            report_errors = v != 0;
        else
        {
            std::fprintf(stderr, "usage: %s [--op inference|training|backward] [--cases N] [--seed S] [--corrupt-case I] [--calls K] [--report-errors 0|1]\n", argv[0]);
            return 2;
        }
    }
    miopenHandle_t h = nullptr;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    Tally tally;
    for(long i = 0; i < cases; ++i)
    {
        Rng r{mix64(seed * 0x100000001B3ull + std::uint64_t(i))};
        const Problem p = draw(r, op);
        protocol::begin(i);
        const Outcome o = op == Op::Inference ? run_case(h, p, r, i == corrupt_case, calls)
                          : op == Op::Training ? run_training(h, p, r, i == corrupt_case, calls)
                                               : run_backward(h, p, r, i == corrupt_case, calls);
        if(report_errors && o.status != miopenStatusSuccess)
            report_error(i, o.status);
        tally.report(report(i, p, op, o));
    }
    protocol::end();
    miopenDestroy(h);
    return tally.finish();
}
