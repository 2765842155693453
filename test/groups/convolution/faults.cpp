// The convolution group's fault sequence (faults_consumer convolution;
// test/forwarding/check_faults.py with faults.json): GetWorkSpaceSize, Find
// and a forward convolution on one problem.
#include "faults.hpp"

namespace {

void convolution(miopenHandle_t h)
{
    faults::ConvCase p;
    auto& [x, w, y, c, xv, wv, yv] = p;
    size_t ws = 0;
    faults::report("GetWorkSpaceSize", miopenConvolutionForwardGetWorkSpaceSize(h, w, x, c, y, &ws));
    std::vector<char> work(ws);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    faults::report("Find", miopenFindConvolutionForwardAlgorithm(h, x, xv.data(), w, wv.data(), c, y, yv.data(), 1,
                                                                 &found, &perf, work.data(), ws, false));
    yv.assign(yv.size(), 7.0f);
    const float alpha = 1.0f, beta = 0.0f;
    faults::report("forward", miopenConvolutionForward(h, &alpha, x, xv.data(), w, wv.data(), c,
                                                       miopenConvolutionFwdAlgoDirect, &beta, y, yv.data(),
                                                       work.data(), ws));
    faults::output(yv[0]);
    faults::after_a_non_forwarded_call();
}

const faults::Registration registered("convolution", convolution);

} // namespace
