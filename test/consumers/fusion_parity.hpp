// What the fusion-plan parity consumers share (fusion_parity_consumer.cpp,
// test/groups/batchnorm/bn_fusion_parity_consumer.cpp): the hash of a case's
// outputs and the case loop. A consumer's Fixture has the handle `h`, the
// case plan's workspace `need`, `reset()` (its outputs to a known pattern)
// and `hash()` (of every output the call may write); its Plan has the fusion
// plan `plan` and its arguments `args`.
#pragma once

#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fusion_parity {

inline std::uint64_t fnv(const void* p, std::size_t n, std::uint64_t h = 1469598103934665603ull)
{
    const auto* b = static_cast<const unsigned char*>(p);
    for(std::size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

// The call under test, given the case's plan; `setup` builds that plan.
template <class Fixture, class Plan>
struct Case
{
    std::string label;
    std::function<Plan(Fixture&)> setup;
    std::function<miopenStatus_t(Fixture&, Plan&)> call;
};

// Each case: its plan built after a `begin` marker of case `setup`, the
// plan's workspace asked (a plan without operators fails that: then the
// case does not use it), the outputs reset, the call run after its own
// marker and reported (consumer_util.hpp's ParityCase), the plan destroyed.
// Returns how many cases meant to be invalid succeeded.
template <class Fixture, class Plan>
int run(Fixture& f, const char* dir, const char* entry, const std::vector<Case<Fixture, Plan>>& cases)
{
    int invalid_succeeded = 0;
    for(const auto& c : cases)
    {
        protocol::begin("setup");
        Plan p = c.setup(f);
        f.need = 0;
        (void)miopenFusionPlanGetWorkSpaceSize(f.h, p.plan, &f.need, miopenConvolutionFwdAlgoDirect);
        f.reset();
        const consumer::ParityCase pc(dir, entry, c.label);
        const miopenStatus_t s = c.call(f, p);
        invalid_succeeded += pc.report(s, f.hash()) ? 1 : 0;
        miopenDestroyOperatorArgs(p.args);
        miopenDestroyFusionPlan(p.plan);
    }
    return invalid_succeeded;
}

} // namespace fusion_parity
