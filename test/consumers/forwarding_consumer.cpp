// A framework-style consumer that exercises forwarding through the public
// API only; check_forwarding.py runs it under different environments and
// reads its records on stdout (test/consumers/test_protocol.hpp: a `call` per
// call with its status and the sum of its output, a `property` per
// precondition, `find_result`) and the wrapper's routing trace on stderr.
//
//   forwarding_consumer sequences   documented call sequences, then calls a
//                                   forwarded problem cannot take (beta, ids,
//                                   invalid descriptors): compared with the
//                                   disabled run line by line
//   forwarding_consumer repeat N    one convolution N times
//   forwarding_consumer problems K  K different convolutions, then the first again
//   forwarding_consumer release     a handle's plans are released by miopenDestroy
//   forwarding_consumer stream      miopenSetStream between two calls
//   forwarding_consumer threads     64 threads, first calls at once, own handles
//   forwarding_consumer find        GetWorkSpaceSize -> Find -> compute
//   forwarding_consumer exitthread  one convolution, then exit() from another thread
//   forwarding_consumer forkexit    one convolution; a forked child makes one and _exit()s
#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using consumer::must;

std::vector<float> values(size_t n, std::uint32_t seed)
{
    std::vector<float> v(n);
    for(auto& x : v)
        x = consumer::next_eighth(seed);
    return v;
}

double sum(const std::vector<float>& v)
{
    double s = 0;
    for(float x : v)
        s += x;
    return s;
}

miopenTensorDescriptor_t tensor(const std::vector<int>& dims) { return consumer::packed_tensor(miopenFloat, dims); }

// One fp32 convolution problem with its buffers (2-D, or 3-D when depth > 0).
struct Conv
{
    consumer::Tensor x, w, y;
    consumer::ConvDescriptor c;
    std::vector<float> xv, wv, yv;

    Conv(int n, int ch, int k, int size, int depth = 0)
    {
        const int f = 3, out = size; // pad 1, stride 1
        std::vector<int> xs{n, ch}, ws{k, ch}, ys{n, k};
        std::vector<int> pads, strides, dils;
        for(int i = 0; i < (depth > 0 ? 3 : 2); ++i)
        {
            const int s = (i == 0 && depth > 0) ? depth : size;
            xs.push_back(s);
            ws.push_back(f);
            ys.push_back(i == 0 && depth > 0 ? depth : out);
            pads.push_back(1);
            strides.push_back(1);
            dils.push_back(1);
        }
        x = tensor(xs);
        w = tensor(ws);
        y = tensor(ys);
        must(miopenCreateConvolutionDescriptor(c.out()), "create conv");
        must(miopenInitConvolutionNdDescriptor(c, int(pads.size()), pads.data(), strides.data(), dils.data(),
                                               miopenConvolution),
             "init conv");
        size_t nx = 1, nw = 1, ny = 1;
        for(int v : xs)
            nx *= size_t(v);
        for(int v : ws)
            nw *= size_t(v);
        for(int v : ys)
            ny *= size_t(v);
        xv = values(nx, 1);
        wv = values(nw, 2);
        yv = values(ny, 3);
    }
};

void line(const std::string& label, miopenStatus_t s) { consumer::report_call(label, s); }

void line(const std::string& label, miopenStatus_t s, const std::vector<float>& v)
{
    consumer::report_call(label, s, sum(v));
}

miopenStatus_t forward(miopenHandle_t h, Conv& p, float beta, miopenConvFwdAlgorithm_t algo, std::vector<char>& ws)
{
    const float alpha = 1.0f;
    return miopenConvolutionForward(h, &alpha, p.x, p.xv.data(), p.w, p.wv.data(), p.c, algo, &beta, p.y,
                                    p.yv.data(), ws.data(), ws.size());
}

std::vector<char> workspace(miopenHandle_t h, Conv& p)
{
    size_t n = 0;
    const auto s = miopenConvolutionForwardGetWorkSpaceSize(h, p.w, p.x, p.c, p.y, &n);
    line("GetWorkSpaceSize", s);
    return std::vector<char>(n);
}

// Find -> call, then calls on the same problem that forwarding declines.
void legacy_sequence(miopenHandle_t h, Conv& p, const char* tag)
{
    auto ws = workspace(h, p);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    std::string label = std::string(tag) + " Find";
    line(label.c_str(),
         miopenFindConvolutionForwardAlgorithm(h, p.x, p.xv.data(), p.w, p.wv.data(), p.c, p.y, p.yv.data(), 1,
                                               &found, &perf, ws.data(), ws.size(), false));
    consumer::report_property(std::string(tag) + " Find fits workspace", perf.memory <= ws.size());
    p.yv = values(p.yv.size(), 3);
    label = std::string(tag) + " forward beta=0";
    line(label.c_str(), forward(h, p, 0.0f, perf.fwd_algo, ws), p.yv);
    p.yv = values(p.yv.size(), 3);
    label = std::string(tag) + " forward beta=0.5";
    line(label.c_str(), forward(h, p, 0.5f, perf.fwd_algo, ws), p.yv);
}

// GetSolution -> CompileSolution -> Immediate, and an id MIOpen does not know.
void solution_sequence(miopenHandle_t h, Conv& p)
{
    size_t count = 0, got = 0, need = 0;
    line("GetSolutionCount", miopenConvolutionForwardGetSolutionCount(h, p.w, p.x, p.c, p.y, &count));
    std::vector<miopenConvSolution_t> sols(count);
    line("GetSolution", miopenConvolutionForwardGetSolution(h, p.w, p.x, p.c, p.y, count, &got, sols.data()));
    const uint64_t id = sols.at(0).solution_id;
    line("GetSolutionWorkspaceSize", miopenConvolutionForwardGetSolutionWorkspaceSize(h, p.w, p.x, p.c, p.y, id, &need));
    consumer::report_property("solution workspace covers the listed size", need >= sols[0].workspace_size);
    line("CompileSolution", miopenConvolutionForwardCompileSolution(h, p.w, p.x, p.c, p.y, id));
    std::vector<char> ws(need);
    line("Immediate", miopenConvolutionForwardImmediate(h, p.w, p.wv.data(), p.x, p.xv.data(), p.c, p.y,
                                                        p.yv.data(), ws.data(), ws.size(), id), p.yv);
    line("Immediate unknown id", miopenConvolutionForwardImmediate(h, p.w, p.wv.data(), p.x, p.xv.data(), p.c,
                                                                   p.y, p.yv.data(), ws.data(), ws.size(), 987654));
}

// Invalid arguments get MIOpen's own status whatever the routing.
void invalid_calls(miopenHandle_t h, Conv& p)
{
    std::vector<char> ws(1 << 16);
    const float one = 1.0f, zero = 0.0f;
    line("forward null x", miopenConvolutionForward(h, &one, p.x, nullptr, p.w, p.wv.data(), p.c,
                                                    miopenConvolutionFwdAlgoDirect, &zero, p.y, p.yv.data(),
                                                    ws.data(), ws.size()));
    line("forward null xDesc", miopenConvolutionForward(h, &one, nullptr, p.xv.data(), p.w, p.wv.data(), p.c,
                                                        miopenConvolutionFwdAlgoDirect, &zero, p.y,
                                                        p.yv.data(), ws.data(), ws.size()));
    line("forward y for another conv", miopenConvolutionForward(h, &one, p.x, p.xv.data(), p.w, p.wv.data(), p.c,
                                                                miopenConvolutionFwdAlgoDirect, &zero, p.x,
                                                                p.xv.data(), ws.data(), ws.size()));
    size_t n = 0;
    line("GetWorkSpaceSize null out", miopenConvolutionForwardGetWorkSpaceSize(h, p.w, p.x, p.c, p.y, nullptr));
    line("GetWorkSpaceSize null handle", miopenConvolutionForwardGetWorkSpaceSize(nullptr, p.w, p.x, p.c, p.y, &n));
}

int sequences()
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    Conv p2(2, 3, 4, 6);
    legacy_sequence(h, p2, "2-D");
    Conv p3(1, 2, 3, 4, 3);
    legacy_sequence(h, p3, "3-D");
    Conv s(1, 4, 2, 5);
    solution_sequence(h, s);
    invalid_calls(h, s);
    miopenDestroy(h);
    return 0;
}

int repeat(int n)
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    Conv p(1, 3, 4, 6);
    auto ws = workspace(h, p);
    for(int i = 0; i < n; ++i)
        line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
    miopenDestroy(h);
    return 0;
}

int problems(int k)
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    std::vector<Conv> ps;
    for(int i = 0; i < k; ++i)
        ps.emplace_back(1, 2, 2, 4 + i);
    std::vector<char> ws(1 << 20);
    for(int i = 0; i <= k; ++i)
    {
        line("problem " + std::to_string(i % k) + ": forward",
             forward(h, ps[size_t(i % k)], 0.0f, miopenConvolutionFwdAlgoDirect, ws));
    }
    miopenDestroy(h);
    return 0;
}

int release()
{
    std::vector<char> ws(1 << 20);
    miopenHandle_t first = nullptr;
    for(int round = 0; round < 2; ++round)
    {
        miopenHandle_t h;
        must(miopenCreate(&h), "create");
        if(round == 0)
            first = h;
        else
        {
            // The checker needs the new handle at the old one's address (a
            // per-thread plan slot keyed by it must not serve the new
            // handle): hold the handles the allocator gives out elsewhere
            // until it hands that address out again.
            std::vector<miopenHandle_t> elsewhere;
            while(h != first && elsewhere.size() < 256)
            {
                elsewhere.push_back(h);
                must(miopenCreate(&h), "create");
            }
            for(auto e : elsewhere)
                miopenDestroy(e);
            consumer::report_property("handle address reused", h == first);
        }
        Conv p(1, 3, 4, 6);
        line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
        line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
        line("destroy", miopenDestroy(h));
    }
    return 0;
}

// The stream set away and back by another thread between two calls of this
// one: this thread's last call ran on the original stream, and so must the
// next, although the hipDNN handle was moved meanwhile.
int stream_away_and_back()
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    Conv p(1, 3, 4, 6);
    std::vector<char> ws(1 << 20);
    miopenAcceleratorQueue_t original = nullptr;
    must(miopenGetStream(h, &original), "get stream");
    line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
    std::thread([&] {
        line("set stream", miopenSetStream(h, reinterpret_cast<miopenAcceleratorQueue_t>(std::uintptr_t(0x5eed00))));
        line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
        line("set stream back", miopenSetStream(h, original));
    }).join();
    line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
    miopenDestroy(h);
    return 0;
}

int stream()
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    Conv p(1, 3, 4, 6);
    std::vector<char> ws(1 << 20);
    line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
    // The test bed's streams are opaque values that are only passed along.
    line("set stream", miopenSetStream(h, reinterpret_cast<miopenAcceleratorQueue_t>(std::uintptr_t(0x5eed00))));
    line("forward", forward(h, p, 0.0f, miopenConvolutionFwdAlgoDirect, ws), p.yv);
    miopenDestroy(h);
    return 0;
}

int threads()
{
    std::atomic<bool> go{false};
    std::vector<int> status(64, -1);
    std::vector<std::thread> ts;
    for(int i = 0; i < 64; ++i)
        ts.emplace_back([&, i] {
            miopenHandle_t h;
            must(miopenCreate(&h), "create");
            Conv p(1, 2, 2, 5);
            while(!go.load())
                std::this_thread::yield();
            size_t n = 0;
            status[size_t(i)] = int(miopenConvolutionForwardGetWorkSpaceSize(h, p.w, p.x, p.c, p.y, &n));
            miopenDestroy(h);
        });
    go = true;
    for(auto& t : ts)
        t.join();
    for(int s : status)
        if(s != status[0])
        {
            consumer::report_property("every thread got one status", false);
            return 1;
        }
    consumer::report_call("threads", static_cast<miopenStatus_t>(status[0]));
    return 0;
}

int find()
{
    miopenHandle_t h;
    must(miopenCreate(&h), "create");
    Conv p(1, 3, 4, 6);
    auto ws = workspace(h, p);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    line("Find", miopenFindConvolutionForwardAlgorithm(h, p.x, p.xv.data(), p.w, p.wv.data(), p.c, p.y,
                                                       p.yv.data(), 1, &found, &perf, ws.data(), ws.size(), false));
    protocol::Record("find_result")
        .field("algo", static_cast<int>(perf.fwd_algo))
        .field("time", perf.time)
        .field("memory", perf.memory)
        .emit();
    // As a caller does when Find found nothing: the Direct algorithm, which
    // needs no workspace (perf's zero would be GEMM without its workspace,
    // a call MIOpen rejects whatever the routing).
    line("forward", forward(h, p, 0.0f, found > 0 ? perf.fwd_algo : miopenConvolutionFwdAlgoDirect, ws), p.yv);
    miopenDestroy(h);
    return 0;
}

int exit_from_thread()
{
    repeat(1);
    std::thread([] {
        std::fflush(stdout);
        std::exit(0);
    }).join();
    return 1; // not reached
}

int fork_child_exits()
{
    repeat(1);
    std::fflush(stdout);
    const pid_t pid = fork();
    if(pid == 0)
    {
        repeat(1);
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    const int n      = argc > 2 ? std::atoi(argv[2]) : 3;
    if(std::strcmp(mode, "sequences") == 0)
        return sequences();
    if(std::strcmp(mode, "repeat") == 0)
        return repeat(n);
    if(std::strcmp(mode, "problems") == 0)
        return problems(n);
    if(std::strcmp(mode, "release") == 0)
        return release();
    if(std::strcmp(mode, "stream") == 0)
        return stream();
    if(std::strcmp(mode, "streamback") == 0)
        return stream_away_and_back();
    if(std::strcmp(mode, "threads") == 0)
        return threads();
    if(std::strcmp(mode, "find") == 0)
        return find();
    if(std::strcmp(mode, "exitthread") == 0)
        return exit_from_thread();
    if(std::strcmp(mode, "forkexit") == 0)
        return fork_child_exits();
    std::fprintf(stderr, "usage: forwarding_consumer sequences|repeat N|problems K|release|stream|streamback|threads|find|exitthread|forkexit\n");
    return 2;
}
