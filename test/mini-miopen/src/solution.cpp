// Running a Find 2.0 solution: the caller's buffers (and optionally
// descriptors) for X, W and Y, the solver the search chose.
#include <miopen/convolution.hpp>
#include <miopen/driver_arguments.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/solution.hpp>

namespace miopen {

namespace {

struct BoundTensor
{
    const TensorDescriptor* desc;
    void* buffer;
};

BoundTensor Bind(const std::map<miopenTensorArgumentId_t, Solution::RunInput>& inputs,
                 const Problem& problem,
                 miopenTensorArgumentId_t id)
{
    const auto it = inputs.find(id);
    if(it == inputs.end())
        MIOPEN_THROW(miopenStatusInvalidValue,
                     "Problem is missing " + TensorArgumentName(id) + " tensor descriptor.");
    const auto& given = it->second.descriptor;
    return {given ? &*given : &problem.GetTensorDescriptorChecked(id), it->second.buffer};
}

} // namespace

void Solution::LogRunDriverCommand() const
{
    const auto& x = problem.GetTensorDescriptorChecked(miopenTensorConvolutionX);
    const auto& w = problem.GetTensorDescriptorChecked(miopenTensorConvolutionW);
    const auto& y = problem.GetTensorDescriptorChecked(miopenTensorConvolutionY);
    if(IsLoggingCmd())
        debug::LogCmdConvolution(
            x, w, problem.conv, y, debug::ToDriverDirection(problem.GetConvDirection()), solver_id);
}

void Solution::Run(Handle& handle,
                   const std::map<miopenTensorArgumentId_t, RunInput>& inputs,
                   void* workspace_buffer,
                   std::size_t workspace_size) const
{
    if(workspace_size < workspace)
        MIOPEN_THROW(miopenStatusBadParm,
                     "solver " + std::to_string(solver_id) + " requires at least " +
                         std::to_string(workspace) + " workspace, while " +
                         std::to_string(workspace_size) + " was provided");
    const auto x   = Bind(inputs, problem, miopenTensorConvolutionX);
    const auto w   = Bind(inputs, problem, miopenTensorConvolutionW);
    const auto y   = Bind(inputs, problem, miopenTensorConvolutionY);
    const auto dir = problem.GetConvDirection();
    if(dir == ConvDirection::BackwardData &&
       y.desc->GetLengths().at(1) != w.desc->GetLengths().at(0))
        MIOPEN_THROW(miopenStatusBadParm, "dy channels do not match the filter count");

    const ConvProblem p(*x.desc, *w.desc, *y.desc, problem.conv, dir);
    const auto& solver = GetSolver(dir, solver_id);
    void* out          = ConvOutputBuffer(dir, x.buffer, w.buffer, y.buffer);
    RunConvSolution(handle,
                    solver,
                    p,
                    x.buffer,
                    w.buffer,
                    y.buffer,
                    out,
                    workspace_buffer,
                    workspace_size,
                    1.0f,
                    0.0f);
}

} // namespace miopen
