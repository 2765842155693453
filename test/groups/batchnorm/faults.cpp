// The batchnorm group's fault sequence (faults_consumer batchnorm): three
// inferences of one problem (legacy, _V2, legacy again), each one executes.
#include "faults.hpp"

namespace {

void batchnorm(miopenHandle_t h)
{
    consumer::Tensor x = consumer::tensor4d(2, 3, 4, 4), p = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> xv(96, 0.5f), yv(96, 7.0f), scale(3, 1.0f), bias(3, 0.25f), mean(3, 0.5f), var(3, 2.0f);
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
    faults::output(yv[0]);
    faults::after_a_non_forwarded_call();
}

const faults::Registration registered("batchnorm", batchnorm);

} // namespace
