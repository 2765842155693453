// Public entry points of the convolution family, plus the two hidden
// find-mode entry points (exported, but only declared in find_controls.hpp).
#include <miopen/convolution.hpp>
#include <miopen/driver_arguments.hpp>
#include <miopen/errors.hpp>
#include <miopen/find_controls.hpp>
#include <miopen/find_db.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

#include <algorithm>

namespace {

using miopen::ConvDirection;
using miopen::ConvProblem;

// Rough time guess used by the solution API when the find-db has nothing:
// proportional to the multiply-accumulate count, GEMM a bit slower.
float EstimateTime(const miopen::ConvSolver& s, const ConvProblem& p)
{
    double macs = static_cast<double>(p.y.GetElementSize());
    const auto& wl = p.w.GetLengths();
    for(std::size_t i = 1; i < wl.size(); ++i)
        macs *= static_cast<double>(wl[i]);
    const double factor = s.algorithm == miopenConvolutionAlgoGEMM ? 2e-6 : 1e-6;
    return static_cast<float>(macs * factor);
}

// The applicable solutions of a problem, best first: the find-db order when
// the problem was searched before, the heuristic order otherwise.
std::vector<miopenConvSolution_t> ListSolutions(const ConvProblem& p)
{
    std::vector<miopenConvSolution_t> out;
    if(const auto recorded = miopen::FindDbLoad(p.Key()))
    {
        for(const auto& e : *recorded)
        {
            const auto* s = miopen::FindSolverByName(e.solver);
            if(s != nullptr && s->direction == p.direction && s->id == e.solver_id)
                out.push_back({e.time_ms, e.workspace, s->id, s->algorithm});
        }
        std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
            return a.time < b.time;
        });
    }
    if(out.empty())
    {
        for(const auto& s : miopen::GetSolvers(p.direction))
            out.push_back(
                {EstimateTime(s, p), miopen::GetSolverWorkspaceSize(s, p), s.id, s.algorithm});
    }
    return out;
}

void GetSolutions(const ConvProblem& p,
                  size_t maxSolutionCount,
                  size_t* solutionCount,
                  miopenConvSolution_t* solutions)
{
    if(maxSolutionCount < 1)
        MIOPEN_THROW(miopenStatusBadParm, "maxSolutionCount cannot be < 1");
    auto& count = miopen::deref(solutionCount);
    if(solutions == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "solutions cannot be nullptr");
    const auto list = ListSolutions(p);
    count           = std::min(list.size(), maxSolutionCount);
    std::copy_n(list.begin(), count, solutions);
}

// Shared part of the three Find*Algorithm entry points.
template <class AlgoField>
void FindAlgorithms(miopen::Handle& handle,
                    const ConvProblem& p,
                    miopenConvolutionDescriptor_t convDesc,
                    const void* x,
                    const void* w,
                    const void* y,
                    void* out,
                    int requestAlgoCount,
                    int* returnedAlgoCount,
                    miopenConvAlgoPerf_t* perfResults,
                    void* workSpace,
                    size_t workSpaceSize,
                    AlgoField field)
{
    if(x == nullptr || w == nullptr || y == nullptr || out == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");
    if(returnedAlgoCount == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "returnedAlgoCount cannot be nullptr");
    if(perfResults == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "perfResults cannot be nullptr");
    if(requestAlgoCount < 1)
        MIOPEN_THROW(miopenStatusBadParm, "requestAlgoCount cannot be < 1");

    const auto results =
        miopen::FindConvolution(handle, p, convDesc, x, w, y, out, workSpace, workSpaceSize);
    const auto n = std::min<std::size_t>(results.size(), static_cast<std::size_t>(requestAlgoCount));
    for(std::size_t i = 0; i < n; ++i)
    {
        const auto* s = miopen::FindSolverByName(results[i].solver);
        miopenConvAlgoPerf_t perf{};
        // The three algorithm enums share their numbering with miopenConvAlgorithm_t.
        perf.*field = static_cast<std::remove_reference_t<decltype(perf.*field)>>(s->algorithm);
        perf.time   = results[i].time_ms;
        perf.memory = results[i].workspace;
        perfResults[i] = perf;
    }
    *returnedAlgoCount = static_cast<int>(n);
}

ConvProblem FwdProblem(miopenTensorDescriptor_t xDesc,
                       miopenTensorDescriptor_t wDesc,
                       miopenConvolutionDescriptor_t convDesc,
                       miopenTensorDescriptor_t yDesc)
{
    return {miopen::deref(xDesc),
            miopen::deref(wDesc),
            miopen::deref(yDesc),
            miopen::deref(convDesc),
            ConvDirection::Forward};
}

ConvProblem BwdDataProblem(miopenTensorDescriptor_t dyDesc,
                           miopenTensorDescriptor_t wDesc,
                           miopenConvolutionDescriptor_t convDesc,
                           miopenTensorDescriptor_t dxDesc)
{
    return {miopen::deref(dxDesc),
            miopen::deref(wDesc),
            miopen::deref(dyDesc),
            miopen::deref(convDesc),
            ConvDirection::BackwardData};
}

ConvProblem BwdWeightsProblem(miopenTensorDescriptor_t dyDesc,
                              miopenTensorDescriptor_t xDesc,
                              miopenConvolutionDescriptor_t convDesc,
                              miopenTensorDescriptor_t dwDesc)
{
    return {miopen::deref(xDesc),
            miopen::deref(dwDesc),
            miopen::deref(dyDesc),
            miopen::deref(convDesc),
            ConvDirection::BackwardWeights};
}

} // namespace

extern "C" miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return miopen::try_([&] {
        auto& out = miopen::deref(convDesc);
        out       = miopen::to_handle(new miopen::ConvolutionDescriptor());
    });
}

extern "C" miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                          miopenConvolutionMode_t c_mode,
                                                          int pad_h,
                                                          int pad_w,
                                                          int stride_h,
                                                          int stride_w,
                                                          int dilation_h,
                                                          int dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w);
    return miopen::try_([&] {
        auto& desc = miopen::deref(convDesc);
        desc       = miopen::ConvolutionDescriptor(
            {pad_h, pad_w}, {stride_h, stride_w}, {dilation_h, dilation_w}, c_mode);
    });
}

extern "C" miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            int spatialDim,
                                                            const int* padA,
                                                            const int* strideA,
                                                            const int* dilationA,
                                                            miopenConvolutionMode_t c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim, padA, strideA, dilationA, c_mode);
    return miopen::try_([&] {
        auto& desc = miopen::deref(convDesc);
        if(spatialDim < 1)
            MIOPEN_THROW(miopenStatusBadParm, "spatialDim must be >= 1");
        if(padA == nullptr || strideA == nullptr || dilationA == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null parameter array");
        desc = miopen::ConvolutionDescriptor({padA, padA + spatialDim},
                                             {strideA, strideA + spatialDim},
                                             {dilationA, dilationA + spatialDim},
                                             c_mode);
    });
}

extern "C" miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                         int* spatialDim)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim);
    return miopen::try_(
        [&] { miopen::deref(spatialDim) = miopen::deref(convDesc).GetSpatialDim(); });
}

extern "C" miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                         miopenConvolutionMode_t* c_mode,
                                                         int* pad_h,
                                                         int* pad_w,
                                                         int* stride_h,
                                                         int* stride_w,
                                                         int* dilation_h,
                                                         int* dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w);
    return miopen::try_([&] {
        const auto& desc = miopen::deref(convDesc);
        if(desc.GetSpatialDim() != 2)
            MIOPEN_THROW("this API only deals with 2-D convolution");
        miopen::deref(c_mode)     = desc.GetMode();
        miopen::deref(pad_h)      = desc.GetPads()[0];
        miopen::deref(pad_w)      = desc.GetPads()[1];
        miopen::deref(stride_h)   = desc.GetStrides()[0];
        miopen::deref(stride_w)   = desc.GetStrides()[1];
        miopen::deref(dilation_h) = desc.GetDilations()[0];
        miopen::deref(dilation_w) = desc.GetDilations()[1];
    });
}

extern "C" miopenStatus_t miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                           int requestedSpatialDim,
                                                           int* spatialDim,
                                                           int* padA,
                                                           int* strideA,
                                                           int* dilationA,
                                                           miopenConvolutionMode_t* c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, requestedSpatialDim, spatialDim, padA, strideA, dilationA, c_mode);
    return miopen::try_([&] {
        const auto& desc = miopen::deref(convDesc);
        if(requestedSpatialDim > desc.GetSpatialDim())
            MIOPEN_THROW("requestedSpatialDim is larger than actual spatial dimension");
        miopen::deref(spatialDim) = desc.GetSpatialDim();
        miopen::deref(c_mode)     = desc.GetMode();
        for(int i = 0; i < requestedSpatialDim; ++i)
        {
            miopen::deref(padA + i)      = desc.GetPads()[i];
            miopen::deref(strideA + i)   = desc.GetStrides()[i];
            miopen::deref(dilationA + i) = desc.GetDilations()[i];
        }
    });
}

extern "C" miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                         int* groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return miopen::try_(
        [&] { miopen::deref(groupCount) = miopen::deref(convDesc).GetGroupCount(); });
}

extern "C" miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                         int groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return miopen::try_([&] { miopen::deref(convDesc).SetGroupCount(groupCount); });
}

// Hidden find-mode controls: exported from the library, declared only in the
// internal header find_controls.hpp (the real library has the same pair).
MIOPEN_EXPORT extern "C" miopenStatus_t
miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc, int findMode)
{
    MIOPEN_LOG_FUNCTION(convDesc, findMode);
    return miopen::try_([&] {
        auto& desc = miopen::deref(convDesc);
        if(!miopen::IsValidFindMode(findMode))
            MIOPEN_THROW(miopenStatusBadParm, "Invalid find mode " + std::to_string(findMode));
        desc.find_mode = findMode;
    });
}

MIOPEN_EXPORT
extern "C" miopenStatus_t miopenHiddenGetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int* findMode)
{
    return miopen::try_([&] { miopen::deref(findMode) = miopen::deref(convDesc).find_mode; });
}

extern "C" miopenStatus_t
miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                     const miopenTensorDescriptor_t inputTensorDesc,
                                     const miopenTensorDescriptor_t filterDesc,
                                     int* n,
                                     int* c,
                                     int* h,
                                     int* w)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc, n, c, h, w);
    return miopen::try_([&] {
        const auto& desc = miopen::deref(convDesc);
        if(desc.GetSpatialDim() != 2)
            MIOPEN_THROW("this API only deals with 2-D convolution");
        const auto out =
            desc.GetForwardOutputTensor(miopen::deref(inputTensorDesc), miopen::deref(filterDesc));
        const auto& l    = out.GetLengths();
        miopen::deref(n) = static_cast<int>(l[0]);
        miopen::deref(c) = static_cast<int>(l[1]);
        miopen::deref(h) = static_cast<int>(l[2]);
        miopen::deref(w) = static_cast<int>(l[3]);
    });
}

extern "C" miopenStatus_t
miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t inputTensorDesc,
                                       const miopenTensorDescriptor_t filterDesc,
                                       int* nDim,
                                       int* outputTensorDimA)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc, nDim, outputTensorDimA);
    return miopen::try_([&] {
        const auto out = miopen::deref(convDesc).GetForwardOutputTensor(
            miopen::deref(inputTensorDesc), miopen::deref(filterDesc));
        auto& nd = miopen::deref(nDim);
        if(outputTensorDimA == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "outputTensorDimA cannot be nullptr");
        nd = static_cast<int>(out.GetNumDims());
        for(int i = 0; i < nd; ++i)
            outputTensorDimA[i] = static_cast<int>(out.GetLengths()[i]);
    });
}

// Null is accepted: MIOpen deletes the object, and deleting null is a no-op
// (miopen_destroy_object in MIOpen's object.hpp).
extern "C" miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return miopen::try_([&] { delete static_cast<miopen::ConvolutionDescriptor*>(convDesc); });
}

extern "C" MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                                     const miopenConvolutionAttrib_t attr,
                                                                     int value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return miopen::try_([&] { miopen::deref(convDesc).SetAttribute(attr, value); });
}

extern "C" MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                                     const miopenConvolutionAttrib_t attr,
                                                                     int* value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return miopen::try_([&] { miopen::deref(value) = miopen::deref(convDesc).GetAttribute(attr); });
}

// ---------------------------------------------------------------------------
// Immediate-mode (solution) API, forward
// ---------------------------------------------------------------------------

extern "C" miopenStatus_t
miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p                   = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        miopen::deref(solutionCount) = miopen::GetSolvers(p.direction).size();
    });
}

extern "C" miopenStatus_t
miopenConvolutionForwardGetSolution(miopenHandle_t handle,
                                    const miopenTensorDescriptor_t wDesc,
                                    const miopenTensorDescriptor_t xDesc,
                                    const miopenConvolutionDescriptor_t convDesc,
                                    const miopenTensorDescriptor_t yDesc,
                                    const size_t maxSolutionCount,
                                    size_t* solutionCount,
                                    miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, maxSolutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        GetSolutions(FwdProblem(xDesc, wDesc, convDesc, yDesc), maxSolutionCount, solutionCount, solutions);
    });
}

extern "C" miopenStatus_t
miopenConvolutionForwardGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t wDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t yDesc,
                                                 const uint64_t solution_id,
                                                 size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        miopen::deref(workSpaceSize) =
            miopen::GetSolverWorkspaceSize(miopen::GetSolver(p.direction, solution_id), p);
    });
}

extern "C" miopenStatus_t
miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
                                        const miopenTensorDescriptor_t wDesc,
                                        const miopenTensorDescriptor_t xDesc,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        const miopenTensorDescriptor_t yDesc,
                                        const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        // Nothing to build on the CPU: compiling only validates the id.
        (void)miopen::GetSolver(p.direction, solution_id);
    });
}

extern "C" miopenStatus_t miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                                            const miopenTensorDescriptor_t wDesc,
                                                            const void* w,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            const void* x,
                                                            const miopenConvolutionDescriptor_t convDesc,
                                                            const miopenTensorDescriptor_t yDesc,
                                                            void* y,
                                                            void* workSpace,
                                                            size_t workSpaceSize,
                                                            const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, w, xDesc, x, convDesc, yDesc, y, workSpace, workSpaceSize, solution_id);
    miopen::debug::LogCmdConvolution(xDesc, wDesc, convDesc, yDesc, miopen::debug::DriverConvDirection::Fwd, true);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        const auto& s = miopen::GetSolver(p.direction, solution_id);
        miopen::RunConvSolution(h, s, p, x, w, nullptr, y, workSpace, workSpaceSize, 1.0f, 0.0f);
    });
}

// ---------------------------------------------------------------------------
// Immediate-mode (solution) API, backward data
// ---------------------------------------------------------------------------

extern "C" miopenStatus_t
miopenConvolutionBackwardDataGetSolutionCount(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p                   = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        miopen::deref(solutionCount) = miopen::GetSolvers(p.direction).size();
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardDataGetSolution(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t dyDesc,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t dxDesc,
                                         const size_t maxSolutionCount,
                                         size_t* solutionCount,
                                         miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, maxSolutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        GetSolutions(BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc), maxSolutionCount, solutionCount, solutions);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardDataGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      const uint64_t solution_id,
                                                      size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        miopen::deref(workSpaceSize) =
            miopen::GetSolverWorkspaceSize(miopen::GetSolver(p.direction, solution_id), p);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardDataCompileSolution(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const miopenTensorDescriptor_t wDesc,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             const miopenTensorDescriptor_t dxDesc,
                                             const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        (void)miopen::GetSolver(p.direction, solution_id);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
                                       const miopenTensorDescriptor_t dyDesc,
                                       const void* dy,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t dxDesc,
                                       void* dx,
                                       void* workSpace,
                                       size_t workSpaceSize,
                                       const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, workSpace, workSpaceSize, solution_id);
    miopen::debug::LogCmdConvolution(dxDesc, wDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::Bwd, true);
    return miopen::try_([&] {
        auto& h       = miopen::deref(handle);
        const auto p  = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        const auto& s = miopen::GetSolver(p.direction, solution_id);
        miopen::RunConvSolution(h, s, p, nullptr, w, dy, dx, workSpace, workSpaceSize, 1.0f, 0.0f);
    });
}

// ---------------------------------------------------------------------------
// Immediate-mode (solution) API, backward weights
// ---------------------------------------------------------------------------

extern "C" miopenStatus_t
miopenConvolutionBackwardWeightsGetSolutionCount(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p                   = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        miopen::deref(solutionCount) = miopen::GetSolvers(p.direction).size();
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardWeightsGetSolution(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t dyDesc,
                                            const miopenTensorDescriptor_t xDesc,
                                            const miopenConvolutionDescriptor_t convDesc,
                                            const miopenTensorDescriptor_t dwDesc,
                                            const size_t maxSolutionCount,
                                            size_t* solutionCount,
                                            miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, maxSolutionCount);
    return miopen::try_([&] {
        miopen::deref(handle);
        GetSolutions(BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc), maxSolutionCount, solutionCount, solutions);
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
    miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc,
    const uint64_t solution_id,
    size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        miopen::deref(workSpaceSize) =
            miopen::GetSolverWorkspaceSize(miopen::GetSolver(p.direction, solution_id), p);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardWeightsCompileSolution(miopenHandle_t handle,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const miopenTensorDescriptor_t xDesc,
                                                const miopenConvolutionDescriptor_t convDesc,
                                                const miopenTensorDescriptor_t dwDesc,
                                                const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id);
    return miopen::try_([&] {
        miopen::deref(handle);
        const auto p = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        (void)miopen::GetSolver(p.direction, solution_id);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t dyDesc,
                                          const void* dy,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenConvolutionDescriptor_t convDesc,
                                          const miopenTensorDescriptor_t dwDesc,
                                          void* dw,
                                          void* workSpace,
                                          size_t workSpaceSize,
                                          const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, workSpace, workSpaceSize, solution_id);
    miopen::debug::LogCmdConvolution(xDesc, dwDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::WrW, true);
    return miopen::try_([&] {
        auto& h       = miopen::deref(handle);
        const auto p  = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        const auto& s = miopen::GetSolver(p.direction, solution_id);
        miopen::RunConvSolution(h, s, p, x, nullptr, dy, dw, workSpace, workSpaceSize, 1.0f, 0.0f);
    });
}

// ---------------------------------------------------------------------------
// Find / legacy API
// ---------------------------------------------------------------------------

extern "C" miopenStatus_t
miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        miopen::deref(workSpaceSize) =
            miopen::GetMaxWorkspaceSize(FwdProblem(xDesc, wDesc, convDesc, yDesc));
    });
}

extern "C" miopenStatus_t
miopenFindConvolutionForwardAlgorithm(miopenHandle_t handle,
                                      const miopenTensorDescriptor_t xDesc,
                                      const void* x,
                                      const miopenTensorDescriptor_t wDesc,
                                      const void* w,
                                      const miopenConvolutionDescriptor_t convDesc,
                                      const miopenTensorDescriptor_t yDesc,
                                      void* y,
                                      const int requestAlgoCount,
                                      int* returnedAlgoCount,
                                      miopenConvAlgoPerf_t* perfResults,
                                      void* workSpace,
                                      size_t workSpaceSize,
                                      bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, xDesc, x, wDesc, w, convDesc, yDesc, y, requestAlgoCount,
                        returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    miopen::debug::LogCmdFindConvolution(xDesc, wDesc, convDesc, yDesc, miopen::debug::DriverConvDirection::Fwd);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        FindAlgorithms(h, p, convDesc, x, w, y, y, requestAlgoCount, returnedAlgoCount,
                       perfResults, workSpace, workSpaceSize, &miopenConvAlgoPerf_t::fwd_algo);
    });
}

extern "C" miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const miopenConvolutionDescriptor_t convDesc,
                                                   miopenConvFwdAlgorithm_t algo,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y,
                                                   void* workSpace,
                                                   size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, beta, yDesc, y,
                        workSpace, workSpaceSize);
    miopen::debug::LogCmdConvolution(xDesc, wDesc, convDesc, yDesc, miopen::debug::DriverConvDirection::Fwd, false);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = FwdProblem(xDesc, wDesc, convDesc, yDesc);
        if(x == nullptr || w == nullptr || y == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "miopenConvolutionForward: buffers cannot be NULL");
        const auto& s = miopen::GetSolverByAlgorithm(p.direction, static_cast<miopenConvAlgorithm_t>(algo));
        miopen::RunConvSolution(h, s, p, x, w, nullptr, y, workSpace, workSpaceSize,
                                miopen::ReadScale(alpha, "alpha"), miopen::ReadScale(beta, "beta"));
    });
}

extern "C" miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle,
                                                       const void* alpha,
                                                       const miopenTensorDescriptor_t bDesc,
                                                       const void* b,
                                                       const void* beta,
                                                       const miopenTensorDescriptor_t yDesc,
                                                       void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, bDesc, b, beta, yDesc, y);
    return miopen::try_([&] {
        auto& h         = miopen::deref(handle);
        const auto& bd  = miopen::deref(bDesc);
        const auto& yd  = miopen::deref(yDesc);
        bd.CheckSet("bDesc");
        yd.CheckSet("yDesc");
        // As in MIOpen, the bias op has no bfloat16 path.
        if(yd.GetType() == miopenBFloat16 || bd.GetType() == miopenBFloat16)
            MIOPEN_THROW(miopenStatusNotImplemented, "bfloat16 is not supported for the bias operation");
        if(bd.GetType() != yd.GetType() || bd.GetNumDims() != yd.GetNumDims() ||
           bd.GetLengths()[0] != 1 || bd.GetLengths()[1] != yd.GetLengths()[1])
            MIOPEN_THROW(miopenStatusBadParm, "Bias tensor must be (1, C, 1, ...) with y's type and C");
        for(std::size_t i = 2; i < bd.GetNumDims(); ++i)
            if(bd.GetLengths()[i] != 1)
                MIOPEN_THROW(miopenStatusBadParm, "Bias tensor must be (1, C, 1, ...)");
        if(b == nullptr || y == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");
        const float a  = miopen::ReadScale(alpha, "alpha");
        const float be = miopen::ReadScale(beta, "beta");
        miopen::OperationTimer timer(h);
        // MIOpen adds the bias with a tensor op of the form
        // y = alpha * y + alpha * b + beta * y, so alpha = 1, beta = 0 gives y += b.
        miopen::cpu::bias_forward(bd.View(b), yd.View(y), a, a + be);
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardDataGetWorkSpaceSize(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        miopen::deref(workSpaceSize) =
            miopen::GetMaxWorkspaceSize(BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc));
    });
}

extern "C" miopenStatus_t
miopenFindConvolutionBackwardDataAlgorithm(miopenHandle_t handle,
                                           const miopenTensorDescriptor_t dyDesc,
                                           const void* dy,
                                           const miopenTensorDescriptor_t wDesc,
                                           const void* w,
                                           const miopenConvolutionDescriptor_t convDesc,
                                           const miopenTensorDescriptor_t dxDesc,
                                           void* dx,
                                           const int requestAlgoCount,
                                           int* returnedAlgoCount,
                                           miopenConvAlgoPerf_t* perfResults,
                                           void* workSpace,
                                           size_t workSpaceSize,
                                           bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, requestAlgoCount,
                        returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    miopen::debug::LogCmdFindConvolution(dxDesc, wDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::Bwd);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        FindAlgorithms(h, p, convDesc, dx, w, dy, dx, requestAlgoCount, returnedAlgoCount,
                       perfResults, workSpace, workSpaceSize, &miopenConvAlgoPerf_t::bwd_data_algo);
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardData(miopenHandle_t handle,
                                                        const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const void* w,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        miopenConvBwdDataAlgorithm_t algo,
                                                        const void* beta,
                                                        const miopenTensorDescriptor_t dxDesc,
                                                        void* dx,
                                                        void* workSpace,
                                                        size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, wDesc, w, convDesc, algo, beta, dxDesc, dx,
                        workSpace, workSpaceSize);
    miopen::debug::LogCmdConvolution(dxDesc, wDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::Bwd, false);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = BwdDataProblem(dyDesc, wDesc, convDesc, dxDesc);
        if(dy == nullptr || w == nullptr || dx == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "miopenConvolutionBackwardData: buffers cannot be NULL");
        if(algo == miopenTransposeBwdDataAlgoGEMM)
            MIOPEN_THROW(miopenStatusNotImplemented, "Transpose GEMM is not available");
        const auto& s = miopen::GetSolverByAlgorithm(p.direction, static_cast<miopenConvAlgorithm_t>(algo));
        miopen::RunConvSolution(h, s, p, nullptr, w, dy, dx, workSpace, workSpaceSize,
                                miopen::ReadScale(alpha, "alpha"), miopen::ReadScale(beta, "beta"));
    });
}

extern "C" miopenStatus_t
miopenConvolutionBackwardWeightsGetWorkSpaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, workSpaceSize);
    return miopen::try_([&] {
        miopen::deref(handle);
        miopen::deref(workSpaceSize) =
            miopen::GetMaxWorkspaceSize(BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc));
    });
}

extern "C" miopenStatus_t
miopenFindConvolutionBackwardWeightsAlgorithm(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const void* dy,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dwDesc,
                                              void* dw,
                                              const int requestAlgoCount,
                                              int* returnedAlgoCount,
                                              miopenConvAlgoPerf_t* perfResults,
                                              void* workSpace,
                                              size_t workSpaceSize,
                                              bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, requestAlgoCount,
                        returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    miopen::debug::LogCmdFindConvolution(xDesc, dwDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::WrW);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        FindAlgorithms(h, p, convDesc, x, dw, dy, dw, requestAlgoCount, returnedAlgoCount,
                       perfResults, workSpace, workSpaceSize,
                       &miopenConvAlgoPerf_t::bwd_weights_algo);
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const miopenTensorDescriptor_t xDesc,
                                                           const void* x,
                                                           const miopenConvolutionDescriptor_t convDesc,
                                                           miopenConvBwdWeightsAlgorithm_t algo,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dwDesc,
                                                           void* dw,
                                                           void* workSpace,
                                                           size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, xDesc, x, convDesc, algo, beta, dwDesc, dw,
                        workSpace, workSpaceSize);
    miopen::debug::LogCmdConvolution(xDesc, dwDesc, convDesc, dyDesc, miopen::debug::DriverConvDirection::WrW, false);
    return miopen::try_([&] {
        auto& h      = miopen::deref(handle);
        const auto p = BwdWeightsProblem(dyDesc, xDesc, convDesc, dwDesc);
        if(dy == nullptr || x == nullptr || dw == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "miopenConvolutionBackwardWeights: buffers cannot be NULL");
        const auto& s = miopen::GetSolverByAlgorithm(p.direction, static_cast<miopenConvAlgorithm_t>(algo));
        miopen::RunConvSolution(h, s, p, x, nullptr, dy, dw, workSpace, workSpaceSize,
                                miopen::ReadScale(alpha, "alpha"), miopen::ReadScale(beta, "beta"));
    });
}
