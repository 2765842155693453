// Failure attribution seen by a framework: GetWorkSpaceSize -> Find ->
// convolution, and after each call what the wrapper's own API and
// miopenGetErrorString say. test/forwarding/check_faults.py runs it with the
// hipDNN test bed's fault knobs. One stdout line per call:
//   <label> status=<n> outcome=<n> hipdnn=<n> entry=<name> errstr=<text> msg=<text>
#include "consumer_util.hpp"

#include <miopen/hipdnn_forwarding.h>
#include <miopen/miopen.h>

#include <cstdio>
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

} // namespace

int main()
{
    miopenHandle_t h;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    report("before any call", miopenStatusSuccess);
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
    // A failed call leaves y as it was: it was not run anywhere else.
    std::printf("y[0]=%g\n", double(yv[0]));
    // A call outside the forwarding set does not change the record.
    miopenTensorDescriptor_t extra;
    miopenCreateTensorDescriptor(&extra);
    report("after a non-forwarded call", miopenStatusSuccess);
    std::printf("null argument status=%d\n", int(miopenGetLastForwardedError(nullptr)));
    miopenDestroy(h);
    return 0;
}
