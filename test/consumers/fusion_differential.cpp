// Differential test of the fusion-plan API through the public MIOpen API.
//
// Generates --cases random fusion plans from --seed: conv -> [bias] ->
// activation (RELU, CLIPPEDRELU, CLAMP, and LOGISTIC / PASTHRU, which hipDNN's
// fused graph does not have), conv -> batchnorm inference -> activation and a
// lone conv (plans hipDNN has no form of); fp32 and fp16; NCHW and NHWC; 2-D
// and 3-D; padding, stride, dilation, groups; executed with
// miopenExecuteFusionPlan (no workspace) or miopenExecuteFusionPlan_v2 (the
// workspace miopenFusionPlanGetWorkSpaceSize reports, exactly that large);
// a few with an input 4 bytes off a 16-byte boundary. Every output is
// compared with a double-precision reference computed here on the host.
//
// The program knows nothing of the wrapper: test/consumers/check_differential.py
// runs it (test/consumers/differential/fusion.json) with forwarding disabled
// and enabled (per hipDNN engine) and matches each case's record against the
// routing trace on stderr, which the protocol's `begin` markers split per case.
//
// Output (test/consumers/test_protocol.hpp, differential_util.hpp's
// CaseReport): one `case` record per case on stdout (API version, type,
// layout, rank, the execute entry point, the plan, status, the first failing
// step, maxerr and the tolerance, result ok|mismatch|rejected, why), then a
// `summary`.
#include "consumer_util.hpp"
#include "differential_util.hpp"

#include <miopen/miopen.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using consumer::Rng;

enum class Ops
{
    ConvBiasActiv,
    ConvActiv,
    ConvBnActiv,
    ConvOnly
};

struct Problem
{
    bool half = false, nhwc = false, v2 = true, misaligned = false;
    int spatial = 2, n = 1, c = 1, k = 1, groups = 1;
    std::vector<int> in, filter, pad, stride, dil;
    Ops ops = Ops::ConvBiasActiv;
    miopenActivationMode_t mode = miopenActivationRELU;
    double a_alpha = 0, a_beta = 0;
};

Problem generate(Rng& r)
{
    Problem p;
    p.half    = r.chance(0.2);
    p.nhwc    = r.chance(0.3);
    p.v2      = r.chance(0.65);
    p.spatial = r.chance(0.12) ? 3 : 2;
    p.n       = r.range(1, 3);
    p.groups  = r.chance(0.12) ? 2 : 1;
    p.c       = p.groups * r.range(1, 4);
    p.k       = p.groups * r.range(1, 4);
    for(int i = 0; i < p.spatial; ++i)
    {
        p.in.push_back(r.range(3, p.spatial == 3 ? 5 : 9));
        p.filter.push_back(r.range(1, 3));
        p.pad.push_back(r.range(0, 1));
        p.stride.push_back(r.chance(0.25) ? 2 : 1);
        p.dil.push_back(r.chance(0.1) ? 2 : 1);
        // The filter fits the input (an invalid shape is conv_differential's business).
        const int span = p.dil.back() * (p.filter.back() - 1) + 1;
        if(p.in.back() < span)
            p.in.back() = span;
    }
    const int o = r.range(1, 100);
    p.ops       = o <= 70 ? Ops::ConvBiasActiv : o <= 88 ? Ops::ConvActiv : o <= 94 ? Ops::ConvBnActiv : Ops::ConvOnly;
    const int m = r.range(1, 100);
    if(m <= 60)
        p.mode = miopenActivationRELU;
    else if(m <= 75)
    {
        p.mode    = miopenActivationCLIPPEDRELU;
        p.a_alpha = r.chance(0.5) ? 6.0 : 0.5;
    }
    else if(m <= 88)
    {
        p.mode    = miopenActivationCLAMP;
        p.a_alpha = -0.5;
        p.a_beta  = 1.0;
    }
    else if(m <= 95)
        p.mode = miopenActivationLOGISTIC;
    else
        p.mode = miopenActivationPASTHRU;
    p.misaligned = r.chance(0.06);
    if(r.chance(0.6))
    {
        // What frameworks fuse (and MIOpen has fused kernels for): fp32
        // NCHW 2-D with a square 3x3 (padded, stride 1 or 2) or a 1x1 filter.
        p.half = p.nhwc = false;
        p.spatial       = 2;
        const bool pointwise = r.chance(0.3);
        const int stride     = !pointwise && r.chance(0.3) ? 2 : 1;
        p.in                 = {r.range(4, 9), r.range(4, 9)};
        p.filter             = pointwise ? std::vector<int>{1, 1} : std::vector<int>{3, 3};
        p.pad                = pointwise ? std::vector<int>{0, 0} : std::vector<int>{1, 1};
        p.stride             = {stride, stride};
        p.dil                = {1, 1};
        if(pointwise)
            p.groups = 1, p.c = r.range(1, 8), p.k = r.range(1, 8);
    }
    return p;
}

// ---- host data: fp32 and fp16 (values k/8: exact in both) ----
std::uint16_t to_half(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const int exp            = int((x >> 23) & 0xff) - 127 + 15;
    const std::uint32_t mant = x & 0x7fffffu;
    if((x & 0x7fffffffu) == 0)
        return std::uint16_t(sign);
    if(exp <= 0)
    {
        const std::uint32_t m = (mant | 0x800000u) >> (1 - exp);
        return std::uint16_t(sign | ((m + 0x1000u) >> 13));
    }
    if(exp >= 31)
        return std::uint16_t(sign | 0x7c00u);
    return std::uint16_t(sign | (std::uint32_t(exp) << 10) | ((mant + 0x1000u) >> 13));
}

float from_half(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    int exp                  = (h >> 10) & 0x1f;
    std::uint32_t mant       = h & 0x3ffu;
    std::uint32_t x;
    if(exp == 0)
    {
        if(mant == 0)
            x = sign;
        else
        {
            exp = 1;
            while(!(mant & 0x400u))
            {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3ffu;
            x = sign | (std::uint32_t(exp + 127 - 15) << 23) | (mant << 13);
        }
    }
    else if(exp == 31)
        x = sign | 0x7f800000u | (mant << 13);
    else
        x = sign | (std::uint32_t(exp + 127 - 15) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// A device buffer: 16-byte aligned storage plus `offset` bytes, canaries after.
struct Buffer
{
    std::vector<unsigned char> raw;
    std::size_t offset = 0, bytes = 0;
    static constexpr std::size_t kCanary = 64;
    Buffer(std::size_t n, std::size_t off) : raw(n + off + 16 + kCanary, 0xA5), bytes(n)
    {
        const auto base = reinterpret_cast<std::uintptr_t>(raw.data());
        offset          = std::size_t((16 - base % 16) % 16) + off;
    }
    void* ptr() { return bytes ? raw.data() + offset : nullptr; }
    bool canaries_intact() const
    {
        for(std::size_t i = offset + bytes; i < offset + bytes + kCanary; ++i)
            if(raw[i] != 0xA5)
                return false;
        return true;
    }
};

struct Host
{
    bool half;
    std::vector<float> v; // the logical values, in the tensor's memory order
    Buffer dev;
    Host(bool h, std::size_t n, std::size_t off) : half(h), v(n), dev(n * (h ? 2 : 4), off) {}
    void upload()
    {
        for(std::size_t i = 0; i < v.size(); ++i)
        {
            if(half)
            {
                const auto x = to_half(v[i]);
                std::memcpy(static_cast<unsigned char*>(dev.ptr()) + 2 * i, &x, 2);
            }
            else
                std::memcpy(static_cast<unsigned char*>(dev.ptr()) + 4 * i, &v[i], 4);
        }
    }
    float at(std::size_t i)
    {
        if(half)
        {
            std::uint16_t x;
            std::memcpy(&x, static_cast<unsigned char*>(dev.ptr()) + 2 * i, 2);
            return from_half(x);
        }
        float f;
        std::memcpy(&f, static_cast<unsigned char*>(dev.ptr()) + 4 * i, 4);
        return f;
    }
};

// Strides of dims in N, C, spatial order for the memory order (channels last or not).
std::vector<int> strides_of(const std::vector<int>& dims, bool channels_last)
{
    if(!channels_last)
        return consumer::packed_strides(dims);
    std::vector<int> order{0};
    for(std::size_t i = 2; i < dims.size(); ++i)
        order.push_back(int(i));
    order.push_back(1);
    std::vector<int> s(dims.size());
    int step = 1;
    for(auto it = order.rbegin(); it != order.rend(); ++it)
    {
        s[std::size_t(*it)] = step;
        step *= dims[std::size_t(*it)];
    }
    return s;
}

std::size_t count(const std::vector<int>& d)
{
    std::size_t n = 1;
    for(int x : d)
        n *= std::size_t(x);
    return n;
}

miopenTensorDescriptor_t descriptor(miopenDataType_t t, const std::vector<int>& dims, const std::vector<int>& strides)
{
    miopenTensorDescriptor_t d;
    CHECK(miopenCreateTensorDescriptor(&d));
    CHECK(miopenSetTensorDescriptor(d, t, int(dims.size()), dims.data(), strides.data()));
    return d;
}

// Offset of the element at N, C, spatial index `idx` for `strides`.
std::size_t offset_of(const std::vector<int>& idx, const std::vector<int>& strides)
{
    std::size_t o = 0;
    for(std::size_t i = 0; i < idx.size(); ++i)
        o += std::size_t(idx[i]) * std::size_t(strides[i]);
    return o;
}

double activate(const Problem& p, double x)
{
    switch(p.mode)
    {
    case miopenActivationRELU: return x > 0 ? x : 0;
    case miopenActivationCLIPPEDRELU: return std::fmin(std::fmax(x, 0.0), p.a_alpha);
    case miopenActivationCLAMP: return std::fmin(std::fmax(x, p.a_alpha), p.a_beta);
    case miopenActivationLOGISTIC: return 1.0 / (1.0 + std::exp(-x));
    default: return x;
    }
}

double tolerance(const Problem& p) { return p.half ? 2e-2 : 1e-4; }

struct Outcome
{
    miopenStatus_t status = miopenStatusSuccess;
    std::string step      = "-";
    double maxerr         = 0;
    std::string why;
    std::size_t ws = 0;
};

bool failed(Outcome& o, miopenStatus_t s, const char* step)
{
    if(s == miopenStatusSuccess)
        return false;
    o.status = s;
    o.step   = step;
    return true;
}

// Runs one case; returns its outcome (a mismatch sets `why`).
Outcome run_case(miopenHandle_t handle, const Problem& p, Rng& r, bool corrupt)
{
    Outcome o;
    const miopenDataType_t type = p.half ? miopenHalf : miopenFloat;
    std::vector<int> xd{p.n, p.c}, wd{p.k, p.c / p.groups}, yd{p.n, p.k};
    for(int i = 0; i < p.spatial; ++i)
    {
        xd.push_back(p.in[std::size_t(i)]);
        wd.push_back(p.filter[std::size_t(i)]);
        const int span = p.dil[std::size_t(i)] * (p.filter[std::size_t(i)] - 1) + 1;
        yd.push_back((p.in[std::size_t(i)] + 2 * p.pad[std::size_t(i)] - span) / p.stride[std::size_t(i)] + 1);
    }
    std::vector<int> bd(xd.size(), 1);
    bd[1]                          = p.k;
    const std::vector<int> xs      = strides_of(xd, p.nhwc), ws_ = strides_of(wd, p.nhwc);
    const std::vector<int> ys      = strides_of(yd, p.nhwc), bs = consumer::packed_strides(bd);
    miopenTensorDescriptor_t xdesc = descriptor(type, xd, xs), wdesc = descriptor(type, wd, ws_);
    miopenTensorDescriptor_t ydesc = descriptor(type, yd, ys), bdesc = descriptor(type, bd, bs);
    miopenConvolutionDescriptor_t cdesc;
    CHECK(miopenCreateConvolutionDescriptor(&cdesc));
    CHECK(miopenInitConvolutionNdDescriptor(
        cdesc, p.spatial, p.pad.data(), p.stride.data(), p.dil.data(), miopenConvolution));
    CHECK(miopenSetConvolutionGroupCount(cdesc, p.groups));
    Host x(p.half, count(xd), p.misaligned ? 4 : 0), w(p.half, count(wd), 0), b(p.half, count(bd), 0);
    Host y(p.half, count(yd), 0);
    for(auto& v : x.v)
        v = float(r.range(-8, 8)) / 8;
    for(auto& v : w.v)
        v = float(r.range(-8, 8)) / 8;
    for(auto& v : b.v)
        v = float(r.range(-8, 8)) / 8;
    x.upload();
    w.upload();
    b.upload();
    y.upload();

    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    miopenFusionOpDescriptor_t conv_op = nullptr, bias_op = nullptr, activ_op = nullptr, bn_op = nullptr;
    const bool has_bias = p.ops == Ops::ConvBiasActiv;
    const bool has_act  = p.ops != Ops::ConvOnly;
    float one = 1, zero = 0;
    std::vector<Host> bn;
    [&] {
        if(failed(o, miopenCreateFusionPlan(&plan, miopenVerticalFusion, xdesc), "create"))
            return;
        if(failed(o, miopenCreateOpConvForward(plan, &conv_op, cdesc, wdesc), "op"))
            return;
        if(has_bias && failed(o, miopenCreateOpBiasForward(plan, &bias_op, bdesc), "op"))
            return;
        if(p.ops == Ops::ConvBnActiv &&
           failed(o, miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNSpatial, bdesc), "op"))
            return;
        if(has_act && failed(o, miopenCreateOpActivationForward(plan, &activ_op, p.mode), "op"))
            return;
        if(failed(o, miopenCompileFusionPlan(handle, plan), "compile"))
            return;
        CHECK(miopenCreateOperatorArgs(&args));
        if(failed(o, miopenSetOpArgsConvForward(args, conv_op, &one, &zero, w.dev.ptr()), "args"))
            return;
        if(has_bias && failed(o, miopenSetOpArgsBiasForward(args, bias_op, &one, &zero, b.dev.ptr()), "args"))
            return;
        if(p.ops == Ops::ConvBnActiv)
        {
            for(int i = 0; i < 4; ++i)
                bn.emplace_back(p.half, std::size_t(p.k), 0);
            for(int i = 0; i < p.k; ++i)
            {
                bn[0].v[std::size_t(i)] = 1; // scale
                bn[1].v[std::size_t(i)] = 0; // bias
                bn[2].v[std::size_t(i)] = 0; // mean
                bn[3].v[std::size_t(i)] = 1; // variance
            }
            for(auto& h : bn)
                h.upload();
            if(failed(o, miopenSetOpArgsBatchNormInference(args, bn_op, &one, &zero, bn[0].dev.ptr(), bn[1].dev.ptr(),
                                                           bn[2].dev.ptr(), bn[3].dev.ptr(), 1e-5),
                      "args"))
                return;
        }
        if(has_act &&
           failed(o, miopenSetOpArgsActivForward(args, activ_op, &one, &zero, p.a_alpha, p.a_beta, 0.0), "args"))
            return;
        if(p.v2)
        {
            if(failed(o, miopenFusionPlanGetWorkSpaceSize(handle, plan, &o.ws, miopenConvolutionFwdAlgoDirect),
                      "workspace"))
                return;
            Buffer ws(o.ws, 0);
            const miopenStatus_t s = miopenExecuteFusionPlan_v2(
                handle, plan, xdesc, x.dev.ptr(), ydesc, y.dev.ptr(), args, ws.ptr(), o.ws);
            if(!ws.canaries_intact())
                o.why = "workspace-overrun";
            failed(o, s, "execute");
        }
        else
            failed(o, miopenExecuteFusionPlan(handle, plan, xdesc, x.dev.ptr(), ydesc, y.dev.ptr(), args), "execute");
    }();
    if(o.status == miopenStatusSuccess && o.why.empty())
    {
        if(!y.dev.canaries_intact())
            o.why = "write-outside-y";
        if(corrupt)
        {
            const float v = y.at(0) + 1.0f;
            if(p.half)
            {
                const auto h = to_half(v);
                std::memcpy(y.dev.ptr(), &h, 2);
            }
            else
                std::memcpy(y.dev.ptr(), &v, 4);
        }
        // The reference: y = act(conv(x, w) + bias); batchnorm with unit
        // variance and zero mean is the identity up to epsilon.
        const double tol = tolerance(p);
        std::vector<int> idx(yd.size(), 0);
        const int cg = p.c / p.groups, kg = p.k / p.groups;
        for(std::size_t e = 0; e < count(yd); ++e)
        {
            std::size_t rem = e;
            for(std::size_t i = yd.size(); i-- > 0;)
            {
                idx[i] = int(rem % std::size_t(yd[i]));
                rem /= std::size_t(yd[i]);
            }
            const int nn = idx[0], kk = idx[1], g = kk / kg;
            double acc = 0;
            std::vector<int> xi(xd.size()), wi(wd.size());
            for(std::size_t f = 0; f < count(wd) / std::size_t(p.k); ++f)
            {
                std::size_t fr = f;
                for(std::size_t i = wd.size(); i-- > 2;)
                {
                    wi[i] = int(fr % std::size_t(wd[i]));
                    fr /= std::size_t(wd[i]);
                }
                wi[1] = int(fr);
                wi[0] = kk;
                xi[0] = nn;
                xi[1] = g * cg + wi[1];
                bool inside = true;
                for(int s = 0; s < p.spatial; ++s)
                {
                    const std::size_t i = std::size_t(s) + 2;
                    xi[i] = idx[i] * p.stride[std::size_t(s)] - p.pad[std::size_t(s)] + wi[i] * p.dil[std::size_t(s)];
                    inside = inside && xi[i] >= 0 && xi[i] < xd[i];
                }
                if(inside)
                    acc += double(x.v[offset_of(xi, xs)]) * double(w.v[offset_of(wi, ws_)]);
            }
            if(has_bias)
                acc += b.v[std::size_t(kk)];
            if(p.ops == Ops::ConvBnActiv)
                acc = acc / std::sqrt(1.0 + 1e-5);
            if(has_act)
                acc = activate(p, acc);
            const double got = y.at(offset_of(idx, ys));
            const double err = std::fabs(got - acc) / std::fmax(1.0, std::fabs(acc));
            o.maxerr         = std::fmax(o.maxerr, err);
        }
        if(o.why.empty() && !(o.maxerr <= tol))
            o.why = "tolerance";
    }
    if(args)
        miopenDestroyOperatorArgs(args);
    if(plan)
        miopenDestroyFusionPlan(plan);
    miopenDestroyConvolutionDescriptor(cdesc);
    for(auto d : {xdesc, wdesc, ydesc, bdesc})
        miopenDestroyTensorDescriptor(d);
    return o;
}

std::string text_of(const Problem& p)
{
    auto list = [](const std::vector<int>& v) {
        std::string s;
        for(std::size_t i = 0; i < v.size(); ++i)
            s += (i ? "x" : "") + std::to_string(v[i]);
        return s;
    };
    const char* ops[] = {"conv-bias-act", "conv-act", "conv-bn-act", "conv"};
    const char* mode  = p.mode == miopenActivationRELU          ? "relu"
                        : p.mode == miopenActivationCLIPPEDRELU ? "clippedrelu"
                        : p.mode == miopenActivationCLAMP       ? "clamp"
                        : p.mode == miopenActivationLOGISTIC    ? "logistic"
                                                                : "passthru";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s %dd n=%d c=%d k=%d g=%d in=%s f=%s pad=%s stride=%s dil=%s ops=%s act=%s(%g,%g)%s",
                  p.nhwc ? "NHWC" : "NCHW", p.spatial, p.n, p.c, p.k, p.groups, list(p.in).c_str(),
                  list(p.filter).c_str(), list(p.pad).c_str(), list(p.stride).c_str(), list(p.dil).c_str(),
                  ops[int(p.ops)], mode, p.a_alpha, p.a_beta, p.misaligned ? " misaligned=4" : "");
    return buf;
}

// The case's record (differential_util.hpp's CaseReport; the execute is the compute call).
differential::CaseReport report(int i, const Problem& p, const Outcome& o)
{
    differential::CaseReport r;
    const char* type = p.half ? "fp16" : "fp32";
    r.index          = i;
    r.dir            = "fusion";
    r.api            = p.v2 ? "v2" : "v1";
    r.type           = type;
    r.layout         = p.nhwc ? "NHWC" : "NCHW";
    r.rank           = std::to_string(p.spatial) + "d";
    r.entry          = p.v2 ? "miopenExecuteFusionPlan_v2" : "miopenExecuteFusionPlan";
    r.problem        = r.api + " " + type + " " + text_of(p);
    r.detail         = "ws=" + std::to_string(o.ws);
    r.misaligned     = p.misaligned;
    r.types          = {type};
    r.status         = o.status;
    r.step           = o.step;
    r.maxerr         = o.maxerr;
    r.tol            = tolerance(p);
    r.why            = differential::words(o.why);
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    int cases = 1000, corrupt = -1;
    std::uint64_t seed = 1;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        const std::string a = argv[i];
        if(a == "--cases")
            cases = std::atoi(argv[i + 1]);
        else if(a == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if(a == "--corrupt-case")
            corrupt = std::atoi(argv[i + 1]);
        else
        {
            std::fprintf(stderr, "usage: %s [--cases N] [--seed S] [--corrupt-case I]\n", argv[0]);
            return 2;
        }
    }
    miopenHandle_t handle;
    CHECK(miopenCreate(&handle));
    differential::Tally tally;
    for(int i = 0; i < cases; ++i)
    {
        Rng r{seed * 1000003ull + std::uint64_t(i)};
        const Problem p = generate(r);
        protocol::begin(i);
        tally.report(report(i, p, run_case(handle, p, r, i == corrupt)));
    }
    protocol::end();
    CHECK(miopenDestroy(handle));
    return tally.finish();
}
