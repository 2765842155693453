// The fused solvers of the test bed: MIOpen's ids, names and operator
// sequences for a gfx9 target built without Composable Kernel, applicability
// as MIOpen checks it (README.md, "Fusion plans", cites the sources).
#pragma once

#include <miopen/miopen.h>

#include <cstdint>
#include <vector>

namespace miopen {

struct FusionPlanDescriptor;

struct FusedSolver
{
    std::uint64_t id;                // MIOpen solver id
    const char* name;                // MIOpen solver name
    bool (*is_applicable)(const FusionPlanDescriptor& plan);
};

// In the order MIOpen's compile tries them: the non-convolution fused solver
// first, then the direct ones.
const std::vector<FusedSolver>& GetFusedSolvers();

// A fused solver id, or null when the id is not one.
const FusedSolver* FindFusedSolver(std::uint64_t id);

} // namespace miopen
