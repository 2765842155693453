// Public entry points of the fusion family: plans, their compilation and
// execution, and the one-call convolution + bias + activation.
//
// MIOpen's plan entry points (other than create, destroy and execute) keep a
// status of their own that only the plan call sets (try_with_own_status):
// a null handle given to miopenCompileFusionPlan is miopenStatusUnknownError,
// and a null output pointer after a successful query is still a success.
#include <miopen/activ.hpp>
#include <miopen/convolution.hpp>
#include <miopen/errors.hpp>
#include <miopen/fusion.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <algorithm>

extern "C" miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                 const miopenFusionDirection_t fuseDirection,
                                                 const miopenTensorDescriptor_t inputDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, fuseDirection, inputDesc);
    return miopen::try_([&] {
        auto& out = miopen::deref(fusePlanDesc);
        out       = miopen::to_handle(
            new miopen::FusionPlanDescriptor(fuseDirection, miopen::deref(inputDesc)));
    });
}

// Null is accepted, as MIOpen's delete of a null object.
extern "C" miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc);
    return miopen::try_([&] { delete static_cast<miopen::FusionPlanDescriptor*>(fusePlanDesc); });
}

extern "C" miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                  miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc);
    return miopen::try_with_own_status(miopenStatusUnknownError, [&](miopenStatus_t& res) {
        auto& plan = miopen::deref(fusePlanDesc);
        miopen::deref(handle);
        res = plan.Compile();
    });
}

// Starts at miopenStatusBadParm, so an index out of bounds reports that.
extern "C" miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                const int op_idx,
                                                miopenFusionOpDescriptor_t* op)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, op_idx);
    return miopen::try_with_own_status(miopenStatusBadParm, [&](miopenStatus_t& res) {
        const auto& found = miopen::deref(fusePlanDesc).GetOp(op_idx);
        res               = miopenStatusSuccess;
        miopen::deref(op) =
            miopen::to_handle(const_cast<miopen::FusionOpDescriptor*>(&found));
    });
}

// The algorithm is not looked at (MIOpen's neither).
extern "C" miopenStatus_t
miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                 miopenFusionPlanDescriptor_t fusePlanDesc,
                                 size_t* workSpaceSize,
                                 miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, algo);
    return miopen::try_with_own_status(miopenStatusUnknownError, [&](miopenStatus_t& res) {
        auto& plan = miopen::deref(fusePlanDesc);
        miopen::deref(handle);
        const auto size              = plan.GetWorkspaceSize();
        res                          = miopenStatusSuccess;
        miopen::deref(workSpaceSize) = size;
    });
}

// Direct, then Winograd, cut to requestAlgoCount, which is reported back as
// given when smaller (MIOpen checks no bound).
extern "C" miopenStatus_t
miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   const int requestAlgoCount,
                                   int* returnedAlgoCount,
                                   miopenConvFwdAlgorithm_t* returnedAlgos)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, requestAlgoCount);
    return miopen::try_with_own_status(miopenStatusUnknownError, [&](miopenStatus_t& res) {
        const auto algos = miopen::deref(fusePlanDesc).GetConvAlgos();
        const int count  = std::min(requestAlgoCount, static_cast<int>(algos.size()));
        // MIOpen writes through a null returnedAlgos.
        if(count > 0 && returnedAlgos == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "returnedAlgos cannot be nullptr");
        for(int i = 0; i < count; ++i)
            returnedAlgos[i] = algos[static_cast<std::size_t>(i)];
        res                              = miopenStatusSuccess;
        miopen::deref(returnedAlgoCount) = count;
    });
}

extern "C" miopenStatus_t
miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, algo);
    return miopen::try_with_own_status(miopenStatusUnknownError, [&](miopenStatus_t& res) {
        miopen::deref(fusePlanDesc).SetConvAlgo(algo);
        res = miopenStatusSuccess;
    });
}

// A null workspace with a non-zero size is refused before anything else.
extern "C" miopenStatus_t
miopenExecuteFusionPlan_v2(const miopenHandle_t handle,
                           const miopenFusionPlanDescriptor_t fusePlanDesc,
                           const miopenTensorDescriptor_t inputDesc,
                           const void* input,
                           const miopenTensorDescriptor_t outputDesc,
                           void* output,
                           miopenOperatorArgs_t args,
                           void* workspace,
                           size_t workspaceSize)
{
    MIOPEN_LOG_FUNCTION(
        handle, fusePlanDesc, inputDesc, input, outputDesc, output, args, workspace, workspaceSize);
    if(workspace == nullptr && workspaceSize != 0)
        return miopenStatusBadParm;
    return miopen::try_([&] {
        miopen::deref(fusePlanDesc)
            .Execute(miopen::deref(handle),
                     miopen::deref(inputDesc),
                     input,
                     miopen::deref(outputDesc),
                     output,
                     miopen::deref(args),
                     workspace,
                     workspaceSize);
    });
}

extern "C" miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                                  const miopenFusionPlanDescriptor_t fusePlanDesc,
                                                  const miopenTensorDescriptor_t inputDesc,
                                                  const void* input,
                                                  const miopenTensorDescriptor_t outputDesc,
                                                  void* output,
                                                  miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args);
    // Defined above; the declaration comes from <miopen/miopen.h>.
    return miopenExecuteFusionPlan_v2(
        handle, fusePlanDesc, inputDesc, input, outputDesc, output, args, nullptr, 0);
}

// MIOpen runs the one-call form through a fusion plan of its own
// (miopen::ConvBiasActivFusion): no fused solver of the test bed's target
// takes that plan, so a valid call returns miopenStatusUnsupportedOp.
extern "C" miopenStatus_t
miopenConvolutionBiasActivationForward(miopenHandle_t handle,
                                       const void* alpha1,
                                       const miopenTensorDescriptor_t xDesc,
                                       const void* x,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       miopenConvFwdAlgorithm_t algo,
                                       void* workspace,
                                       size_t workspaceSizeInBytes,
                                       const void* alpha2,
                                       const miopenTensorDescriptor_t zDesc,
                                       const void* z,
                                       const miopenTensorDescriptor_t biasDesc,
                                       const void* bias,
                                       const miopenActivationDescriptor_t activationDesc,
                                       const miopenTensorDescriptor_t yDesc,
                                       void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workspace,
                        workspaceSizeInBytes, alpha2, zDesc, z, biasDesc, bias, activationDesc,
                        yDesc, y);
    // Every descriptor is dereferenced, zDesc and biasDesc too: a null one is
    // BadParm although z and bias may be null.
    miopenStatus_t res = miopenStatusUnknownError;
    const auto try_res = miopen::try_([&] {
        res = miopen::ConvBiasActivFusion(miopen::deref(handle), alpha1, miopen::deref(xDesc), x,
                                          miopen::deref(wDesc), w, miopen::deref(convDesc), algo,
                                          workspace, workspaceSizeInBytes, alpha2,
                                          miopen::deref(zDesc), z, miopen::deref(biasDesc), bias,
                                          miopen::deref(activationDesc), miopen::deref(yDesc), y);
    });
    return try_res == miopenStatusSuccess ? res : try_res;
}
