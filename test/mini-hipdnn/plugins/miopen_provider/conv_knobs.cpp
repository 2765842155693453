// The MIOpen provider's engine-config knobs (test bed): conv_knobs.hpp.
#include "conv_knobs.hpp"
#include "provider_types.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace provider
{

ConvKnobs readKnobs(const miniHipdnnKnobs_t* knobs)
{
    ConvKnobs k;
    if(knobs == nullptr || knobs->settings == nullptr)
    {
        return k;
    }
    for(int32_t i = 0; i < knobs->count; ++i)
    {
        const auto& s = knobs->settings[i];
        if(s.id == nullptr)
        {
            continue;
        }
        if(std::strcmp(s.id, kBenchmarkingKnob) == 0)
        {
            k.benchmarking = s.value != 0;
        }
        else if(std::strcmp(s.id, kWorkspaceLimitKnob) == 0)
        {
            k.hasWorkspaceLimit = true;
            k.workspaceLimit = s.value;
        }
    }
    return k;
}

namespace
{
miopenStatus_t solutionCount(const ConvQuery& q, size_t* n)
{
    switch(q.kind)
    {
    case MINI_HIPDNN_OP_CONV_FWD:
        return miopenConvolutionForwardGetSolutionCount_impl(q.handle, q.a, q.b, q.conv, q.out, n);
    case MINI_HIPDNN_OP_CONV_BWD_DATA:
        return miopenConvolutionBackwardDataGetSolutionCount_impl(q.handle, q.a, q.b, q.conv, q.out, n);
    default: return miopenConvolutionBackwardWeightsGetSolutionCount_impl(q.handle, q.a, q.b, q.conv, q.out, n);
    }
}

miopenStatus_t solutions(const ConvQuery& q, size_t max, size_t* n, miopenConvSolution_t* out)
{
    switch(q.kind)
    {
    case MINI_HIPDNN_OP_CONV_FWD:
        return miopenConvolutionForwardGetSolution_impl(q.handle, q.a, q.b, q.conv, q.out, max, n, out);
    case MINI_HIPDNN_OP_CONV_BWD_DATA:
        return miopenConvolutionBackwardDataGetSolution_impl(q.handle, q.a, q.b, q.conv, q.out, max, n, out);
    default: return miopenConvolutionBackwardWeightsGetSolution_impl(q.handle, q.a, q.b, q.conv, q.out, max, n, out);
    }
}

std::atomic<long> gBenchmarks{0};
} // namespace

bool solutionTotal(const ConvQuery& q, size_t& n, std::string& error)
{
    if(!succeeded(solutionCount(q, &n), "miopenConvolution*GetSolutionCount", error))
    {
        return false;
    }
    if(n == 0)
    {
        error = "MIOpen provider: MIOpen has no solution for the problem";
        return false;
    }
    return true;
}

bool workspaceRange(const ConvQuery& q, size_t& min, size_t& max, std::string& error)
{
    size_t count = 0;
    if(!solutionTotal(q, count, error))
    {
        return false;
    }
    std::vector<miopenConvSolution_t> list(count);
    size_t got = 0;
    if(!succeeded(solutions(q, count, &got, list.data()), "miopenConvolution*GetSolution", error))
    {
        return false;
    }
    list.resize(std::min(got, count));
    if(list.empty())
    {
        error = "MIOpen provider: MIOpen listed no solution for the problem";
        return false;
    }
    auto bytes = [](const miopenConvSolution_t& s) { return s.workspace_size; };
    min = bytes(*std::min_element(list.begin(), list.end(), [&](auto& l, auto& r) { return bytes(l) < bytes(r); }));
    max = bytes(*std::max_element(list.begin(), list.end(), [&](auto& l, auto& r) { return bytes(l) < bytes(r); }));
    return true;
}

bool plannedWorkspace(const ConvQuery& q, const ConvKnobs& k, size_t defaultBytes, size_t& bytes, std::string& error)
{
    if(!k.hasWorkspaceLimit)
    {
        bytes = defaultBytes;
        return true;
    }
    if(k.workspaceLimit < 0)
    {
        error = "invalid global.workspace_size_limit " + std::to_string(k.workspaceLimit) + ": must be >= 0";
        return false;
    }
    size_t min = 0, max = 0;
    if(!workspaceRange(q, min, max, error))
    {
        return false;
    }
    const auto limit = static_cast<size_t>(k.workspaceLimit);
    if(limit < min || limit > max)
    {
        error = "invalid global.workspace_size_limit " + std::to_string(limit) + ": outside ["
                + std::to_string(min) + ", " + std::to_string(max) + "], the workspaces of MIOpen's solutions";
        return false;
    }
    bytes = limit;
    return true;
}

void noteBenchmark(const char* direction, int results)
{
    const long n = ++gBenchmarks;
    const char* trace = std::getenv("MINI_HIPDNN_TEST_TRACE_EXECUTE");
    if(trace != nullptr && trace[0] != '\0' && std::strcmp(trace, "0") != 0)
    {
        std::fprintf(stderr,
                     "mini-hipdnn: MIOpen provider: benchmarked %s search #%ld (exhaustive Find, %d results)\n",
                     direction,
                     n,
                     results);
    }
}

} // namespace provider
