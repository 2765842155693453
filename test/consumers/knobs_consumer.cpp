// MIOpen's exhaustive search and a Find's workspace, as hipDNN's knobs
// (docs/forwarding.md, "Knobs"): one 3x3 forward convolution searched with
// the legacy Find or Find 2.0, then run, its output checked against a
// reference computed here.
//
//   knobs_consumer legacy <exhaustive 0|1> <workspace bytes | full>
//   knobs_consumer find2 <tuning 0|1> <workspace limit bytes | none>
//
// `full` is miopenConvolutionForwardGetWorkSpaceSize's answer. Find 2.0
// preallocates x, w, y and a 64 KiB workspace and runs the solution with it.
// One `call` record per call (status; for the run, maxerr and result
// ok|mismatch; for the Find, the memory it reported).
#include "consumer_util.hpp"
#include "test_protocol.hpp"

#include <miopen/miopen.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const int N = 2, C = 4, H = 7, W = 6, K = 6, R = 3, S = 3;

struct Conv
{
    miopenHandle_t h = nullptr;
    miopenTensorDescriptor_t xd = nullptr, wd = nullptr, yd = nullptr;
    miopenConvolutionDescriptor_t cd = nullptr;
    std::vector<float> x = std::vector<float>(N * C * H * W), w = std::vector<float>(K * C * R * S),
                       y = std::vector<float>(N * K * H * W, -1.0f);

    Conv()
    {
        std::uint32_t seed = 7;
        for(auto& v : x)
            v = consumer::next_eighth(seed);
        for(auto& v : w)
            v = consumer::next_eighth(seed);
        CHECK(miopenCreate(&h));
        xd = consumer::tensor4d(N, C, H, W);
        wd = consumer::tensor4d(K, C, R, S);
        yd = consumer::tensor4d(N, K, H, W);
        CHECK(miopenCreateConvolutionDescriptor(&cd));
        CHECK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    }
    ~Conv()
    {
        miopenDestroyConvolutionDescriptor(cd);
        for(auto* d : {xd, wd, yd})
            miopenDestroyTensorDescriptor(d);
        miopenDestroy(h);
    }

    // The largest difference from a plain-loop reference.
    double maxerr() const
    {
        double worst = 0;
        for(int n = 0; n < N; ++n)
            for(int k = 0; k < K; ++k)
                for(int i = 0; i < H; ++i)
                    for(int j = 0; j < W; ++j)
                    {
                        double acc = 0;
                        for(int c = 0; c < C; ++c)
                            for(int r = 0; r < R; ++r)
                                for(int s = 0; s < S; ++s)
                                {
                                    int ii = i + r - 1, jj = j + s - 1;
                                    if(ii >= 0 && ii < H && jj >= 0 && jj < W)
                                        acc += double(x[((n * C + c) * H + ii) * W + jj]) *
                                               w[((k * C + c) * R + r) * S + s];
                                }
                        worst = std::fmax(worst, std::fabs(acc - y[((n * K + k) * H + i) * W + j]));
                    }
        return worst;
    }
};

void run_record(const char* call, miopenStatus_t s, const Conv& c)
{
    const double err = c.maxerr();
    protocol::Record("call")
        .field("call", call)
        .field("status", static_cast<int>(s))
        .field("maxerr", err)
        .field("result", s == miopenStatusSuccess && err < 1e-4 ? "ok" : "mismatch")
        .emit();
}

int legacy(bool exhaustive, const std::string& workspace)
{
    Conv c;
    size_t full = 0;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(c.h, c.wd, c.xd, c.cd, c.yd, &full));
    const size_t size = workspace == "full" ? full : std::strtoull(workspace.c_str(), nullptr, 10);
    std::vector<char> ws(size + 1);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    protocol::begin(0);
    auto s = miopenFindConvolutionForwardAlgorithm(c.h, c.xd, c.x.data(), c.wd, c.w.data(), c.cd, c.yd, c.y.data(), 1,
                                                   &found, &perf, size ? ws.data() : nullptr, size, exhaustive);
    protocol::end();
    protocol::Record("call")
        .field("call", "find")
        .field("status", static_cast<int>(s))
        .field("found", found)
        .field("result", s == miopenStatusSuccess && found == 1 ? "ok" : "failed")
        .emit();
    run_record("find-output", s, c);
    return 0;
}

int find2(bool tuning, const std::string& limit)
{
    Conv c;
    std::vector<char> ws(1 << 16);
    miopenProblem_t p = nullptr;
    CHECK(miopenCreateConvProblem(&p, c.cd, miopenProblemDirectionForward));
    CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.xd));
    CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, c.wd));
    CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionY, c.yd));
    miopenFindOptions_t o = nullptr;
    CHECK(miopenCreateFindOptions(&o));
    CHECK(miopenSetFindOptionTuning(o, tuning ? 1 : 0));
    if(limit != "none")
        CHECK(miopenSetFindOptionWorkspaceLimit(o, std::strtoull(limit.c_str(), nullptr, 10)));
    CHECK(miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionX, c.x.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionW, c.w.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionY, c.y.data()));
    CHECK(miopenSetFindOptionPreallocatedWorkspace(o, ws.data(), ws.size()));
    miopenSolution_t sol = nullptr;
    size_t n = 0;
    protocol::begin(0);
    auto s = miopenFindSolutions(c.h, p, o, &sol, &n, 1);
    protocol::end();
    size_t need = 0;
    if(s == miopenStatusSuccess)
        CHECK(miopenGetSolutionWorkspaceSize(sol, &need));
    protocol::Record("call")
        .field("call", "find")
        .field("status", static_cast<int>(s))
        .field("found", static_cast<int>(n))
        .field("workspace", static_cast<long long>(need))
        .field("result", s == miopenStatusSuccess && n == 1 ? "ok" : "failed")
        .emit();
    std::fill(c.y.begin(), c.y.end(), -1.0f);
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, c.x.data()},
                                            {miopenTensorConvolutionW, nullptr, c.w.data()},
                                            {miopenTensorConvolutionY, nullptr, c.y.data()}};
    protocol::begin(1);
    auto r = s == miopenStatusSuccess ? miopenRunSolution(c.h, sol, 3, args, ws.data(), ws.size()) : s;
    protocol::end();
    run_record("run", r, c);
    if(sol != nullptr)
        miopenDestroySolution(sol);
    miopenDestroyFindOptions(o);
    miopenDestroyProblem(p);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if(argc == 4 && mode == "legacy")
        return legacy(std::strcmp(argv[2], "1") == 0, argv[3]);
    if(argc == 4 && mode == "find2")
        return find2(std::strcmp(argv[2], "1") == 0, argv[3]);
    std::fprintf(stderr, "usage: knobs_consumer legacy <0|1> <bytes|full> | find2 <0|1> <limit|none>\n");
    return 2;
}
