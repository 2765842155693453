// Find-db stress through the public API: <threads> threads, each with its own
// handle, run miopenFindConvolutionForwardAlgorithm on <problems> problems of
// their own (problem i: a 1x1x(4+i)x4 input, 3x3 filter, pad 1), indices
// from <first> up, so every Find searches and stores a new record in the
// user find-db. check_db_stress.py starts several of these at once and
// counts the records and the warnings.
#include <miopen/miopen.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

std::atomic<int> g_failed{0};

bool find_one(miopenHandle_t h, int index)
{
    const int height = 4 + index;
    miopenTensorDescriptor_t x, w, y;
    miopenConvolutionDescriptor_t c;
    miopenCreateTensorDescriptor(&x);
    miopenCreateTensorDescriptor(&w);
    miopenCreateTensorDescriptor(&y);
    miopenCreateConvolutionDescriptor(&c);
    miopenSet4dTensorDescriptor(x, miopenFloat, 1, 1, height, 4);
    miopenSet4dTensorDescriptor(w, miopenFloat, 1, 1, 3, 3);
    miopenSet4dTensorDescriptor(y, miopenFloat, 1, 1, height, 4);
    miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1);
    size_t ws_size = 0;
    bool ok = miopenConvolutionForwardGetWorkSpaceSize(h, w, x, c, y, &ws_size) == miopenStatusSuccess;
    std::vector<float> xv(size_t(height) * 4, 1.0f), wv(9, 1.0f), yv(size_t(height) * 4, 0.0f);
    std::vector<char> ws(ws_size + 1);
    miopenConvAlgoPerf_t perf[4];
    int found = 0;
    ok = ok && miopenFindConvolutionForwardAlgorithm(h, x, xv.data(), w, wv.data(), c, y, yv.data(), 4, &found, perf,
                                                     ws.data(), ws_size, false) == miopenStatusSuccess
         && found > 0;
    miopenDestroyConvolutionDescriptor(c);
    miopenDestroyTensorDescriptor(y);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(x);
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 4)
    {
        std::fprintf(stderr, "usage: %s <threads> <problems per thread> <first problem index>\n", argv[0]);
        return 2;
    }
    const int threads = std::atoi(argv[1]), problems = std::atoi(argv[2]), first = std::atoi(argv[3]);
    std::vector<std::thread> ts;
    for(int t = 0; t < threads; ++t)
        ts.emplace_back([=] {
            miopenHandle_t h = nullptr;
            if(miopenCreate(&h) != miopenStatusSuccess)
            {
                ++g_failed;
                return;
            }
            for(int k = 0; k < problems; ++k)
                if(!find_one(h, first + t * problems + k))
                    ++g_failed;
            miopenDestroy(h);
        });
    for(auto& t : ts)
        t.join();
    std::printf("find_db_stress: %d finds, %d failed\n", threads * problems, g_failed.load());
    return g_failed.load() == 0 ? 0 : 1;
}
