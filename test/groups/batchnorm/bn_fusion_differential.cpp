// Differential test of MIOpen's batchnorm inference -> activation fusion plan
// through the public fusion API (miopenCreateFusionPlan, the two operators,
// miopenCompileFusionPlan, their arguments, miopenExecuteFusionPlan or
// miopenExecuteFusionPlan_v2 with the workspace MIOpen reports): --cases
// random plans from --seed, each result checked against this program's own
// double-precision reference. test/consumers/check_differential.py runs it
// disabled and enabled on each hipDNN engine and compares outcomes and routing.
//
// Plans: mostly what the wrapper forwards (4-D packed NCHW, fp32 / fp16 x,
// fp32 parameters, spatial, RELU / CLIPPEDRELU / CLAMP, any epsilon); some it
// declines (NHWC, 5-D, bf16, fp16 parameters, per-activation, PASTHRU, a
// clip not exact in fp32, x off the 16-byte alignment), which MIOpen runs.
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
    miopenDataType_t io = miopenFloat, param = miopenFloat;
    miopenBatchNormMode_t mode = miopenBNSpatial;
    miopenActivationMode_t act = miopenActivationRELU;
    double alpha = 0, beta = 0, epsilon = 1e-5;
    bool v2 = false;
    int misaligned = 0; // bytes x's pointer is off
};

const char* act_name(miopenActivationMode_t a)
{
    return a == miopenActivationRELU ? "relu" : a == miopenActivationCLIPPEDRELU ? "clippedrelu"
                                              : a == miopenActivationCLAMP       ? "clamp"
                                                                                 : "passthru";
}

Problem draw(Rng& r)
{
    Problem p;
    const int rank = r.chance(0.04) ? 5 : 4;
    p.dims = {r.range(1, 3), r.range(1, 6)};
    for(int d = 2; d < rank; ++d)
        p.dims.push_back(r.range(1, 5));
    p.channels_last = r.chance(0.06);
    p.io = r.chance(0.03) ? miopenBFloat16 : r.chance(0.35) ? miopenHalf : miopenFloat;
    p.param = p.io == miopenHalf && r.chance(0.05) ? miopenHalf : miopenFloat;
    if(r.chance(0.03))
        p.mode = miopenBNPerActivation;
    const double pick = double(r.range(0, 99));
    p.act = pick < 50 ? miopenActivationRELU : pick < 75 ? miopenActivationCLIPPEDRELU
                                           : pick < 97 ? miopenActivationCLAMP
                                                       : miopenActivationPASTHRU;
    // Clips exact in fp32 (quarters), rarely one that is not.
    p.alpha = p.act == miopenActivationCLAMP ? -0.25 * r.range(0, 4) : 0.25 * r.range(1, 8);
    p.beta  = 0.25 * r.range(1, 8);
    if(r.chance(0.02))
        p.alpha += 0.1;
    p.epsilon = std::ldexp(1.0 + r.value(), -r.range(3, 17));
    p.v2      = r.chance(0.5);
    if(r.chance(0.04))
        p.misaligned = p.io == miopenFloat ? 4 : 2;
    return p;
}

double activate(const Problem& p, double v)
{
    switch(p.act)
    {
    case miopenActivationRELU: return std::max(0.0, v);
    case miopenActivationCLIPPEDRELU: return std::min(double(float(p.alpha)), std::max(0.0, v));
    case miopenActivationCLAMP: return std::min(double(float(p.beta)), std::max(double(float(p.alpha)), v));
    default: return v;
    }
}

std::string describe(const Problem& p)
{
    std::string s = "x=";
    for(size_t i = 0; i < p.dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(p.dims[i]);
    s += std::string(" ") + (p.channels_last ? "NHWC" : "NCHW") + " " + type_name(p.io) + " param=" + type_name(p.param);
    s += std::string(" mode=") + (p.mode == miopenBNSpatial ? "spatial" : "per-activation");
    s += std::string(" act=") + act_name(p.act) + " a=" + std::to_string(p.alpha) + " b=" + std::to_string(p.beta);
    char eps[40];
    std::snprintf(eps, sizeof eps, " eps=%.17g", p.epsilon);
    s += eps;
    if(p.misaligned)
        s += " x+" + std::to_string(p.misaligned) + "B";
    return s;
}

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
    // 16-byte aligned storage (+ the misalignment), as a device allocation is.
    std::vector<std::uint64_t> xs((n * 4 + 64) / 8 + 2), ys((n * 4 + 64) / 8 + 2);
    char* x = reinterpret_cast<char*>(xs.data()) + ((16 - reinterpret_cast<std::uintptr_t>(xs.data()) % 16) % 16) + p.misaligned;
    char* y = reinterpret_cast<char*>(ys.data()) + ((16 - reinterpret_cast<std::uintptr_t>(ys.data()) % 16) % 16);
    std::vector<std::uint64_t> prm[4];
    char* pp[4];
    for(int k = 0; k < 4; ++k)
    {
        prm[k].assign((np * 4 + 64) / 8 + 2, 0);
        pp[k] = reinterpret_cast<char*>(prm[k].data()) + ((16 - reinterpret_cast<std::uintptr_t>(prm[k].data()) % 16) % 16);
    }
    for(size_t i = 0; i < n; ++i)
    {
        store_elem(p.io, x, i, r.value() * 3.0f);
        store_elem(p.io, y, i, -7.0f);
    }
    for(size_t i = 0; i < np; ++i)
    {
        store_elem(p.param, pp[0], i, r.value() * 2.0f);           // scale
        store_elem(p.param, pp[1], i, r.value());                  // bias
        store_elem(p.param, pp[2], i, r.value());                  // mean
        store_elem(p.param, pp[3], i, 0.25f + std::fabs(r.value())); // variance
    }
    miopenTensorDescriptor_t xd = nullptr, pdd = nullptr;
    miopenCreateTensorDescriptor(&xd);
    miopenCreateTensorDescriptor(&pdd);
    miopenSetTensorDescriptor(xd, p.io, rank, p.dims.data(), st.data());
    miopenSetTensorDescriptor(pdd, p.param, rank, pd.data(), ps.data());
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
        if(fail("op", miopenCreateOpBatchNormInference(plan, &bn, p.mode, pdd)))
            break;
        if(fail("op", miopenCreateOpActivationForward(plan, &act, p.act)))
            break;
        if(fail("compile", miopenCompileFusionPlan(h, plan)))
            break;
        if(fail("args", miopenCreateOperatorArgs(&args)))
            break;
        if(fail("args", miopenSetOpArgsBatchNormInference(args, bn, &one, &zero, pp[0], pp[1], pp[2], pp[3], p.epsilon)))
            break;
        if(fail("args", miopenSetOpArgsActivForward(args, act, &one, &zero, p.alpha, p.beta, 1.0)))
            break;
        if(p.v2)
        {
            size_t need = 0;
            if(fail("workspace", miopenFusionPlanGetWorkSpaceSize(h, plan, &need, miopenConvolutionFwdAlgoDirect)))
                break;
            ws.assign(need + 16, 0);
            char* w = ws.data() + ((16 - reinterpret_cast<std::uintptr_t>(ws.data()) % 16) % 16);
            fail("compute", miopenExecuteFusionPlan_v2(h, plan, xd, x, xd, y, args, need ? w : nullptr, need));
        }
        else
            fail("compute", miopenExecuteFusionPlan(h, plan, xd, x, xd, y, args));
    } while(false);
    if(o.status == miopenStatusSuccess)
    {
        if(corrupt)
            store_elem(p.io, y, 0, load_elem(p.io, y, 0) + 1.0f);
        std::vector<int> idx(size_t(rank), 0);
        for(size_t i = 0; i < n; ++i)
        {
            size_t off = 0, pi = 0;
            for(int d = 0; d < rank; ++d)
            {
                off += size_t(idx[size_t(d)]) * size_t(st[size_t(d)]);
                if(pd[size_t(d)] != 1)
                    pi += size_t(idx[size_t(d)]) * size_t(ps[size_t(d)]);
            }
            const double xv = load_elem(p.io, x, off);
            const double v  = load_elem(p.param, pp[0], pi) * (xv - load_elem(p.param, pp[2], pi)) /
                                 std::sqrt(double(load_elem(p.param, pp[3], pi)) + p.epsilon) +
                             load_elem(p.param, pp[1], pi);
            const double want = activate(p, v);
            const double got  = load_elem(p.io, y, off);
            const double err  = std::fabs(got - want) / (1.0 + std::fabs(want));
            if(!(err <= o.maxerr))
                o.maxerr = std::isnan(err) ? INFINITY : std::max(o.maxerr, err);
            for(int d = rank - 1; d >= 0; --d)
            {
                if(++idx[size_t(d)] < p.dims[size_t(d)])
                    break;
                idx[size_t(d)] = 0;
            }
        }
        if(o.maxerr > tolerance(p.io))
            o.why = "tolerance";
    }
    if(args)
        miopenDestroyOperatorArgs(args);
    if(plan)
        miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(pdd);
    miopenDestroyTensorDescriptor(xd);
    return o;
}

CaseReport report(long i, const Problem& p, const Outcome& o)
{
    return fusion_report(i, {"bnfusion", p.v2, p.io, p.dims, p.channels_last, p.misaligned != 0, describe(p)}, o);
}

} // namespace

int main(int argc, char** argv) { return bn_case::run_cases(argc, argv, draw, run_case, report); }
