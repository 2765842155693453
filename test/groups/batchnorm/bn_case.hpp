// What the batchnorm group's differential programs share (bn_differential,
// bn_fusion_differential, bn_fusion_bwd_differential): the names and
// tolerances of their case records, a layout's strides and the per-channel
// shape; and, for the two fusion-plan programs, the case record, the command
// line and the case loop (one random stream per case, so a case is
// reproducible alone).
#pragma once

#include <miopen/miopen.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "differential_util.hpp"

namespace bn_case {

inline const char* type_name(miopenDataType_t t) { return t == miopenFloat ? "fp32" : t == miopenHalf ? "fp16" : "bf16"; }

// The largest error a result of storage type `t` may have against the double reference.
inline double tolerance(miopenDataType_t t) { return t == miopenFloat ? 1e-4 : t == miopenHalf ? 4e-3 : 3e-2; }

// Strides in elements: packed in NCHW order or channels last, the innermost
// dimension's rows padded by `pad` elements.
inline std::vector<int> strides_of(const std::vector<int>& dims, bool channels_last, int pad = 0)
{
    const int rank = static_cast<int>(dims.size());
    std::vector<int> order = {0};
    if(!channels_last)
        order.push_back(1);
    for(int d = 2; d < rank; ++d)
        order.push_back(d);
    if(channels_last)
        order.push_back(1);
    std::vector<int> s(size_t(rank), 0);
    int e = 1;
    for(auto it = order.rbegin(); it != order.rend(); ++it)
    {
        s[size_t(*it)] = e;
        e *= dims[size_t(*it)] + (it == order.rbegin() ? pad : 0);
    }
    return s;
}

// Per channel (1, C, 1, ...) or per activation (1, C, [D,] H, W).
inline std::vector<int> param_dims(const std::vector<int>& dims, miopenBatchNormMode_t mode)
{
    std::vector<int> d(dims.size(), 1);
    for(size_t i = 1; i < d.size(); ++i)
        d[i] = i == 1 || mode == miopenBNPerActivation ? dims[i] : 1;
    return d;
}

// Packed strides of `d` in its own order.
inline std::vector<int> packed(const std::vector<int>& d)
{
    std::vector<int> s(d.size(), 1);
    for(int i = int(d.size()) - 2; i >= 0; --i)
        s[size_t(i)] = s[size_t(i) + 1] * d[size_t(i) + 1];
    return s;
}

inline const char* layout_name(const std::vector<int>& dims, bool channels_last)
{
    const bool five = dims.size() == 5;
    return channels_last ? (five ? "NDHWC" : "NHWC") : (five ? "NCDHW" : "NCHW");
}

// A fusion-plan case's result: the status, the step that returned it, the
// largest error against the reference and why the case failed, if it did.
struct FusionOutcome
{
    miopenStatus_t status = miopenStatusSuccess;
    std::string step = "-";
    double maxerr = 0;
    std::string why;
};

// What a fusion-plan case's record says of its problem.
struct FusionCase
{
    const char* dir; // the direction word of the case lines
    bool v2;         // miopenExecuteFusionPlan_v2, else miopenExecuteFusionPlan
    miopenDataType_t io;
    const std::vector<int>& dims;
    bool channels_last;
    bool misaligned;
    std::string description;
};

inline differential::CaseReport fusion_report(long i, const FusionCase& c, const FusionOutcome& o)
{
    differential::CaseReport r;
    r.index      = i;
    r.dir        = c.dir;
    r.api        = c.v2 ? "v2" : "v1";
    r.type       = type_name(c.io);
    r.layout     = layout_name(c.dims, c.channels_last);
    r.rank       = std::to_string(c.dims.size()) + "d";
    r.entry      = c.v2 ? "miopenExecuteFusionPlan_v2" : "miopenExecuteFusionPlan";
    r.problem    = std::string(c.dir) + " " + c.description;
    r.misaligned = c.misaligned;
    r.types      = {type_name(c.io)};
    r.status     = o.status;
    r.step       = o.step;
    r.maxerr     = o.maxerr;
    r.tol        = tolerance(c.io);
    r.why        = differential::words(o.why);
    return r;
}

// A fusion-plan program's main: [--cases N] [--seed S] [--corrupt-case I];
// each case's problem drawn (`draw(rng)`), run (`run(handle, problem, rng,
// corrupt)`) and recorded (`report(index, problem, outcome)`).
template <class Draw, class Run, class Report>
int run_cases(int argc, char** argv, Draw draw, Run run, Report report)
{
    long cases = 1000, corrupt_case = -1;
    unsigned long long seed = 1;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        const std::string a = argv[i];
        const unsigned long long v = std::strtoull(argv[i + 1], nullptr, 10);
        if(a == "--cases")
            cases = long(v);
        else if(a == "--seed")
            seed = v;
        else if(a == "--corrupt-case")
            corrupt_case = long(v);
        else
        {
            std::fprintf(stderr, "usage: %s [--cases N] [--seed S] [--corrupt-case I]\n", argv[0]);
            return 2;
        }
    }
    miopenHandle_t h = nullptr;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    differential::Tally tally;
    for(long i = 0; i < cases; ++i)
    {
        differential::Rng r{differential::mix64(seed * 0x100000001B3ull + std::uint64_t(i))};
        const auto p = draw(r);
        protocol::begin(i);
        tally.report(report(i, p, run(h, p, r, i == corrupt_case)));
    }
    protocol::end();
    miopenDestroy(h);
    return tally.finish();
}

} // namespace bn_case
