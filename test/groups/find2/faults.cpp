// The find2 group's fault sequences: miopenFindSolutions on preallocated
// buffers (`find2`: the search the wrapper answers), or without them
// (`find2-observed`: MIOpen's search, whose solutions the wrapper observes),
// then miopenRunSolution of its solution when there is one.
#include "faults.hpp"

namespace {

void find2(miopenHandle_t h, bool observed)
{
    faults::ConvCase p;
    auto& [x, w, y, c, xv, wv, yv] = p;
    std::vector<char> ws(1 << 16);
    miopenProblem_t problem;
    miopenCreateConvProblem(&problem, c, miopenProblemDirectionForward);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, x);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, w);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, y);
    miopenFindOptions_t options;
    miopenCreateFindOptions(&options);
    if(!observed)
    {
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionX, xv.data());
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionW, wv.data());
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionY, yv.data());
        miopenSetFindOptionPreallocatedWorkspace(options, ws.data(), ws.size());
    }
    miopenSolution_t solution = nullptr;
    size_t found              = 0;
    const miopenStatus_t searched = miopenFindSolutions(h, problem, options, &solution, &found, 1);
    faults::report("Find", searched);
    if(searched == miopenStatusSuccess && found == 1)
    {
        yv.assign(yv.size(), 7.0f);
        const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, xv.data()},
                                                {miopenTensorConvolutionW, nullptr, wv.data()},
                                                {miopenTensorConvolutionY, nullptr, yv.data()}};
        faults::report("forward", miopenRunSolution(h, solution, 3, args, ws.data(), ws.size()));
    }
    faults::output(yv[0]);
    faults::after_a_non_forwarded_call();
    if(solution != nullptr)
        miopenDestroySolution(solution);
    miopenDestroyFindOptions(options);
    miopenDestroyProblem(problem);
}

void preallocated(miopenHandle_t h) { find2(h, false); }
void observed(miopenHandle_t h) { find2(h, true); }

const faults::Registration registered[] = {{"find2", preallocated}, {"find2-observed", observed}};

} // namespace
