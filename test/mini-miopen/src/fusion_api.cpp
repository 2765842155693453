// Public entry points of the fusion family.
#include <miopen/activ.hpp>
#include <miopen/convolution.hpp>
#include <miopen/errors.hpp>
#include <miopen/fusion.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <algorithm>

namespace {

miopen::FusionOpDescriptor& NewOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                  miopenFusionOpDescriptor_t* out,
                                  std::unique_ptr<miopen::FusionOpDescriptor> op)
{
    auto& plan = miopen::deref(fusePlanDesc);
    auto& slot = miopen::deref(out);
    auto& ref  = plan.AddOp(std::move(op));
    slot       = miopen::to_handle(&ref);
    return ref;
}

miopen::FusionOpArgs& ArgsFor(miopenOperatorArgs_t args,
                              miopenFusionOpDescriptor_t op,
                              miopen::FusionOpKind expected)
{
    auto& a        = miopen::deref(args);
    const auto& o  = miopen::deref(op);
    if(o.kind != expected)
        MIOPEN_THROW(miopenStatusBadParm, "Operator kind does not match the argument setter");
    return a.args[&o];
}

} // namespace

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

extern "C" miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc);
    return miopen::try_([&] { delete &miopen::deref(fusePlanDesc); });
}

extern "C" miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                  miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc);
    return miopen::try_([&] {
        miopen::deref(handle);
        return miopen::deref(fusePlanDesc).Compile();
    });
}

extern "C" miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                const int op_idx,
                                                miopenFusionOpDescriptor_t* op)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, op_idx, op);
    return miopen::try_([&] {
        auto& plan = miopen::deref(fusePlanDesc);
        auto& out  = miopen::deref(op);
        out        = miopen::to_handle(&plan.GetOp(op_idx));
    });
}

extern "C" MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                 miopenFusionPlanDescriptor_t fusePlanDesc,
                                 size_t* workSpaceSize,
                                 miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, workSpaceSize, algo);
    return miopen::try_([&] {
        miopen::deref(handle);
        miopen::deref(workSpaceSize) = miopen::deref(fusePlanDesc).GetWorkspaceSize(algo);
    });
}

extern "C" MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   const int requestAlgoCount,
                                   int* returnedAlgoCount,
                                   miopenConvFwdAlgorithm_t* returnedAlgos)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, requestAlgoCount, returnedAlgoCount, returnedAlgos);
    return miopen::try_([&] {
        const auto algos = miopen::deref(fusePlanDesc).GetConvAlgos();
        auto& count      = miopen::deref(returnedAlgoCount);
        if(requestAlgoCount < 1)
            MIOPEN_THROW(miopenStatusBadParm, "requestAlgoCount cannot be < 1");
        if(returnedAlgos == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "returnedAlgos cannot be nullptr");
        const auto n = std::min<std::size_t>(algos.size(), requestAlgoCount);
        std::copy_n(algos.begin(), n, returnedAlgos);
        count = static_cast<int>(n);
    });
}

extern "C" miopenStatus_t
miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, algo);
    return miopen::try_([&] { miopen::deref(fusePlanDesc).SetConvAlgo(algo); });
}

extern "C" miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* convOp,
                                                    miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t wDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, convOp, convDesc, wDesc);
    return miopen::try_([&] {
        auto op    = std::make_unique<miopen::FusionOpDescriptor>();
        op->kind   = miopen::FusionOpKind::ConvForward;
        op->conv   = miopen::deref(convDesc);
        op->tensor = miopen::deref(wDesc);
        op->tensor.CheckSet("wDesc");
        NewOp(fusePlanDesc, convOp, std::move(op));
    });
}

extern "C" miopenStatus_t
miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* activFwdOp,
                                miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activFwdOp, mode);
    return miopen::try_([&] {
        if(!miopen::IsValidActivationMode(mode))
            MIOPEN_THROW(miopenStatusBadParm, "Invalid activation mode");
        auto op        = std::make_unique<miopen::FusionOpDescriptor>();
        op->kind       = miopen::FusionOpKind::ActivForward;
        op->activ_mode = mode;
        NewOp(fusePlanDesc, activFwdOp, std::move(op));
    });
}

extern "C" miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* biasOp,
                                                    const miopenTensorDescriptor_t bDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, biasOp, bDesc);
    return miopen::try_([&] {
        auto op    = std::make_unique<miopen::FusionOpDescriptor>();
        op->kind   = miopen::FusionOpKind::BiasForward;
        op->tensor = miopen::deref(bDesc);
        op->tensor.CheckSet("bDesc");
        NewOp(fusePlanDesc, biasOp, std::move(op));
    });
}

extern "C" miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args)
{
    MIOPEN_LOG_FUNCTION(args);
    return miopen::try_([&] {
        auto& out = miopen::deref(args);
        out       = miopen::to_handle(new miopen::OperatorArgs());
    });
}

extern "C" miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(args);
    return miopen::try_([&] { delete &miopen::deref(args); });
}

extern "C" miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t convOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* w)
{
    MIOPEN_LOG_FUNCTION(args, convOp, alpha, beta, w);
    return miopen::try_([&] {
        auto& a = ArgsFor(args, convOp, miopen::FusionOpKind::ConvForward);
        a.alpha = miopen::ReadScale(alpha, "alpha");
        a.beta  = miopen::ReadScale(beta, "beta");
        a.data  = w;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                      const miopenFusionOpDescriptor_t activFwdOp,
                                                      const void* alpha,
                                                      const void* beta,
                                                      double activAlpha,
                                                      double activBeta,
                                                      double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    return miopen::try_([&] {
        auto& a       = ArgsFor(args, activFwdOp, miopen::FusionOpKind::ActivForward);
        a.alpha       = miopen::ReadScale(alpha, "alpha");
        a.beta        = miopen::ReadScale(beta, "beta");
        a.activ_alpha = activAlpha;
        a.activ_beta  = activBeta;
        a.activ_gamma = activGamma;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t biasOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* bias)
{
    MIOPEN_LOG_FUNCTION(args, biasOp, alpha, beta, bias);
    return miopen::try_([&] {
        auto& a = ArgsFor(args, biasOp, miopen::FusionOpKind::BiasForward);
        a.alpha = miopen::ReadScale(alpha, "alpha");
        a.beta  = miopen::ReadScale(beta, "beta");
        a.data  = bias;
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
    return miopen::try_([&] {
        miopen::deref(fusePlanDesc)
            .Execute(miopen::deref(handle),
                     miopen::deref(inputDesc),
                     input,
                     miopen::deref(outputDesc),
                     output,
                     miopen::deref(args));
    });
}

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
    return miopen::try_([&] {
        auto& h = miopen::deref(handle);
        if(miopen::ReadScale(alpha1, "alpha1") != 1.0f)
            MIOPEN_THROW(miopenStatusNotImplemented, "alpha1 can only be 1.0");
        if(miopen::ReadScale(alpha2, "alpha2") != 1.0f)
            MIOPEN_THROW(miopenStatusNotImplemented, "alpha2 can only be 1.0");
        const miopen::ConvProblem p{miopen::deref(xDesc),
                                    miopen::deref(wDesc),
                                    miopen::deref(yDesc),
                                    miopen::deref(convDesc),
                                    miopen::ConvDirection::Forward};
        const auto& activ = miopen::deref(activationDesc);
        const auto& s     = miopen::GetSolverByAlgorithm(
            miopen::ConvDirection::Forward, static_cast<miopenConvAlgorithm_t>(algo));
        const auto y_view = p.y.View(y);
        miopen::RunConvSolution(h, s, p, x, w, nullptr, y, workspace, workspaceSizeInBytes, 1.0f, 0.0f);
        if(z != nullptr)
        {
            const auto& zd = miopen::deref(zDesc);
            if(zd.GetLengths() != p.y.GetLengths() || zd.GetType() != p.y.GetType())
                MIOPEN_THROW(miopenStatusBadParm, "z must have y's shape and type");
            // y += z, expressed as a pass-through activation with beta = 1.
            miopen::cpu::activation_forward(
                {miopen::cpu::ActivationMode::PassThru, 0, 0, 0}, zd.View(z), y_view, 1.0f, 1.0f);
        }
        if(bias != nullptr)
        {
            const auto& bd = miopen::deref(biasDesc);
            if(bd.GetNumDims() != p.y.GetNumDims() || bd.GetLengths()[1] != p.y.GetLengths()[1])
                MIOPEN_THROW(miopenStatusBadParm, "Bias tensor does not match y");
            miopen::cpu::bias_forward(bd.View(bias), y_view, 1.0f, 1.0f);
        }
        miopen::cpu::activation_forward(activ.GetParams(), y_view, y_view, 1.0f, 0.0f);
    });
}
