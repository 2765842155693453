#include "run.hpp"

#include "reference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace driver {
namespace {

constexpr int setup_error = 17;

miopenDataType_t miopen_type(Type t)
{
    return t == Type::fp32 ? miopenFloat : t == Type::fp16 ? miopenHalf : miopenBFloat16;
}

// MIOpen's driver tolerances (GetDefaultTolerance): fp32 1.5e-6; fp16 8.2e-3
// (13 fewer mantissa bits); bf16 eight times fp16 (3 fewer still).
double default_tolerance(Type t) { return t == Type::fp32 ? 1.5e-6 : t == Type::fp16 ? 8.2e-3 : 8.2e-3 * 8; }

std::string join(const std::vector<int>& v)
{
    std::string s;
    for(size_t i = 0; i < v.size(); ++i)
        s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
}

Shape shape(const std::vector<int>& len, const std::vector<int>& stride)
{
    Shape s;
    const bool two_d = len.size() == 4;
    for(size_t i = 0, j = 0; j < 5; ++j)
    {
        if(two_d && j == 2) // depth 1
        {
            s.len[j]    = 1;
            s.stride[j] = 0;
            continue;
        }
        s.len[j]    = len[i];
        s.stride[j] = stride[i];
        ++i;
    }
    return s;
}

ConvGeometry geometry(const Problem& p)
{
    ConvGeometry g;
    const size_t off = p.spatial == 2 ? 1 : 0; // 2-D: depth keeps pad 0, stride 1, dilation 1
    for(size_t i = 0; i < p.pads.size(); ++i)
    {
        g.pad[i + off]      = p.pads[i];
        g.stride[i + off]   = p.strides[i];
        g.dilation[i + off] = p.dilations[i];
    }
    g.groups = p.groups;
    return g;
}

void fill_random(Buffer& b, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for(size_t i = 0; i < b.size(); ++i)
        b.set(i, dist(gen));
}

void fill_nan(Buffer& b) // a library that writes nothing must fail verification
{
    for(size_t i = 0; i < b.size(); ++i)
        b.set(i, std::numeric_limits<double>::quiet_NaN());
}

// Handle, descriptors, buffers and the reference's view of them.
struct Setup
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t x = nullptr, w = nullptr, y = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    std::vector<int> y_len, y_stride;
    Shape xs, ws, ys;

    ~Setup()
    {
        miopenDestroyConvolutionDescriptor(conv);
        miopenDestroyTensorDescriptor(x);
        miopenDestroyTensorDescriptor(w);
        miopenDestroyTensorDescriptor(y);
        if(handle != nullptr)
            miopenDestroy(handle);
    }
};

bool check(miopenStatus_t s, const char* what)
{
    if(s != miopenStatusSuccess)
        std::printf("%s failed: %s (status %d)\n", what, miopenGetErrorString(s), int(s));
    return s == miopenStatusSuccess;
}

bool make_setup(const Problem& p, Setup& s)
{
    const auto t = miopen_type(p.type);
    if(!check(miopenCreate(&s.handle), "miopenCreate") || !check(miopenCreateTensorDescriptor(&s.x), "create x") ||
       !check(miopenCreateTensorDescriptor(&s.w), "create w") || !check(miopenCreateTensorDescriptor(&s.y), "create y") ||
       !check(miopenCreateConvolutionDescriptor(&s.conv), "create conv"))
        return false;
    if(p.time)
        miopenEnableProfiling(s.handle, true);
    const int nd = int(p.x_len.size());
    if(!check(miopenSetTensorDescriptor(s.x, t, nd, p.x_len.data(), p.x_stride.data()), "x descriptor") ||
       !check(miopenSetTensorDescriptor(s.w, t, nd, p.w_len.data(), p.w_stride.data()), "w descriptor") ||
       !check(miopenInitConvolutionNdDescriptor(s.conv, p.spatial, p.pads.data(), p.strides.data(),
                                                p.dilations.data(), p.mode),
              "miopenInitConvolutionNdDescriptor") ||
       !check(miopenSetConvolutionGroupCount(s.conv, p.groups), "miopenSetConvolutionGroupCount"))
        return false;
    int out_nd = nd;
    s.y_len.assign(size_t(nd), 0);
    if(!check(miopenGetConvolutionNdForwardOutputDim(s.conv, s.x, s.w, &out_nd, s.y_len.data()),
              "miopenGetConvolutionNdForwardOutputDim"))
        return false;
    std::string error;
    if(!layout_strides(p.y_layout, s.y_len, s.y_stride, error))
    {
        std::printf("%s\n", error.c_str());
        return false;
    }
    if(!check(miopenSetTensorDescriptor(s.y, t, nd, s.y_len.data(), s.y_stride.data()), "y descriptor"))
        return false;
    s.xs = shape(p.x_len, p.x_stride);
    s.ws = shape(p.w_len, p.w_stride);
    s.ys = shape(s.y_len, s.y_stride);
    return true;
}

// One direction: how MIOpen's API runs it (Find + legacy call, or immediate
// mode) and what the reference says it must produce.
struct Direction
{
    const char* name;  // as MIOpen's driver words it
    const char* label; // fwd / bwd / wrw
    int bit;
    double tolerance;
    Buffer* out;
    std::function<miopenStatus_t(size_t*)> workspace_size;
    std::function<miopenStatus_t(void*, size_t, bool, int*)> find; // -> algorithm
    std::function<miopenStatus_t(int, void*, size_t)> run;         // algorithm
    std::function<miopenStatus_t(size_t, size_t*, miopenConvSolution_t*)> solutions;
    std::function<miopenStatus_t(uint64_t, size_t*)> solution_workspace;
    std::function<miopenStatus_t(uint64_t)> compile;
    std::function<miopenStatus_t(void*, size_t, uint64_t)> immediate;
    std::function<std::vector<double>()> reference;
};

struct Data
{
    Buffer x, w, y, dy, dx, dw;
    Data(const Setup& s, Type t)
        : x(t, s.xs.elements()), w(t, s.ws.elements()), y(t, s.ys.elements()), dy(t, s.ys.elements()),
          dx(t, s.xs.elements()), dw(t, s.ws.elements())
    {
    }
};

std::vector<Direction> directions(const Problem& p, Setup& s, Data& d)
{
    const double tol = default_tolerance(p.type);
    const float one = 1.0f, zero = 0.0f;
    const ConvGeometry g = geometry(p);
    const bool trans     = p.mode == miopenTranspose;
    // A transposed convolution is the plain one with x and y exchanged: its
    // forward is the plain backward-data and its backward-data the plain forward.
    auto fwd_ref = [&s, &d, g, trans] {
        return trans ? reference_backward_data(s.ys, s.ws, d.w.values(), s.xs, d.x.values(), g, d.y.size())
                     : reference_forward(s.xs, d.x.values(), s.ws, d.w.values(), s.ys, g, d.y.size());
    };
    auto bwd_ref = [&s, &d, g, trans] {
        return trans ? reference_forward(s.ys, d.dy.values(), s.ws, d.w.values(), s.xs, g, d.dx.size())
                     : reference_backward_data(s.xs, s.ws, d.w.values(), s.ys, d.dy.values(), g, d.dx.size());
    };
    auto wrw_ref = [&s, &d, g, trans] {
        return trans ? reference_backward_weights(s.ys, d.dy.values(), s.ws, s.xs, d.x.values(), g, d.dw.size())
                     : reference_backward_weights(s.xs, d.x.values(), s.ws, s.ys, d.dy.values(), g, d.dw.size());
    };
    // WrW sums over more terms (MIOpen's driver doubles its tolerance, and again for fp32 transposed).
    const double wrw_tol = 2 * tol * (trans && p.type == Type::fp32 ? 2 : 1);
    auto h = s.handle;
    Direction fwd{
        "Forward Convolution", "fwd", 1, tol, &d.y,
        [=, &s](size_t* n) { return miopenConvolutionForwardGetWorkSpaceSize(h, s.w, s.x, s.conv, s.y, n); },
        [=, &s, &d](void* ws, size_t n, bool search, int* algo) {
            miopenConvAlgoPerf_t perf[4];
            int got = 0;
            auto st = miopenFindConvolutionForwardAlgorithm(h, s.x, d.x.data(), s.w, d.w.data(), s.conv, s.y,
                                                            d.y.data(), 4, &got, perf, ws, n, search);
            *algo = got > 0 ? int(perf[0].fwd_algo) : 0;
            return st == miopenStatusSuccess && got < 1 ? miopenStatusUnknownError : st;
        },
        [=, &s, &d](int algo, void* ws, size_t n) {
            return miopenConvolutionForward(h, &one, s.x, d.x.data(), s.w, d.w.data(), s.conv,
                                            miopenConvFwdAlgorithm_t(algo), &zero, s.y, d.y.data(), ws, n);
        },
        [=, &s](size_t max, size_t* n, miopenConvSolution_t* sol) {
            return miopenConvolutionForwardGetSolution(h, s.w, s.x, s.conv, s.y, max, n, sol);
        },
        [=, &s](uint64_t id, size_t* n) {
            return miopenConvolutionForwardGetSolutionWorkspaceSize(h, s.w, s.x, s.conv, s.y, id, n);
        },
        [=, &s](uint64_t id) { return miopenConvolutionForwardCompileSolution(h, s.w, s.x, s.conv, s.y, id); },
        [=, &s, &d](void* ws, size_t n, uint64_t id) {
            return miopenConvolutionForwardImmediate(h, s.w, d.w.data(), s.x, d.x.data(), s.conv, s.y, d.y.data(),
                                                     ws, n, id);
        },
        fwd_ref};
    Direction bwd{
        "Backward Convolution Data", "bwd", 2, tol, &d.dx,
        [=, &s](size_t* n) { return miopenConvolutionBackwardDataGetWorkSpaceSize(h, s.y, s.w, s.conv, s.x, n); },
        [=, &s, &d](void* ws, size_t n, bool search, int* algo) {
            miopenConvAlgoPerf_t perf[4];
            int got = 0;
            auto st = miopenFindConvolutionBackwardDataAlgorithm(h, s.y, d.dy.data(), s.w, d.w.data(), s.conv, s.x,
                                                                 d.dx.data(), 4, &got, perf, ws, n, search);
            *algo = got > 0 ? int(perf[0].bwd_data_algo) : 0;
            return st == miopenStatusSuccess && got < 1 ? miopenStatusUnknownError : st;
        },
        [=, &s, &d](int algo, void* ws, size_t n) {
            return miopenConvolutionBackwardData(h, &one, s.y, d.dy.data(), s.w, d.w.data(), s.conv,
                                                 miopenConvBwdDataAlgorithm_t(algo), &zero, s.x, d.dx.data(), ws, n);
        },
        [=, &s](size_t max, size_t* n, miopenConvSolution_t* sol) {
            return miopenConvolutionBackwardDataGetSolution(h, s.y, s.w, s.conv, s.x, max, n, sol);
        },
        [=, &s](uint64_t id, size_t* n) {
            return miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, s.y, s.w, s.conv, s.x, id, n);
        },
        [=, &s](uint64_t id) { return miopenConvolutionBackwardDataCompileSolution(h, s.y, s.w, s.conv, s.x, id); },
        [=, &s, &d](void* ws, size_t n, uint64_t id) {
            return miopenConvolutionBackwardDataImmediate(h, s.y, d.dy.data(), s.w, d.w.data(), s.conv, s.x,
                                                          d.dx.data(), ws, n, id);
        },
        bwd_ref};
    Direction wrw{
        "Backward Convolution Weights", "wrw", 4, wrw_tol, &d.dw,
        [=, &s](size_t* n) { return miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, s.y, s.x, s.conv, s.w, n); },
        [=, &s, &d](void* ws, size_t n, bool search, int* algo) {
            miopenConvAlgoPerf_t perf[4];
            int got = 0;
            auto st = miopenFindConvolutionBackwardWeightsAlgorithm(h, s.y, d.dy.data(), s.x, d.x.data(), s.conv,
                                                                    s.w, d.dw.data(), 4, &got, perf, ws, n, search);
            *algo = got > 0 ? int(perf[0].bwd_weights_algo) : 0;
            return st == miopenStatusSuccess && got < 1 ? miopenStatusUnknownError : st;
        },
        [=, &s, &d](int algo, void* ws, size_t n) {
            return miopenConvolutionBackwardWeights(h, &one, s.y, d.dy.data(), s.x, d.x.data(), s.conv,
                                                    miopenConvBwdWeightsAlgorithm_t(algo), &zero, s.w, d.dw.data(),
                                                    ws, n);
        },
        [=, &s](size_t max, size_t* n, miopenConvSolution_t* sol) {
            return miopenConvolutionBackwardWeightsGetSolution(h, s.y, s.x, s.conv, s.w, max, n, sol);
        },
        [=, &s](uint64_t id, size_t* n) {
            return miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, s.y, s.x, s.conv, s.w, id, n);
        },
        [=, &s](uint64_t id) {
            return miopenConvolutionBackwardWeightsCompileSolution(h, s.y, s.x, s.conv, s.w, id);
        },
        [=, &s, &d](void* ws, size_t n, uint64_t id) {
            return miopenConvolutionBackwardWeightsImmediate(h, s.y, d.dy.data(), s.x, d.x.data(), s.conv, s.w,
                                                             d.dw.data(), ws, n, id);
        },
        wrw_ref};
    std::vector<Direction> out;
    if(p.fwd)
        out.push_back(fwd);
    if(p.bwd)
        out.push_back(bwd);
    if(p.wrw)
        out.push_back(wrw);
    return out;
}

using Clock = std::chrono::steady_clock;

// The call one iteration makes, prepared (Find, or solution choice + compile).
bool prepare(const Problem& p, Direction& dir, std::vector<unsigned char>& ws,
             std::function<miopenStatus_t()>& call)
{
    size_t ws_size = 0;
    if(p.solution < 0)
    {
        int algo = 0;
        if(!check(dir.workspace_size(&ws_size), "workspace size query"))
            return false;
        ws.assign(ws_size, 0);
        if(!check(dir.find(ws.data(), ws.size(), p.search, &algo), "Find"))
            return false;
        std::printf("MIOpen %s: Find chose algorithm %d, workspace %zu bytes\n", dir.name, algo, ws_size);
        call = [&dir, &ws, algo] { return dir.run(algo, ws.data(), ws.size()); };
        return true;
    }
    std::vector<miopenConvSolution_t> sols(16);
    size_t count = 0;
    if(!check(dir.solutions(sols.size(), &count, sols.data()), "GetSolution"))
        return false;
    const miopenConvSolution_t* chosen = count > 0 && p.solution == 0 ? &sols[0] : nullptr;
    for(size_t i = 0; i < count && chosen == nullptr; ++i)
        if(sols[i].solution_id == uint64_t(p.solution))
            chosen = &sols[i];
    if(chosen == nullptr)
    {
        std::printf("MIOpen %s: solution %ld is not applicable (%zu applicable)\n", dir.name, p.solution, count);
        return false;
    }
    const uint64_t id = chosen->solution_id;
    if(!check(dir.solution_workspace(id, &ws_size), "GetSolutionWorkspaceSize") ||
       !check(dir.compile(id), "CompileSolution"))
        return false;
    ws.assign(ws_size, 0);
    std::printf("MIOpen %s: immediate mode, solution %llu (algorithm %d), workspace %zu bytes\n", dir.name,
                static_cast<unsigned long long>(id), int(chosen->algorithm), ws_size);
    call = [&dir, &ws, id] { return dir.immediate(ws.data(), ws.size(), id); };
    return true;
}

// Runs a direction --iter times; false if any call failed.
bool run_direction(const Problem& p, const Setup& s, Direction& dir)
{
    std::vector<unsigned char> ws;
    std::function<miopenStatus_t()> call;
    fill_nan(*dir.out);
    if(!prepare(p, dir, ws, call))
        return false;
    if(p.warmup && !check(call(), dir.name))
        return false;
    double first_ms = 0, rest_ms = 0, kernel_ms = 0;
    for(int i = 0; i < p.iterations; ++i)
    {
        const auto t0 = Clock::now();
        if(!check(call(), dir.name))
            return false;
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        (i == 0 ? first_ms : rest_ms) += ms;
        float k = 0;
        if(p.time && miopenGetKernelTime(s.handle, &k) == miopenStatusSuccess)
            kernel_ms += k;
    }
    if(p.time)
    {
        const int rest = p.iterations - 1;
        std::printf("Wall-clock Time %s Elapsed: first %.4f ms, average of the other %d: %.4f ms\n", dir.name,
                    first_ms, rest, rest > 0 ? rest_ms / rest : first_ms);
        std::printf("GPU Kernel Time %s Elapsed: %.4f ms (average)\n", dir.name, kernel_ms / p.iterations);
    }
    return true;
}

// Test hook (MIOPEN_DRIVER_CORRUPT_OUTPUT=fwd|bwd|wrw): shifts every output
// value of that direction by a quarter of the largest magnitude after the
// library wrote it, so a test can prove that verification fails.
void corrupt_if_asked(Direction& dir)
{
    const char* which = std::getenv("MIOPEN_DRIVER_CORRUPT_OUTPUT");
    if(which == nullptr || std::string(which) != dir.label)
        return;
    const auto v = dir.out->values();
    double mag   = 0;
    for(double x : v)
        mag = std::max(mag, std::fabs(x));
    for(size_t i = 0; i < v.size(); ++i)
        dir.out->set(i, v[i] + 0.25 * mag + 0.25);
}

bool verify_direction(const Direction& dir)
{
    const double err = rms_range(dir.reference(), dir.out->values());
    const bool ok    = std::isfinite(err) && err <= dir.tolerance;
    if(ok)
        std::printf("%s Verifies OK on CPU reference (%g < %g)\n", dir.name, err, dir.tolerance);
    else
        std::printf("%s FAILED: %g > %g\n", dir.name, err, dir.tolerance);
    return ok;
}

void print_problem(const Problem& p, const Setup& s)
{
    std::printf("Convolution: x %s, w %s, y %s, pads %s, strides %s, dilations %s, groups %d, mode %s\n",
                join(p.x_len).c_str(), join(p.w_len).c_str(), join(s.y_len).c_str(), join(p.pads).c_str(),
                join(p.strides).c_str(), join(p.dilations).c_str(), p.groups,
                p.mode == miopenConvolution ? "conv" : "trans");
}

} // namespace

int run_all(const Flags&, const Problem& p)
{
    Setup s;
    if(!make_setup(p, s))
        return setup_error;
    if(p.printconv)
        print_problem(p, s);
    Data d(s, p.type);
    if(p.host_init)
    {
        fill_random(d.x, 1);
        fill_random(d.w, 2);
        fill_random(d.dy, 3);
    }
    int failed = 0;
    std::string summary;
    for(auto& dir : directions(p, s, d))
    {
        bool ok = run_direction(p, s, dir);
        if(!ok)
            std::printf("%s FAILED: the library call did not succeed\n", dir.name);
        if(ok && p.verify)
        {
            corrupt_if_asked(dir);
            ok = verify_direction(dir);
        }
        if(!ok)
            failed |= dir.bit;
        summary += std::string(" ") + dir.label + "=" + (!ok ? "FAIL" : p.verify ? "PASS" : "RAN");
    }
    std::printf("Result:%s\n", summary.c_str());
    return failed;
}

} // namespace driver
