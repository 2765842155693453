// Differential test of MIOpen's batchnorm backward -> activation backward
// fusion plan through the public fusion API (miopenCreateFusionPlan,
// miopenCreateOpBatchNormBackward, miopenCreateOpActivationBackward,
// miopenCompileFusionPlan, miopenSetOpArgsBatchNormBackward,
// miopenSetOpArgsActivBackward, miopenExecuteFusionPlan or
// miopenExecuteFusionPlan_v2 with the workspace MIOpen reports; the plan's
// input is dy, its output dx): --cases random plans from --seed, dx, dscale
// and dbias checked against this program's own double-precision reference
// (bn = scale * (x - savedMean) * savedInvVariance + bias, the activation's
// derivative at bn applied to dy, the batchnorm backward with the saved
// statistics). test/consumers/check_differential.py runs it disabled and
// enabled on each hipDNN engine and compares outcomes and routing.
//
// Plans: mostly what the wrapper forwards (4-D packed NCHW, fp32 / fp16,
// spatial, RELU); some it declines (CLIPPEDRELU, CLAMP, LEAKYRELU, PASTHRU,
// NHWC, 5-D, bf16, per-activation, one value per channel, dy off the 16-byte
// alignment), which MIOpen runs.
//
// Output (test/consumers/test_protocol.hpp, differential_util.hpp's
// CaseReport): one `case` record per case on stdout, then a `summary`; a
// `begin` marker on stderr before each case's calls.
#include <miopen/miopen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bn_case.hpp"
#include "differential_util.hpp"

namespace {

using namespace differential;
using namespace bn_case;
using Outcome = FusionOutcome;

struct Problem
{
    std::vector<int> dims;
    bool channels_last = false;
    miopenDataType_t io = miopenFloat;
    miopenBatchNormMode_t mode = miopenBNSpatial;
    miopenActivationMode_t act = miopenActivationRELU;
    double alpha = 0, beta = 0;
    bool v2 = false;
    int misaligned = 0; // bytes dy's pointer is off
};

const char* act_name(miopenActivationMode_t a)
{
    switch(a)
    {
    case miopenActivationRELU: return "relu";
    case miopenActivationCLIPPEDRELU: return "clippedrelu";
    case miopenActivationCLAMP: return "clamp";
    case miopenActivationLEAKYRELU: return "leakyrelu";
    default: return "passthru";
    }
}

Problem draw(Rng& r)
{
    Problem p;
    const int rank = r.chance(0.04) ? 5 : 4;
    p.dims = {r.range(1, 3), r.range(1, 6)};
    for(int d = 2; d < rank; ++d)
        p.dims.push_back(r.range(1, 5));
    if(r.chance(0.02))
        p.dims = {1, r.range(1, 6), 1, 1}; // one value per channel
    p.channels_last = r.chance(0.05);
    p.io = r.chance(0.03) ? miopenBFloat16 : r.chance(0.35) ? miopenHalf : miopenFloat;
    if(r.chance(0.03))
        p.mode = miopenBNPerActivation;
    const int pick = r.range(0, 99);
    p.act = pick < 85 ? miopenActivationRELU : pick < 91 ? miopenActivationCLIPPEDRELU
                                           : pick < 94 ? miopenActivationCLAMP
                                           : pick < 97 ? miopenActivationLEAKYRELU
                                                       : miopenActivationPASTHRU;
    p.alpha = p.act == miopenActivationCLAMP ? -0.25 * r.range(0, 4) : p.act == miopenActivationLEAKYRELU ? 0.125 : 0.25 * r.range(1, 8);
    p.beta  = 0.25 * r.range(1, 8);
    p.v2    = r.chance(0.5);
    if(r.chance(0.04))
        p.misaligned = p.io == miopenFloat ? 4 : 2;
    return p;
}

// The activation's derivative at v applied to g (MIOpen's *_Diff functions).
double derivative(const Problem& p, double v, double g)
{
    const double a = double(float(p.alpha)), b = double(float(p.beta));
    switch(p.act)
    {
    case miopenActivationRELU: return v > 0 ? g : 0.0;
    case miopenActivationCLIPPEDRELU: return v > 0 && v <= a ? g : 0.0;
    case miopenActivationCLAMP: return v >= a && v <= b ? g : 0.0;
    case miopenActivationLEAKYRELU: return v > 0 ? g : g * a;
    default: return g;
    }
}

std::string describe(const Problem& p)
{
    std::string s = "x=";
    for(size_t i = 0; i < p.dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(p.dims[i]);
    s += std::string(" ") + (p.channels_last ? "NHWC" : "NCHW") + " " + type_name(p.io);
    s += std::string(" mode=") + (p.mode == miopenBNSpatial ? "spatial" : "per-activation");
    s += std::string(" act=") + act_name(p.act) + " a=" + std::to_string(p.alpha) + " b=" + std::to_string(p.beta);
    if(p.misaligned)
        s += " dy+" + std::to_string(p.misaligned) + "B";
    return s;
}

// 16-byte aligned storage for n elements of 4 bytes (+ `off` bytes).
struct Buffer
{
    std::vector<std::uint64_t> v;
    char* p = nullptr;
    Buffer(size_t n, int off = 0) : v((n * 4 + 64) / 8 + 2, 0)
    {
        p = reinterpret_cast<char*>(v.data()) + ((16 - reinterpret_cast<std::uintptr_t>(v.data()) % 16) % 16) + off;
    }
};

Outcome run_case(miopenHandle_t h, const Problem& p, Rng& r, bool corrupt)
{
    Outcome o;
    const int rank = int(p.dims.size());
    const std::vector<int> st = strides_of(p.dims, p.channels_last), pd = param_dims(p.dims, p.mode), ps = packed(pd);
    size_t n = 1, np = 1;
    for(int d : p.dims)
        n *= size_t(d);
    for(int d : pd)
        np *= size_t(d);
    Buffer x(n), dy(n, p.misaligned), dx(n);
    Buffer prm[6] = {Buffer(np), Buffer(np), Buffer(np), Buffer(np), Buffer(np), Buffer(np)};
    for(size_t i = 0; i < n; ++i)
    {
        store_elem(p.io, x.p, i, r.value() * 3.0f);
        store_elem(p.io, dy.p, i, r.value());
        store_elem(p.io, dx.p, i, -7.0f);
    }
    for(size_t i = 0; i < np; ++i)
    {
        store_elem(miopenFloat, prm[0].p, i, r.value() * 2.0f);            // scale
        store_elem(miopenFloat, prm[1].p, i, r.value());                   // bias
        store_elem(miopenFloat, prm[2].p, i, r.value());                   // saved mean
        store_elem(miopenFloat, prm[3].p, i, 0.5f + std::fabs(r.value())); // saved inverse variance
        store_elem(miopenFloat, prm[4].p, i, -7.0f);                       // dscale
        store_elem(miopenFloat, prm[5].p, i, -7.0f);                       // dbias
    }
    miopenTensorDescriptor_t xd = nullptr;
    miopenCreateTensorDescriptor(&xd);
    miopenSetTensorDescriptor(xd, p.io, rank, p.dims.data(), st.data());
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t bn = nullptr, act = nullptr;
    miopenOperatorArgs_t args = nullptr;
    auto fail = [&](const char* step, miopenStatus_t s) {
        o.status = s;
        o.step   = step;
        return s != miopenStatusSuccess;
    };
    const float one = 1.0f, zero = 0.0f;
    std::vector<char> ws;
    do
    {
        if(fail("create", miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd)))
            break;
        if(fail("op", miopenCreateOpBatchNormBackward(plan, &bn, p.mode)))
            break;
        if(fail("op", miopenCreateOpActivationBackward(plan, &act, p.act)))
            break;
        if(fail("compile", miopenCompileFusionPlan(h, plan)))
            break;
        if(fail("args", miopenCreateOperatorArgs(&args)))
            break;
        if(fail("args", miopenSetOpArgsBatchNormBackward(args, bn, &one, &zero, x.p, prm[0].p, prm[1].p, prm[4].p,
                                                         prm[5].p, prm[2].p, prm[3].p)))
            break;
        if(fail("args", miopenSetOpArgsActivBackward(args, act, &one, &zero, nullptr, nullptr, p.alpha, p.beta, 1.0)))
            break;
        if(p.v2)
        {
            size_t need = 0;
            if(fail("workspace", miopenFusionPlanGetWorkSpaceSize(h, plan, &need, miopenConvolutionFwdAlgoDirect)))
                break;
            ws.assign(need + 16, 0);
            char* w = ws.data() + ((16 - reinterpret_cast<std::uintptr_t>(ws.data()) % 16) % 16);
            fail("compute", miopenExecuteFusionPlan_v2(h, plan, xd, dy.p, xd, dx.p, args, need ? w : nullptr, need));
        }
        else
            fail("compute", miopenExecuteFusionPlan(h, plan, xd, dy.p, xd, dx.p, args));
    } while(false);
    if(o.status == miopenStatusSuccess)
    {
        if(corrupt)
            store_elem(p.io, dx.p, 0, load_elem(p.io, dx.p, 0) + 1.0f);
        // The reference: per parameter index (channel, or channel and
        // position for per-activation), the sums over the reduced elements.
        std::vector<double> sum_g(np, 0.0), sum_gx(np, 0.0), count(np, 0.0);
        std::vector<double> g(n), xhat(n);
        std::vector<size_t> off(n), pidx(n);
        std::vector<int> idx(size_t(rank), 0);
        for(size_t i = 0; i < n; ++i)
        {
            size_t o_ = 0, pi = 0;
            for(int d = 0; d < rank; ++d)
            {
                o_ += size_t(idx[size_t(d)]) * size_t(st[size_t(d)]);
                if(pd[size_t(d)] != 1)
                    pi += size_t(idx[size_t(d)]) * size_t(ps[size_t(d)]);
            }
            off[i] = o_;
            pidx[i] = pi;
            const double xh = (double(load_elem(p.io, x.p, o_)) - load_elem(miopenFloat, prm[2].p, pi)) *
                              load_elem(miopenFloat, prm[3].p, pi);
            const double v = load_elem(miopenFloat, prm[0].p, pi) * xh + load_elem(miopenFloat, prm[1].p, pi);
            xhat[i] = xh;
            g[i] = derivative(p, v, load_elem(p.io, dy.p, o_));
            sum_g[pi] += g[i];
            sum_gx[pi] += g[i] * xh;
            count[pi] += 1;
            for(int d = rank - 1; d >= 0; --d)
            {
                if(++idx[size_t(d)] < p.dims[size_t(d)])
                    break;
                idx[size_t(d)] = 0;
            }
        }
        auto note = [&](double got, double want) {
            const double err = std::fabs(got - want) / (1.0 + std::fabs(want));
            if(!(err <= o.maxerr))
                o.maxerr = std::isnan(err) ? INFINITY : std::max(o.maxerr, err);
        };
        for(size_t i = 0; i < n; ++i)
        {
            const size_t pi = pidx[i];
            const double m = count[pi];
            const double k = load_elem(miopenFloat, prm[0].p, pi) * load_elem(miopenFloat, prm[3].p, pi) / m;
            note(load_elem(p.io, dx.p, off[i]), k * (m * g[i] - sum_g[pi] - xhat[i] * sum_gx[pi]));
        }
        for(size_t pi = 0; pi < np; ++pi)
        {
            note(load_elem(miopenFloat, prm[4].p, pi), sum_gx[pi]);
            note(load_elem(miopenFloat, prm[5].p, pi), sum_g[pi]);
        }
        if(o.maxerr > tolerance(p.io))
            o.why = "tolerance";
    }
    if(args)
        miopenDestroyOperatorArgs(args);
    if(plan)
        miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
    return o;
}

CaseReport report(long i, const Problem& p, const Outcome& o)
{
    return fusion_report(i, {"bnfusionbwd", p.v2, p.io, p.dims, p.channels_last, p.misaligned != 0, describe(p)}, o);
}

} // namespace

int main(int argc, char** argv) { return bn_case::run_cases(argc, argv, draw, run_case, report); }
