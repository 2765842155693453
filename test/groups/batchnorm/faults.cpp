// The batchnorm group's fault sequence (faults_consumer batchnorm): three
// inferences of one problem (legacy, _V2, legacy again), then a training
// pass of the same x (legacy; no running statistics, the saved ones given:
// what is forwarded) and a backward pass (_V2, epsilon 1e-5, the saved
// statistics the training pass wrote); each one executes. The `output`
// record is the last call's output, dx[0] (7 unless a call wrote dx).
#include "faults.hpp"

namespace {

void batchnorm(miopenHandle_t h)
{
    consumer::Tensor x = consumer::tensor4d(2, 3, 4, 4), p = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> xv(96), dy(96), yv(96, 7.0f), dx(96, 7.0f), scale(3, 1.0f), bias(3, 0.25f), mean(3, 0.5f),
        var(3, 2.0f), saved_mean(3, 0.0f), saved_inv(3, 1.0f), dscale(3, 7.0f), dbias(3, 7.0f);
    for(size_t i = 0; i < xv.size(); ++i)
    {
        xv[i] = float(i % 5) * 0.25f;
        dy[i] = float(i % 3) * 0.5f - 0.5f;
    }
    float alpha = 1.0f, beta = 0.0f;
    faults::report("inference", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                                 yv.data(), p, scale.data(), bias.data(),
                                                                 mean.data(), var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    faults::report("inference_V2",
           miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x, yv.data(),
                                                       p, p, p, p, scale.data(), bias.data(), mean.data(),
                                                       var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    faults::report("inference again", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x,
                                                                       xv.data(), x, yv.data(), p, scale.data(),
                                                                       bias.data(), mean.data(), var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    faults::report("training", miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                               yv.data(), p, scale.data(), bias.data(), 0.1, nullptr,
                                                               nullptr, 1e-5, saved_mean.data(), saved_inv.data()));
    faults::report("backward_V2",
           miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, &alpha, &beta, &alpha, &beta, x, xv.data(), x,
                                               dy.data(), x, dx.data(), p, p, p, p, scale.data(), dscale.data(),
                                               dbias.data(), 1e-5, saved_mean.data(), saved_inv.data()));
    faults::output(dx[0]);
    faults::after_a_non_forwarded_call();
}

// The two batchnorm fusion plans' sequences (faults_consumer
// batchnorm-fusion, batchnorm-fusion-backward): a plan's compile, then its
// execute with miopenExecuteFusionPlan (no workspace argument); a failed
// compile ends it, as the fusion group's sequence (a framework falls back to
// unfused calls). The `output` record is y[0] (inference) or dx[0]
// (backward), 7 unless a call wrote it.
struct BnFusionCase
{
    consumer::Tensor x = consumer::tensor4d(2, 3, 4, 4), p = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> xv = std::vector<float>(96), dy = std::vector<float>(96), out = std::vector<float>(96, 7.0f),
                       scale = std::vector<float>(3, 1.0f), bias = std::vector<float>(3, 0.25f),
                       mean = std::vector<float>(3, 0.5f), var = std::vector<float>(3, 2.0f),
                       inv = std::vector<float>(3, 0.7f), dscale = std::vector<float>(3, 7.0f),
                       dbias = std::vector<float>(3, 7.0f);
    BnFusionCase()
    {
        for(size_t i = 0; i < xv.size(); ++i)
        {
            xv[i] = float(i % 5) * 0.25f;
            dy[i] = float(i % 3) * 0.5f - 0.5f;
        }
    }
};

// Compile, then (compiled) the operators' arguments and the execute.
template <class SetArgs>
void compile_and_execute(miopenHandle_t h, miopenFusionPlanDescriptor_t plan, miopenTensorDescriptor_t d,
                         const void* in, void* out, SetArgs set_args)
{
    const miopenStatus_t compiled = miopenCompileFusionPlan(h, plan);
    faults::report("compile", compiled);
    if(compiled != miopenStatusSuccess)
        return;
    miopenOperatorArgs_t args;
    miopenCreateOperatorArgs(&args);
    set_args(args);
    faults::report("execute", miopenExecuteFusionPlan(h, plan, d, in, d, out, args));
    miopenDestroyOperatorArgs(args);
}

void batchnorm_fusion(miopenHandle_t h)
{
    BnFusionCase c;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn, act;
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x);
    miopenCreateOpBatchNormInference(plan, &bn, miopenBNSpatial, c.p);
    miopenCreateOpActivationForward(plan, &act, miopenActivationRELU);
    const float alpha = 1.0f, beta = 0.0f;
    compile_and_execute(h, plan, c.x, c.xv.data(), c.out.data(), [&](miopenOperatorArgs_t args) {
        miopenSetOpArgsBatchNormInference(args, bn, &alpha, &beta, c.scale.data(), c.bias.data(), c.mean.data(),
                                          c.var.data(), 1e-5);
        miopenSetOpArgsActivForward(args, act, &alpha, &beta, 0.0, 0.0, 0.0);
    });
    faults::output(c.out[0]);
    faults::after_a_non_forwarded_call();
    miopenDestroyFusionPlan(plan);
}

void batchnorm_fusion_backward(miopenHandle_t h)
{
    BnFusionCase c;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn, act;
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x);
    miopenCreateOpBatchNormBackward(plan, &bn, miopenBNSpatial);
    miopenCreateOpActivationBackward(plan, &act, miopenActivationRELU);
    const float alpha = 1.0f, beta = 0.0f;
    compile_and_execute(h, plan, c.x, c.dy.data(), c.out.data(), [&](miopenOperatorArgs_t args) {
        miopenSetOpArgsBatchNormBackward(args, bn, &alpha, &beta, c.xv.data(), c.scale.data(), c.bias.data(),
                                         c.dscale.data(), c.dbias.data(), c.mean.data(), c.inv.data());
        miopenSetOpArgsActivBackward(args, act, &alpha, &beta, nullptr, nullptr, 0.0, 0.0, 1.0);
    });
    faults::output(c.out[0]);
    faults::after_a_non_forwarded_call();
    miopenDestroyFusionPlan(plan);
}

const faults::Registration registered("batchnorm", batchnorm);
const faults::Registration registered_fusion("batchnorm-fusion", batchnorm_fusion);
const faults::Registration registered_fusion_backward("batchnorm-fusion-backward", batchnorm_fusion_backward);

} // namespace
