// MIOpen provider engine (MIOPEN_ENGINE) against the reference engine
// (MINI_REFERENCE_ENGINE) through the C ABI:
//  * random single convolutions and conv -> [add bias] -> relu/clamp graphs
//    (fixed seed), each run once on each engine, compared within the data
//    type's tolerance; a fused graph whose fusion plan MIOpen does not compile
//    (asked of MIOpen Private directly) must be declined, as hipDNN's provider
//    leaves that decision to MIOpen;
//  * graphs the provider must decline: NOT_SUPPORTED when only the provider is
//    allowed, the reference engine when both are, with correct numbers.
// The engine is picked with HIPDNN_HEUR_FALLBACK_ENGINE_ORDER; the provider is
// loaded from its own plugin directory (hipdnnSetEnginePluginPaths_ext).
#include "test_util.hpp"

#include <gtest/gtest.h>
#include <miopen/miopen_impl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace
{

const char* kRef = "MINI_REFERENCE_ENGINE";
const char* kMio = "MIOPEN_ENGINE";

enum class Kind
{
    Fwd,
    BwdData,
    BwdFilter,
    Fused
};

enum class Clip
{
    None,       // RELU
    Upper,      // CLIPPEDRELU
    LowerUpper, // CLAMP
    LowerZero,  // lower = 0 only: RELU
    LowerOnly   // lower != 0 only: declined by the provider
};

struct Case
{
    Kind kind = Kind::Fwd;
    int sp = 2;
    int64_t N = 2, C = 4, K = 6, G = 1;
    std::vector<int64_t> in = {7, 6}, flt = {3, 3}, pre = {1, 1}, post = {1, 1}, stride = {1, 1}, dil = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    bool nhwc = false;
    // fused graphs
    bool bias = true;
    bool fullBias = false; // (N,K,H,W) residual instead of a (1,K,1,1) bias
    hipdnnPointwiseMode_t secondMode = HIPDNN_POINTWISE_MODE_ADD;
    bool noActivation = false;
    Clip clip = Clip::None;
    float lower = -1.5f, upper = 2.5f;
    hipdnnDataType_t convOutDt = HIPDNN_DATA_FLOAT, biasOutDt = HIPDNN_DATA_FLOAT;
    hipdnnDataType_t convCompute = HIPDNN_DATA_FLOAT;
    bool listReversed = false; // list the ops in reverse order
    uint64_t seed = 1;
    bool fine = false; // input values (see makeBuf)

    std::vector<int64_t> xDims() const
    {
        std::vector<int64_t> d = {N, C};
        d.insert(d.end(), in.begin(), in.end());
        return d;
    }
    std::vector<int64_t> wDims() const
    {
        std::vector<int64_t> d = {K, C / G};
        d.insert(d.end(), flt.begin(), flt.end());
        return d;
    }
    std::vector<int64_t> yDims() const
    {
        std::vector<int64_t> d = {N, K};
        for(int i = 0; i < sp; ++i)
        {
            d.push_back((in[i] + pre[i] + post[i] - dil[i] * (flt[i] - 1) - 1) / stride[i] + 1);
        }
        return d;
    }
    std::string str() const
    {
        static const char* kinds[] = {"fwd", "bwd-data", "bwd-filter", "conv+bias+act"};
        static const char* clips[] = {"relu", "upper", "lower+upper", "lower=0", "lower-only"};
        auto vec = [](const std::vector<int64_t>& v) {
            std::string s;
            for(auto e : v)
            {
                s += (s.empty() ? "" : "x") + std::to_string(e);
            }
            return s;
        };
        std::ostringstream o;
        o << kinds[int(kind)] << (fine ? " fine" : " coarse") << " dt=" << dt << (nhwc ? " NHWC" : " NCHW") << " x=" << vec(xDims())
          << " w=" << vec(wDims()) << " G=" << G << " pad=" << vec(pre) << "/" << vec(post)
          << " stride=" << vec(stride) << " dil=" << vec(dil);
        if(kind == Kind::Fused)
        {
            o << (bias ? " +bias" : " no-bias") << " " << clips[int(clip)] << " convOut=" << convOutDt
              << " biasOut=" << biasOutDt;
        }
        return o.str();
    }
};

// ---- host data in the tensor's storage type ---------------------------------

size_t elemSize(hipdnnDataType_t dt) { return dt == HIPDNN_DATA_FLOAT ? 4 : 2; }

void store(std::vector<unsigned char>& b, size_t i, hipdnnDataType_t dt, float v)
{
    if(dt == HIPDNN_DATA_FLOAT)
    {
        std::memcpy(&b[i * 4], &v, 4);
        return;
    }
    uint16_t h = dt == HIPDNN_DATA_HALF ? tu::toHalf(v) : tu::toBf16(v);
    std::memcpy(&b[i * 2], &h, 2);
}

float load(const std::vector<unsigned char>& b, size_t i, hipdnnDataType_t dt)
{
    if(dt == HIPDNN_DATA_FLOAT)
    {
        float v;
        std::memcpy(&v, &b[i * 4], 4);
        return v;
    }
    uint16_t h;
    std::memcpy(&h, &b[i * 2], 2);
    return dt == HIPDNN_DATA_HALF ? tu::fromHalf(h) : tu::fromBf16(h);
}

// splitmix64: portable, fixed sequence for a seed.
struct Rng
{
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int64_t in(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

int64_t count(const std::vector<int64_t>& d)
{
    int64_t n = 1;
    for(auto v : d)
    {
        n *= v;
    }
    return n;
}

// MIOpen has the last word on a fused graph: the fusion plan the provider
// builds for the case (conv -> [bias] -> activation, 1-D padded to 2-D),
// compiled by MIOpen Private itself.
bool MiopenCompilesFusedPlan(const Case& c)
{
    auto mioType = c.dt == HIPDNN_DATA_FLOAT ? miopenFloat : c.dt == HIPDNN_DATA_HALF ? miopenHalf : miopenBFloat16;
    std::vector<miopenTensorDescriptor_t> tensors;
    auto tensor = [&](std::vector<int64_t> dims) {
        std::vector<int64_t> st = c.nhwc ? tu::channelsLastStrides(dims) : tu::packedStrides(dims);
        if(dims.size() == 3)
        {
            dims.push_back(1);
            st.push_back(st.back());
        }
        std::vector<int> d(dims.begin(), dims.end()), s(st.begin(), st.end());
        miopenTensorDescriptor_t t = nullptr;
        miopenCreateTensorDescriptor_impl(&t);
        miopenSetTensorDescriptor_impl(t, mioType, static_cast<int>(d.size()), d.data(), s.data());
        tensors.push_back(t);
        return t;
    };
    std::vector<int> pad(c.pre.begin(), c.pre.end()), stride(c.stride.begin(), c.stride.end()),
        dil(c.dil.begin(), c.dil.end());
    if(c.sp == 1)
    {
        pad.push_back(0), stride.push_back(1), dil.push_back(1);
    }
    std::vector<int64_t> bd(c.yDims().size(), 1);
    bd[1] = c.K;
    auto x = tensor(c.xDims()), w = tensor(c.wDims()), b = tensor(bd);
    miopenConvolutionDescriptor_t conv = nullptr;
    miopenCreateConvolutionDescriptor_impl(&conv);
    miopenInitConvolutionNdDescriptor_impl(conv, static_cast<int>(pad.size()), pad.data(), stride.data(), dil.data(),
                                           miopenConvolution);
    miopenSetConvolutionGroupCount_impl(conv, static_cast<int>(c.G));
    const auto mode = c.clip == Clip::Upper        ? miopenActivationCLIPPEDRELU
                      : c.clip == Clip::LowerUpper ? miopenActivationCLAMP
                                                   : miopenActivationRELU;
    miopenHandle_t h = nullptr;
    miopenCreate_impl(&h);
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t op = nullptr;
    bool ok = miopenCreateFusionPlan_impl(&plan, miopenVerticalFusion, x) == miopenStatusSuccess
              && miopenCreateOpConvForward_impl(plan, &op, conv, w) == miopenStatusSuccess
              && (!c.bias || miopenCreateOpBiasForward_impl(plan, &op, b) == miopenStatusSuccess)
              && miopenCreateOpActivationForward_impl(plan, &op, mode) == miopenStatusSuccess
              && miopenCompileFusionPlan_impl(h, plan) == miopenStatusSuccess;
    miopenDestroyFusionPlan_impl(plan);
    miopenDestroy_impl(h);
    miopenDestroyConvolutionDescriptor_impl(conv);
    for(auto t : tensors)
    {
        miopenDestroyTensorDescriptor_impl(t);
    }
    return ok;
}

struct Buf
{
    int64_t uid;
    hipdnnDataType_t dt;
    std::vector<unsigned char> bytes;
    size_t n() const { return bytes.size() / elemSize(dt); }
};

// Inputs: coarse = multiples of 1/4 in [-2, 2] (exact in every type, fp32 sums
// exact, so both engines must agree bit for bit); fine = multiples of 1/1024 in
// [-2, 2] (rounded to the storage type; fp32 accumulation order now matters).
// The output buffer starts as a sentinel (7.0): an element an engine does not
// write shows up as a mismatch.
Buf makeBuf(int64_t uid, hipdnnDataType_t dt, const std::vector<int64_t>& dims, bool input, uint64_t seed, bool fine)
{
    Buf b{uid, dt, std::vector<unsigned char>(size_t(count(dims)) * elemSize(dt))};
    Rng r(seed * 1000003u + uint64_t(uid));
    for(size_t i = 0; i < b.n(); ++i)
    {
        store(b.bytes, i, dt, !input ? 7.0f : fine ? float(r.in(-2048, 2048)) / 1024.0f : float(r.in(-8, 8)) / 4.0f);
    }
    return b;
}

struct Outcome
{
    bool taken = false;            // an engine of the allowed set took the graph
    std::string engine;            // which one
    std::vector<float> out;        // output values
    std::string error;             // why not taken
    int64_t workspace = -1;
};

struct Stats
{
    double maxAbs = 0, maxRel = 0;
    int cases = 0;
    int64_t elements = 0;
};
// Fused graphs compared against the reference, and declined because MIOpen
// does not compile their fusion plan.
struct FusedCounts
{
    int compared = 0, declinedByMiopen = 0;
};
FusedCounts& fusedCounts()
{
    static FusedCounts f;
    return f;
}
std::map<int, Stats>& stats()
{
    static std::map<int, Stats> s;
    return s;
}

class ProviderVsReference : public tu::BackendTest
{
protected:
    ProviderVsReference() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}


    // Builds the case's graph; fills the variant-pack buffers and says which is the output.
    hipdnnBackendDescriptor_t build(const Case& c, std::vector<Buf>& bufs, size_t& outIdx)
    {
        auto strides = [&](const std::vector<int64_t>& d) {
            return c.nhwc ? tu::channelsLastStrides(d) : tu::packedStrides(d);
        };
        auto xd = c.xDims(), wd = c.wDims(), yd = c.yDims();
        tu::ConvParams p{c.pre, c.post, c.stride, c.dil, c.mode, c.convCompute};
        auto x = keep(tu::tensor(1, c.dt, xd, strides(xd)));
        auto w = keep(tu::tensor(2, c.dt, wd, strides(wd)));
        std::vector<hipdnnBackendDescriptor_t> ops;
        if(c.kind != Kind::Fused)
        {
            auto y = keep(tu::tensor(3, c.dt, yd, strides(yd)));
            auto type = c.kind == Kind::Fwd       ? HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR
                        : c.kind == Kind::BwdData ? HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR
                                                  : HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR;
            ops.push_back(keep(tu::convOp(type, x, w, y, p)));
            bufs.push_back(makeBuf(1, c.dt, xd, c.kind != Kind::BwdData, c.seed, c.fine));
            bufs.push_back(makeBuf(2, c.dt, wd, c.kind != Kind::BwdFilter, c.seed, c.fine));
            bufs.push_back(makeBuf(3, c.dt, yd, c.kind != Kind::Fwd, c.seed, c.fine));
            outIdx = c.kind == Kind::Fwd ? 2 : c.kind == Kind::BwdData ? 0 : 1;
        }
        else
        {
            auto convY = keep(tu::tensor(10, c.convOutDt, yd, strides(yd), true));
            ops.push_back(keep(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, x, w, convY, p)));
            bufs.push_back(makeBuf(1, c.dt, xd, true, c.seed, c.fine));
            bufs.push_back(makeBuf(2, c.dt, wd, true, c.seed, c.fine));
            auto actIn = convY;
            if(c.bias)
            {
                std::vector<int64_t> bd(yd.size(), 1);
                bd[1] = c.K;
                if(c.fullBias)
                {
                    bd = yd;
                }
                auto b = keep(tu::tensor(4, c.dt, bd, strides(bd)));
                bufs.push_back(makeBuf(4, c.dt, bd, true, c.seed, c.fine));
                bool last = c.noActivation;
                auto bout = keep(tu::tensor(last ? 3 : 11, last ? c.dt : c.biasOutDt, yd, strides(yd), !last));
                ops.push_back(keep(tu::pointwiseOp(c.secondMode, convY, b, bout, nullptr, nullptr, c.dt)));
                actIn = bout;
            }
            if(!c.noActivation)
            {
                auto y = keep(tu::tensor(3, c.dt, yd, strides(yd)));
                bool lo = c.clip == Clip::LowerUpper || c.clip == Clip::LowerZero || c.clip == Clip::LowerOnly;
                bool up = c.clip == Clip::Upper || c.clip == Clip::LowerUpper;
                float lower = c.clip == Clip::LowerZero ? 0.0f : c.lower, upper = c.upper;
                ops.push_back(keep(tu::pointwiseOp(HIPDNN_POINTWISE_MODE_RELU_FWD, actIn, nullptr, y,
                                                   lo ? &lower : nullptr, up ? &upper : nullptr)));
            }
            bufs.push_back(makeBuf(3, c.dt, yd, false, c.seed, c.fine));
            outIdx = bufs.size() - 1;
        }
        if(c.listReversed)
        {
            std::reverse(ops.begin(), ops.end());
        }
        return keep(tu::graph(_h, ops));
    }

    // Runs the case with HIPDNN_HEUR_FALLBACK_ENGINE_ORDER = order.
    Outcome run(const Case& c, const char* order)
    {
        tu::ScopedEnv env("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", order);
        Outcome o;
        std::vector<Buf> bufs;
        size_t outIdx = 0;
        auto g = build(c, bufs, outIdx);
        tu::PlanInfo pl;
        try
        {
            pl = tu::plan(g);
        }
        catch(const std::runtime_error& e)
        {
            o.error = e.what();
            return o;
        }
        keep(pl.plan);
        o.taken = true;
        o.engine = pl.engineName;
        o.workspace = pl.workspace;
        std::vector<int64_t> uids;
        std::vector<void*> ptrs;
        for(auto& b : bufs)
        {
            uids.push_back(b.uid);
            ptrs.push_back(b.bytes.data());
        }
        tu::execute(_h, pl, uids, ptrs);
        for(size_t i = 0; i < bufs[outIdx].n(); ++i)
        {
            o.out.push_back(load(bufs[outIdx].bytes, i, c.dt));
        }
        return o;
    }

    // Tolerance: |mio - ref| <= tol * (1 + |ref|); fp16/bf16 allow two roundings
    // (MIOpen's fused plan stores the convolution result in the output type
    // before adding the bias; the reference keeps virtual tensors in fp32).
    static double tolerance(hipdnnDataType_t dt)
    {
        return dt == HIPDNN_DATA_FLOAT ? 1e-5 : dt == HIPDNN_DATA_HALF ? 2.0 * 0.0009765625 : 2.0 * 0.0078125;
    }

    void compare(const Case& c)
    {
        SCOPED_TRACE(c.str());
        auto ref = run(c, kRef);
        ASSERT_TRUE(ref.taken) << ref.error;
        ASSERT_EQ(ref.engine, kRef);
        if(c.kind == Kind::Fused && !MiopenCompilesFusedPlan(c))
        {
            auto mio = run(c, kMio);
            EXPECT_FALSE(mio.taken) << "MIOPEN_ENGINE took a graph whose fusion plan MIOpen does not compile";
            auto both = run(c, "MIOPEN_ENGINE,MINI_REFERENCE_ENGINE");
            ASSERT_TRUE(both.taken) << both.error;
            EXPECT_EQ(both.engine, kRef);
            EXPECT_EQ(both.out, ref.out);
            fusedCounts().declinedByMiopen++;
            return;
        }
        fusedCounts().compared += c.kind == Kind::Fused;
        auto mio = run(c, kMio);
        ASSERT_TRUE(mio.taken) << "MIOPEN_ENGINE declined: " << mio.error;
        ASSERT_EQ(mio.engine, kMio);
        ASSERT_GE(mio.workspace, 0);
        ASSERT_EQ(mio.out.size(), ref.out.size());
        // a second plan for the same problem runs with the algorithm found the first time
        auto again = run(c, kMio);
        ASSERT_TRUE(again.taken) << again.error;
        EXPECT_EQ(again.out, mio.out) << "second execution differs from the first";
        // the data must exercise the op
        size_t nonZero = 0;
        for(float v : ref.out)
        {
            nonZero += v != 0.0f;
        }
        EXPECT_GT(nonZero, 0u) << "degenerate case: reference output is all zeros";
        double tol = tolerance(c.dt);
        auto& st = stats()[c.dt];
        st.cases++;
        st.elements += int64_t(ref.out.size());
        size_t bad = 0;
        for(size_t i = 0; i < ref.out.size(); ++i)
        {
            double r = ref.out[i], m = mio.out[i];
            double d = std::fabs(m - r);
            if(!(d <= tol * (1.0 + std::fabs(r))))
            {
                if(bad++ < 5)
                {
                    ADD_FAILURE() << "element " << i << ": MIOPEN_ENGINE " << m << " vs reference " << r;
                }
            }
            st.maxAbs = std::max(st.maxAbs, d);
            st.maxRel = std::max(st.maxRel, d / std::max(1.0, std::fabs(r)));
        }
        EXPECT_EQ(bad, 0u) << "mismatching elements of " << ref.out.size();
    }

};

// ---- random cases ------------------------------------------------------------

Case randomCase(Rng& r, int i)
{
    Case c;
    c.seed = uint64_t(i) + 1;
    c.fine = (i / 12) % 2 == 1;
    c.kind = Kind(i % 4);
    static const hipdnnDataType_t dts[] = {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF, HIPDNN_DATA_BFLOAT16};
    c.dt = dts[(i / 4) % 3];
    c.sp = r.in(0, 2) == 0 ? 3 : 2;
    c.G = r.in(1, 3);
    c.C = c.G * r.in(1, 3);
    c.K = c.G * r.in(1, 2);
    c.N = r.in(1, 2);
    c.nhwc = r.in(0, 1) == 1;
    c.in.clear(), c.flt.clear(), c.pre.clear(), c.post.clear(), c.stride.clear(), c.dil.clear();
    for(int d = 0; d < c.sp; ++d)
    {
        int64_t f = r.in(1, 3), dil = r.in(1, 2), st = r.in(1, 2), pad = r.in(0, 2);
        int64_t eff = dil * (f - 1) + 1;
        int64_t minIn = std::max<int64_t>(1, eff - 2 * pad);
        int64_t in = minIn + r.in(0, c.sp == 3 ? 3 : 5);
        c.flt.push_back(f), c.dil.push_back(dil), c.stride.push_back(st);
        c.pre.push_back(pad), c.post.push_back(pad), c.in.push_back(in);
    }
    if(c.kind == Kind::Fused)
    {
        c.bias = r.in(0, 3) != 0;
        static const Clip clips[] = {Clip::None, Clip::Upper, Clip::LowerUpper, Clip::LowerZero};
        c.clip = clips[r.in(0, 3)];
        c.lower = -float(r.in(1, 8)) / 4.0f;
        c.upper = float(r.in(1, 12)) / 4.0f;
        // hipDNN's provider also accepts the bias type for the virtual tensors when a bias is present
        if(c.bias && r.in(0, 2) == 0)
        {
            c.convOutDt = c.dt;
            c.biasOutDt = c.dt;
        }
        c.listReversed = r.in(0, 3) == 0;
    }
    return c;
}

constexpr int kRandomCases = 48;

class RandomGraphs : public ProviderVsReference, public ::testing::WithParamInterface<int>
{
};

TEST_P(RandomGraphs, ProviderMatchesReference)
{
    Rng r(0x5EEDu + uint64_t(GetParam()) * 7919u);
    compare(randomCase(r, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Seeded, RandomGraphs, ::testing::Range(0, kRandomCases));

// Fused graphs inside what MIOpen's fused solvers take (fp32, NCHW, 2-D; odd
// square filters at stride <= 2, or 1x1 at stride 1 without padding unless
// grouped), so the provider's fused path meets varied shapes too: most random
// fused graphs above are ones MIOpen does not fuse.
Case randomFusableCase(Rng& r, int i)
{
    Case c;
    c.kind = Kind::Fused;
    c.seed = 1000 + uint64_t(i);
    c.fine = i % 2 == 1;
    c.G = r.in(1, 2);
    c.C = c.G * r.in(1, 3);
    c.K = c.G * r.in(1, 3);
    c.N = r.in(1, 2);
    static const int64_t filters[] = {1, 3, 5};
    const int64_t f = filters[r.in(0, 2)];
    const bool plain1x1 = f == 1 && c.G == 1;
    const int64_t pad = plain1x1 ? 0 : r.in(0, 2), st = plain1x1 ? 1 : r.in(1, 2);
    c.flt = {f, f}, c.pre = c.post = {pad, pad}, c.stride = {st, st}, c.dil = {1, 1};
    const int64_t minIn = std::max<int64_t>(1, f - 2 * pad);
    c.in = {minIn + r.in(0, 5), minIn + r.in(0, 5)};
    c.bias = r.in(0, 3) != 0;
    static const Clip clips[] = {Clip::None, Clip::Upper, Clip::LowerUpper, Clip::LowerZero};
    c.clip = clips[r.in(0, 3)];
    c.lower = -float(r.in(1, 8)) / 4.0f;
    c.upper = float(r.in(1, 12)) / 4.0f;
    c.listReversed = r.in(0, 3) == 0;
    return c;
}

constexpr int kFusableCases = 12;

class FusableGraphs : public ProviderVsReference, public ::testing::WithParamInterface<int>
{
};

TEST_P(FusableGraphs, ProviderMatchesReference)
{
    Rng r(0xF05Eu + uint64_t(GetParam()) * 7919u);
    const Case c = randomFusableCase(r, GetParam());
    ASSERT_TRUE(MiopenCompilesFusedPlan(c)) << c.str();
    compare(c);
}

INSTANTIATE_TEST_SUITE_P(Seeded, FusableGraphs, ::testing::Range(0, kFusableCases));

// ---- deterministic fused cases: each activation mapping ----------------------

TEST_F(ProviderVsReference, ConvBiasRelu)
{
    Case c;
    c.kind = Kind::Fused;
    compare(c);
}

TEST_F(ProviderVsReference, ConvBiasClippedReluUpperOnly)
{
    Case c;
    c.kind = Kind::Fused;
    c.clip = Clip::Upper;
    c.upper = 1.0f;
    compare(c);
}

TEST_F(ProviderVsReference, ConvBiasClampLowerAndUpper)
{
    Case c;
    c.kind = Kind::Fused;
    c.clip = Clip::LowerUpper;
    c.lower = -1.0f;
    c.upper = 1.5f;
    compare(c);
}

TEST_F(ProviderVsReference, ConvReluWithoutBias)
{
    Case c;
    c.kind = Kind::Fused;
    c.bias = false;
    c.clip = Clip::LowerZero;
    compare(c);
}

// MIOpen fuses no fp16 NHWC 3-D convolution: declined, the reference engine takes it.
TEST_F(ProviderVsReference, ConvBiasClampFp16Nhwc3d)
{
    Case c;
    c.kind = Kind::Fused;
    c.sp = 3;
    c.in = {4, 5, 5}, c.flt = {2, 3, 3}, c.pre = c.post = {0, 1, 1}, c.stride = {1, 2, 1}, c.dil = {1, 1, 2};
    c.G = 2;
    c.dt = HIPDNN_DATA_HALF;
    c.nhwc = true;
    c.clip = Clip::LowerUpper;
    compare(c);
}

// hipDNN's provider takes 1-D (NCL, NLC) by padding it to 2-D: every kind,
// against the reference engine (the fused 1x3 filter is no fusion MIOpen has).
TEST_F(ProviderVsReference, OneDimensionalNclAndNlc)
{
    for(Kind k : {Kind::Fwd, Kind::BwdData, Kind::BwdFilter, Kind::Fused})
    {
        for(bool nlc : {false, true})
        {
            Case c;
            c.kind = k;
            c.sp = 1, c.in = {9}, c.flt = {3}, c.pre = c.post = {1}, c.stride = {2}, c.dil = {1};
            c.nhwc = nlc;
            SCOPED_TRACE(c.str());
            compare(c);
        }
    }
}

// hipDNN's provider reserves align256(x) + align256(w) + align256(y) bytes for
// a fused conv -> bias -> activation plan: never 0, whatever MIOpen needs.
TEST_F(ProviderVsReference, FusedPlanWorkspaceIsTheProvidersFormula)
{
    for(hipdnnDataType_t dt : {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF})
    {
        Case c;
        c.kind = Kind::Fused;
        c.dt = dt;
        if(dt == HIPDNN_DATA_HALF)
        {
            // MIOpen fuses fp16 only for a 1x1 convolution at stride 1 without padding.
            c.flt = {1, 1}, c.pre = c.post = {0, 0};
        }
        SCOPED_TRACE(c.str());
        auto align256 = [](int64_t v) { return (v + 255) / 256 * 256; };
        const int64_t e = int64_t(elemSize(dt));
        const int64_t want = align256(e * count(c.xDims())) + align256(e * count(c.wDims())) + align256(e * count(c.yDims()));
        auto mio = run(c, kMio);
        ASSERT_TRUE(mio.taken) << mio.error;
        EXPECT_EQ(mio.workspace, want);
        EXPECT_GT(mio.workspace, 0);
    }
}

// The comparison itself must catch a wrong activation mapping: with these
// clips, RELU / CLIPPEDRELU / CLAMP results differ from one another.
TEST_F(ProviderVsReference, ActivationVariantsReallyDiffer)
{
    Case c;
    c.kind = Kind::Fused;
    std::vector<std::vector<float>> outs;
    for(Clip k : {Clip::None, Clip::Upper, Clip::LowerUpper})
    {
        c.clip = k;
        auto o = run(c, kMio);
        ASSERT_TRUE(o.taken) << o.error;
        outs.push_back(o.out);
    }
    EXPECT_NE(outs[0], outs[1]);
    EXPECT_NE(outs[1], outs[2]);
    EXPECT_NE(outs[0], outs[2]);
}

// Find runs on the first execution of a problem only; later plans for the same
// problem reuse the algorithm (counted in the mini MIOpen's API-call log).
TEST_F(ProviderVsReference, FindOnFirstExecuteOnly)
{
    struct K
    {
        Kind kind;
        const char* find;
        const char* run;
    };
    // MIOpen's call log opens each call with its signature, public name first.
    for(const K& k : {K{Kind::Fwd, " miopenFindConvolutionForwardAlgorithm(", " miopenConvolutionForward("},
                      K{Kind::BwdData, " miopenFindConvolutionBackwardDataAlgorithm(",
                        " miopenConvolutionBackwardData("},
                      K{Kind::BwdFilter, " miopenFindConvolutionBackwardWeightsAlgorithm(",
                        " miopenConvolutionBackwardWeights("}})
    {
        Case c; // a shape no other test uses, so the first run here is the first execution
        c.kind = k.kind;
        c.in = {11, 10};
        c.N = 1;
        SCOPED_TRACE(c.str());
        // MIOpen reads MIOPEN_LOG_LEVEL once per process: the two runs happen in
        // a fresh process (threadsafe death test: this test re-executed) with
        // the level set before the first MIOpen call; it exits 0 when the
        // counts are right and prints what it saw otherwise.
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        EXPECT_EXIT(
            {
                setenv("MIOPEN_LOG_LEVEL", "5", 1);
                ::testing::internal::CaptureStderr();
                auto first = run(c, kMio);
                auto second = run(c, kMio);
                const std::string log = ::testing::internal::GetCapturedStderr();
                auto occurrences = [&](const std::string& what) {
                    size_t n = 0;
                    for(size_t pos = log.find(what); pos != std::string::npos; pos = log.find(what, pos + 1))
                        ++n;
                    return n;
                };
                const bool ok = first.taken && second.taken && first.out == second.out &&
                                occurrences(k.find) == 1 && occurrences(k.run) == 2 &&
                                occurrences("GetWorkSpaceSize(") >= 2;
                if(!ok)
                {
                    std::fprintf(stderr,
                                 "taken %d/%d (%s%s), same output %d, find %zu (want 1), run %zu (want 2), "
                                 "GetWorkSpaceSize %zu (want >= 2)\n-- log:\n%s\n",
                                 first.taken, second.taken, first.error.c_str(), second.error.c_str(),
                                 first.out == second.out, occurrences(k.find), occurrences(k.run),
                                 occurrences("GetWorkSpaceSize("), log.c_str());
                    std::_Exit(1);
                }
                std::_Exit(0);
            },
            ::testing::ExitedWithCode(0),
            "");
    }
}

// ---- what the provider must decline -------------------------------------------

struct Declined
{
    const char* why;
    Case c;
};

std::vector<Declined> declinedCases()
{
    std::vector<Declined> v;
    Case base;
    Case f = base;
    f.kind = Kind::Fused;
    {
        Case c = base;
        c.post = {0, 1};
        v.push_back({"asymmetric padding", c});
    }
    {
        Case c = base;
        c.mode = HIPDNN_CONVOLUTION;
        v.push_back({"convolution mode (mirrored filter)", c});
    }
    {
        Case c = base;
        c.kind = Kind::BwdData;
        c.mode = HIPDNN_CONVOLUTION;
        v.push_back({"bwd-data, convolution mode", c});
    }
    {
        Case c = f;
        c.post = {2, 1};
        v.push_back({"fused, asymmetric padding", c});
    }
    {
        Case c = f;
        c.mode = HIPDNN_CONVOLUTION;
        v.push_back({"fused, convolution mode", c});
    }
    {
        Case c = f;
        c.clip = Clip::LowerOnly;
        c.lower = 0.5f;
        v.push_back({"relu with a non-zero lower clip only", c});
    }
    {
        Case c = f;
        c.fullBias = true;
        v.push_back({"add of a full-size tensor (residual), not a (1,C,1,1) bias", c});
    }
    {
        Case c = f;
        c.secondMode = HIPDNN_POINTWISE_MODE_MUL;
        v.push_back({"conv -> mul -> relu", c});
    }
    {
        Case c = f;
        c.noActivation = true;
        v.push_back({"conv -> add without activation", c});
    }
    {
        Case c = f;
        c.bias = false;
        c.convOutDt = HIPDNN_DATA_HALF;
        c.dt = HIPDNN_DATA_HALF;
        v.push_back({"conv -> relu with a non-float intermediate", c});
    }
    {
        Case c = f;
        c.convCompute = HIPDNN_DATA_HALF;
        c.dt = HIPDNN_DATA_HALF;
        v.push_back({"conv compute type not float", c});
    }
    return v;
}

TEST_F(ProviderVsReference, DeclinedGraphsAreNotSupportedByTheProviderAlone)
{
    for(const auto& d : declinedCases())
    {
        SCOPED_TRACE(d.why);
        auto o = run(d.c, kMio);
        EXPECT_FALSE(o.taken) << "MIOPEN_ENGINE took the graph";
        // engine descriptor for the provider's id on that graph: NOT_SUPPORTED
        std::vector<Buf> bufs;
        size_t outIdx = 0;
        auto g = build(d.c, bufs, outIdx);
        hipdnnBackendDescriptor_t eng = nullptr;
        tu::check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &eng), "create engine");
        keep(eng);
        int64_t id = tu::fnv1a64("MIOPEN_ENGINE");
        tu::check(hipdnnBackendSetAttribute(eng, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                            &g),
                  "engine graph");
        tu::check(hipdnnBackendSetAttribute(eng, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id),
                  "engine id");
        EXPECT_EQ(hipdnnBackendFinalize(eng), HIPDNN_STATUS_NOT_SUPPORTED);
    }
}

TEST_F(ProviderVsReference, DeclinedGraphsFallToTheReferenceEngine)
{
    for(const auto& d : declinedCases())
    {
        SCOPED_TRACE(d.why);
        auto both = run(d.c, "MIOPEN_ENGINE,MINI_REFERENCE_ENGINE");
        ASSERT_TRUE(both.taken) << both.error;
        EXPECT_EQ(both.engine, kRef);
        auto ref = run(d.c, kRef);
        ASSERT_TRUE(ref.taken);
        EXPECT_EQ(both.out, ref.out);
    }
}

TEST_F(ProviderVsReference, SupportedGraphsPreferTheProviderWhenListedFirst)
{
    Case c;
    c.kind = Kind::Fused;
    c.clip = Clip::Upper;
    auto o = run(c, "MIOPEN_ENGINE,MINI_REFERENCE_ENGINE");
    ASSERT_TRUE(o.taken) << o.error;
    EXPECT_EQ(o.engine, kMio);
}

// Non-positive stride / dilation: the backend passes them through, the provider
// must neither take nor crash on them (single conv and conv -> relu).
TEST_F(ProviderVsReference, NonPositiveStrideOrDilationDeclined)
{
    for(int which = 0; which < 4; ++which)
    {
        SCOPED_TRACE(which);
        bool fused = which >= 2;
        std::vector<int64_t> stride = {1, 1}, dil = {1, 1};
        (which % 2 == 0 ? stride : dil)[which % 2] = which % 2 == 0 ? 0 : -1;
        Case legal; // output dims from legal parameters
        tu::ScopedEnv env("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", kMio);
        auto xd = legal.xDims(), wd = legal.wDims(), yd = legal.yDims();
        tu::ConvParams p{legal.pre, legal.post, stride, dil, HIPDNN_CROSS_CORRELATION};
        auto x = keep(tu::tensor(1, HIPDNN_DATA_FLOAT, xd, tu::packedStrides(xd)));
        auto w = keep(tu::tensor(2, HIPDNN_DATA_FLOAT, wd, tu::packedStrides(wd)));
        auto y = keep(tu::tensor(3, HIPDNN_DATA_FLOAT, yd, tu::packedStrides(yd), fused));
        std::vector<hipdnnBackendDescriptor_t> ops = {
            keep(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, x, w, y, p))};
        if(fused)
        {
            auto out = keep(tu::tensor(4, HIPDNN_DATA_FLOAT, yd, tu::packedStrides(yd)));
            ops.push_back(keep(tu::pointwiseOp(HIPDNN_POINTWISE_MODE_RELU_FWD, y, nullptr, out)));
        }
        auto g = keep(tu::graph(_h, ops));
        bool taken = true;
        try
        {
            keep(tu::plan(g).plan);
        }
        catch(const std::runtime_error&)
        {
            taken = false;
        }
        EXPECT_FALSE(taken) << "MIOPEN_ENGINE took stride " << stride[0] << " dilation " << dil[1];
    }
}

// After all tests: reports the maximum observed deviation per data type and
// fails if a data type was compared in too few cases (full runs only).
class StatsReport : public ::testing::Environment
{
public:
    void TearDown() override
    {
        const char* names[] = {"fp32", "", "fp16", "", "", "", "bf16"};
        for(int dt : {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF, HIPDNN_DATA_BFLOAT16})
        {
            const auto& s = stats()[dt];
            std::printf("[provider-vs-reference] %s: %d cases, %lld elements, max |diff| %.3g, max rel %.3g "
                        "(tolerance %.3g)\n",
                        names[dt], s.cases, static_cast<long long>(s.elements), s.maxAbs, s.maxRel,
                        ProviderTolerance(hipdnnDataType_t(dt)));
            if(::testing::GTEST_FLAG(filter) == "*")
            {
                EXPECT_GE(s.cases, 10) << names[dt] << " was compared in too few cases";
            }
        }
        const auto& f = fusedCounts();
        std::printf("[provider-vs-reference] fused graphs: %d compared, %d declined as MIOpen does not "
                    "compile their fusion plan\n",
                    f.compared, f.declinedByMiopen);
        if(::testing::GTEST_FLAG(filter) == "*")
        {
            EXPECT_GE(f.compared, kFusableCases) << "too few fused graphs compared";
            EXPECT_GE(f.declinedByMiopen, 5) << "too few fused graphs MIOpen declines";
        }
    }
    static double ProviderTolerance(hipdnnDataType_t dt)
    {
        return dt == HIPDNN_DATA_FLOAT ? 1e-5 : dt == HIPDNN_DATA_HALF ? 2.0 * 0.0009765625 : 2.0 * 0.0078125;
    }
};

::testing::Environment* const kStatsReport = ::testing::AddGlobalTestEnvironment(new StatsReport);

} // namespace
