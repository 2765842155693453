// Public entry points of the fusion family: the operators of a plan and the
// argument pack of an execution.
//
// As in MIOpen, creating an operator reports its own status: the operator's
// address is written out before the plan takes it, and a null argument (or a
// descriptor the plan rejects) gives miopenStatusUnknownError unless the plan
// itself returned another status.
#include <miopen/errors.hpp>
#include <miopen/fusion.hpp>
#include <miopen/logger.hpp>

#include <memory>

namespace {

template <class Make>
miopenStatus_t AddNewOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                        miopenFusionOpDescriptor_t* out,
                        Make make)
{
    return miopen::try_with_own_status(miopenStatusUnknownError, [&](miopenStatus_t& res) {
        std::unique_ptr<miopen::FusionOpDescriptor> op = make();
        miopen::deref(out) = miopen::to_handle(op.get());
        res                = miopen::deref(fusePlanDesc).AddOp(std::move(op));
    });
}

std::unique_ptr<miopen::FusionOpDescriptor> NewOp(miopen::FusionOpKind kind)
{
    auto op  = std::make_unique<miopen::FusionOpDescriptor>();
    op->kind = kind;
    return op;
}

// Replaces the arguments stored at the operator's index. An operator of
// another kind fails MIOpen's dynamic_cast (std::bad_cast: unknown error).
template <class Fill>
miopenStatus_t SetArgsFor(miopenOperatorArgs_t args,
                          miopenFusionOpDescriptor_t op,
                          miopen::FusionOpKind kind,
                          Fill fill)
{
    return miopen::try_([&] {
        const auto& o = miopen::deref(op);
        if(o.kind != kind)
            MIOPEN_THROW("The operator is not of the kind this argument setter takes");
        miopen::FusionOpArgs a;
        a.kind = kind;
        fill(a);
        miopen::deref(args).args[o.index] = a;
    });
}

} // namespace

extern "C" miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* convOp,
                                                    miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t wDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, convOp, convDesc, wDesc);
    return AddNewOp(fusePlanDesc, convOp, [&] {
        auto op    = NewOp(miopen::FusionOpKind::ConvForward);
        op->conv   = miopen::deref(convDesc);
        op->tensor = miopen::deref(wDesc);
        return op;
    });
}

// The mode is not checked here (MIOpen neither); an invalid one fails at execution.
extern "C" miopenStatus_t
miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* activFwdOp,
                                miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activFwdOp, mode);
    return AddNewOp(fusePlanDesc, activFwdOp, [&] {
        auto op        = NewOp(miopen::FusionOpKind::ActivForward);
        op->activ_mode = mode;
        return op;
    });
}

extern "C" miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* biasOp,
                                                    const miopenTensorDescriptor_t bDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, biasOp, bDesc);
    return AddNewOp(fusePlanDesc, biasOp, [&] {
        auto op    = NewOp(miopen::FusionOpKind::BiasForward);
        op->tensor = miopen::deref(bDesc);
        return op;
    });
}

extern "C" miopenStatus_t
miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* bnOp,
                                 const miopenBatchNormMode_t bn_mode,
                                 const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnOp, bn_mode, bnScaleBiasMeanVarDesc);
    return AddNewOp(fusePlanDesc, bnOp, [&] {
        auto op     = NewOp(miopen::FusionOpKind::BatchNormInference);
        op->bn_mode = bn_mode;
        op->tensor  = miopen::deref(bnScaleBiasMeanVarDesc);
        return op;
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                          miopenFusionOpDescriptor_t* bnOp,
                                                          const miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnOp, bn_mode);
    return AddNewOp(fusePlanDesc, bnOp, [&] {
        auto op     = NewOp(miopen::FusionOpKind::BatchNormBwdTrain);
        op->bn_mode = bn_mode;
        return op;
    });
}

extern "C" miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           miopenFusionOpDescriptor_t* activBwdOp,
                                                           miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activBwdOp, mode);
    return AddNewOp(fusePlanDesc, activBwdOp, [&] {
        auto op        = NewOp(miopen::FusionOpKind::ActivBackward);
        op->activ_mode = mode;
        return op;
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

// Null is accepted, as MIOpen's delete of a null object.
extern "C" miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(args);
    return miopen::try_([&] { delete static_cast<miopen::OperatorArgs*>(args); });
}

// alpha and beta point to float; a null one means 1 and 0.
extern "C" miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t convOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* w)
{
    MIOPEN_LOG_FUNCTION(args, alpha, beta, convOp, w);
    return SetArgsFor(args, convOp, miopen::FusionOpKind::ConvForward, [&](auto& a) {
        a.alpha = alpha != nullptr ? *static_cast<const float*>(alpha) : 1.0f;
        a.beta  = beta != nullptr ? *static_cast<const float*>(beta) : 0.0f;
        a.data  = w;
    });
}

// alpha and beta are not read.
extern "C" miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                      const miopenFusionOpDescriptor_t activFwdOp,
                                                      const void* alpha,
                                                      const void* beta,
                                                      double activAlpha,
                                                      double activBeta,
                                                      double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    return SetArgsFor(args, activFwdOp, miopen::FusionOpKind::ActivForward, [&](auto& a) {
        a.activ_alpha = activAlpha;
        a.activ_beta  = activBeta;
        a.activ_gamma = activGamma;
    });
}

// alpha and beta are not read.
extern "C" miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                            const miopenFusionOpDescriptor_t bnOp,
                                                            const void* alpha,
                                                            const void* beta,
                                                            const void* bnScale,
                                                            const void* bnBias,
                                                            const void* estimatedMean,
                                                            const void* estimatedVariance,
                                                            double epsilon)
{
    MIOPEN_LOG_FUNCTION(
        args, bnOp, alpha, beta, bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    return SetArgsFor(args, bnOp, miopen::FusionOpKind::BatchNormInference, [&](auto& a) {
        a.bn_scale   = bnScale;
        a.bn_bias    = bnBias;
        a.bn_mean    = estimatedMean;
        a.bn_var     = estimatedVariance;
        a.bn_epsilon = epsilon;
    });
}

// alpha and beta are not read (MIOpen's SetArgs ignores them).
extern "C" miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                           const miopenFusionOpDescriptor_t bnBwdOp,
                                                           const void* alpha,
                                                           const void* beta,
                                                           const void* x,
                                                           const void* bnScale,
                                                           const void* bnBias,
                                                           void* resultBnScaleDiff,
                                                           void* resultBnBiasDiff,
                                                           const void* savedMean,
                                                           const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(args, bnBwdOp, alpha, beta, x, bnScale, bnBias, resultBnScaleDiff, resultBnBiasDiff,
                        savedMean, savedInvVariance);
    return SetArgsFor(args, bnBwdOp, miopen::FusionOpKind::BatchNormBwdTrain, [&](auto& a) {
        a.bn_x      = x;
        a.bn_scale  = bnScale;
        a.bn_bias   = bnBias;
        a.bn_dscale = resultBnScaleDiff;
        a.bn_dbias  = resultBnBiasDiff;
        a.bn_mean   = savedMean;
        a.bn_var    = savedInvVariance;
    });
}

// alpha, beta and the reserved pointer are not read (MIOpen passes null for x).
extern "C" miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                                       const miopenFusionOpDescriptor_t activBwdOp,
                                                       const void* alpha,
                                                       const void* beta,
                                                       const void* y,
                                                       const void* /*reserved*/,
                                                       double activAlpha,
                                                       double activBeta,
                                                       double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activBwdOp, alpha, beta, y, activAlpha, activBeta, activGamma);
    return SetArgsFor(args, activBwdOp, miopen::FusionOpKind::ActivBackward, [&](auto& a) {
        a.activ_y     = y;
        a.activ_alpha = activAlpha;
        a.activ_beta  = activBeta;
        a.activ_gamma = activGamma;
    });
}

// alpha and beta are not read.
extern "C" miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t biasOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* bias)
{
    MIOPEN_LOG_FUNCTION(args, biasOp, alpha, beta, bias);
    return SetArgsFor(
        args, biasOp, miopen::FusionOpKind::BiasForward, [&](auto& a) { a.data = bias; });
}
