// Differential test of the convolution family through the public MIOpen API.
//
// Generates --cases random small convolution problems from --seed (three
// directions; legacy Find, immediate and legacy-without-Find call sequences,
// or with --api find2 the Find 2.0 problem API's, MIGraphX's;
// fp32/fp16/bf16; NCHW, NHWC and padded layouts; 2-D and 3-D; groups and
// depthwise; dilation, padding, stride; alpha/beta; a few mixed-type,
// invalid and DETERMINISTIC/FP16_ALT_IMPL-attribute problems), runs each through whatever libMIOpen.so the process
// loads, and compares every output with an independent double-precision
// reference computed here on the host (plain loops over the problem
// definition; nothing is shared with the library's kernels).
//
// The program knows nothing of the wrapper: test/consumers/check_differential.py
// runs it (test/consumers/differential/convolution.json, find2.json) with
// forwarding disabled and enabled (per hipDNN engine) and matches each case's
// record against the routing trace on stderr, which the protocol's `begin`
// markers split per case.
//
// Output (test/consumers/test_protocol.hpp, differential_util.hpp's
// CaseReport): one `case` record per case on stdout (direction, API, types,
// layout, rank, the compute entry point, the problem, status, the first
// failing step, maxerr and the tolerance, result ok|mismatch|rejected, why),
// then a `summary`. A non-success status is `rejected` (the checker requires
// the same status in the disabled run); `mismatch` (outside tolerance, a
// write outside the output tensor, a modified input, wrong output dims) makes
// the exit status 1.
//
// Buffers, workspaces included, are allocated exactly as large as the API
// reports (never bigger), each ending at a PROT_NONE guard page with canary
// bytes around it, so a short workspace or an out-of-bounds write crashes or
// is reported instead of passing silently.
#include "consumer_util.hpp"

#include <miopen/miopen.h>

// Exported by MIOpen but not in its public header; MIGraphX declares it the
// same way to set the descriptor's Find mode (1 = Normal).
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int findMode);

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "differential_util.hpp"

namespace {

using namespace differential;

const char* type_name(miopenDataType_t t)
{
    switch(t)
    {
    case miopenFloat: return "fp32";
    case miopenHalf: return "fp16";
    case miopenBFloat16: return "bf16";
    default: return "other";
    }
}

// Tolerance on |got - ref| / (sum over the contributing products of |x*w| scaled
// by |alpha|, plus |beta*prior|). The library computes in fp32 from inputs
// that are exactly the values the reference uses, so the error is the fp32
// accumulation plus one rounding of the result to the storage type:
//  - fp32: the sums here have at most 8*27 = 216 terms (forward/backward data)
//    or 2*9*9*9 = 1458 (backward weights); rounding errors of a sum behave as
//    a random walk, ~sqrt(n) * 2^-24 <= 2.3e-6 relative to the sum of
//    magnitudes; 1e-5 leaves 4x headroom while a wrong tap, a wrong index or
//    a dropped term (>= 1/1458 of the sum unless that product is tiny)
//    still fails.
//  - fp16: the final rounding alone is up to 2^-11 = 4.9e-4 of |result|
//    (<= the sum of magnitudes); 2e-3 allows that ~4x (a second rounding of
//    an intermediate, fp32 accumulation) and is still far below an error of
//    one term.
//  - bf16: final rounding up to 2^-8 = 3.9e-3; 1.6e-2 is the same 4x.
// The denominator has a floor of the type's smallest normal, so a result in
// the fp16 subnormal range (absolute spacing 2^-24) is judged absolutely.
double tolerance(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf: return 2e-3;
    case miopenBFloat16: return 1.6e-2;
    default: return 1e-5;
    }
}

double magnitude_floor(miopenDataType_t t) { return t == miopenHalf ? 0x1.0p-14 : 0x1.0p-126; }


// ---------------------------------------------------------------------------
// Guarded memory: the `size` bytes start `offset` bytes past a 16-byte
// boundary (0 unless the case asks for a misaligned buffer) and end right
// before a PROT_NONE page; every other byte of the mapping holds a canary.
// ---------------------------------------------------------------------------
constexpr unsigned char kCanary = 0xA5;

class Guarded
{
    public:
    explicit Guarded(size_t size, size_t offset = 0) : size_(size)
    {
        if(size == 0)
            return;
        page_           = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        const size_t rs = (size + offset + 15) / 16 * 16;
        const size_t body = (rs + page_ - 1) / page_ * page_;
        len_              = body + page_;
        void* m = mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if(m == MAP_FAILED)
        {
            std::perror("conv_differential: mmap");
            std::exit(3);
        }
        base_ = static_cast<unsigned char*>(m);
        if(mprotect(base_ + body, page_, PROT_NONE) != 0)
        {
            std::perror("conv_differential: mprotect");
            std::exit(3);
        }
        std::memset(base_, kCanary, body);
        data_ = base_ + body - rs + offset;
    }
    ~Guarded()
    {
        if(base_ != nullptr)
            munmap(base_, len_);
    }
    Guarded(const Guarded&) = delete;
    Guarded& operator=(const Guarded&) = delete;

    unsigned char* data() const { return data_; }
    size_t size() const { return size_; }
    // True when no byte outside [data, data + size) changed.
    bool canaries_intact() const
    {
        if(base_ == nullptr)
            return true;
        const size_t body = len_ - page_;
        for(unsigned char* p = base_; p < base_ + body; ++p)
            if((p < data_ || p >= data_ + size_) && *p != kCanary)
                return false;
        return true;
    }

    private:
    size_t size_        = 0;
    size_t page_        = 0;
    size_t len_         = 0;
    unsigned char* base_ = nullptr;
    unsigned char* data_ = nullptr;
};

// ---------------------------------------------------------------------------
// Problems
// ---------------------------------------------------------------------------
enum class Dir
{
    Fwd,
    Bwd,
    Wrw
};
const char* dir_name(Dir d) { return d == Dir::Fwd ? "fwd" : d == Dir::Bwd ? "bwd" : "wrw"; }

enum class Api
{
    Find,      // GetWorkSpaceSize -> Find -> compute(algo from Find, its workspace)
    Immediate, // GetSolutionCount -> GetSolution -> GetSolutionWorkspaceSize -> Compile -> Immediate
    Direct,    // GetWorkSpaceSize -> compute(Direct algorithm)
    // GetWorkSpaceSize -> CreateConvProblem -> SetProblemTensorDescriptor x3
    // -> find options -> FindSolutions -> GetSolutionWorkspaceSize ->
    // [GetSolutionSize -> SaveSolution -> LoadSolution] -> RunSolution
    Find2
};
const char* api_name(Api a)
{
    return a == Api::Find        ? "legacy-find"
           : a == Api::Immediate ? "immediate"
           : a == Api::Direct    ? "legacy-nofind"
                                 : "find2";
}

enum class Layout
{
    Nchw,
    Nhwc,
    NchwPadded,
    NhwcPadded
};

struct Problem
{
    int sd = 2; // spatial dims
    int n = 1, c = 1, k = 1, g = 1;
    // Spatial extents, always 3 entries (2-D problems use [1..2], entry 0 = 1).
    int in[3] = {1, 1, 1}, fil[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    int pad[3] = {0, 0, 0}, stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1};
    miopenConvolutionMode_t mode = miopenConvolution;
    bool nd_init = false; // miopenInitConvolutionNdDescriptor even for 2-D
    miopenDataType_t tx = miopenFloat, tw = miopenFloat, ty = miopenFloat;
    Layout layout     = Layout::Nchw;
    bool null_strides = false;     // packed NCHW set with a null stride array
    int row_pad[3]    = {0, 0, 0}; // extra elements per level (innermost first) of padded layouts
    Dir dir           = Dir::Fwd;
    Api api           = Api::Find;
    float alpha = 1.0f, beta = 0.0f;
    // A convolution attribute a framework may set (-1: none):
    // MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1 or FP16_ALT_IMPL = 0/1.
    int attr = -1, attr_value = 0;
    bool bad_ydims  = false; // invalid problem: y's last extent off by one
    bool exhaustive = false; // Find's exhaustiveSearch
    int request     = 1;     // Find's requestAlgoCount
    int find_mode   = 0;     // --find-mode: set on the descriptor when > 0
    // A buffer MIOpen takes but hipDNN's 16-byte tensor alignment does not:
    // x, w or y (0, 1, 2) starts one element past a 16-byte boundary (an
    // fp16/bf16 view at an odd element offset, fp32 + 4 bytes); -1: none.
    int misaligned = -1;
    // Find 2.0 (--api find2) only: preallocated x/w/y and workspace for the
    // search (as MIGraphX gives them), its tuning option, a workspace limit,
    // and whether the solution is saved and loaded before it runs.
    bool find2_tensors = true, find2_workspace = true, find2_tuning = false, find2_reload = false;
    bool find2_limit0 = false;
};

// Logical tensor of a problem: dims in N, C, [D,] H, W order.
struct TensorShape
{
    std::vector<int> dims;
    std::vector<int> strides;
    size_t span = 0; // elements spanned (max offset + 1)
    size_t count() const
    {
        size_t n = 1;
        for(int d : dims)
            n *= static_cast<size_t>(d);
        return n;
    }
};

TensorShape make_shape(const Problem& p, int n, int c, const int sp[3], int extra_last)
{
    TensorShape t;
    t.dims = {n, c};
    for(int i = 3 - p.sd; i < 3; ++i)
        t.dims.push_back(sp[i]);
    if(extra_last != 0)
        t.dims.back() += extra_last;
    const int nd = static_cast<int>(t.dims.size());
    // Memory order, innermost first: NCHW = W, H, [D,] C, N; NHWC = C, W, H, [D,] N.
    std::vector<int> order;
    const bool nhwc = p.layout == Layout::Nhwc || p.layout == Layout::NhwcPadded;
    const bool padded = p.layout == Layout::NchwPadded || p.layout == Layout::NhwcPadded;
    if(nhwc)
        order.push_back(1);
    for(int i = nd - 1; i >= 2; --i)
        order.push_back(i);
    if(!nhwc)
        order.push_back(1);
    order.push_back(0);
    t.strides.assign(static_cast<size_t>(nd), 0);
    int s = 1;
    for(size_t j = 0; j < order.size(); ++j)
    {
        t.strides[static_cast<size_t>(order[j])] = s;
        int extent = t.dims[static_cast<size_t>(order[j])];
        if(padded && j < 3)
            extent += p.row_pad[j];
        s *= extent;
    }
    size_t last = 0;
    for(size_t i = 0; i < t.dims.size(); ++i)
        last += static_cast<size_t>(t.dims[i] - 1) * static_cast<size_t>(t.strides[i]);
    t.span = last + 1;
    return t;
}

// The tensor's offset for a logical packed (row-major over dims) index.
size_t offset_of(const TensorShape& t, size_t logical)
{
    size_t off = 0;
    for(size_t i = t.dims.size(); i-- > 0;)
    {
        const size_t d = static_cast<size_t>(t.dims[i]);
        off += (logical % d) * static_cast<size_t>(t.strides[i]);
        logical /= d;
    }
    return off;
}

// A tensor in guarded memory with its logical (dequantized) values.
struct Tensor
{
    TensorShape shape;
    miopenDataType_t type;
    Guarded mem;
    Tensor(TensorShape s, miopenDataType_t t, size_t offset = 0)
        : shape(std::move(s)), type(t), mem(shape.span * type_size(t), offset)
    {
    }

    void store(size_t off, float v) { store_elem(type, mem.data(), off, v); }
    double load(size_t off) const { return load_elem(type, mem.data(), off); }
    // Fills the logical elements with random values (gaps keep the canary
    // pattern Guarded wrote) and returns the values as stored, in logical order.
    std::vector<double> fill(Rng& rng)
    {
        std::vector<double> v(shape.count());
        for(size_t i = 0; i < v.size(); ++i)
        {
            const size_t off = offset_of(shape, i);
            store(off, rng.value());
            v[i] = load(off);
        }
        return v;
    }
    std::vector<unsigned char> bytes() const
    {
        return std::vector<unsigned char>(mem.data(), mem.data() + mem.size());
    }
    miopenTensorDescriptor_t describe(bool null_strides) const
    {
        miopenTensorDescriptor_t d = nullptr;
        if(miopenCreateTensorDescriptor(&d) != miopenStatusSuccess)
        {
            std::fprintf(stderr, "conv_differential: miopenCreateTensorDescriptor failed\n");
            std::exit(3);
        }
        // A set failure shows up in the calls that use the descriptor.
        (void)miopenSetTensorDescriptor(d, type, static_cast<int>(shape.dims.size()), shape.dims.data(),
                                        null_strides ? nullptr : shape.strides.data());
        return d;
    }
};

int out_extent(int in, int fil, int pad, int stride, int dil)
{
    const int eff = dil * (fil - 1) + 1;
    if(in + 2 * pad < eff)
        return 0;
    return (in + 2 * pad - eff) / stride + 1;
}

Problem generate(Rng& rng)
{
    Problem p;
    for(;;)
    {
        p    = Problem{};
        p.sd = rng.chance(0.55) ? 2 : 3;
        p.n  = rng.range(1, 2);
        // Groups: plain, grouped, depthwise (groups == C).
        const int kind = rng.range(0, 9);
        if(kind < 6)
        {
            p.g = 1;
            p.c = rng.range(1, 8);
            p.k = rng.range(1, 8);
        }
        else if(kind < 8)
        {
            p.g = rng.chance(0.5) ? 2 : 4;
            p.c = p.g * rng.range(1, 8 / p.g);
            p.k = p.g * rng.range(1, 8 / p.g);
        }
        else
        {
            p.c = rng.range(1, 8);
            p.g = p.c;
            p.k = p.c * (p.c <= 4 ? rng.range(1, 2) : 1);
        }
        // The legacy group modes are aliases of cross-correlation with a group count.
        if(p.g > 1)
            p.mode = p.g == p.c && rng.chance(0.5) ? miopenDepthwise
                                                     : rng.pick(std::vector<miopenConvolutionMode_t>{
                                                           miopenConvolution, miopenConvolution, miopenGroupConv});
        else
            p.mode = rng.chance(0.1) ? miopenGroupConv : miopenConvolution;
        p.nd_init = p.sd == 3 || rng.chance(0.3);
        bool ok   = true;
        for(int i = 3 - p.sd; i < 3; ++i)
        {
            p.in[i]     = rng.range(1, 9);
            p.fil[i]    = rng.range(1, 3);
            p.pad[i]    = rng.range(0, 2);
            p.stride[i] = rng.range(1, 2);
            p.dil[i]    = rng.range(1, 2);
            p.out[i]    = out_extent(p.in[i], p.fil[i], p.pad[i], p.stride[i], p.dil[i]);
            ok          = ok && p.out[i] >= 1;
        }
        if(ok)
            break; // else regenerate: output size < 1
    }
    // Types: fp32 / fp16 / bf16, ~3% mixed (one tensor of another type).
    const std::vector<miopenDataType_t> types = {miopenFloat, miopenHalf, miopenBFloat16};
    p.tx = p.tw = p.ty = rng.pick(types);
    if(rng.chance(0.03))
    {
        miopenDataType_t other = p.tx;
        while(other == p.tx)
            other = rng.pick(types);
        switch(rng.range(0, 2))
        {
        case 0: p.tx = other; break;
        case 1: p.tw = other; break;
        default: p.ty = other; break;
        }
    }
    p.layout = rng.pick(std::vector<Layout>{Layout::Nchw, Layout::Nchw, Layout::Nhwc, Layout::Nhwc,
                                            Layout::NchwPadded, Layout::NhwcPadded});
    p.null_strides = p.layout == Layout::Nchw && rng.chance(0.5);
    for(int& r : p.row_pad)
        r = rng.range(0, 2);
    if(p.layout == Layout::NchwPadded || p.layout == Layout::NhwcPadded)
        p.row_pad[rng.range(0, 2)] += 1; // at least one gap
    p.dir = rng.pick(std::vector<Dir>{Dir::Fwd, Dir::Bwd, Dir::Wrw});
    p.api = rng.pick(std::vector<Api>{Api::Find, Api::Immediate, Api::Direct});
    // ~10% of all cases (the legacy calls take alpha/beta; immediate ones do not).
    if(p.api != Api::Immediate && rng.chance(0.15))
    {
        static const float scales[][2] = {{1.0f, 1.0f}, {2.0f, 0.0f}, {0.5f, 0.5f}, {1.0f, 0.25f}, {-1.0f, 1.0f}};
        const auto& s = scales[rng.range(0, 4)];
        p.alpha       = s[0];
        p.beta        = s[1];
    }
    if(rng.chance(0.02))
    {
        p.attr       = rng.chance(0.5) ? MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC : MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL;
        p.attr_value = p.attr == MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC ? 1 : rng.range(0, 1);
    }
    p.bad_ydims  = rng.chance(0.02);
    p.exhaustive = rng.chance(0.5);
    p.request    = rng.range(1, 3);
    if(rng.chance(0.08))
        p.misaligned = rng.range(0, 2);
    return p;
}

// The Find 2.0 form of a generated problem (--api find2): no alpha/beta in
// that API; its own options drawn after everything else, so the problem
// itself is the one the legacy run of the same seed and case draws.
void make_find2(Problem& p, Rng& rng)
{
    p.api             = Api::Find2;
    p.alpha           = 1.0f;
    p.beta            = 0.0f;
    p.find2_tensors   = !rng.chance(0.08);
    p.find2_workspace = !rng.chance(0.1);
    p.find2_limit0    = !p.find2_workspace && rng.chance(0.5);
    p.find2_tuning    = rng.chance(0.05);
    p.find2_reload    = rng.chance(0.5);
}

// Bytes tensor `which` (0 x, 1 w, 2 y) starts past a 16-byte boundary.
size_t misalignment(const Problem& p, int which)
{
    const miopenDataType_t t = which == 0 ? p.tx : which == 1 ? p.tw : p.ty;
    return p.misaligned == which ? type_size(t) : 0;
}

std::string type_text(const Problem& p)
{
    return p.tx == p.tw && p.tw == p.ty ? type_name(p.tx)
                                        : std::string("mixed(x=") + type_name(p.tx) + ",w=" + type_name(p.tw) +
                                              ",y=" + type_name(p.ty) + ")";
}

std::string layout_text(const Problem& p)
{
    static const char* layouts[] = {"nchw", "nhwc", "nchw-padded", "nhwc-padded"};
    return std::string(layouts[static_cast<int>(p.layout)]) + (p.null_strides ? "(null-strides)" : "");
}

// The call that computes the case's result (whose routing the checker reads).
const char* compute_entry(const Problem& p)
{
    static const char* plain[]     = {"miopenConvolutionForward", "miopenConvolutionBackwardData",
                                      "miopenConvolutionBackwardWeights"};
    static const char* immediate[] = {"miopenConvolutionForwardImmediate", "miopenConvolutionBackwardDataImmediate",
                                      "miopenConvolutionBackwardWeightsImmediate"};
    const int d = p.dir == Dir::Fwd ? 0 : p.dir == Dir::Bwd ? 1 : 2;
    return p.api == Api::Find2 ? "miopenRunSolution" : p.api == Api::Immediate ? immediate[d] : plain[d];
}

std::string dims_text(const Problem& p)
{
    auto list = [&](const int* v) {
        std::string s;
        for(int i = 3 - p.sd; i < 3; ++i)
            s += (s.empty() ? "" : "x") + std::to_string(v[i]);
        return s;
    };
    static const char* modes[]   = {"conv", "transpose", "groupconv", "depthwise"};
    char scale[64];
    std::snprintf(scale, sizeof scale, "alpha=%g beta=%g", static_cast<double>(p.alpha),
                  static_cast<double>(p.beta));
    return std::string(dir_name(p.dir)) + " " + api_name(p.api) + " " + type_text(p) + " " + layout_text(p) + " " +
           std::to_string(p.sd) + "d n=" + std::to_string(p.n) + " c=" + std::to_string(p.c) +
           " k=" + std::to_string(p.k) + " g=" + std::to_string(p.g) + " mode=" + modes[p.mode] +
           " in=" + list(p.in) + " fil=" + list(p.fil) + " out=" + list(p.out) + " pad=" + list(p.pad) +
           " stride=" + list(p.stride) + " dil=" + list(p.dil) + " " + scale +
           (p.attr == MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC ? " attr=deterministic:" + std::to_string(p.attr_value)
            : p.attr == MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL ? " attr=fp16-alt-impl:" + std::to_string(p.attr_value)
                                                                 : std::string()) +
           (p.bad_ydims ? " invalid=ydims" : "") +
           (p.misaligned >= 0 ? std::string(" misaligned=") + "xwy"[p.misaligned] + "+" +
                                    std::to_string(misalignment(p, p.misaligned))
                              : std::string()) +
           (p.api != Api::Find2 ? std::string()
                                : std::string(" find2=") + (p.find2_tensors ? "tensors" : "no-tensors") +
                                      (p.find2_workspace ? ",workspace" : p.find2_limit0 ? ",limit0" : ",no-workspace") +
                                      (p.find2_tuning ? ",tuning" : "") + (p.find2_reload ? ",reload" : ""));
}

// ---------------------------------------------------------------------------
// Independent reference: y[n,k,o] = sum_{c in group(k), r} x[n,c,o*s-p+r*d] * w[k,c',r]
// and its two adjoints, accumulated in double by one loop over every
// (output position, filter tap) pair; `mag` collects sum |product|.
// ---------------------------------------------------------------------------
void reference(const Problem& p,
               const std::vector<double>& x,
               const std::vector<double>& w,
               const std::vector<double>& y,
               std::vector<double>& acc,
               std::vector<double>& mag)
{
    const int cg = p.c / p.g, kg = p.k / p.g;
    const int* I = p.in;
    const int* F = p.fil;
    const int* O = p.out;
    auto xi = [&](int n, int c, int d, int h, int wv) {
        return ((((static_cast<size_t>(n) * p.c + c) * I[0] + d) * I[1] + h) * I[2] + wv);
    };
    auto wi = [&](int k, int c, int d, int h, int wv) {
        return ((((static_cast<size_t>(k) * cg + c) * F[0] + d) * F[1] + h) * F[2] + wv);
    };
    auto yi = [&](int n, int k, int d, int h, int wv) {
        return ((((static_cast<size_t>(n) * p.k + k) * O[0] + d) * O[1] + h) * O[2] + wv);
    };
    for(int n = 0; n < p.n; ++n)
        for(int k = 0; k < p.k; ++k)
            for(int od = 0; od < O[0]; ++od)
                for(int oh = 0; oh < O[1]; ++oh)
                    for(int ow = 0; ow < O[2]; ++ow)
                        for(int cc = 0; cc < cg; ++cc)
                            for(int fd = 0; fd < F[0]; ++fd)
                                for(int fh = 0; fh < F[1]; ++fh)
                                    for(int fw = 0; fw < F[2]; ++fw)
                                    {
                                        const int id = od * p.stride[0] - p.pad[0] + fd * p.dil[0];
                                        const int ih = oh * p.stride[1] - p.pad[1] + fh * p.dil[1];
                                        const int iw = ow * p.stride[2] - p.pad[2] + fw * p.dil[2];
                                        if(id < 0 || id >= I[0] || ih < 0 || ih >= I[1] || iw < 0 || iw >= I[2])
                                            continue;
                                        const int c     = (k / kg) * cg + cc; // group of k
                                        const size_t xj = xi(n, c, id, ih, iw);
                                        const size_t wj = wi(k, cc, fd, fh, fw);
                                        const size_t yj = yi(n, k, od, oh, ow);
                                        double prod     = 0;
                                        size_t target   = 0;
                                        switch(p.dir)
                                        {
                                        case Dir::Fwd: prod = x[xj] * w[wj], target = yj; break;
                                        case Dir::Bwd: prod = y[yj] * w[wj], target = xj; break;
                                        case Dir::Wrw: prod = y[yj] * x[xj], target = wj; break;
                                        }
                                        acc[target] += prod;
                                        mag[target] += std::fabs(prod);
                                    }
}

// ---------------------------------------------------------------------------
// The API calls, per direction. `x`, `w`, `y` are in forward naming (for
// backward data x is dx, for backward weights w is dw, y is dy).
// ---------------------------------------------------------------------------
struct Call
{
    miopenHandle_t h;
    Dir dir;
    miopenTensorDescriptor_t xd, wd, yd;
    miopenConvolutionDescriptor_t cd;
    void *x, *w, *y;

    miopenStatus_t workspace_size(size_t* sz) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd, sz);
        case Dir::Bwd: return miopenConvolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd, sz);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd, sz);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t find(int req, int* ret, miopenConvAlgoPerf_t* perf, void* ws, size_t wsz, bool exh) const
    {
        switch(dir)
        {
        case Dir::Fwd:
            return miopenFindConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, req, ret, perf, ws, wsz, exh);
        case Dir::Bwd:
            return miopenFindConvolutionBackwardDataAlgorithm(h, yd, y, wd, w, cd, xd, x, req, ret, perf, ws, wsz,
                                                              exh);
        case Dir::Wrw:
            return miopenFindConvolutionBackwardWeightsAlgorithm(h, yd, y, xd, x, cd, wd, w, req, ret, perf, ws,
                                                                 wsz, exh);
        }
        return miopenStatusInternalError;
    }
    // algo: miopenConvAlgorithm_t numbering (shared by the three enums).
    miopenStatus_t compute(const float* alpha, const float* beta, int algo, void* ws, size_t wsz) const
    {
        switch(dir)
        {
        case Dir::Fwd:
            return miopenConvolutionForward(h, alpha, xd, x, wd, w, cd, static_cast<miopenConvFwdAlgorithm_t>(algo),
                                            beta, yd, y, ws, wsz);
        case Dir::Bwd:
            return miopenConvolutionBackwardData(h, alpha, yd, y, wd, w, cd,
                                                 static_cast<miopenConvBwdDataAlgorithm_t>(algo), beta, xd, x, ws,
                                                 wsz);
        case Dir::Wrw:
            return miopenConvolutionBackwardWeights(h, alpha, yd, y, xd, x, cd,
                                                    static_cast<miopenConvBwdWeightsAlgorithm_t>(algo), beta, wd, w,
                                                    ws, wsz);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t solution_count(size_t* n) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardGetSolutionCount(h, wd, xd, cd, yd, n);
        case Dir::Bwd: return miopenConvolutionBackwardDataGetSolutionCount(h, yd, wd, cd, xd, n);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsGetSolutionCount(h, yd, xd, cd, wd, n);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t solutions(size_t max, size_t* n, miopenConvSolution_t* s) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardGetSolution(h, wd, xd, cd, yd, max, n, s);
        case Dir::Bwd: return miopenConvolutionBackwardDataGetSolution(h, yd, wd, cd, xd, max, n, s);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsGetSolution(h, yd, xd, cd, wd, max, n, s);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t solution_workspace(std::uint64_t id, size_t* sz) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardGetSolutionWorkspaceSize(h, wd, xd, cd, yd, id, sz);
        case Dir::Bwd: return miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, yd, wd, cd, xd, id, sz);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, yd, xd, cd, wd, id, sz);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t compile(std::uint64_t id) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardCompileSolution(h, wd, xd, cd, yd, id);
        case Dir::Bwd: return miopenConvolutionBackwardDataCompileSolution(h, yd, wd, cd, xd, id);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsCompileSolution(h, yd, xd, cd, wd, id);
        }
        return miopenStatusInternalError;
    }
    miopenStatus_t immediate(std::uint64_t id, void* ws, size_t wsz) const
    {
        switch(dir)
        {
        case Dir::Fwd: return miopenConvolutionForwardImmediate(h, wd, w, xd, x, cd, yd, y, ws, wsz, id);
        case Dir::Bwd: return miopenConvolutionBackwardDataImmediate(h, yd, y, wd, w, cd, xd, x, ws, wsz, id);
        case Dir::Wrw: return miopenConvolutionBackwardWeightsImmediate(h, yd, y, xd, x, cd, wd, w, ws, wsz, id);
        }
        return miopenStatusInternalError;
    }
};

// MIOpen's naive direct solver per direction (what an immediate-mode caller
// that got no solution list would have to guess; used only after a failure).
std::uint64_t direct_solution_id(Dir d) { return d == Dir::Fwd ? 85 : d == Dir::Bwd ? 86 : 87; }

struct Outcome
{
    miopenStatus_t status = miopenStatusSuccess;
    std::string step      = "-";
    std::string detail; // algorithm / solution and workspace used
    void note(miopenStatus_t s, const char* what)
    {
        if(status == miopenStatusSuccess && s != miopenStatusSuccess)
        {
            status = s;
            step   = what;
        }
    }
};

miopenProblemDirection_t problem_direction(Dir d)
{
    return d == Dir::Fwd   ? miopenProblemDirectionForward
           : d == Dir::Bwd ? miopenProblemDirectionBackward
                           : miopenProblemDirectionBackwardWeights;
}

// The Find 2.0 sequence of a case, MIGraphX's (src/targets/gpu/include/
// migraphx/gpu/convolution.hpp): the legacy workspace size for the search's
// preallocated workspace, the search on the case's buffers, then the run of
// the first solution (saved and loaded first when the case says so).
void run_find2(const Call& call, const Problem& p, Rng& rng, Outcome& o, std::string& why, unsigned char* out,
               const std::vector<unsigned char>& out_before)
{
    size_t wsz = 0;
    o.note(call.workspace_size(&wsz), "GetWorkSpaceSize");
    miopenProblem_t prob = nullptr;
    o.note(miopenCreateConvProblem(&prob, call.cd, problem_direction(p.dir)), "CreateConvProblem");
    o.note(miopenSetProblemTensorDescriptor(prob, miopenTensorConvolutionX, call.xd), "SetProblemTensorDescriptor");
    o.note(miopenSetProblemTensorDescriptor(prob, miopenTensorConvolutionW, call.wd), "SetProblemTensorDescriptor");
    o.note(miopenSetProblemTensorDescriptor(prob, miopenTensorConvolutionY, call.yd), "SetProblemTensorDescriptor");
    miopenFindOptions_t opts = nullptr;
    o.note(miopenCreateFindOptions(&opts), "CreateFindOptions");
    Guarded fws(p.find2_workspace ? wsz : 0);
    if(p.find2_tuning)
        o.note(miopenSetFindOptionTuning(opts, 1), "SetFindOptionTuning");
    if(p.find2_tensors)
    {
        o.note(miopenSetFindOptionPreallocatedTensor(opts, miopenTensorConvolutionX, call.x), "SetFindOptionPreallocatedTensor");
        o.note(miopenSetFindOptionPreallocatedTensor(opts, miopenTensorConvolutionW, call.w), "SetFindOptionPreallocatedTensor");
        o.note(miopenSetFindOptionPreallocatedTensor(opts, miopenTensorConvolutionY, call.y), "SetFindOptionPreallocatedTensor");
    }
    if(p.find2_workspace)
        o.note(miopenSetFindOptionPreallocatedWorkspace(opts, fws.data(), fws.size()),
               "SetFindOptionPreallocatedWorkspace");
    if(p.find2_limit0)
        o.note(miopenSetFindOptionWorkspaceLimit(opts, 0), "SetFindOptionWorkspaceLimit");
    miopenSolution_t sols[3] = {nullptr, nullptr, nullptr};
    size_t found             = 0;
    if(o.status == miopenStatusSuccess)
        o.note(miopenFindSolutions(call.h, prob, opts, sols, &found, 3), "FindSolutions");
    if(!fws.canaries_intact())
        why += " find-workspace-overrun";
    if(o.status == miopenStatusSuccess && found < 1)
        o.note(miopenStatusInternalError, "FindSolutions(found 0)");
    // The search runs on the caller's buffers: put the output's prior
    // contents back (a Find that failed may have written them too).
    std::memcpy(out, out_before.data(), out_before.size());
    miopenSolution_t s = found > 0 ? sols[0] : nullptr;
    size_t sws         = 0;
    if(o.status == miopenStatusSuccess)
        o.note(miopenGetSolutionWorkspaceSize(s, &sws), "GetSolutionWorkspaceSize");
    if(o.status == miopenStatusSuccess && p.find2_reload)
    {
        size_t size = 0;
        o.note(miopenGetSolutionSize(s, &size), "GetSolutionSize");
        std::vector<char> blob(o.status == miopenStatusSuccess ? size : 0);
        if(o.status == miopenStatusSuccess)
            o.note(miopenSaveSolution(s, blob.data()), "SaveSolution");
        miopenSolution_t loaded = nullptr;
        if(o.status == miopenStatusSuccess)
            o.note(miopenLoadSolution(&loaded, blob.data(), blob.size()), "LoadSolution");
        if(o.status == miopenStatusSuccess)
        {
            miopenDestroySolution(sols[0]);
            sols[0] = s = loaded;
        }
    }
    Guarded ws(sws);
    // The arguments in a random order, as the API allows.
    miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, call.x},
                                      {miopenTensorConvolutionW, nullptr, call.w},
                                      {miopenTensorConvolutionY, nullptr, call.y}};
    std::swap(args[0], args[rng.range(0, 2)]);
    // After an earlier failure the run is still made (MIOpen rejects the null
    // solution) so its routing is traced; the first failure stays the case's.
    o.note(miopenRunSolution(call.h, s, 3, args, ws.data(), ws.size()), "RunSolution");
    o.detail = "found=" + std::to_string(found) + " ws=" + std::to_string(ws.size());
    if(!ws.canaries_intact())
        why += " workspace-overrun";
    for(size_t i = 0; i < found; ++i)
        miopenDestroySolution(sols[i]);
    miopenDestroyFindOptions(opts);
    miopenDestroyProblem(prob);
}

// Runs one case; returns false on a mismatch.
bool run_case(miopenHandle_t handle, int index, const Problem& p, Rng& rng, bool corrupt, bool* corrupted,
              Tally& tally)
{
    const int cg = p.c / p.g;
    Tensor x(make_shape(p, p.n, p.c, p.in, 0), p.tx, misalignment(p, 0));
    Tensor w(make_shape(p, p.k, cg, p.fil, 0), p.tw, misalignment(p, 1));
    Tensor y(make_shape(p, p.n, p.k, p.out, p.bad_ydims ? 1 : 0), p.ty, misalignment(p, 2));

    // Inputs random; the output's prior contents random too (beta reads them;
    // with beta = 0 they must be overwritten).
    std::vector<double> xv = x.fill(rng), wv = w.fill(rng), yv = y.fill(rng);
    Tensor& out = p.dir == Dir::Fwd ? y : p.dir == Dir::Bwd ? x : w;
    const std::vector<double>& prior = p.dir == Dir::Fwd ? yv : p.dir == Dir::Bwd ? xv : wv;
    const std::vector<unsigned char> x_before = x.bytes(), w_before = w.bytes(), y_before = y.bytes();
    const std::vector<unsigned char>& out_before = p.dir == Dir::Fwd ? y_before : p.dir == Dir::Bwd ? x_before : w_before;

    miopenTensorDescriptor_t xd = x.describe(p.null_strides);
    miopenTensorDescriptor_t wd = w.describe(p.null_strides);
    miopenTensorDescriptor_t yd = y.describe(p.null_strides);
    miopenConvolutionDescriptor_t cd = nullptr;
    if(miopenCreateConvolutionDescriptor(&cd) != miopenStatusSuccess)
    {
        std::fprintf(stderr, "conv_differential: miopenCreateConvolutionDescriptor failed\n");
        std::exit(3);
    }
    Outcome o;
    const int off = 3 - p.sd;
    if(p.nd_init)
        o.note(miopenInitConvolutionNdDescriptor(cd, p.sd, p.pad + off, p.stride + off, p.dil + off, p.mode),
               "miopenInitConvolutionNdDescriptor");
    else
        o.note(miopenInitConvolutionDescriptor(cd, p.mode, p.pad[1], p.pad[2], p.stride[1], p.stride[2], p.dil[1],
                                               p.dil[2]),
               "miopenInitConvolutionDescriptor");
    if(p.g > 1 || p.mode != miopenConvolution)
        o.note(miopenSetConvolutionGroupCount(cd, p.g), "miopenSetConvolutionGroupCount");
    if(p.find_mode > 0)
        o.note(miopenHiddenSetConvolutionFindMode(cd, p.find_mode), "miopenHiddenSetConvolutionFindMode");
    if(p.attr >= 0)
        o.note(miopenSetConvolutionAttribute(cd, static_cast<miopenConvolutionAttrib_t>(p.attr), p.attr_value),
               "miopenSetConvolutionAttribute");

    std::string why;
    // The library's idea of the output shape must be ours.
    {
        int nd = 0;
        int dims[5] = {0, 0, 0, 0, 0};
        if(miopenGetConvolutionNdForwardOutputDim(cd, xd, wd, &nd, dims) == miopenStatusSuccess)
        {
            std::vector<int> want = {p.n, p.k};
            for(int i = off; i < 3; ++i)
                want.push_back(p.out[i]);
            if(std::vector<int>(dims, dims + nd) != want)
                why += " output-dims";
        }
    }

    Call call{handle, p.dir, xd, wd, yd, cd, x.mem.data(), w.mem.data(), y.mem.data()};
    const float* alpha = &p.alpha;
    const float* beta  = &p.beta;

    if(p.api == Api::Find2)
        run_find2(call, p, rng, o, why, out.mem.data(), out_before);
    else if(p.api == Api::Immediate)
    {
        size_t count = 0, got = 0;
        std::uint64_t id = direct_solution_id(p.dir);
        o.note(call.solution_count(&count), "GetSolutionCount");
        std::vector<miopenConvSolution_t> sols(std::max<size_t>(count, 1));
        if(o.status == miopenStatusSuccess)
            o.note(call.solutions(sols.size(), &got, sols.data()), "GetSolution");
        if(o.status == miopenStatusSuccess && got > 0)
            id = sols[static_cast<size_t>(rng.range(0, static_cast<int>(got) - 1))].solution_id;
        size_t wsz = 0;
        if(o.status == miopenStatusSuccess)
            o.note(call.solution_workspace(id, &wsz), "GetSolutionWorkspaceSize");
        if(o.status == miopenStatusSuccess)
            o.note(call.compile(id), "CompileSolution");
        Guarded ws(o.status == miopenStatusSuccess ? wsz : 0);
        // After an earlier failure the call is still made (with no workspace)
        // so its routing is traced; the case's status stays the first failure.
        o.note(call.immediate(id, ws.data(), ws.size()), "Immediate");
        o.detail = "solution=" + std::to_string(id) + " ws=" + std::to_string(ws.size());
        if(!ws.canaries_intact())
            why += " workspace-overrun";
    }
    else
    {
        size_t wsz = 0;
        o.note(call.workspace_size(&wsz), "GetWorkSpaceSize");
        int algo = miopenConvolutionAlgoDirect;
        size_t compute_ws = o.status == miopenStatusSuccess ? wsz : 0;
        if(p.api == Api::Find && o.status == miopenStatusSuccess)
        {
            Guarded fws(wsz);
            miopenConvAlgoPerf_t perf[3];
            std::memset(perf, 0, sizeof perf);
            int returned = 0;
            o.note(call.find(p.request, &returned, perf, fws.data(), fws.size(), p.exhaustive), "Find");
            if(!fws.canaries_intact())
                why += " find-workspace-overrun";
            if(o.status == miopenStatusSuccess && returned < 1)
                o.note(miopenStatusInternalError, "Find(returned 0)");
            if(o.status == miopenStatusSuccess)
            {
                const auto& pr = perf[rng.range(0, returned - 1)];
                algo           = p.dir == Dir::Fwd   ? static_cast<int>(pr.fwd_algo)
                                 : p.dir == Dir::Bwd ? static_cast<int>(pr.bwd_data_algo)
                                                     : static_cast<int>(pr.bwd_weights_algo);
                compute_ws     = pr.memory;
            }
            // Find runs the algorithms on the caller's buffers: put the
            // output's prior contents back for beta.
            std::memcpy(out.mem.data(), out_before.data(), out_before.size());
        }
        Guarded ws(compute_ws);
        o.note(call.compute(alpha, beta, algo, ws.data(), ws.size()), "compute");
        o.detail = "algo=" + std::to_string(algo) + " ws=" + std::to_string(ws.size());
        if(!ws.canaries_intact())
            why += " workspace-overrun";
    }

    double maxerr    = 0;
    const double tol = std::max({tolerance(p.tx), tolerance(p.tw), tolerance(p.ty)});
    if(o.status == miopenStatusSuccess && p.bad_ydims)
        why += " invalid-problem-accepted";
    else if(o.status == miopenStatusSuccess)
    {
        if(corrupt && !*corrupted)
        {
            // Negative test: perturb one output value after the library wrote it.
            const size_t off0 = offset_of(out.shape, out.shape.count() / 2);
            out.store(off0, static_cast<float>(out.load(off0) + 0.5 + std::fabs(out.load(off0))));
            *corrupted = true;
        }
        std::vector<double> acc(prior.size(), 0.0), mag(prior.size(), 0.0);
        reference(p, xv, wv, yv, acc, mag);
        const double floor_mag = magnitude_floor(out.type);
        bool bad = false;
        for(size_t i = 0; i < acc.size(); ++i)
        {
            const double ref   = static_cast<double>(p.alpha) * acc[i] + static_cast<double>(p.beta) * prior[i];
            const double scale = std::fabs(static_cast<double>(p.alpha)) * mag[i] +
                                 std::fabs(static_cast<double>(p.beta) * prior[i]);
            const double got = out.load(offset_of(out.shape, i));
            const double err = std::isfinite(got) ? std::fabs(got - ref) / std::max(scale, floor_mag) : HUGE_VAL;
            maxerr           = std::max(maxerr, err);
            bad              = bad || !(err <= tol);
        }
        if(bad)
            why += " tolerance";
        // Gaps of a padded output must be untouched: compare every byte that
        // is not a logical element with the bytes before the call.
        std::vector<unsigned char> is_elem(out.mem.size(), 0);
        for(size_t i = 0; i < out.shape.count(); ++i)
            std::memset(&is_elem[offset_of(out.shape, i) * type_size(out.type)], 1, type_size(out.type));
        for(size_t b = 0; b < is_elem.size(); ++b)
            if(!is_elem[b] && out.mem.data()[b] != out_before[b])
            {
                why += " gap-written";
                break;
            }
        // The two inputs must be untouched.
        if((&out != &x && x.bytes() != x_before) || (&out != &w && w.bytes() != w_before) ||
           (&out != &y && y.bytes() != y_before))
            why += " input-modified";
    }
    for(const Tensor* t : {&x, &w, &y})
        if(!t->mem.canaries_intact())
        {
            why += " tensor-overrun";
            break;
        }

    // Anything wrong is a mismatch, even in a rejected case (e.g. a write
    // past a buffer before the failure).
    CaseReport r;
    r.index      = index;
    r.dir        = dir_name(p.dir);
    r.api        = api_name(p.api);
    r.type       = type_text(p);
    r.layout     = layout_text(p);
    r.rank       = std::to_string(p.sd) + "d";
    r.entry      = compute_entry(p);
    r.problem    = dims_text(p);
    r.detail     = o.detail;
    r.misaligned = p.misaligned >= 0;
    r.types      = {type_name(p.tx), type_name(p.tw), type_name(p.ty)};
    r.status     = o.status;
    r.step       = o.step;
    r.maxerr     = maxerr;
    r.tol        = tol;
    r.why        = words(why);
    const bool good = tally.report(r);

    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(yd);
    miopenDestroyConvolutionDescriptor(cd);
    return good;
}

int usage(const char* argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--cases N] [--seed S] [--only I] [--corrupt-case K] [--find-mode M] [--api legacy|find2]\n"
                 "  --api find2       every case through the Find 2.0 problem API (default legacy: its three sequences)\n"
                 "  --find-mode M     set each descriptor's Find mode (miopenHiddenSetConvolutionFindMode)\n"
                 "  --corrupt-case K  perturb one output value of the first successful case >= K\n"
                 "                    after the library computed it (negative test of the checker)\n",
                 argv0);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    long cases = 1000, only = -1, corrupt_case = -1;
    int find_mode = 0;
    bool find2    = false;
    unsigned long long seed = 1;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(i + 1 >= argc)
            return usage(argv[0]);
        if(a == "--api")
        {
            const std::string api = argv[++i];
            if(api != "find2" && api != "legacy")
                return usage(argv[0]);
            find2 = api == "find2";
            continue;
        }
        char* end       = nullptr;
        const char* val = argv[++i];
        const unsigned long long v = std::strtoull(val, &end, 10);
        if(end == val || *end != '\0')
            return usage(argv[0]);
        if(a == "--cases")
            cases = static_cast<long>(v);
        else if(a == "--seed")
            seed = v;
        else if(a == "--only")
            only = static_cast<long>(v);
        else if(a == "--corrupt-case")
            corrupt_case = static_cast<long>(v);
        else if(a == "--find-mode")
            find_mode = static_cast<int>(v);
        else
            return usage(argv[0]);
    }

    miopenHandle_t handle = nullptr;
    if(miopenCreate(&handle) != miopenStatusSuccess)
    {
        std::fprintf(stderr, "conv_differential: miopenCreate failed\n");
        return 3;
    }
    Tally tally;
    bool corrupted = false;
    for(long i = 0; i < cases; ++i)
    {
        if(only >= 0 && i != only)
            continue;
        Rng rng{mix64(mix64(seed) ^ (static_cast<std::uint64_t>(i) + 0x632BE59BD9B4E019ull))};
        Problem p   = generate(rng);
        p.find_mode = find_mode;
        if(find2)
            make_find2(p, rng);
        protocol::begin(i);
        run_case(handle, static_cast<int>(i), p, rng, corrupt_case >= 0 && i >= corrupt_case, &corrupted, tally);
    }
    protocol::end();
    miopenDestroy(handle);
    return tally.finish();
}
