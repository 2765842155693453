// Public entry points of the batch normalization family.
//
// The legacy entry points take one descriptor for all per-channel parameters
// and simply call their _V2 twins with that descriptor repeated. The order of
// definitions is mixed on purpose: miopenBatchNormalizationForwardTraining
// comes before the _V2 it calls, miopenBatchNormalizationForwardInference
// after its _V2.
#include <miopen/activ.hpp>
#include <miopen/batch_norm.hpp>
#include <miopen/batchnorm/driver_arguments.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

namespace {

// Logs the rank through the public size query, which MIOpen calls on every
// batchnorm entry point (its 5-D x is reshaped to 4-D).
void LogRank(miopenTensorDescriptor_t xDesc, miopenBatchNormMode_t bn_mode)
{
    int nd = 0;
    if(miopenGetTensorDescriptorSize(xDesc, &nd) != miopenStatusSuccess)
        return;
    MIOPEN_LOG_I2("batchnorm mode " << static_cast<int>(bn_mode) << ", x rank " << nd);
}

// As MIOpen's training: a pair of optional outputs is written only when both
// buffers are given (`resultsave`, `resultrunning` in batchnormocl.cpp).
const void* BothOrNone(const void* a, const void* b, const void* which) { return a != nullptr && b != nullptr ? which : nullptr; }

} // namespace

extern "C" miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                         const miopenTensorDescriptor_t xDesc,
                                                         miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(derivedBnDesc, xDesc, bn_mode);
    return miopen::try_([&] {
        auto& out = miopen::deref(derivedBnDesc);
        out       = miopen::DeriveBNTensorDescriptor(miopen::deref(xDesc), bn_mode);
    });
}

extern "C" miopenStatus_t
miopenBatchNormalizationForwardTraining(miopenHandle_t handle,
                                        miopenBatchNormMode_t bn_mode,
                                        void* alpha,
                                        void* beta,
                                        const miopenTensorDescriptor_t xDesc,
                                        const void* x,
                                        const miopenTensorDescriptor_t yDesc,
                                        void* y,
                                        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                        void* bnScale,
                                        void* bnBias,
                                        double expAvgFactor,
                                        void* resultRunningMean,
                                        void* resultRunningVariance,
                                        double epsilon,
                                        void* resultSaveMean,
                                        void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                        bnScale, bnBias, expAvgFactor, resultRunningMean, resultRunningVariance,
                        epsilon, resultSaveMean, resultSaveInvVariance);
    // Defined further down; the declaration comes from <miopen/miopen.h>.
    return miopenBatchNormalizationForwardTraining_V2(handle,
                                                      bn_mode,
                                                      alpha,
                                                      beta,
                                                      xDesc,
                                                      x,
                                                      yDesc,
                                                      y,
                                                      bnScaleBiasMeanVarDesc,
                                                      bnScaleBiasMeanVarDesc,
                                                      bnScaleBiasMeanVarDesc,
                                                      bnScaleBiasMeanVarDesc,
                                                      bnScale,
                                                      bnBias,
                                                      expAvgFactor,
                                                      resultRunningMean,
                                                      resultRunningVariance,
                                                      epsilon,
                                                      resultSaveMean,
                                                      resultSaveInvVariance);
}

extern "C" miopenStatus_t
miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle,
                                           miopenBatchNormMode_t bn_mode,
                                           void* alpha,
                                           void* beta,
                                           const miopenTensorDescriptor_t xDesc,
                                           const void* x,
                                           const miopenTensorDescriptor_t yDesc,
                                           void* y,
                                           const miopenTensorDescriptor_t scaleDesc,
                                           const miopenTensorDescriptor_t biasVarDesc,
                                           const miopenTensorDescriptor_t savedMeanDesc,
                                           const miopenTensorDescriptor_t savedVarDesc,
                                           void* bnScale,
                                           void* bnBias,
                                           double expAvgFactor,
                                           void* resultRunningMean,
                                           void* resultRunningVariance,
                                           double epsilon,
                                           void* resultSaveMean,
                                           void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasVarDesc,
                        savedMeanDesc, savedVarDesc, bnScale, bnBias, expAvgFactor,
                        resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
                        resultSaveInvVariance);
    // Before any check, as MIOpen (src/batch_norm_api.cpp).
    miopen::debug::LogCmdBNorm(xDesc, savedMeanDesc, bn_mode, resultRunningMean, resultRunningVariance,
                               resultSaveMean, resultSaveInvVariance,
                               miopen::debug::BatchNormDirection_t::ForwardTraining);
    return miopen::try_([&] {
        auto& h        = miopen::deref(handle);
        const auto& xd = miopen::deref(xDesc);
        const auto& yd = miopen::deref(yDesc);
        const auto& sd = miopen::deref(scaleDesc);
        const auto& bd = miopen::deref(biasVarDesc);
        const auto& md = miopen::deref(savedMeanDesc);
        const auto& vd = miopen::deref(savedVarDesc);
        LogRank(xDesc, bn_mode);
        const miopen::BatchNormTensors t{xd, {&yd}, {&sd, &bd, &md, &vd}};
        miopen::CheckForward(miopen::ForwardPass::Training, t, {x, y, bnScale, bnBias}, alpha, beta);
        miopen::CheckComputable(bn_mode, t);
        const void* rm = resultRunningMean;
        const void* rv = resultRunningVariance;
        const void* sm = resultSaveMean;
        const void* sv = resultSaveInvVariance;
        miopen::OperationTimer timer(h);
        miopen::cpu::batchnorm_training(miopen::KernelMode(bn_mode),
                                        xd.View(x),
                                        yd.View(y),
                                        miopen::ParamView(sd, bnScale),
                                        miopen::ParamView(bd, bnBias),
                                        expAvgFactor,
                                        epsilon,
                                        miopen::ParamView(md, BothOrNone(rm, rv, rm)),
                                        miopen::ParamView(vd, BothOrNone(rm, rv, rv)),
                                        miopen::ParamView(md, BothOrNone(sm, sv, sm)),
                                        miopen::ParamView(vd, BothOrNone(sm, sv, sv)),
                                        1.0f,
                                        0.0f);
    });
}

namespace {

// The inference of both entry points: MIOpen's checks, the kernel, then the
// activation (if any) over y, as the fused kernel applies it to each value
// before storing it (for fp16 y the value is rounded before the activation
// here; RELU, CLIPPEDRELU and CLAMP with representable clips commute with
// that rounding).
miopenStatus_t ForwardInference(miopenHandle_t handle,
                                miopenBatchNormMode_t bn_mode,
                                void* alpha,
                                void* beta,
                                const miopenTensorDescriptor_t xDesc,
                                const void* x,
                                const miopenTensorDescriptor_t yDesc,
                                void* y,
                                const miopenTensorDescriptor_t scaleDesc,
                                const miopenTensorDescriptor_t biasDesc,
                                const miopenTensorDescriptor_t estMeanDesc,
                                const miopenTensorDescriptor_t estVarianceDesc,
                                void* bnScale,
                                void* bnBias,
                                void* estimatedMean,
                                void* estimatedVariance,
                                double epsilon,
                                const miopenActivationDescriptor_t activDesc)
{
    // The estimates stand in MIOpen's running-statistics slots (-s 1).
    miopen::debug::LogCmdBNorm(xDesc, estMeanDesc, bn_mode, estimatedMean, estimatedVariance, nullptr,
                               nullptr, miopen::debug::BatchNormDirection_t::ForwardInference);
    return miopen::try_([&] {
        auto& h        = miopen::deref(handle);
        const auto& xd = miopen::deref(xDesc);
        const auto& yd = miopen::deref(yDesc);
        const auto& sd = miopen::deref(scaleDesc);
        const auto& bd = miopen::deref(biasDesc);
        const auto& md = miopen::deref(estMeanDesc);
        const auto& vd = miopen::deref(estVarianceDesc);
        LogRank(xDesc, bn_mode);
        const miopen::BatchNormTensors t{xd, {&yd}, {&sd, &bd, &md, &vd}};
        if(estimatedMean == nullptr || estimatedVariance == nullptr)
        {
            // As MIOpen: without both estimates inference is a training pass
            // (its checks, alpha/beta rule included) over the batch's own
            // statistics that saves nothing.
            miopen::CheckForward(miopen::ForwardPass::Training, t, {x, y, bnScale, bnBias}, alpha, beta);
            miopen::CheckComputable(bn_mode, t);
            miopen::OperationTimer timer(h);
            const miopen::cpu::TensorView none = miopen::ParamView(md, nullptr);
            miopen::cpu::batchnorm_training(miopen::KernelMode(bn_mode), xd.View(x), yd.View(y),
                                            miopen::ParamView(sd, bnScale), miopen::ParamView(bd, bnBias), 0.0,
                                            epsilon, none, none, none, none, 1.0f, 0.0f);
            if(activDesc != nullptr)
            {
                const auto& act = miopen::deref(activDesc);
                miopen::cpu::activation_forward(act.GetParams(), yd.View(y), yd.View(y), 1.0f, 0.0f);
            }
            return;
        }
        miopen::CheckForward(miopen::ForwardPass::Inference, t, {x, y, bnScale, bnBias}, alpha, beta);
        miopen::CheckComputable(bn_mode, t);
        miopen::OperationTimer timer(h);
        miopen::cpu::batchnorm_inference(miopen::KernelMode(bn_mode),
                                         xd.View(x),
                                         yd.View(y),
                                         miopen::ParamView(sd, bnScale),
                                         miopen::ParamView(bd, bnBias),
                                         miopen::ParamView(md, estimatedMean),
                                         miopen::ParamView(vd, estimatedVariance),
                                         epsilon,
                                         1.0f,
                                         0.0f);
        if(activDesc != nullptr)
        {
            const auto& act = miopen::deref(activDesc);
            miopen::cpu::activation_forward(act.GetParams(), yd.View(y), yd.View(y), 1.0f, 0.0f);
        }
    });
}


} // namespace

extern "C" miopenStatus_t
miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle,
                                            miopenBatchNormMode_t bn_mode,
                                            void* alpha,
                                            void* beta,
                                            const miopenTensorDescriptor_t xDesc,
                                            const void* x,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const miopenTensorDescriptor_t scaleDesc,
                                            const miopenTensorDescriptor_t biasDesc,
                                            const miopenTensorDescriptor_t estMeanDesc,
                                            const miopenTensorDescriptor_t estVarianceDesc,
                                            void* bnScale,
                                            void* bnBias,
                                            void* estimatedMean,
                                            void* estimatedVariance,
                                            double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                        estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean,
                        estimatedVariance, epsilon);
    return ForwardInference(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                            estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean,
                            estimatedVariance, epsilon, nullptr);
}

extern "C" miopenStatus_t
miopenBatchNormForwardInferenceActivation(miopenHandle_t handle,
                                          miopenBatchNormMode_t bn_mode,
                                          void* alpha,
                                          void* beta,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenTensorDescriptor_t yDesc,
                                          void* y,
                                          const miopenTensorDescriptor_t scaleDesc,
                                          const miopenTensorDescriptor_t biasDesc,
                                          const miopenTensorDescriptor_t estMeanDesc,
                                          const miopenTensorDescriptor_t estVarianceDesc,
                                          void* bnScale,
                                          void* bnBias,
                                          void* estimatedMean,
                                          void* estimatedVariance,
                                          double epsilon,
                                          const miopenActivationDescriptor_t activDesc)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                        estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean,
                        estimatedVariance, epsilon, activDesc);
    return ForwardInference(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                            estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean,
                            estimatedVariance, epsilon, activDesc);
}

extern "C" miopenStatus_t
miopenBatchNormalizationForwardInference(miopenHandle_t handle,
                                         miopenBatchNormMode_t bn_mode,
                                         void* alpha,
                                         void* beta,
                                         const miopenTensorDescriptor_t xDesc,
                                         const void* x,
                                         const miopenTensorDescriptor_t yDesc,
                                         void* y,
                                         const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                         void* bnScale,
                                         void* bnBias,
                                         void* estimatedMean,
                                         void* estimatedVariance,
                                         double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                        bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    return miopenBatchNormalizationForwardInference_V2(handle,
                                                       bn_mode,
                                                       alpha,
                                                       beta,
                                                       xDesc,
                                                       x,
                                                       yDesc,
                                                       y,
                                                       bnScaleBiasMeanVarDesc,
                                                       bnScaleBiasMeanVarDesc,
                                                       bnScaleBiasMeanVarDesc,
                                                       bnScaleBiasMeanVarDesc,
                                                       bnScale,
                                                       bnBias,
                                                       estimatedMean,
                                                       estimatedVariance,
                                                       epsilon);
}

extern "C" miopenStatus_t
miopenBatchNormalizationBackward(miopenHandle_t handle,
                                 miopenBatchNormMode_t bn_mode,
                                 const void* alphaDataDiff,
                                 const void* betaDataDiff,
                                 const void* alphaParamDiff,
                                 const void* betaParamDiff,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t dxDesc,
                                 void* dx,
                                 const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                 const void* bnScale,
                                 void* resultBnScaleDiff,
                                 void* resultBnBiasDiff,
                                 double epsilon,
                                 const void* savedMean,
                                 const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                        betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, bnScaleBiasDiffDesc,
                        bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean,
                        savedInvVariance);
    return miopenBatchNormalizationBackward_V2(handle,
                                               bn_mode,
                                               alphaDataDiff,
                                               betaDataDiff,
                                               alphaParamDiff,
                                               betaParamDiff,
                                               xDesc,
                                               x,
                                               dyDesc,
                                               dy,
                                               dxDesc,
                                               dx,
                                               bnScaleBiasDiffDesc,
                                               bnScaleBiasDiffDesc,
                                               bnScaleBiasDiffDesc,
                                               bnScaleBiasDiffDesc,
                                               bnScale,
                                               resultBnScaleDiff,
                                               resultBnBiasDiff,
                                               epsilon,
                                               savedMean,
                                               savedInvVariance);
}

extern "C" miopenStatus_t
miopenBatchNormalizationBackward_V2(miopenHandle_t handle,
                                    miopenBatchNormMode_t bn_mode,
                                    const void* alphaDataDiff,
                                    const void* betaDataDiff,
                                    const void* alphaParamDiff,
                                    const void* betaParamDiff,
                                    const miopenTensorDescriptor_t xDesc,
                                    const void* x,
                                    const miopenTensorDescriptor_t dyDesc,
                                    const void* dy,
                                    const miopenTensorDescriptor_t dxDesc,
                                    void* dx,
                                    const miopenTensorDescriptor_t scaleDesc,
                                    const miopenTensorDescriptor_t biasDesc,
                                    const miopenTensorDescriptor_t savedMeanDesc,
                                    const miopenTensorDescriptor_t savedVarDesc,
                                    const void* bnScale,
                                    void* resultBnScaleDiff,
                                    void* resultBnBiasDiff,
                                    double epsilon,
                                    const void* savedMean,
                                    const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                        betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, scaleDesc, biasDesc,
                        savedMeanDesc, savedVarDesc, bnScale, resultBnScaleDiff,
                        resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
    miopen::debug::LogCmdBNorm(xDesc, savedMeanDesc, bn_mode, nullptr, nullptr, savedMean, savedInvVariance,
                               miopen::debug::BatchNormDirection_t::Backward);
    return miopen::try_([&] {
        auto& h         = miopen::deref(handle);
        const auto& xd  = miopen::deref(xDesc);
        const auto& dyd = miopen::deref(dyDesc);
        const auto& dxd = miopen::deref(dxDesc);
        const auto& sd  = miopen::deref(scaleDesc);
        const auto& bd  = miopen::deref(biasDesc);
        const auto& md  = miopen::deref(savedMeanDesc);
        const auto& vd  = miopen::deref(savedVarDesc);
        LogRank(xDesc, bn_mode);
        // As MIOpen: a null dscale or dbias is not checked (its kernels write
        // there; this test bed then writes nothing).
        const miopen::BatchNormTensors t{xd, {&dyd, &dxd}, {&sd, &bd, &md, &vd}};
        miopen::CheckBackward(bn_mode, t, {x, dy, bnScale, dx}, alphaDataDiff, betaDataDiff, alphaParamDiff,
                              betaParamDiff);
        miopen::CheckComputable(bn_mode, t);
        // Saved statistics are only used when both are given.
        const bool use_saved = savedMean != nullptr && savedInvVariance != nullptr;
        miopen::OperationTimer timer(h);
        miopen::cpu::batchnorm_backward(miopen::KernelMode(bn_mode),
                                        xd.View(x),
                                        dyd.View(dy),
                                        dxd.View(dx),
                                        miopen::ParamView(sd, bnScale),
                                        miopen::ParamView(sd, resultBnScaleDiff),
                                        miopen::ParamView(bd, resultBnBiasDiff),
                                        epsilon,
                                        miopen::ParamView(md, use_saved ? savedMean : nullptr),
                                        miopen::ParamView(vd, use_saved ? savedInvVariance : nullptr),
                                        1.0f,
                                        0.0f,
                                        1.0f,
                                        0.0f);
    });
}

// The backward with the forward's activation (rocm-libraries projects/miopen
// src/batch_norm_api.cpp @c0f1ee89: a null descriptor is the plain backward,
// PASTHRU). With an activation: the backward's checks, then bn = scale *
// (x - savedMean) * savedInvVariance + bias in fp32 (the fused kernel's,
// MIOpenBatchNormActivBwdSpatial.cl @2d1fd997, and this test bed's fusion
// plan's, src/fusion.cpp), the activation's derivative at bn applied to dy,
// then the backward with the saved statistics. Test bed only: with an
// activation, the saved statistics and bias must be given (BadParm; the
// fused kernel reads them) and the io tensors of x's shape (CheckComputable).
extern "C" miopenStatus_t
miopenBatchNormBackwardActivation(miopenHandle_t handle,
                                  miopenBatchNormMode_t bn_mode,
                                  const void* alphaDataDiff,
                                  const void* betaDataDiff,
                                  const void* alphaParamDiff,
                                  const void* betaParamDiff,
                                  const miopenTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenTensorDescriptor_t dyDesc,
                                  const void* dy,
                                  const miopenTensorDescriptor_t dxDesc,
                                  void* dx,
                                  const miopenTensorDescriptor_t scaleDesc,
                                  const miopenTensorDescriptor_t biasDesc,
                                  const miopenTensorDescriptor_t savedMeanDesc,
                                  const miopenTensorDescriptor_t savedVarianceDesc,
                                  const void* bnScale,
                                  const void* bnBias,
                                  void* resultBnScaleDiff,
                                  void* resultBnBiasDiff,
                                  double epsilon,
                                  const void* savedMean,
                                  const void* savedInvVariance,
                                  const miopenActivationDescriptor_t activDesc)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, xDesc, x, dyDesc, dy, dxDesc, dx, scaleDesc, biasDesc,
                        savedMeanDesc, savedVarianceDesc, bnScale, bnBias, resultBnScaleDiff,
                        resultBnBiasDiff, epsilon, savedMean, savedInvVariance, activDesc);
    if(activDesc == nullptr)
        return miopenBatchNormalizationBackward_V2(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                                                   betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, scaleDesc,
                                                   biasDesc, savedMeanDesc, savedVarianceDesc, bnScale,
                                                   resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean,
                                                   savedInvVariance);
    miopen::debug::LogCmdBNorm(xDesc, savedMeanDesc, bn_mode, nullptr, nullptr, savedMean, savedInvVariance,
                               miopen::debug::BatchNormDirection_t::Backward);
    return miopen::try_([&] {
        auto& h         = miopen::deref(handle);
        const auto& xd  = miopen::deref(xDesc);
        const auto& dyd = miopen::deref(dyDesc);
        const auto& dxd = miopen::deref(dxDesc);
        const auto& sd  = miopen::deref(scaleDesc);
        const auto& bd  = miopen::deref(biasDesc);
        const auto& md  = miopen::deref(savedMeanDesc);
        const auto& vd  = miopen::deref(savedVarianceDesc);
        const auto& act = miopen::deref(activDesc);
        LogRank(xDesc, bn_mode);
        const miopen::BatchNormTensors t{xd, {&dyd, &dxd}, {&sd, &bd, &md, &vd}};
        miopen::CheckBackward(bn_mode, t, {x, dy, bnScale, dx}, alphaDataDiff, betaDataDiff, alphaParamDiff,
                              betaParamDiff);
        miopen::CheckComputable(bn_mode, t);
        if(bnBias == nullptr || savedMean == nullptr || savedInvVariance == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "The fused backward reads bias and both saved statistics");
        miopen::OperationTimer timer(h);
        const auto xv = xd.View(x);
        const auto& lens = xd.GetLengths();
        const miopen::TensorDescriptor f32(miopenFloat, std::vector<std::size_t>(lens.begin(), lens.end()));
        std::vector<float> bn(f32.GetElementSize()), dbn(f32.GetElementSize());
        const auto bn_view = f32.View(bn.data()), dbn_view = f32.View(dbn.data());
        const auto sv = miopen::ParamView(sd, bnScale), bv = miopen::ParamView(bd, bnBias);
        const auto mv = miopen::ParamView(md, savedMean), iv = miopen::ParamView(vd, savedInvVariance);
        const bool spatial = miopen::KernelMode(bn_mode) == miopen::cpu::BatchNormMode::Spatial;
        std::int64_t idx[miopen::cpu::max_dims] = {};
        for(bool more = true; more;)
        {
            std::int64_t xo = 0, bo = 0;
            std::int64_t po[4] = {};
            const miopen::cpu::TensorView* pv[4] = {&sv, &bv, &mv, &iv};
            for(int d = 0; d < xv.nd; ++d)
            {
                xo += idx[d] * xv.strides[d];
                bo += idx[d] * bn_view.strides[d];
                if(d == 1 || (!spatial && d >= 2))
                    for(int k = 0; k < 4; ++k)
                        po[k] += idx[d] * pv[k]->strides[d];
            }
            const float xf = miopen::cpu::load(xv.type, xv.data, xo);
            const float s  = miopen::cpu::load(sv.type, sv.data, po[0]);
            const float b  = miopen::cpu::load(bv.type, bv.data, po[1]);
            const float m  = miopen::cpu::load(mv.type, mv.data, po[2]);
            const float i  = miopen::cpu::load(iv.type, iv.data, po[3]);
            bn[std::size_t(bo)] = s * ((xf - m) * i) + b;
            more = false;
            for(int d = xv.nd - 1; d >= 0 && !more; --d)
            {
                if(++idx[d] < xv.lens[d])
                    more = true;
                else
                    idx[d] = 0;
            }
        }
        // RELU's derivative reads only its input (here bn); the other modes'
        // read the forward output too, which this call does not have: bn stands in.
        miopen::cpu::activation_backward(act.GetParams(), bn_view, dyd.View(dy), bn_view, dbn_view, 1.0f, 0.0f);
        miopen::cpu::batchnorm_backward(miopen::KernelMode(bn_mode), xv, dbn_view, dxd.View(dx), sv,
                                        miopen::ParamView(sd, resultBnScaleDiff),
                                        miopen::ParamView(bd, resultBnBiasDiff), epsilon, mv, iv, 1.0f, 0.0f,
                                        1.0f, 0.0f);
    });
}
