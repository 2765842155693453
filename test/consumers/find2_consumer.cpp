// The Find 2.0 problem API call by call, for the forwarding checks
// (test/forwarding/check_find2.py). Knows nothing of the wrapper.
//
//   find2_consumer sequence   every Find 2.0 entry point: a search on
//                             preallocated buffers, its solution's getters,
//                             save, load, two runs, destroy; the same problem
//                             again; searches MIOpen keeps (tuning, no
//                             preallocated buffers, a transposed convolution)
//                             and the runs of their solutions (step
//                             `transpose-none` when MIOpen found none for the
//                             transposed one)
//   find2_consumer searched   the first part of `sequence` only: searches
//                             the wrapper answers (for the tuning-db check)
//   find2_consumer parity     invalid calls: null handles, out-parameters and
//                             buffers, a problem missing a tensor, a run
//                             missing an argument, a damaged blob; the
//                             calls on a null solution, problem or blob are
//                             step `null`
//   find2_consumer short-workspace   a search, then its solution run with one
//                             byte less workspace than it needs
//
// Every call writes a `call` record (test/consumers/test_protocol.hpp: its
// number, step, entry point, status, and the values it returned where they do
// not depend on who answered) on stdout, after a `begin` marker of the same
// number on stderr, so a checker can match each call to its routing-trace
// line. Each run's results are checked against a reference here (`result`
// ok or mismatch).
#include "consumer_util.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace {

using consumer::next_eighth;

struct Conv
{
    miopenConvolutionDescriptor_t desc;
    miopenTensorDescriptor_t x, w, y;
    std::vector<float> xv, wv, yv;
};

// x 1x4x6x6, w 8x4x3x3, pad 1, stride 1 -> y 1x8x6x6 (or transposed).
Conv make_conv(miopenConvolutionMode_t mode)
{
    Conv c;
    CHECK(miopenCreateConvolutionDescriptor(&c.desc));
    CHECK(miopenInitConvolutionDescriptor(c.desc, mode, 1, 1, 1, 1, 1, 1));
    c.x = consumer::tensor4d(1, 4, 6, 6);
    c.w = consumer::tensor4d(mode == miopenTranspose ? 4 : 8, mode == miopenTranspose ? 8 : 4, 3, 3);
    c.y = consumer::tensor4d(1, 8, 6, 6);
    std::uint32_t seed = 3;
    for(auto* v : {&c.xv, &c.wv, &c.yv})
    {
        v->resize(v == &c.xv ? 144 : v == &c.wv ? 288 : 288);
        for(float& f : *v)
            f = next_eighth(seed);
    }
    return c;
}

void destroy(Conv& c)
{
    miopenDestroyConvolutionDescriptor(c.desc);
    for(auto d : {c.x, c.w, c.y})
        miopenDestroyTensorDescriptor(d);
}

// The forward convolution of the default problem, in double.
bool forward_ok(const Conv& c, const std::vector<float>& y)
{
    for(int k = 0; k < 8; ++k)
        for(int i = 0; i < 6; ++i)
            for(int j = 0; j < 6; ++j)
            {
                double acc = 0;
                for(int ch = 0; ch < 4; ++ch)
                    for(int r = 0; r < 3; ++r)
                        for(int s = 0; s < 3; ++s)
                        {
                            const int hi = i - 1 + r, wi = j - 1 + s;
                            if(hi >= 0 && wi >= 0 && hi < 6 && wi < 6)
                                acc += double(c.xv[size_t((ch * 6 + hi) * 6 + wi)]) *
                                       c.wv[size_t(((k * 4 + ch) * 3 + r) * 3 + s)];
                        }
                if(std::fabs(acc - y[size_t((k * 6 + i) * 6 + j)]) > 1e-4)
                    return false;
            }
    return true;
}

std::string g_step = "-";
int g_calls         = 0;

// The record of one call (`found`: how many solutions it returned, when given).
protocol::Record call_record(int number, const char* entry, miopenStatus_t s)
{
    protocol::Record r("call");
    r.field("case", number).field("step", g_step).field("entry", entry).field("status", static_cast<int>(s));
    return r;
}

// Marks the call on stderr, makes it, writes its record on stdout.
template <class F>
miopenStatus_t call(const char* entry, F f, const size_t* found = nullptr)
{
    const int number = g_calls++;
    protocol::begin(number);
    const miopenStatus_t s = f();
    protocol::Record r = call_record(number, entry, s);
    if(found != nullptr)
        r.field("found", *found);
    r.emit();
    return s;
}

struct Options
{
    bool tensors = true, workspace = true, tuning = false;
};

struct Found
{
    miopenProblem_t problem = nullptr;
    miopenFindOptions_t options = nullptr;
    miopenSolution_t solution = nullptr;
    size_t found = 0;
};

// Problem, options and the search (x, w, y from the consumer's copies).
Found search(miopenHandle_t h, Conv& c, std::vector<float>& x, std::vector<float>& w, std::vector<float>& y,
             const Options& o, std::vector<char>& ws)
{
    Found f;
    call("miopenCreateConvProblem",
         [&] { return miopenCreateConvProblem(&f.problem, c.desc, miopenProblemDirectionForward); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(f.problem, miopenTensorConvolutionX, c.x); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(f.problem, miopenTensorConvolutionW, c.w); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(f.problem, miopenTensorConvolutionY, c.y); });
    call("miopenCreateFindOptions", [&] { return miopenCreateFindOptions(&f.options); });
    call("miopenSetFindOptionResultsOrder",
         [&] { return miopenSetFindOptionResultsOrder(f.options, miopenFindResultsOrderByTime); });
    call("miopenSetFindOptionWorkspaceLimit", [&] { return miopenSetFindOptionWorkspaceLimit(f.options, ws.size()); });
    if(o.tuning)
        call("miopenSetFindOptionTuning", [&] { return miopenSetFindOptionTuning(f.options, 1); });
    if(o.tensors)
    {
        call("miopenSetFindOptionPreallocatedTensor",
             [&] { return miopenSetFindOptionPreallocatedTensor(f.options, miopenTensorConvolutionX, x.data()); });
        call("miopenSetFindOptionPreallocatedTensor",
             [&] { return miopenSetFindOptionPreallocatedTensor(f.options, miopenTensorConvolutionW, w.data()); });
        call("miopenSetFindOptionPreallocatedTensor",
             [&] { return miopenSetFindOptionPreallocatedTensor(f.options, miopenTensorConvolutionY, y.data()); });
    }
    if(o.workspace)
        call("miopenSetFindOptionPreallocatedWorkspace",
             [&] { return miopenSetFindOptionPreallocatedWorkspace(f.options, ws.data(), ws.size()); });
    call("miopenFindSolutions",
         [&] { return miopenFindSolutions(h, f.problem, f.options, &f.solution, &f.found, 1); });
    return f;
}

// Runs a solution on fresh copies; `check` compares with the forward reference.
miopenStatus_t run(miopenHandle_t h, Conv& c, miopenSolution_t s, bool check)
{
    size_t wsz = 0;
    call("miopenGetSolutionWorkspaceSize", [&] { return miopenGetSolutionWorkspaceSize(s, &wsz); });
    std::vector<char> ws(wsz + 1);
    auto x = c.xv, w = c.wv, y = c.yv;
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionW, nullptr, w.data()},
                                            {miopenTensorConvolutionY, nullptr, y.data()},
                                            {miopenTensorConvolutionX, nullptr, x.data()}};
    const int number = g_calls++;
    protocol::begin(number);
    const miopenStatus_t st = miopenRunSolution(h, s, 3, args, ws.data(), wsz);
    protocol::Record r      = call_record(number, "miopenRunSolution", st);
    if(check && st == miopenStatusSuccess)
        r.field("result", forward_ok(c, y) ? "ok" : "mismatch");
    r.emit();
    return st;
}

void finish(Found& f)
{
    call("miopenDestroySolution", [&] { return miopenDestroySolution(f.solution); });
    call("miopenDestroyFindOptions", [&] { return miopenDestroyFindOptions(f.options); });
    call("miopenDestroyProblem", [&] { return miopenDestroyProblem(f.problem); });
}

int sequence(miopenHandle_t h, bool only_searched)
{
    Conv c = make_conv(miopenConvolution);
    std::vector<char> ws(1 << 16);
    for(const char* step : {"searched", "searched-again"})
    {
        g_step = step;
        auto x = c.xv, w = c.wv, y = c.yv;
        Found f = search(h, c, x, w, y, Options{}, ws);
        float time = -1;
        std::uint64_t id = 0;
        size_t size = 0;
        call("miopenGetSolutionTime", [&] { return miopenGetSolutionTime(f.solution, &time); });
        call("miopenGetSolutionSolverId", [&] { return miopenGetSolutionSolverId(f.solution, &id); });
        call("miopenGetSolutionSize", [&] { return miopenGetSolutionSize(f.solution, &size); });
        std::vector<char> blob(size);
        call("miopenSaveSolution", [&] { return miopenSaveSolution(f.solution, blob.data()); });
        miopenSolution_t loaded = nullptr;
        call("miopenLoadSolution", [&] { return miopenLoadSolution(&loaded, blob.data(), blob.size()); });
        run(h, c, f.solution, true);
        run(h, c, loaded, true);
        call("miopenDestroySolution", [&] { return miopenDestroySolution(loaded); });
        finish(f);
    }
    if(only_searched)
    {
        destroy(c);
        return 0;
    }
    const struct
    {
        const char* step;
        Options o;
    } kept[] = {{"tuning", {true, true, true}}, {"no-buffers", {false, false, false}}};
    for(const auto& k : kept)
    {
        g_step = k.step;
        auto x = c.xv, w = c.wv, y = c.yv;
        Found f = search(h, c, x, w, y, k.o, ws);
        run(h, c, f.solution, true);
        finish(f);
    }
    g_step = "transpose";
    Conv t = make_conv(miopenTranspose);
    {
        auto x = t.xv, w = t.wv, y = t.yv;
        Found f = search(h, t, x, w, y, Options{}, ws);
        // MIOpen may find no solution for it (the mini MIOpen computes no
        // transposed convolution): the calls then take a null solution.
        if(f.solution == nullptr)
            g_step = "transpose-none";
        run(h, t, f.solution, false);
        finish(f);
    }
    destroy(t);
    destroy(c);
    return 0;
}

// A convolution searched on buffers of its own (step `valid`), and the
// arguments of a run on those buffers.
struct Searched
{
    Conv c = make_conv(miopenConvolution);
    std::vector<char> ws = std::vector<char>(1 << 16);
    std::vector<float> x = c.xv, w = c.wv, y = c.yv;
    Found f;
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, x.data()},
                                            {miopenTensorConvolutionW, nullptr, w.data()},
                                            {miopenTensorConvolutionY, nullptr, y.data()}};

    explicit Searched(miopenHandle_t h)
    {
        g_step = "valid";
        f      = search(h, c, x, w, y, Options{}, ws);
    }
    Searched(const Searched&) = delete;
    Searched& operator=(const Searched&) = delete;
};

int parity(miopenHandle_t h)
{
    Searched v(h);
    Conv& c = v.c;
    Found& f = v.f;
    const auto& args = v.args;
    miopenSolution_t s = f.solution;
    g_step = "invalid";
    size_t n = 0;
    miopenSolution_t none = nullptr;
    call("miopenFindSolutions", [&] { return miopenFindSolutions(nullptr, f.problem, f.options, &none, &n, 1); });
    call("miopenFindSolutions", [&] { return miopenFindSolutions(h, f.problem, f.options, &none, &n, 0); }, &n);
    miopenProblem_t two = nullptr;
    call("miopenCreateConvProblem", [&] { return miopenCreateConvProblem(&two, c.desc, miopenProblemDirectionForward); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(two, miopenTensorConvolutionX, c.x); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(two, miopenTensorConvolutionX, c.w); });
    call("miopenSetProblemTensorDescriptor",
         [&] { return miopenSetProblemTensorDescriptor(two, miopenTensorConvolutionW, c.w); });
    call("miopenFindSolutions", [&] { return miopenFindSolutions(h, two, f.options, &none, &n, 1); });
    call("miopenDestroyProblem", [&] { return miopenDestroyProblem(two); });
    call("miopenGetSolutionWorkspaceSize", [&] { return miopenGetSolutionWorkspaceSize(s, nullptr); });
    call("miopenGetSolutionTime", [&] { return miopenGetSolutionTime(s, nullptr); });
    call("miopenGetSolutionSolverId", [&] { return miopenGetSolutionSolverId(s, nullptr); });
    call("miopenGetSolutionSize", [&] { return miopenGetSolutionSize(s, nullptr); });
    call("miopenSaveSolution", [&] { return miopenSaveSolution(s, nullptr); });
    g_step = "null";
    call("miopenGetSolutionTime", [&] { return miopenGetSolutionTime(nullptr, nullptr); });
    call("miopenFindSolutions", [&] { return miopenFindSolutions(h, nullptr, f.options, &none, &n, 1); });
    g_step = "invalid";
    size_t size = 0;
    call("miopenGetSolutionSize", [&] { return miopenGetSolutionSize(s, &size); });
    std::vector<char> blob(size);
    call("miopenSaveSolution", [&] { return miopenSaveSolution(s, blob.data()); });
    miopenSolution_t loaded = nullptr;
    call("miopenLoadSolution", [&] { return miopenLoadSolution(nullptr, blob.data(), blob.size()); });
    g_step = "null";
    call("miopenLoadSolution", [&] { return miopenLoadSolution(&loaded, nullptr, blob.size()); });
    g_step = "invalid";
    std::vector<char> damaged(blob.begin(), blob.begin() + long(blob.size() / 2));
    call("miopenLoadSolution", [&] { return miopenLoadSolution(&loaded, damaged.data(), damaged.size()); });
    std::vector<char> junk(64, 'j');
    call("miopenLoadSolution", [&] { return miopenLoadSolution(&loaded, junk.data(), junk.size()); });
    size_t wsz = 0;
    miopenGetSolutionWorkspaceSize(s, &wsz);
    std::vector<char> rws(wsz + 1);
    call("miopenRunSolution", [&] { return miopenRunSolution(nullptr, s, 3, args, rws.data(), wsz); });
    call("miopenRunSolution", [&] { return miopenRunSolution(h, s, 3, nullptr, rws.data(), wsz); });
    call("miopenRunSolution", [&] { return miopenRunSolution(h, s, 2, args, rws.data(), wsz); });
    g_step = "null";
    call("miopenRunSolution", [&] { return miopenRunSolution(h, nullptr, 3, args, rws.data(), wsz); });
    call("miopenDestroySolution", [&] { return miopenDestroySolution(nullptr); });
    g_step = "valid";
    finish(f);
    destroy(c);
    return 0;
}

// The search's solution run with one byte less workspace than it says it
// needs (none less when it needs none): its record has `needs` and `given`.
int short_workspace(miopenHandle_t h)
{
    Searched v(h);
    size_t wsz = 0;
    call("miopenGetSolutionWorkspaceSize", [&] { return miopenGetSolutionWorkspaceSize(v.f.solution, &wsz); });
    g_step = "short-workspace";
    const size_t given = wsz > 0 ? wsz - 1 : 0;
    std::vector<char> rws(wsz + 1);
    const int number = g_calls++;
    protocol::begin(number);
    const miopenStatus_t st = miopenRunSolution(h, v.f.solution, 3, v.args, rws.data(), given);
    call_record(number, "miopenRunSolution", st).field("needs", wsz).field("given", given).emit();
    g_step = "valid";
    finish(v.f);
    destroy(v.c);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc == 2 ? argv[1] : "";
    if(mode != "sequence" && mode != "searched" && mode != "parity" && mode != "short-workspace")
    {
        std::fprintf(stderr, "usage: %s sequence|searched|parity|short-workspace\n", argv[0]);
        return 2;
    }
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    const int rc = mode == "parity"            ? parity(h)
                   : mode == "short-workspace" ? short_workspace(h)
                                               : sequence(h, mode == "searched");
    protocol::end();
    CHECK(miopenDestroy(h));
    return rc;
}
