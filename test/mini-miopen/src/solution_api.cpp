// Public entry points of the Find 2.0 API: running, saving, loading and
// querying solutions.
//
// Where MIOpen writes through an output pointer without a check (workspace
// size, time, solver id, algorithm) the test bed reports miopenStatusBadParm
// instead of crashing.
#include <miopen/convolution.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/solution.hpp>

#include <cstring>

namespace {

// The arguments by id; the first one given for an id is used.
std::map<miopenTensorArgumentId_t, miopen::Solution::RunInput>
RunInputs(size_t nInputs, const miopenTensorArgument_t* tensors)
{
    std::map<miopenTensorArgumentId_t, miopen::Solution::RunInput> inputs;
    if(nInputs != 0 && tensors == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "tensors cannot be nullptr");
    for(size_t i = 0; i < nInputs; ++i)
    {
        miopen::Solution::RunInput in;
        in.buffer = tensors[i].buffer;
        if(tensors[i].descriptor != nullptr)
            in.descriptor = miopen::deref(*tensors[i].descriptor);
        inputs.emplace(tensors[i].id, std::move(in));
    }
    return inputs;
}

std::vector<char>& SerializationCache(miopen::Solution& s)
{
    if(s.serialization_cache.empty())
        s.serialization_cache = s.Serialize();
    return s.serialization_cache;
}

} // namespace

extern "C" {

miopenStatus_t miopenRunSolution(miopenHandle_t handle,
                                 miopenSolution_t solution,
                                 size_t nInputs,
                                 const miopenTensorArgument_t* tensors,
                                 void* workspace,
                                 size_t workspaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, solution, nInputs, tensors, workspace, workspaceSize);
    return miopen::try_([&] {
        auto& h       = miopen::deref(handle);
        const auto& s = miopen::deref(solution);
        s.LogRunDriverCommand();
        s.Run(h, RunInputs(nInputs, tensors), workspace, workspaceSize);
    });
}

// Null is accepted, as MIOpen's delete of a null object.
miopenStatus_t miopenDestroySolution(miopenSolution_t solution)
{
    MIOPEN_LOG_FUNCTION(solution);
    return miopen::try_([&] { delete static_cast<miopen::Solution*>(solution); });
}

miopenStatus_t miopenLoadSolution(miopenSolution_t* solution, const char* data, size_t size)
{
    MIOPEN_LOG_FUNCTION(solution, data, size);
    return miopen::try_([&] {
        if(data == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Data parameter should not be a nullptr.");
        auto loaded = miopen::Solution::Deserialize(data, size);
        auto& out   = miopen::deref(solution);
        out         = miopen::to_handle(new miopen::Solution(std::move(loaded)));
    });
}

// Writes the blob miopenGetSolutionSize measured (or a fresh one) and drops it.
miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char* data)
{
    MIOPEN_LOG_FUNCTION(solution, data);
    return miopen::try_([&] {
        if(data == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Data parameter should not be a nullptr.");
        auto& s            = miopen::deref(solution);
        const auto& blob   = SerializationCache(s);
        std::memcpy(data, blob.data(), blob.size());
        s.serialization_cache.clear();
    });
}

miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t* size)
{
    MIOPEN_LOG_FUNCTION(solution);
    return miopen::try_([&] {
        if(size == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Size parameter should not be a nullptr.");
        *size = SerializationCache(miopen::deref(solution)).size();
    });
}

miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution, size_t* workspaceSize)
{
    MIOPEN_LOG_FUNCTION(solution);
    return miopen::try_(
        [&] { miopen::deref(workspaceSize) = miopen::deref(solution).workspace; });
}

miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float* time)
{
    MIOPEN_LOG_FUNCTION(solution);
    return miopen::try_([&] { miopen::deref(time) = miopen::deref(solution).time; });
}

miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution, uint64_t* solverId)
{
    MIOPEN_LOG_FUNCTION(solution);
    return miopen::try_([&] { miopen::deref(solverId) = miopen::deref(solution).solver_id; });
}

// miopenStatusInvalidValue for an id that names no solver and for a fused
// solver's id (not a convolution primitive).
miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId, miopenConvAlgorithm_t* result)
{
    MIOPEN_LOG_FUNCTION(solverId);
    return miopen::try_([&] {
        const auto* solver = miopen::FindConvSolverById(solverId);
        if(solver == nullptr)
            MIOPEN_THROW(miopenStatusInvalidValue, "Not a convolution solver id");
        miopen::deref(result) = solver->algorithm;
    });
}

} // extern "C"
