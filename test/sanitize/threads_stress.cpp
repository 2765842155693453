// The wrapper's shared state from many threads at once, for the sanitizers
// (ThreadSanitizer above all): every thread makes its first call together
// (the lazy configuration and backend load), then repeats, each time on a
// handle of its own that it destroys after (handle churn: the handle map,
// plan-cache release), a legacy convolution whose descriptors it sets again
// with a new batch before a second call (descriptor changes: the generation
// table and the per-thread memos), a Find 2.0 search whose solution it
// saves, loads, runs and destroys (the global books of problems and
// solutions), and a fusion plan it creates, compiles, executes and destroys
// (the fusion books). A small plan cache (MIOPEN_HIPDNN_PLAN_CACHE_SIZE)
// makes threads evict each other's plans. Every result is checked against a
// reference; exit 0 when all were right.
//
//   threads_stress [THREADS] [ROUNDS]
#include <miopen/miopen.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace {

std::atomic<int> g_failures{0};

void fail(const char* what, int status)
{
    std::fprintf(stderr, "threads_stress: %s: status %d\n", what, status);
    ++g_failures;
}

bool ok(miopenStatus_t s, const char* what)
{
    if(s != miopenStatusSuccess)
        fail(what, int(s));
    return s == miopenStatusSuccess;
}

struct Desc
{
    miopenTensorDescriptor_t d = nullptr;
    Desc() { miopenCreateTensorDescriptor(&d); }
    ~Desc() { miopenDestroyTensorDescriptor(d); }
    Desc(const Desc&) = delete;
    Desc& operator=(const Desc&) = delete;
    void set(int n, int c, int h, int w) { ok(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w), "set tensor"); }
};

// y = conv(x, w): 3x3, pad 1, stride 1, NCHW.
std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& w, int n, int c, int k, int hw)
{
    std::vector<float> y(size_t(n) * k * hw * hw);
    for(int b = 0; b < n; ++b)
        for(int o = 0; o < k; ++o)
            for(int i = 0; i < hw; ++i)
                for(int j = 0; j < hw; ++j)
                {
                    double acc = 0;
                    for(int ci = 0; ci < c; ++ci)
                        for(int r = 0; r < 3; ++r)
                            for(int s = 0; s < 3; ++s)
                            {
                                const int ii = i + r - 1, jj = j + s - 1;
                                if(ii >= 0 && jj >= 0 && ii < hw && jj < hw)
                                    acc += double(x[size_t(((b * c + ci) * hw + ii) * hw + jj)]) *
                                           w[size_t(((o * c + ci) * 3 + r) * 3 + s)];
                            }
                    y[size_t(((b * k + o) * hw + i) * hw + j)] = float(acc);
                }
    return y;
}

bool close(const std::vector<float>& a, const std::vector<float>& b)
{
    for(size_t i = 0; i < a.size(); ++i)
        if(!(std::fabs(a[i] - b[i]) <= 1e-3f * (1.0f + std::fabs(b[i]))))
            return false;
    return true;
}

struct Problem
{
    int n, c, k, hw;
    Desc x, w, y;
    miopenConvolutionDescriptor_t conv = nullptr;
    std::vector<float> xv, wv, yv, want;

    Problem(int n_, int c_, int k_, int hw_) : n(n_), c(c_), k(k_), hw(hw_)
    {
        miopenCreateConvolutionDescriptor(&conv);
        ok(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1), "init conv");
        w.set(k, c, 3, 3);
        reshape(n, 1);
    }
    ~Problem() { miopenDestroyConvolutionDescriptor(conv); }

    // The descriptors set (again) for batch n, with data from `seed`.
    void reshape(int n_, unsigned seed)
    {
        n = n_;
        x.set(n, c, hw, hw);
        y.set(n, k, hw, hw);
        xv.resize(size_t(n) * c * hw * hw);
        wv.resize(size_t(k) * c * 9);
        for(auto& v : xv)
            v = float((seed = seed * 1103515245u + 12345u) % 17) / 16.0f - 0.5f;
        for(auto& v : wv)
            v = float((seed = seed * 1103515245u + 12345u) % 13) / 12.0f - 0.5f;
        yv.assign(size_t(n) * k * hw * hw, 0.0f);
        want = reference(xv, wv, n, c, k, hw);
    }
};

void legacy(miopenHandle_t h, Problem& p)
{
    size_t need = 0;
    if(!ok(miopenConvolutionForwardGetWorkSpaceSize(h, p.w.d, p.x.d, p.conv, p.y.d, &need), "workspace size"))
        return;
    std::vector<char> ws(need + 1);
    const float alpha = 1, beta = 0;
    std::fill(p.yv.begin(), p.yv.end(), 0.0f);
    if(ok(miopenConvolutionForward(h, &alpha, p.x.d, p.xv.data(), p.w.d, p.wv.data(), p.conv,
                                   miopenConvolutionFwdAlgoDirect, &beta, p.y.d, p.yv.data(), ws.data(), need),
          "forward") &&
       !close(p.yv, p.want))
        fail("forward result", -1);
}

void find2(miopenHandle_t h, Problem& p)
{
    miopenProblem_t problem = nullptr;
    miopenFindOptions_t options = nullptr;
    if(!ok(miopenCreateConvProblem(&problem, p.conv, miopenProblemDirectionForward), "create problem"))
        return;
    ok(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, p.x.d), "problem x");
    ok(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, p.w.d), "problem w");
    ok(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, p.y.d), "problem y");
    std::vector<char> ws(1 << 16);
    ok(miopenCreateFindOptions(&options), "create options");
    ok(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionX, p.xv.data()), "prealloc x");
    ok(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionW, p.wv.data()), "prealloc w");
    ok(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionY, p.yv.data()), "prealloc y");
    ok(miopenSetFindOptionPreallocatedWorkspace(options, ws.data(), ws.size()), "prealloc workspace");
    miopenSolution_t s = nullptr;
    size_t found = 0;
    if(ok(miopenFindSolutions(h, problem, options, &s, &found, 1), "find") && found == 1)
    {
        size_t size = 0;
        ok(miopenGetSolutionSize(s, &size), "solution size");
        std::vector<char> blob(size);
        ok(miopenSaveSolution(s, blob.data()), "save");
        miopenSolution_t loaded = nullptr;
        if(ok(miopenLoadSolution(&loaded, blob.data(), blob.size()), "load"))
        {
            size_t need = 0;
            ok(miopenGetSolutionWorkspaceSize(loaded, &need), "loaded workspace size");
            std::vector<char> run_ws(need + 1);
            const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, p.xv.data()},
                                                    {miopenTensorConvolutionW, nullptr, p.wv.data()},
                                                    {miopenTensorConvolutionY, nullptr, p.yv.data()}};
            std::fill(p.yv.begin(), p.yv.end(), 0.0f);
            if(ok(miopenRunSolution(h, loaded, 3, args, run_ws.data(), need), "run") && !close(p.yv, p.want))
                fail("run result", -1);
            ok(miopenDestroySolution(loaded), "destroy loaded");
        }
        ok(miopenDestroySolution(s), "destroy solution");
    }
    miopenDestroyFindOptions(options);
    miopenDestroyProblem(problem);
}

void fusion(miopenHandle_t h, Problem& p)
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t conv_op = nullptr, activ_op = nullptr;
    if(!ok(miopenCreateFusionPlan(&plan, miopenVerticalFusion, p.x.d), "create fusion plan"))
        return;
    ok(miopenCreateOpConvForward(plan, &conv_op, p.conv, p.w.d), "conv op");
    ok(miopenCreateOpActivationForward(plan, &activ_op, miopenActivationRELU), "activation op");
    if(ok(miopenCompileFusionPlan(h, plan), "compile"))
    {
        miopenOperatorArgs_t args = nullptr;
        miopenCreateOperatorArgs(&args);
        const float alpha = 1, beta = 0;
        ok(miopenSetOpArgsConvForward(args, conv_op, &alpha, &beta, p.wv.data()), "conv args");
        ok(miopenSetOpArgsActivForward(args, activ_op, &alpha, &beta, 0.0, 0.0, 0.0), "activation args");
        std::fill(p.yv.begin(), p.yv.end(), 0.0f);
        if(ok(miopenExecuteFusionPlan(h, plan, p.x.d, p.xv.data(), p.y.d, p.yv.data(), args), "execute"))
        {
            std::vector<float> relu = p.want;
            for(auto& v : relu)
                v = v > 0 ? v : 0;
            if(!close(p.yv, relu))
                fail("fusion result", -1);
        }
        miopenDestroyOperatorArgs(args);
    }
    miopenDestroyFusionPlan(plan);
}

void worker(int id, int rounds, std::atomic<bool>& go)
{
    while(!go.load())
        std::this_thread::yield();
    for(int r = 0; r < rounds; ++r)
    {
        miopenHandle_t h = nullptr;
        if(!ok(miopenCreate(&h), "create handle"))
            return;
        // Few shapes among all threads: plans are shared, evicted and rebuilt.
        Problem p(1 + (id + r) % 2, 2 + id % 2, 3, 5 + r % 2);
        legacy(h, p);
        p.reshape(3 - (id + r) % 2, unsigned(id * 7 + r)); // the same descriptors, another batch
        legacy(h, p);
        find2(h, p);
        fusion(h, p);
        ok(miopenDestroy(h), "destroy handle");
    }
}

} // namespace

int main(int argc, char** argv)
{
    const int threads = argc > 1 ? std::atoi(argv[1]) : 8;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 6;
    std::atomic<bool> go{false};
    std::vector<std::thread> ts;
    for(int i = 0; i < threads; ++i)
        ts.emplace_back(worker, i, rounds, std::ref(go));
    go = true;
    for(auto& t : ts)
        t.join();
    std::printf("threads_stress: %d threads x %d rounds, %d failure(s)\n", threads, rounds, g_failures.load());
    return g_failures.load() == 0 ? 0 : 1;
}
