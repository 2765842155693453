// A Find 2.0 solution (miopenSolution_t): the solver, the workspace it needs,
// the time the search measured, and a copy of the problem it solves.
// MIOpen's behaviour this follows: README.md, "Find 2.0".
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/problem.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace miopen {

struct Solution : miopenSolution
{
    // One miopenTensorArgument_t: a descriptor replacing the problem's, if given.
    struct RunInput
    {
        std::optional<TensorDescriptor> descriptor;
        void* buffer = nullptr;
    };

    float time             = 0.0f;
    std::size_t workspace  = 0;
    std::uint64_t solver_id = 0;
    Problem problem;
    // The blob miopenGetSolutionSize measured, kept for the next
    // miopenSaveSolution, which writes it and then drops it.
    std::vector<char> serialization_cache;

    // The MIOpenDriver line miopenRunSolution logs (MIOPEN_ENABLE_LOGGING_CMD),
    // "-S <solver id>".
    void LogRunDriverCommand() const;
    void Run(Handle& handle,
             const std::map<miopenTensorArgumentId_t, RunInput>& inputs,
             void* workspace_buffer,
             std::size_t workspace_size) const;

    std::vector<char> Serialize() const;
    // miopenStatusInvalidValue for a blob that is not a solution,
    // miopenStatusVersionMismatch for one of another format version,
    // miopenStatusUnknownError when it cannot be parsed.
    static Solution Deserialize(const char* data, std::size_t size);
};

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenSolution, miopen::Solution)
