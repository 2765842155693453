// Public entry points of the Find 2.0 API: problems, find options and the
// search (the solution entry points are in solution_api.cpp).
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/problem.hpp>
#include <miopen/solution.hpp>

extern "C" {

// The new problem is written out before the operator descriptor is read, so a
// null operatorDesc fails with *problem already set (to an empty problem).
miopenStatus_t miopenCreateConvProblem(miopenProblem_t* problem,
                                       miopenConvolutionDescriptor_t operatorDesc,
                                       miopenProblemDirection_t direction)
{
    MIOPEN_LOG_FUNCTION(problem, operatorDesc, direction);
    return miopen::try_([&] {
        auto& out         = miopen::deref(problem);
        auto* created     = new miopen::Problem();
        out               = miopen::to_handle(created);
        created->conv     = miopen::deref(operatorDesc);
        created->direction = direction;
    });
}

// Null is accepted, as MIOpen's delete of a null object.
miopenStatus_t miopenDestroyProblem(miopenProblem_t problem)
{
    MIOPEN_LOG_FUNCTION(problem);
    return miopen::try_([&] { delete static_cast<miopen::Problem*>(problem); });
}

// Any id is taken here; miopenFindSolutions checks the set.
miopenStatus_t miopenSetProblemTensorDescriptor(miopenProblem_t problem,
                                                miopenTensorArgumentId_t id,
                                                const miopenTensorDescriptor_t descriptor)
{
    MIOPEN_LOG_FUNCTION(problem, id, descriptor);
    return miopen::try_([&] {
        auto& p = miopen::deref(problem);
        if(!p.RegisterTensorDescriptor(id, miopen::deref(descriptor)))
            MIOPEN_THROW(miopenStatusBadParm,
                         "Attempt to set tensor descriptor with the same name twice in the "
                         "same problem");
    });
}

miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t* options)
{
    MIOPEN_LOG_FUNCTION(options);
    return miopen::try_([&] {
        auto& out = miopen::deref(options);
        out       = miopen::to_handle(new miopen::FindOptions());
    });
}

// Null is accepted, as MIOpen's delete of a null object.
miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options)
{
    MIOPEN_LOG_FUNCTION(options);
    return miopen::try_([&] { delete static_cast<miopen::FindOptions*>(options); });
}

miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return miopen::try_([&] { miopen::deref(options).exhaustive_search = value != 0; });
}

// Any value is stored; an unknown order fails the search (miopenStatusNotImplemented).
miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                               miopenFindResultsOrder_t value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return miopen::try_([&] { miopen::deref(options).results_order = value; });
}

miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options, size_t value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return miopen::try_([&] { miopen::deref(options).workspace_limit = value; });
}

miopenStatus_t
miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options, void* buffer, size_t size)
{
    MIOPEN_LOG_FUNCTION(options, buffer, size);
    return miopen::try_([&] {
        miopen::deref(options).preallocated_workspace = miopen::FindOptions::Workspace{buffer, size};
    });
}

// The first buffer given for an id stays.
miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                     miopenTensorArgumentId_t id,
                                                     void* buffer)
{
    MIOPEN_LOG_FUNCTION(options, id, buffer);
    return miopen::try_([&] { miopen::deref(options).preallocated_tensors.emplace(id, buffer); });
}

// Only 1 attaches; every other value detaches.
miopenStatus_t miopenSetFindOptionAttachBinaries(miopenFindOptions_t options, unsigned attach)
{
    MIOPEN_LOG_FUNCTION(options, attach);
    return miopen::try_([&] { miopen::deref(options).attach_binaries = attach == 1; });
}

// The search runs before `solutions` is looked at: a null array fails only
// when there is a solution to write, after the find-db was updated.
miopenStatus_t miopenFindSolutions(miopenHandle_t handle,
                                   miopenProblem_t problem,
                                   miopenFindOptions_t options,
                                   miopenSolution_t* solutions,
                                   size_t* numSolutions,
                                   size_t maxSolutions)
{
    MIOPEN_LOG_FUNCTION(handle, problem, options, solutions, numSolutions, maxSolutions);
    return miopen::try_([&] {
        auto& h       = miopen::deref(handle);
        const auto& p = miopen::deref(problem);
        p.LogFindDriverCommand();
        const miopen::FindOptions defaults;
        const auto& opts = options == nullptr ? defaults : miopen::deref(options);
        auto found       = p.FindSolutions(h, opts, maxSolutions);
        for(std::size_t i = 0; i < found.size(); ++i)
        {
            auto& slot = miopen::deref(solutions + i);
            slot       = miopen::to_handle(new miopen::Solution(std::move(found[i])));
        }
        if(numSolutions != nullptr)
            *numSolutions = found.size();
    });
}

} // extern "C"
