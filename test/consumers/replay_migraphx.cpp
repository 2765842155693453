// MIGraphX's MIOpen call sequence for the convolutions of a small network,
// replayed through the public API.
//
// The sequence is MIGraphX's miopen_convolution (ROCm/AMDMIGraphX
// src/targets/gpu/include/migraphx/gpu/convolution.hpp @ 6fc1d399, with
// miopen.hpp @ 6fc1d399 for the descriptors and find_solution), as built on a
// ROCm whose MIOpen exports the Find 2.0 API, the preallocation API and
// miopenHiddenSetConvolutionFindMode (src/targets/gpu/CMakeLists.txt @
// 77d5580e defines MIGRAPHX_HAS_FIND_2_API, MIGRAPHX_PREALLOCATE_MIOPEN_BUFFERS
// and MIGRAPHX_HAS_FIND_MODE_API then):
//
//   compile (per convolution): make_conv (miopenInitConvolutionNdDescriptor,
//     miopenGroupConv + miopenSetConvolutionGroupCount when grouped,
//     miopenHiddenSetConvolutionFindMode(1)), make_tensor x3 (packed),
//     miopenConvolutionForwardGetWorkSpaceSize, miopenCreateConvProblem
//     (forward), miopenSetProblemTensorDescriptor X, W, then Y, the search on
//     preallocated buffers (miopenCreateFindOptions, ...PreallocatedTensor x3,
//     ...PreallocatedWorkspace), miopenFindSolutions (1 solution),
//     miopenGetSolutionWorkspaceSize, miopenGetSolutionSize,
//     miopenSaveSolution;
//   run: miopenRunSolution(X, W, Y, the workspace compile sized);
//   a program loaded from a file (finalize): miopenLoadSolution of the saved
//     bytes, then miopenRunSolution.
//
// Every output is checked against a double-precision reference computed
// here. One `call` record per convolution call on stdout (its number,
// phase, layer, status, maxerr and tolerance, result ok|mismatch|failed;
// test/consumers/test_protocol.hpp) and a `begin` marker of the same number on
// stderr before it, so a checker can match each call to its routing trace
// (test/consumers/check_replay_calls.py).
// Options: --no-find-mode-api replays a MIGraphX built without
// MIGRAPHX_HAS_FIND_MODE_API (no Find mode set on the descriptors).
#include "consumer_util.hpp"
#include "test_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

// Exported by MIOpen, not declared in its header: MIGraphX declares it so.
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc, int findMode);

namespace {

// One convolution layer of the network: NCHW input, KCRS weights.
struct Layer
{
    const char* name;
    int n, c, h, w;  // input
    int k, r, s;     // filters
    int pad, stride, group;
    miopenDataType_t type;
};

// A ResNet-18 stem and two stages plus a MobileNet depthwise-separable pair,
// scaled down for a CPU test bed (MIGraphX compiles every conv of a model so).
const Layer kNetwork[] = {
    {"stem.7x7s2", 1, 3, 32, 32, 16, 7, 7, 3, 2, 1, miopenFloat},
    {"layer1.0.conv1", 1, 16, 16, 16, 16, 3, 3, 1, 1, 1, miopenFloat},
    {"layer1.0.conv2", 1, 16, 16, 16, 16, 3, 3, 1, 1, 1, miopenFloat},
    {"layer2.0.conv1", 1, 16, 16, 16, 32, 3, 3, 1, 2, 1, miopenFloat},
    {"layer2.0.downsample", 1, 16, 16, 16, 32, 1, 1, 0, 2, 1, miopenFloat},
    {"layer2.0.conv2", 1, 32, 8, 8, 32, 3, 3, 1, 1, 1, miopenFloat},
    {"dw.3x3", 1, 32, 8, 8, 32, 3, 3, 1, 1, 32, miopenFloat},
    {"pw.1x1", 1, 32, 8, 8, 64, 1, 1, 0, 1, 1, miopenFloat},
    {"layer1.0.conv1.fp16", 1, 16, 16, 16, 16, 3, 3, 1, 1, 1, miopenHalf},
};

int out_extent(int in, int fil, int pad, int stride) { return (in + 2 * pad - fil) / stride + 1; }

std::uint16_t to_half(float f)
{
    // Exact for the k/8 test values and their sums' ranges used here.
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    const std::uint32_t sign = (u >> 16) & 0x8000u;
    const int e              = int((u >> 23) & 0xff) - 127 + 15;
    if((u & 0x7fffffffu) == 0)
        return std::uint16_t(sign);
    if(e <= 0)
        return std::uint16_t(sign);
    const std::uint32_t m = (u >> 13) & 0x3ffu;
    const std::uint32_t rest = u & 0x1fffu;
    std::uint32_t hbits = sign | (std::uint32_t(e) << 10) | m;
    if(rest > 0x1000u || (rest == 0x1000u && (m & 1u)))
        ++hbits;
    return std::uint16_t(hbits);
}

float from_half(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    const int e              = (h >> 10) & 0x1f;
    const std::uint32_t m    = h & 0x3ffu;
    std::uint32_t u = e == 0 ? sign : sign | (std::uint32_t(e - 15 + 127) << 23) | (m << 13);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// A device buffer of the test bed (host memory), 256-byte aligned as
// hipMalloc's allocations are.
struct Buffer
{
    std::vector<unsigned char> bytes;
    size_t offset = 0;
    explicit Buffer(size_t n) : bytes(n + 256)
    {
        offset = (256 - reinterpret_cast<std::uintptr_t>(bytes.data()) % 256) % 256;
    }
    void* data() { return bytes.data() + offset; }
};

struct Tensor
{
    std::vector<int> dims;
    miopenDataType_t type;
    Buffer mem;
    Tensor(std::vector<int> d, miopenDataType_t t) : dims(std::move(d)), type(t), mem(count() * elem()) {}
    size_t count() const
    {
        size_t n = 1;
        for(int d : dims)
            n *= size_t(d);
        return n;
    }
    size_t elem() const { return type == miopenHalf ? 2 : 4; }
    void store(size_t i, float v)
    {
        auto* p = static_cast<unsigned char*>(mem.data());
        if(type == miopenHalf)
        {
            const std::uint16_t h = to_half(v);
            std::memcpy(p + 2 * i, &h, 2);
        }
        else
            std::memcpy(p + 4 * i, &v, 4);
    }
    float load(size_t i)
    {
        auto* p = static_cast<unsigned char*>(mem.data());
        if(type == miopenHalf)
        {
            std::uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            return from_half(h);
        }
        float v;
        std::memcpy(&v, p + 4 * i, 4);
        return v;
    }
};

// MIGraphX's make_conv (2-D; Find mode Normal when the API exists).
miopenConvolutionDescriptor_t make_conv(const Layer& l, bool find_mode_api)
{
    miopenConvolutionDescriptor_t c;
    CHECK(miopenCreateConvolutionDescriptor(&c));
    const int pad[2] = {l.pad, l.pad}, stride[2] = {l.stride, l.stride}, dil[2] = {1, 1};
    CHECK(miopenInitConvolutionNdDescriptor(c, 2, pad, stride, dil, l.group > 1 ? miopenGroupConv : miopenConvolution));
    if(l.group > 1)
        CHECK(miopenSetConvolutionGroupCount(c, l.group));
    if(find_mode_api)
        CHECK(miopenHiddenSetConvolutionFindMode(c, 1));
    return c;
}

struct Compiled
{
    const Layer* layer;
    miopenConvolutionDescriptor_t conv;
    miopenTensorDescriptor_t xd, wd, yd;
    miopenSolution_t solution = nullptr;
    std::vector<char> saved; // MIGraphX's solution_object
    size_t workspace = 0;    // the workspace shape compile returns
};

// miopen_convolution::find: the search on preallocated buffers.
Compiled compile(miopenHandle_t h, const Layer& l, bool find_mode_api)
{
    Compiled c{&l, make_conv(l, find_mode_api), nullptr, nullptr, nullptr, nullptr, {}, 0};
    const int oh = out_extent(l.h, l.r, l.pad, l.stride), ow = out_extent(l.w, l.s, l.pad, l.stride);
    c.xd = consumer::packed_tensor(l.type, {l.n, l.c, l.h, l.w});
    c.wd = consumer::packed_tensor(l.type, {l.k, l.c / l.group, l.r, l.s});
    c.yd = consumer::packed_tensor(l.type, {l.n, l.k, oh, ow});
    size_t ws_size = 0;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(h, c.wd, c.xd, c.conv, c.yd, &ws_size));
    miopenProblem_t problem;
    CHECK(miopenCreateConvProblem(&problem, c.conv, miopenProblemDirectionForward));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, c.xd));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, c.wd));
    Tensor x({l.n, l.c, l.h, l.w}, l.type), w({l.k, l.c / l.group, l.r, l.s}, l.type), y({l.n, l.k, oh, ow}, l.type);
    std::uint32_t seed = 7;
    for(size_t i = 0; i < x.count(); ++i)
        x.store(i, consumer::next_eighth(seed));
    for(size_t i = 0; i < w.count(); ++i)
        w.store(i, consumer::next_eighth(seed));
    Buffer ws(ws_size);
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, c.yd));
    miopenFindOptions_t fo;
    CHECK(miopenCreateFindOptions(&fo));
    CHECK(miopenSetFindOptionPreallocatedTensor(fo, miopenTensorConvolutionX, x.mem.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(fo, miopenTensorConvolutionW, w.mem.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(fo, miopenTensorConvolutionY, y.mem.data()));
    CHECK(miopenSetFindOptionPreallocatedWorkspace(fo, ws.data(), ws_size));
    size_t found = 0;
    CHECK(miopenFindSolutions(h, problem, fo, &c.solution, &found, 1));
    if(found == 0)
        consumer::must(miopenStatusUnknownError, "miopenFindSolutions found no solution");
    CHECK(miopenDestroyFindOptions(fo));
    CHECK(miopenGetSolutionWorkspaceSize(c.solution, &c.workspace));
    size_t size = 0;
    CHECK(miopenGetSolutionSize(c.solution, &size));
    c.saved.resize(size);
    CHECK(miopenSaveSolution(c.solution, c.saved.data()));
    CHECK(miopenDestroyProblem(problem));
    return c;
}

// y = conv(x, w) in double, NCHW, groups.
double max_error(const Layer& l, Tensor& x, Tensor& w, Tensor& y)
{
    const int oh = out_extent(l.h, l.r, l.pad, l.stride), ow = out_extent(l.w, l.s, l.pad, l.stride);
    const int cg = l.c / l.group, kg = l.k / l.group;
    double worst = 0;
    for(int n = 0; n < l.n; ++n)
        for(int k = 0; k < l.k; ++k)
            for(int i = 0; i < oh; ++i)
                for(int j = 0; j < ow; ++j)
                {
                    double acc = 0, mag = 0;
                    for(int c = 0; c < cg; ++c)
                        for(int r = 0; r < l.r; ++r)
                            for(int s = 0; s < l.s; ++s)
                            {
                                const int hi = i * l.stride - l.pad + r, wi = j * l.stride - l.pad + s;
                                if(hi < 0 || wi < 0 || hi >= l.h || wi >= l.w)
                                    continue;
                                const int ci = (k / kg) * cg + c;
                                const double a = x.load(((size_t(n) * l.c + ci) * l.h + hi) * l.w + wi);
                                const double b = w.load(((size_t(k) * cg + c) * l.r + r) * l.s + s);
                                acc += a * b;
                                mag += std::fabs(a * b);
                            }
                    const double got = y.load(((size_t(n) * l.k + k) * oh + i) * ow + j);
                    const double err = std::fabs(got - acc) / std::max(mag, 1e-3);
                    worst = std::isfinite(got) ? std::max(worst, err) : HUGE_VAL;
                }
    return worst;
}

int g_call = 0;
int g_bad  = 0;

// miopen_convolution::compute: one inference run of the layer.
void run(miopenHandle_t h, const Compiled& c, miopenSolution_t s, const char* phase)
{
    const Layer& l = *c.layer;
    const int oh = out_extent(l.h, l.r, l.pad, l.stride), ow = out_extent(l.w, l.s, l.pad, l.stride);
    Tensor x({l.n, l.c, l.h, l.w}, l.type), w({l.k, l.c / l.group, l.r, l.s}, l.type), y({l.n, l.k, oh, ow}, l.type);
    std::uint32_t seed = 1000u + std::uint32_t(g_call);
    for(size_t i = 0; i < x.count(); ++i)
        x.store(i, consumer::next_eighth(seed));
    for(size_t i = 0; i < w.count(); ++i)
        w.store(i, consumer::next_eighth(seed));
    Buffer ws(c.workspace);
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, x.mem.data()},
                                            {miopenTensorConvolutionW, nullptr, w.mem.data()},
                                            {miopenTensorConvolutionY, nullptr, y.mem.data()}};
    protocol::begin(g_call);
    const miopenStatus_t st = miopenRunSolution(h, s, 3, args, ws.data(), c.workspace);
    const double err        = st == miopenStatusSuccess ? max_error(l, x, w, y) : 0.0;
    const double tol        = l.type == miopenHalf ? 1e-2 : 1e-5;
    const char* result      = st != miopenStatusSuccess ? "failed" : err <= tol ? "ok" : "mismatch";
    if(std::strcmp(result, "ok") != 0)
        ++g_bad;
    protocol::Record("call")
        .field("case", g_call)
        .field("phase", phase)
        .field("layer", l.name)
        .field("status", static_cast<int>(st))
        .field("maxerr", err)
        .field("tol", tol)
        .field("result", result)
        .emit();
    ++g_call;
}

} // namespace

int main(int argc, char** argv)
{
    bool find_mode_api = true;
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--no-find-mode-api") == 0)
            find_mode_api = false;
        else
        {
            std::fprintf(stderr, "usage: %s [--no-find-mode-api]\n", argv[0]);
            return 2;
        }
    }
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    std::vector<Compiled> program;
    for(const Layer& l : kNetwork)
        program.push_back(compile(h, l, find_mode_api));
    // Two inference runs of the compiled program.
    for(int iteration = 0; iteration < 2; ++iteration)
        for(const Compiled& c : program)
            run(h, c, c.solution, "run");
    // The program saved and loaded again (finalize loads each solution).
    for(Compiled& c : program)
    {
        miopenSolution_t loaded;
        CHECK(miopenLoadSolution(&loaded, c.saved.data(), c.saved.size()));
        run(h, c, loaded, "loaded");
        CHECK(miopenDestroySolution(loaded));
    }
    protocol::end();
    for(Compiled& c : program)
    {
        CHECK(miopenDestroySolution(c.solution));
        CHECK(miopenDestroyConvolutionDescriptor(c.conv));
        for(auto d : {c.xd, c.wd, c.yd})
            CHECK(miopenDestroyTensorDescriptor(d));
    }
    CHECK(miopenDestroy(h));
    protocol::Record("summary").field("calls", g_call).field("bad", g_bad).emit();
    return g_bad == 0 ? 0 : 1;
}
