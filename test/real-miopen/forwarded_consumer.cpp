// forwarded_consumer.cpp -- the convolution family through MIOpen's public
// API, each result checked against a reference computed here.
//
// scripts/real-miopen-check.sh runs it on the real adopted pair with
// forwarding enabled and the mini hipDNN backend standing in for
// libhipdnn_backend.so (its reference engine computes on host memory, so a
// HIPNOGPU build needs no device); the test suite runs it on the test bed,
// disabled and enabled. The program knows nothing of the wrapper.
//
// Cases: forward, backward-data, backward-weights and conv+bias+ReLU x fp32,
// fp16 x NCHW, NHWC x groups 1, 2 x 2-D, 3-D. Each direction runs two call
// sequences, MIOpen's documented ones:
//   legacy     GetWorkSpaceSize -> Find -> the legacy call with Find's algorithm
//   immediate  GetSolutionCount -> GetSolution -> GetSolutionWorkspaceSize ->
//              CompileSolution -> Immediate with the first solution
// and conv+bias+ReLU runs GetWorkSpaceSize -> Find -> ConvolutionBiasActivationForward.
// Every call of a sequence is made even after one failed (with the
// algorithm/solution MIOpen would have been given), so the calls, and
// MIOpen's MIOPEN_ENABLE_LOGGING_CMD lines, are the same whatever happens.
//
// One `case` record per case on stdout (test/consumers/test_protocol.hpp):
// its number, label `<dir> <type> <layout> g<groups> <n>-D <sequence>`, the
// first failing status (or 0) and call, maxerr and the tolerance, result
// ok|mismatch|failed|no-solution (`no-solution`: MIOpen lists no solution for
// the problem, nothing to run). Before each case a `begin` marker goes to
// stderr, so a checker can split the routing trace and MIOpen's log per case.
//
//   forwarded_consumer [--only I] [--corrupt I] [--batchnorm]
// --corrupt I changes one element of case I's result before the comparison
// (the negative control: it must be reported as a mismatch). --batchnorm
// adds batchnorm cases after the convolution ones (for a build whose
// forwarding set has batchnorm): inference, training (saved statistics, no
// running ones) and backward (with the saved statistics) x fp32 / fp16 x
// (fp32 per-channel tensors) x NCHW, NHWC x 2-D, 3-D x the legacy and _V2
// entry points, labelled `bninf|bntrn|bnbwd <type> <layout> g1 <n>-D
// <legacy|v2>`; training's saved mean and inverse variance and backward's
// dscale and dbias are checked too.
// Exit status 1 when any case mismatched or an output was written out of
// bounds.
#include "../consumers/consumer_util.hpp"

#include <miopen/miopen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace {

enum class Dir
{
    Fwd,
    Bwd,
    Wrw,
    Cba
};
const char* dir_name(Dir d)
{
    switch(d)
    {
    case Dir::Fwd: return "fwd";
    case Dir::Bwd: return "bwd";
    case Dir::Wrw: return "wrw";
    case Dir::Cba: return "cba";
    }
    return "?";
}

struct Case
{
    Dir dir;
    miopenDataType_t type;
    bool nhwc;
    int groups;
    int spatial; // 2 or 3
    bool immediate;
};

std::vector<Case> all_cases()
{
    std::vector<Case> v;
    for(Dir d : {Dir::Fwd, Dir::Bwd, Dir::Wrw, Dir::Cba})
        for(miopenDataType_t t : {miopenFloat, miopenHalf})
            for(bool nhwc : {false, true})
                for(int g : {1, 2})
                    for(int sp : {2, 3})
                        for(bool imm : {false, true})
                            if(!(d == Dir::Cba && imm))
                                v.push_back({d, t, nhwc, g, sp, imm});
    return v;
}

// A tensor's logical shape (N, C, spatial...) and its element strides.
struct Shape
{
    std::vector<int> dims, strides;
    size_t elements() const
    {
        size_t n = 1;
        for(int d : dims)
            n *= size_t(d);
        return n;
    }
    // Element offset of a logical index.
    size_t offset(const std::vector<int>& idx) const
    {
        size_t o = 0;
        for(size_t i = 0; i < idx.size(); ++i)
            o += size_t(idx[i]) * size_t(strides[i]);
        return o;
    }
};

Shape shape(std::vector<int> dims, bool channels_last)
{
    Shape s{dims, std::vector<int>(dims.size())};
    std::vector<size_t> order; // innermost first
    if(channels_last)
    {
        order.push_back(1);
        for(size_t i = dims.size() - 1; i >= 2; --i)
            order.push_back(i);
        order.push_back(0);
    }
    else
        for(size_t i = dims.size(); i-- > 0;)
            order.push_back(i);
    int stride = 1;
    for(size_t i : order)
    {
        s.strides[i] = stride;
        stride *= dims[i];
    }
    return s;
}

// A host tensor stored as fp32 or fp16, with its value as the library sees it.
struct Tensor
{
    miopenDataType_t type;
    Shape s;
    std::vector<unsigned char> bytes; // storage, plus a canary tail
    miopenTensorDescriptor_t desc = nullptr;
    static constexpr size_t tail = 64;

    Tensor(miopenDataType_t t, Shape shape_) : type(t), s(std::move(shape_))
    {
        bytes.assign(storage() + tail, 0xC3);
        miopenCreateTensorDescriptor(&desc);
        miopenSetTensorDescriptor(desc, t, int(s.dims.size()), s.dims.data(), s.strides.data());
    }
    ~Tensor() { miopenDestroyTensorDescriptor(desc); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;

    size_t width() const { return type == miopenHalf ? 2 : 4; }
    size_t storage() const { return s.elements() * width(); }
    void* data() { return bytes.data(); }
    double at(size_t off) const
    {
        if(type == miopenHalf)
        {
            _Float16 h;
            std::memcpy(&h, bytes.data() + off * 2, 2);
            return double(h);
        }
        float f;
        std::memcpy(&f, bytes.data() + off * 4, 4);
        return double(f);
    }
    void set(size_t off, double v)
    {
        if(type == miopenHalf)
        {
            const _Float16 h = _Float16(float(v));
            std::memcpy(bytes.data() + off * 2, &h, 2);
        }
        else
        {
            const float f = float(v);
            std::memcpy(bytes.data() + off * 4, &f, 4);
        }
    }
    // Values k/8 for k in -8..8: exact in fp16 and fp32.
    void fill(std::uint32_t seed)
    {
        for(size_t i = 0; i < s.elements(); ++i)
            set(i, double(consumer::next_eighth(seed)));
    }
    bool tail_intact() const
    {
        return std::all_of(bytes.begin() + std::ptrdiff_t(storage()), bytes.end(),
                           [](unsigned char b) { return b == 0xC3; });
    }
};

// Calls a function for every logical index of `dims`.
template <class F>
void for_each_index(const std::vector<int>& dims, F f)
{
    std::vector<int> idx(dims.size(), 0);
    size_t n = 1;
    for(int d : dims)
        n *= size_t(d);
    for(size_t k = 0; k < n; ++k)
    {
        f(idx);
        for(size_t i = dims.size(); i-- > 0;)
        {
            if(++idx[i] < dims[i])
                break;
            idx[i] = 0;
        }
    }
}

// The problem: N=2, C=K=4, 2-D 6x5 with a 3x3 filter or 3-D 3x4x4 with
// 2x3x3, padding 1, stride 1, dilation 1 (output = input size but for the
// 3-D depth: 3 + 2 - 2 + 1 = 4).
struct Problem
{
    Case c;
    std::vector<int> in_sp, fil_sp, out_sp, pads;
    int n = 2, ch = 4, k = 4;

    explicit Problem(Case c_) : c(c_)
    {
        in_sp  = c.spatial == 2 ? std::vector<int>{6, 5} : std::vector<int>{3, 4, 4};
        fil_sp = c.spatial == 2 ? std::vector<int>{3, 3} : std::vector<int>{2, 3, 3};
        pads.assign(size_t(c.spatial), 1);
        for(size_t i = 0; i < in_sp.size(); ++i)
            out_sp.push_back(in_sp[i] + 2 * pads[i] - fil_sp[i] + 1);
    }
    std::vector<int> with(int a, int b, const std::vector<int>& sp) const
    {
        std::vector<int> v{a, b};
        v.insert(v.end(), sp.begin(), sp.end());
        return v;
    }
    std::vector<int> x_dims() const { return with(n, ch, in_sp); }
    std::vector<int> w_dims() const { return with(k, ch / c.groups, fil_sp); }
    std::vector<int> y_dims() const { return with(n, k, out_sp); }
};

// y[n,k,o] = sum_{c in k's group, r} x[n,c,o-p+r] * w[k,c',r] in double;
// `mag` collects sum |x*w| for the tolerance. The two adjoints accumulate
// the same products into x or w.
void reference(const Problem& p, const Tensor& x, const Tensor& w, const Tensor& y, Dir d, std::vector<double>& out,
               std::vector<double>& mag)
{
    const Tensor& target = d == Dir::Bwd ? x : d == Dir::Wrw ? w : y;
    out.assign(target.s.elements(), 0.0); // indexed by the target's storage offset
    mag.assign(out.size(), 0.0);
    const int cpg = p.ch / p.c.groups, kpg = p.k / p.c.groups;
    const std::vector<int> yd = p.y_dims(), wd = p.w_dims();
    for_each_index(yd, [&](const std::vector<int>& yi) {
        const int nn = yi[0], kk = yi[1], g = kk / kpg;
        for_each_index(wd, [&](const std::vector<int>& wi) {
            if(wi[0] != kk)
                return;
            std::vector<int> xi{nn, g * cpg + wi[1]};
            for(size_t s = 0; s < p.in_sp.size(); ++s)
            {
                const int pos = yi[2 + s] - p.pads[s] + wi[2 + s];
                if(pos < 0 || pos >= p.in_sp[s])
                    return;
                xi.push_back(pos);
            }
            const double xv = x.at(x.s.offset(xi)), wv = w.at(w.s.offset(wi)), yv = y.at(y.s.offset(yi));
            size_t o;
            double prod;
            switch(d)
            {
            case Dir::Bwd: o = x.s.offset(xi), prod = yv * wv; break;
            case Dir::Wrw: o = w.s.offset(wi), prod = yv * xv; break;
            default: o = y.s.offset(yi), prod = xv * wv; break;
            }
            out[o] += prod;
            mag[o] += std::fabs(prod);
        });
    });
}

const char* type_name(miopenDataType_t t) { return t == miopenHalf ? "fp16" : "fp32"; }

// A sequence's first failure.
struct Run
{
    miopenStatus_t status = miopenStatusSuccess;
    std::string step      = "-";
    void call(const char* what, miopenStatus_t s)
    {
        if(s != miopenStatusSuccess && status == miopenStatusSuccess)
            status = s, step = what;
    }
};

// The case's `case` record (test/consumers/test_protocol.hpp); its label
// "<dir> <type> <layout> g<groups> <n>-D <sequence>" names it in the report.
void report(size_t i, const char* dir, miopenDataType_t type, bool nhwc, int groups, int spatial,
            const char* sequence, const Run& r, double maxerr, double tol, const char* result)
{
    const std::string label = std::string(dir) + " " + type_name(type) + " " + (nhwc ? "NHWC" : "NCHW") + " g" +
                              std::to_string(groups) + " " + std::to_string(spatial) + "-D " + sequence;
    protocol::Record("case")
        .field("case", i)
        .field("label", label)
        .field("status", static_cast<int>(r.status))
        .field("step", r.step)
        .field("maxerr", maxerr)
        .field("tol", tol)
        .field("result", result)
        .emit();
}

struct Buffer
{
    std::vector<unsigned char> b;
    explicit Buffer(size_t n) : b(n + 1) {}
    void* data() { return b.size() > 1 ? b.data() : nullptr; }
    size_t size() const { return b.size() - 1; }
};

// GetWorkSpaceSize -> Find -> the legacy call (conv+bias+ReLU: the fused call).
void legacy(miopenHandle_t h, const Problem& p, Tensor& x, Tensor& w, Tensor& y, miopenConvolutionDescriptor_t cd,
            Run& r, miopenActivationDescriptor_t relu, Tensor* bias)
{
    const Dir d = p.c.dir;
    size_t need = 0;
    miopenStatus_t s = miopenStatusSuccess;
    switch(d)
    {
    case Dir::Bwd: s = miopenConvolutionBackwardDataGetWorkSpaceSize(h, y.desc, w.desc, cd, x.desc, &need); break;
    case Dir::Wrw: s = miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, y.desc, x.desc, cd, w.desc, &need); break;
    default: s = miopenConvolutionForwardGetWorkSpaceSize(h, w.desc, x.desc, cd, y.desc, &need); break;
    }
    r.call("GetWorkSpaceSize", s);
    Buffer ws(need);
    miopenConvAlgoPerf_t perf[4];
    std::memset(perf, 0, sizeof perf);
    int found = 0;
    switch(d)
    {
    case Dir::Bwd:
        s = miopenFindConvolutionBackwardDataAlgorithm(h, y.desc, y.data(), w.desc, w.data(), cd, x.desc, x.data(), 4,
                                                       &found, perf, ws.data(), ws.size(), false);
        break;
    case Dir::Wrw:
        s = miopenFindConvolutionBackwardWeightsAlgorithm(h, y.desc, y.data(), x.desc, x.data(), cd, w.desc,
                                                          w.data(), 4, &found, perf, ws.data(), ws.size(), false);
        break;
    default:
        s = miopenFindConvolutionForwardAlgorithm(h, x.desc, x.data(), w.desc, w.data(), cd, y.desc, y.data(), 4,
                                                  &found, perf, ws.data(), ws.size(), false);
        break;
    }
    r.call("Find", s);
    // The three algorithm enums share their values: Direct when Find gave nothing.
    const int algo = (s == miopenStatusSuccess && found > 0) ? int(perf[0].fwd_algo) : 1;
    const float one = 1.0f, zero = 0.0f;
    switch(d)
    {
    case Dir::Fwd:
        s = miopenConvolutionForward(h, &one, x.desc, x.data(), w.desc, w.data(), cd, miopenConvFwdAlgorithm_t(algo),
                                     &zero, y.desc, y.data(), ws.data(), ws.size());
        break;
    case Dir::Bwd:
        s = miopenConvolutionBackwardData(h, &one, y.desc, y.data(), w.desc, w.data(), cd,
                                          miopenConvBwdDataAlgorithm_t(algo), &zero, x.desc, x.data(), ws.data(),
                                          ws.size());
        break;
    case Dir::Wrw:
        s = miopenConvolutionBackwardWeights(h, &one, y.desc, y.data(), x.desc, x.data(), cd,
                                             miopenConvBwdWeightsAlgorithm_t(algo), &zero, w.desc, w.data(),
                                             ws.data(), ws.size());
        break;
    case Dir::Cba:
        s = miopenConvolutionBiasActivationForward(h, &one, x.desc, x.data(), w.desc, w.data(), cd,
                                                   miopenConvFwdAlgorithm_t(algo), ws.data(), ws.size(), &one,
                                                   y.desc, nullptr, bias->desc, bias->data(), relu, y.desc, y.data());
        break;
    }
    r.call(d == Dir::Cba ? "ConvolutionBiasActivationForward" : "legacy call", s);
}

// GetSolutionCount -> GetSolution -> GetSolutionWorkspaceSize -> CompileSolution -> Immediate.
// Returns false when MIOpen lists no solution.
bool immediate(miopenHandle_t h, const Problem& p, Tensor& x, Tensor& w, Tensor& y, miopenConvolutionDescriptor_t cd,
               Run& r)
{
    const Dir d = p.c.dir;
    // (a, b, c) of the queries: fwd (w, x, y), bwd (dy, w, dx), wrw (dy, x, dw)
    Tensor *a = &w, *b = &x, *c = &y;
    if(d == Dir::Bwd)
        a = &y, b = &w, c = &x;
    else if(d == Dir::Wrw)
        a = &y, b = &x, c = &w;
    size_t count = 0, got = 0, need = 0;
    miopenStatus_t s = d == Dir::Fwd   ? miopenConvolutionForwardGetSolutionCount(h, a->desc, b->desc, cd, c->desc, &count)
                       : d == Dir::Bwd ? miopenConvolutionBackwardDataGetSolutionCount(h, a->desc, b->desc, cd, c->desc, &count)
                                       : miopenConvolutionBackwardWeightsGetSolutionCount(h, a->desc, b->desc, cd, c->desc, &count);
    r.call("GetSolutionCount", s);
    if(s != miopenStatusSuccess || count == 0)
        return false;
    std::vector<miopenConvSolution_t> sols(count);
    s = d == Dir::Fwd   ? miopenConvolutionForwardGetSolution(h, a->desc, b->desc, cd, c->desc, count, &got, sols.data())
        : d == Dir::Bwd ? miopenConvolutionBackwardDataGetSolution(h, a->desc, b->desc, cd, c->desc, count, &got, sols.data())
                        : miopenConvolutionBackwardWeightsGetSolution(h, a->desc, b->desc, cd, c->desc, count, &got, sols.data());
    r.call("GetSolution", s);
    if(s != miopenStatusSuccess || got == 0)
        return false;
    const uint64_t id = sols[0].solution_id;
    s = d == Dir::Fwd   ? miopenConvolutionForwardGetSolutionWorkspaceSize(h, a->desc, b->desc, cd, c->desc, id, &need)
        : d == Dir::Bwd ? miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, a->desc, b->desc, cd, c->desc, id, &need)
                        : miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, a->desc, b->desc, cd, c->desc, id, &need);
    r.call("GetSolutionWorkspaceSize", s);
    s = d == Dir::Fwd   ? miopenConvolutionForwardCompileSolution(h, a->desc, b->desc, cd, c->desc, id)
        : d == Dir::Bwd ? miopenConvolutionBackwardDataCompileSolution(h, a->desc, b->desc, cd, c->desc, id)
                        : miopenConvolutionBackwardWeightsCompileSolution(h, a->desc, b->desc, cd, c->desc, id);
    r.call("CompileSolution", s);
    Buffer ws(need);
    switch(d)
    {
    case Dir::Fwd:
        s = miopenConvolutionForwardImmediate(h, w.desc, w.data(), x.desc, x.data(), cd, y.desc, y.data(), ws.data(),
                                              ws.size(), id);
        break;
    case Dir::Bwd:
        s = miopenConvolutionBackwardDataImmediate(h, y.desc, y.data(), w.desc, w.data(), cd, x.desc, x.data(),
                                                   ws.data(), ws.size(), id);
        break;
    default:
        s = miopenConvolutionBackwardWeightsImmediate(h, y.desc, y.data(), x.desc, x.data(), cd, w.desc, w.data(),
                                                      ws.data(), ws.size(), id);
        break;
    }
    r.call("Immediate", s);
    return true;
}

// Runs case `i`; returns false on a mismatch.
bool run_case(miopenHandle_t h, size_t i, const Case& c, bool corrupt)
{
    protocol::begin(i);
    const Problem p(c);
    Tensor x(c.type, shape(p.x_dims(), c.nhwc)), w(c.type, shape(p.w_dims(), c.nhwc)),
        y(c.type, shape(p.y_dims(), c.nhwc));
    std::vector<int> bias_dims(size_t(c.spatial) + 2, 1);
    bias_dims[1] = p.k;
    Tensor bias(c.type, shape(bias_dims, false));
    x.fill(1 + std::uint32_t(i));
    w.fill(2 + std::uint32_t(i));
    y.fill(3 + std::uint32_t(i));
    bias.fill(4 + std::uint32_t(i));
    miopenConvolutionDescriptor_t cd;
    miopenCreateConvolutionDescriptor(&cd);
    const std::vector<int> ones(size_t(c.spatial), 1);
    miopenInitConvolutionNdDescriptor(cd, c.spatial, p.pads.data(), ones.data(), ones.data(), miopenConvolution);
    miopenSetConvolutionGroupCount(cd, c.groups);
    miopenActivationDescriptor_t relu;
    miopenCreateActivationDescriptor(&relu);
    miopenSetActivationDescriptor(relu, miopenActivationRELU, 0.0, 0.0, 0.0);

    // The inputs as the library gets them, for the reference.
    std::vector<double> ref, mag;
    reference(p, x, w, y, c.dir, ref, mag);
    if(c.dir == Dir::Cba)
        for(size_t o = 0; o < ref.size(); ++o)
        {
            std::vector<int> idx(y.s.dims.size());
            size_t rest = o; // ref is indexed by y's storage offset; find its channel
            for(size_t k = 0; k < idx.size(); ++k)
                idx[k] = int(rest / size_t(y.s.strides[k]) % size_t(y.s.dims[k]));
            const double b = bias.at(size_t(idx[1]));
            ref[o] = std::max(0.0, ref[o] + b);
            mag[o] += std::fabs(b);
        }

    Run r;
    bool listed = true;
    if(c.immediate)
        listed = immediate(h, p, x, w, y, cd, r);
    else
        legacy(h, p, x, w, y, cd, r, relu, &bias);
    Tensor& out = c.dir == Dir::Bwd ? x : c.dir == Dir::Wrw ? w : y;
    if(corrupt)
        out.set(0, out.at(0) + 1.0);
    double maxerr  = 0;
    const double tol = c.type == miopenHalf ? 4e-3 : 1e-5;
    bool ok = out.tail_intact() && x.tail_intact() && w.tail_intact() && y.tail_intact();
    if(listed && r.status == miopenStatusSuccess)
        for(size_t o = 0; o < ref.size(); ++o)
        {
            const double err = std::fabs(out.at(o) - ref[o]) / std::max(mag[o], 1e-3);
            maxerr           = std::max(maxerr, err);
            ok               = ok && err <= tol;
        }
    const char* result = !listed ? "no-solution" : r.status != miopenStatusSuccess ? "failed" : ok ? "ok" : "mismatch";
    report(i, dir_name(c.dir), c.type, c.nhwc, c.groups, c.spatial, c.immediate ? "immediate" : "legacy", r,
           maxerr, tol, result);
    miopenDestroyActivationDescriptor(relu);
    miopenDestroyConvolutionDescriptor(cd);
    return !listed || r.status != miopenStatusSuccess || ok;
}

// A batchnorm inference case: x (2, 4, spatial...) of `type`, fp32
// per-channel tensors, spatial mode, epsilon 1e-5.
enum class BnPass
{
    Inference,
    Training,
    Backward
};

struct BnCase
{
    miopenDataType_t type;
    bool nhwc;
    int spatial;
    bool v2;
    BnPass pass;
};

std::vector<BnCase> bn_cases()
{
    std::vector<BnCase> v;
    for(BnPass pass : {BnPass::Inference, BnPass::Training, BnPass::Backward})
        for(miopenDataType_t t : {miopenFloat, miopenHalf})
            for(bool nhwc : {false, true})
                for(int sp : {2, 3})
                    for(bool v2 : {false, true})
                        v.push_back({t, nhwc, sp, v2, pass});
    return v;
}

// x's dims for a batchnorm case: (2, 4, spatial...).
std::vector<int> bn_dims(int spatial)
{
    std::vector<int> dims{2, 4};
    for(int e : spatial == 2 ? std::vector<int>{6, 5} : std::vector<int>{3, 4, 4})
        dims.push_back(e);
    return dims;
}

// The batch's per-channel mean and biased variance of x, in double.
void bn_statistics(const Tensor& x, const std::vector<int>& dims, std::vector<double>& mean, std::vector<double>& var)
{
    mean.assign(size_t(dims[1]), 0.0);
    var.assign(size_t(dims[1]), 0.0);
    const double m = double(x.s.elements()) / double(dims[1]);
    for_each_index(dims, [&](const std::vector<int>& idx) { mean[size_t(idx[1])] += x.at(x.s.offset(idx)) / m; });
    for_each_index(dims, [&](const std::vector<int>& idx) {
        const double d = x.at(x.s.offset(idx)) - mean[size_t(idx[1])];
        var[size_t(idx[1])] += d * d / m;
    });
}

// Largest error of `t` against `ref` relative to `mag` (both by t's offsets).
double bn_err(const Tensor& t, const std::vector<double>& ref, const std::vector<double>& mag)
{
    double e = 0;
    for(size_t o = 0; o < ref.size(); ++o)
        e = std::max(e, std::fabs(t.at(o) - ref[o]) / std::max(mag[o], 1e-3));
    return e;
}

// A training pass (batch statistics, saved mean and inverse variance, no
// running statistics) or a backward pass (with the saved statistics),
// checked against the formulas in double; returns false on a mismatch.
bool run_bn_pass_case(miopenHandle_t h, size_t i, const BnCase& c, bool corrupt)
{
    protocol::begin(i);
    const std::vector<int> dims = bn_dims(c.spatial);
    std::vector<int> pdims(dims.size(), 1);
    pdims[1]          = dims[1];
    const size_t ch   = size_t(dims[1]);
    const double m    = double(shape(dims, false).elements()) / double(ch);
    const double eps  = 1e-5;
    const auto pshape = shape(pdims, false);
    Tensor x(c.type, shape(dims, c.nhwc)), y(c.type, shape(dims, c.nhwc)), dy(c.type, shape(dims, c.nhwc));
    Tensor scale(miopenFloat, pshape), bias(miopenFloat, pshape), smean(miopenFloat, pshape),
        sinv(miopenFloat, pshape), dscale(miopenFloat, pshape), dbias(miopenFloat, pshape);
    x.fill(1 + std::uint32_t(i));
    y.fill(2 + std::uint32_t(i));
    dy.fill(3 + std::uint32_t(i));
    scale.fill(4 + std::uint32_t(i));
    bias.fill(5 + std::uint32_t(i));
    dscale.fill(6 + std::uint32_t(i));
    dbias.fill(7 + std::uint32_t(i));
    std::vector<double> mean, var;
    bn_statistics(x, dims, mean, var);
    std::vector<double> inv(ch);
    for(size_t k = 0; k < ch; ++k)
        inv[k] = 1.0 / std::sqrt(var[k] + eps);
    Run r;
    const float one = 1.0f, zero = 0.0f;
    // What is compared: (tensor, reference, magnitude), first the data output.
    std::vector<std::tuple<Tensor*, std::vector<double>, std::vector<double>>> outs;
    std::vector<double> ref(x.s.elements()), mag(ref.size());
    if(c.pass == BnPass::Training)
    {
        smean.fill(8 + std::uint32_t(i));
        sinv.fill(9 + std::uint32_t(i));
        for_each_index(dims, [&](const std::vector<int>& idx) {
            const size_t o = x.s.offset(idx), k = size_t(idx[1]);
            const double norm = (x.at(o) - mean[k]) * inv[k];
            ref[o]            = scale.at(k) * norm + bias.at(k);
            mag[o]            = std::fabs(scale.at(k) * norm) + std::fabs(bias.at(k));
        });
        std::vector<double> mag_mean(ch, 1.0), mag_inv(inv);
        outs.emplace_back(&y, ref, mag);
        outs.emplace_back(&smean, mean, mag_mean);
        outs.emplace_back(&sinv, inv, mag_inv);
        auto* alpha = const_cast<float*>(&one);
        auto* beta  = const_cast<float*>(&zero);
        if(c.v2)
            r.call("miopenBatchNormalizationForwardTraining_V2",
                   miopenBatchNormalizationForwardTraining_V2(
                       h, miopenBNSpatial, alpha, beta, x.desc, x.data(), y.desc, y.data(), scale.desc, bias.desc,
                       smean.desc, sinv.desc, scale.data(), bias.data(), 0.1, nullptr, nullptr, eps, smean.data(),
                       sinv.data()));
        else
            r.call("miopenBatchNormalizationForwardTraining",
                   miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, alpha, beta, x.desc, x.data(), y.desc,
                                                           y.data(), scale.desc, scale.data(), bias.data(), 0.1,
                                                           nullptr, nullptr, eps, smean.data(), sinv.data()));
    }
    else
    {
        for(size_t k = 0; k < ch; ++k)
        {
            smean.set(k, mean[k]);
            sinv.set(k, inv[k]);
        }
        // With the saved statistics as MIOpen reads them (fp32).
        std::vector<double> db(ch, 0.0), ds(ch, 0.0), mdb(ch, 0.0), mds(ch, 0.0);
        for_each_index(dims, [&](const std::vector<int>& idx) {
            const size_t o = x.s.offset(idx), k = size_t(idx[1]);
            const double xhat = (x.at(o) - smean.at(k)) * sinv.at(k);
            db[k] += dy.at(o);
            ds[k] += dy.at(o) * xhat;
            mdb[k] += std::fabs(dy.at(o));
            mds[k] += std::fabs(dy.at(o) * xhat);
        });
        for_each_index(dims, [&](const std::vector<int>& idx) {
            const size_t o = x.s.offset(idx), k = size_t(idx[1]);
            const double xhat = (x.at(o) - smean.at(k)) * sinv.at(k), f = scale.at(k) * sinv.at(k) / m;
            ref[o] = f * (m * dy.at(o) - db[k] - xhat * ds[k]);
            mag[o] = std::fabs(f) * (m * std::fabs(dy.at(o)) + mdb[k] + std::fabs(xhat) * mds[k]);
        });
        outs.emplace_back(&y, ref, mag); // y is dx
        outs.emplace_back(&dscale, ds, mds);
        outs.emplace_back(&dbias, db, mdb);
        if(c.v2)
            r.call("miopenBatchNormalizationBackward_V2",
                   miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, &one, &zero, &one, &zero, x.desc, x.data(),
                                                       dy.desc, dy.data(), y.desc, y.data(), scale.desc, bias.desc,
                                                       smean.desc, sinv.desc, scale.data(), dscale.data(),
                                                       dbias.data(), eps, smean.data(), sinv.data()));
        else
            r.call("miopenBatchNormalizationBackward",
                   miopenBatchNormalizationBackward(h, miopenBNSpatial, &one, &zero, &one, &zero, x.desc, x.data(),
                                                    dy.desc, dy.data(), y.desc, y.data(), scale.desc, scale.data(),
                                                    dscale.data(), dbias.data(), eps, smean.data(), sinv.data()));
    }
    if(corrupt)
        y.set(0, y.at(0) + 1.0);
    double maxerr    = 0;
    const double tol = c.type == miopenHalf ? 4e-3 : 1e-5;
    bool ok          = true;
    for(auto* t : {&x, &y, &dy, &scale, &bias, &smean, &sinv, &dscale, &dbias})
        ok = ok && t->tail_intact();
    if(r.status == miopenStatusSuccess)
        for(size_t k = 0; k < outs.size(); ++k)
        {
            // The per-channel outputs are fp32, computed in fp32 or wider.
            const double e = bn_err(*std::get<0>(outs[k]), std::get<1>(outs[k]), std::get<2>(outs[k]));
            maxerr         = std::max(maxerr, e);
            ok             = ok && e <= (k == 0 ? tol : 1e-4);
        }
    const char* result = r.status != miopenStatusSuccess ? "failed" : ok ? "ok" : "mismatch";
    report(i, c.pass == BnPass::Training ? "bntrn" : "bnbwd", c.type, c.nhwc, 1, c.spatial, c.v2 ? "v2" : "legacy",
           r, maxerr, tol, result);
    return r.status != miopenStatusSuccess || ok;
}

// y = scale * (x - mean) / sqrt(variance + epsilon) + bias, in double;
// returns false on a mismatch.
bool run_bn_case(miopenHandle_t h, size_t i, const BnCase& c, bool corrupt)
{
    protocol::begin(i);
    std::vector<int> dims{2, 4}, pdims(size_t(c.spatial) + 2, 1);
    for(int e : c.spatial == 2 ? std::vector<int>{6, 5} : std::vector<int>{3, 4, 4})
        dims.push_back(e);
    pdims[1] = dims[1];
    Tensor x(c.type, shape(dims, c.nhwc)), y(c.type, shape(dims, c.nhwc));
    Tensor scale(miopenFloat, shape(pdims, false)), bias(miopenFloat, shape(pdims, false)),
        mean(miopenFloat, shape(pdims, false)), var(miopenFloat, shape(pdims, false));
    x.fill(1 + std::uint32_t(i));
    y.fill(2 + std::uint32_t(i));
    scale.fill(3 + std::uint32_t(i));
    bias.fill(4 + std::uint32_t(i));
    mean.fill(5 + std::uint32_t(i));
    std::uint32_t seed = 6 + std::uint32_t(i);
    for(int k = 0; k < dims[1]; ++k)
        var.set(size_t(k), 0.25 + std::fabs(double(consumer::next_eighth(seed))));
    const double eps = 1e-5;
    std::vector<double> ref(x.s.elements()), mag(ref.size());
    for_each_index(dims, [&](const std::vector<int>& idx) {
        const size_t o = x.s.offset(idx), k = size_t(idx[1]);
        const double norm = (x.at(o) - mean.at(k)) / std::sqrt(var.at(k) + eps);
        ref[o]            = scale.at(k) * norm + bias.at(k);
        mag[o]            = std::fabs(scale.at(k) * norm) + std::fabs(bias.at(k));
    });
    float alpha = 1.0f, beta = 0.0f;
    Run r;
    if(c.v2)
        r.call("miopenBatchNormalizationForwardInference_V2",
               miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, &alpha, &beta, x.desc, x.data(), y.desc,
                                                           y.data(), scale.desc, bias.desc, mean.desc, var.desc,
                                                           scale.data(), bias.data(), mean.data(), var.data(), eps));
    else
        r.call("miopenBatchNormalizationForwardInference",
               miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x.desc, x.data(), y.desc,
                                                        y.data(), scale.desc, scale.data(), bias.data(), mean.data(),
                                                        var.data(), eps));
    if(corrupt)
        y.set(0, y.at(0) + 1.0);
    double maxerr    = 0;
    const double tol = c.type == miopenHalf ? 4e-3 : 1e-5;
    bool ok          = x.tail_intact() && y.tail_intact();
    if(r.status == miopenStatusSuccess)
        for(size_t o = 0; o < ref.size(); ++o)
        {
            const double err = std::fabs(y.at(o) - ref[o]) / std::max(mag[o], 1e-3);
            maxerr           = std::max(maxerr, err);
            ok               = ok && err <= tol;
        }
    const char* result = r.status != miopenStatusSuccess ? "failed" : ok ? "ok" : "mismatch";
    report(i, "bninf", c.type, c.nhwc, 1, c.spatial, c.v2 ? "v2" : "legacy", r, maxerr, tol, result);
    return r.status != miopenStatusSuccess || ok;
}

} // namespace

int main(int argc, char** argv)
{
    long only = -1, corrupt = -1;
    bool batchnorm = false;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if((a == "--only" || a == "--corrupt") && i + 1 < argc)
            (a == "--only" ? only : corrupt) = std::strtol(argv[++i], nullptr, 10);
        else if(a == "--batchnorm")
            batchnorm = true;
        else
        {
            std::fprintf(stderr, "usage: %s [--only I] [--corrupt I] [--batchnorm]\n", argv[0]);
            return 2;
        }
    }
    miopenHandle_t h;
    if(miopenCreate(&h) != miopenStatusSuccess)
    {
        std::fprintf(stderr, "forwarded_consumer: miopenCreate failed\n");
        return 2;
    }
    const auto cases = all_cases();
    int mismatches   = 0;
    for(size_t i = 0; i < cases.size(); ++i)
        if(only < 0 || size_t(only) == i)
            mismatches += run_case(h, i, cases[i], long(i) == corrupt) ? 0 : 1;
    const auto bn = batchnorm ? bn_cases() : std::vector<BnCase>{};
    for(size_t j = 0; j < bn.size(); ++j)
    {
        const size_t i = cases.size() + j;
        if(only < 0 || size_t(only) == i)
            mismatches += (bn[j].pass == BnPass::Inference ? run_bn_case : run_bn_pass_case)(h, i, bn[j],
                                                                                           long(i) == corrupt)
                              ? 0
                              : 1;
    }
    miopenDestroy(h);
    if(mismatches > 0)
        std::fprintf(stderr, "forwarded_consumer: %d case(s) mismatched the reference\n", mismatches);
    return mismatches > 0 ? 1 : 0;
}
