// Failure attribution seen by a framework: GetWorkSpaceSize -> Find ->
// convolution (or, with the argument `batchnorm`, a batchnorm inference:
// legacy, _V2, legacy again on one problem), and after each call what the
// wrapper's own API and miopenGetErrorString say.
// test/forwarding/check_faults.py runs it with the hipDNN test bed's fault
// knobs. One stdout line per call:
//   <label> status=<n> outcome=<n> hipdnn=<n> entry=<name> errstr=<text> msg=<text>
// then y[0] (a failed call leaves y as it was: it was not run anywhere else).
#include "consumer_util.hpp"

#include <miopen/hipdnn_forwarding.h>
#include <miopen/miopen.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

void report(const char* label, miopenStatus_t s)
{
    miopenForwardedError_t e{};
    if(miopenGetLastForwardedError(&e) != miopenStatusSuccess)
    {
        std::printf("%s status=%d miopenGetLastForwardedError failed\n", label, int(s));
        return;
    }
    std::printf("%s status=%d outcome=%d hipdnn=%d entry=%s errstr=%s msg=%s\n", label, int(s), int(e.outcome),
                e.hipdnnStatus, e.entryPoint ? e.entryPoint : "(null)", miopenGetErrorString(s),
                e.message ? e.message : "(null)");
}

void convolution(miopenHandle_t h)
{
    using consumer::tensor4d;
    auto x = tensor4d(1, 2, 5, 5), w = tensor4d(3, 2, 3, 3), y = tensor4d(1, 3, 5, 5);
    miopenConvolutionDescriptor_t c;
    miopenCreateConvolutionDescriptor(&c);
    miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1);
    std::vector<float> xv(50, 0.5f), wv(54, 0.25f), yv(75, 7.0f);

    size_t ws = 0;
    report("GetWorkSpaceSize", miopenConvolutionForwardGetWorkSpaceSize(h, w, x, c, y, &ws));
    std::vector<char> work(ws);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    report("Find", miopenFindConvolutionForwardAlgorithm(h, x, xv.data(), w, wv.data(), c, y, yv.data(), 1, &found,
                                                         &perf, work.data(), ws, false));
    yv.assign(yv.size(), 7.0f);
    const float alpha = 1.0f, beta = 0.0f;
    report("forward", miopenConvolutionForward(h, &alpha, x, xv.data(), w, wv.data(), c,
                                               miopenConvolutionFwdAlgoDirect, &beta, y, yv.data(), work.data(), ws));
    std::printf("y[0]=%g\n", double(yv[0]));
}

void batchnorm(miopenHandle_t h)
{
    auto x = consumer::tensor4d(2, 3, 4, 4), p = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> xv(96, 0.5f), yv(96, 7.0f), scale(3, 1.0f), bias(3, 0.25f), mean(3, 0.5f), var(3, 2.0f);
    float alpha = 1.0f, beta = 0.0f;
    report("inference", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                                 yv.data(), p, scale.data(), bias.data(),
                                                                 mean.data(), var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    report("inference_V2",
           miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x, yv.data(),
                                                       p, p, p, p, scale.data(), bias.data(), mean.data(),
                                                       var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    report("inference again", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x,
                                                                       xv.data(), x, yv.data(), p, scale.data(),
                                                                       bias.data(), mean.data(), var.data(), 1e-5));
    std::printf("y[0]=%g\n", double(yv[0]));
}

} // namespace

int main(int argc, char** argv)
{
    const bool bn = argc > 1 && std::strcmp(argv[1], "batchnorm") == 0;
    if(argc > 1 && !bn && std::strcmp(argv[1], "convolution") != 0)
    {
        std::fprintf(stderr, "usage: faults_consumer [convolution|batchnorm]\n");
        return 2;
    }
    miopenHandle_t h;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    report("before any call", miopenStatusSuccess);
    if(bn)
        batchnorm(h);
    else
        convolution(h);
    // A call outside the forwarding set does not change the record.
    miopenTensorDescriptor_t extra;
    miopenCreateTensorDescriptor(&extra);
    report("after a non-forwarded call", miopenStatusSuccess);
    std::printf("null argument status=%d\n", int(miopenGetLastForwardedError(nullptr)));
    miopenDestroy(h);
    return 0;
}
