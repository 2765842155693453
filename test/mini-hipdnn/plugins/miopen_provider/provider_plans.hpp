// The MIOpen provider's plans of the op folders (test bed): each
// test/mini-hipdnn/ops/<op>/provider/ registers its plan with a static
// PlanRegistration; the provider offers a graph a registered plan claims to
// that plan only, and the rest to its convolution plans, so no shared file
// names an op folder's operation.
#pragma once

#include "mini_hipdnn_engine_plugin.h"

#include <cstdint>
#include <string>

namespace provider
{

struct Plan
{
    const char* name;
    // Whether the graph is this plan's to take or decline (e.g. one
    // operation of its kinds); a claimed graph goes to no other plan.
    bool (*claims)(const miniHipdnnGraph_t& g);
    // Whether the plan's applicability checks accept it; `why` says what declined it.
    bool (*matches)(const miniHipdnnGraph_t& g, std::string& why);
    // Bytes of workspace it needs (the knobs' workspace limit is the
    // convolutions' only, as in hipDNN's provider).
    int64_t (*workspace)(const miniHipdnnGraph_t& g);
    // Runs it; false with `error` set on failure.
    bool (*execute)(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error);
};

// Registers `p` (static storage) at load.
struct PlanRegistration
{
    explicit PlanRegistration(const Plan& p);
};

// The registered plan that claims the graph, or null.
const Plan* planFor(const miniHipdnnGraph_t* g);

} // namespace provider
