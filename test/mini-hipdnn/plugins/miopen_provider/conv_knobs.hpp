// The MIOpen provider's engine-config knobs (test bed), as hipDNN's provider
// reads them (dnn-providers/miopen-provider: MiopenConvPlanBuilder.cpp
// @026d8d31, MiopenConvFwdPlan.cpp @00cf8105, MiopenUtils.hpp @12f27dda):
//  * global.benchmarking (int64, default 0): nonzero makes the plan's first
//    execution search MIOpen's solvers by running them (the real provider
//    sets MIOpen's tuning policy to Search around its Find; the test bed's
//    MIOpen has no tuning policy, so the provider asks its Find for the
//    exhaustive search and every result, and takes the fastest that fits);
//  * global.workspace_size_limit (int64 bytes, convolutions only): must lie
//    in [the smallest, the largest] workspace of MIOpen's solutions for the
//    problem, else the configuration is refused; the plan then reports the
//    limit as its workspace and runs no solver that needs more.
#pragma once

#include "mini_hipdnn_engine_plugin.h"

#include <miopen/miopen_impl.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace provider
{

constexpr const char* kBenchmarkingKnob = "global.benchmarking";
constexpr const char* kWorkspaceLimitKnob = "global.workspace_size_limit";

struct ConvKnobs
{
    bool benchmarking = false;
    bool hasWorkspaceLimit = false;
    int64_t workspaceLimit = 0;
};

// The provider's knobs among the settings; the others are not its own and
// are ignored.
ConvKnobs readKnobs(const miniHipdnnKnobs_t* knobs);

// The problem's descriptors, in the order MIOpen's calls of the direction
// take them (forward: w, x, y; backward data: dy, w, dx; backward weights:
// dy, x, dw), and the direction.
struct ConvQuery
{
    int32_t kind; // miniHipdnnOpKind_t
    miopenHandle_t handle;
    miopenTensorDescriptor_t a, b, out;
    miopenConvolutionDescriptor_t conv;
};

// How many solutions MIOpen has for the problem (at least one, else false).
bool solutionTotal(const ConvQuery& q, size_t& n, std::string& error);

// The smallest and the largest workspace of MIOpen's solutions for the
// problem (the real provider asks miopenConvolution*GetWorkSpaceSizeRange,
// which the test bed's MIOpen has not: its solution list gives the same).
bool workspaceRange(const ConvQuery& q, size_t& min, size_t& max, std::string& error);

// The workspace the plan reports under the knobs: the limit when one is set
// (after checking it against the range), else `defaultBytes`. False with the
// reason when the limit is refused.
bool plannedWorkspace(const ConvQuery& q, const ConvKnobs& k, size_t defaultBytes, size_t& bytes, std::string& error);

// Counts the benchmarked searches and, under MINI_HIPDNN_TEST_TRACE_EXECUTE,
// says so on stderr (what the knob tests observe).
void noteBenchmark(const char* direction, int results);

} // namespace provider
