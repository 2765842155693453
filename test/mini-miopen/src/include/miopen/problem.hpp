// The Find 2.0 problem and its find options (miopenProblem_t,
// miopenFindOptions_t). Only convolution problems exist in the test bed.
// MIOpen's behaviour this follows: README.md, "Find 2.0".
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/convolution.hpp>
#include <miopen/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace miopen {

struct Handle;
struct Solution;

struct FindOptions : miopenFindOptions
{
    struct Workspace
    {
        void* buffer;
        std::size_t size;
    };

    bool exhaustive_search                 = false; // stored; the CPU search is always complete
    miopenFindResultsOrder_t results_order = miopenFindResultsOrderByTime;
    std::size_t workspace_limit            = std::numeric_limits<std::size_t>::max();
    std::map<miopenTensorArgumentId_t, void*> preallocated_tensors; // first buffer per id wins
    std::optional<Workspace> preallocated_workspace;
    bool attach_binaries = false; // stored; there are no kernel binaries
};

struct Problem : miopenProblem
{
    ConvolutionDescriptor conv; // a copy, taken when the problem is created
    miopenProblemDirection_t direction = miopenProblemDirectionForward;
    std::map<miopenTensorArgumentId_t, TensorDescriptor> tensors;

    // False (and nothing changes) when the id already has a descriptor.
    bool RegisterTensorDescriptor(miopenTensorArgumentId_t id, const TensorDescriptor& d);
    // miopenStatusInvalidValue "Problem is missing <name> tensor descriptor." when absent.
    const TensorDescriptor& GetTensorDescriptorChecked(miopenTensorArgumentId_t id) const;
    // The convolution direction; miopenStatusNotImplemented for the others.
    ConvDirection GetConvDirection() const;

    // The solutions a search finds, best per algorithm, at most max_solutions,
    // ordered as the options say.
    std::vector<Solution>
    FindSolutions(Handle& handle, const FindOptions& options, std::size_t max_solutions) const;
    // The MIOpenDriver line miopenFindSolutions logs (MIOPEN_ENABLE_LOGGING_CMD).
    // X, W and Y must be registered, logging or not.
    void LogFindDriverCommand() const;
};

// "miopenTensorConvolutionX" and the like, as MIOpen's messages name them.
std::string TensorArgumentName(miopenTensorArgumentId_t id);

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenFindOptions, miopen::FindOptions)
MIOPEN_DEFINE_OBJECT(miopenProblem, miopen::Problem)
