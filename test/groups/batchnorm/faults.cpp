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

const faults::Registration registered("batchnorm", batchnorm);

} // namespace
