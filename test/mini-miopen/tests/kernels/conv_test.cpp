// Convolution kernel tests: hand-worked cases with literal results, then every
// dtype x layout x direction x (2-D, 3-D) against im2col/GEMM references in double.
#include "conv_reference.hpp"
#include "test_util.hpp"

#include <tuple>

namespace {

using kt::ConvShape;
using kt::Layout;
using kt::Tensor;
using miopen::cpu::ConvParams;
using miopen::cpu::DataType;

const DataType kAllTypes[] = {DataType::Float, DataType::Half, DataType::BFloat16};

ConvParams params(const ConvShape& s)
{
    ConvParams p{};
    p.spatial_dims = s.sd;
    for(int i = 0; i < 3; ++i)
    {
        p.pads[i]      = s.pad[i];
        p.strides[i]   = s.str[i];
        p.dilations[i] = s.dil[i];
    }
    p.group_count = static_cast<int>(s.G);
    return p;
}

Tensor make(DataType t, std::vector<std::int64_t> lens, const std::vector<double>& v,
            Layout l = Layout::Packed)
{
    Tensor x(t, std::move(lens), l);
    x.fill(0.0);
    x.set_values(v);
    return x;
}

ConvShape shape2d(std::int64_t in, std::int64_t f, std::int64_t pad, std::int64_t str,
                  std::int64_t dil)
{
    ConvShape s;
    s.sd = 2;
    for(int i = 0; i < 2; ++i)
    {
        s.in[i]  = in;
        s.f[i]   = f;
        s.pad[i] = pad;
        s.str[i] = str;
        s.dil[i] = dil;
    }
    return s;
}

const std::vector<double> k1to9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<double> k1234 = {1, 2, 3, 4};

// ---------------------------------------------------------------------------
// Hand-worked cases (integers: exact in every storage type)
// ---------------------------------------------------------------------------

// x = [[1,2,3],[4,5,6],[7,8,9]], w = [[1,2],[3,4]], pad 0, stride 1:
// y00 = 1*1+2*2+4*3+5*4 = 37, y01 = 2+6+15+24 = 47, y10 = 4+10+21+32 = 67, y11 = 5+12+24+36 = 77
TEST(ConvHand, Forward3x3Kernel2x2)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 0, 1, 1);
        Tensor x = make(t, s.x_lens(), k1to9), w = make(t, s.w_lens(), k1234);
        Tensor y(t, s.y_lens());
        y.fill_nan();
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{37, 47, 67, 77})) << kt::type_name(t);
    }
}

// Same problem, alpha = 2, beta = 0.5 over y = [10, 20, 30, 40]:
// [2*37+5, 2*47+10, 2*67+15, 2*77+20] = [79, 104, 149, 174]
TEST(ConvHand, ForwardAlphaBeta)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 0, 1, 1);
        Tensor x = make(t, s.x_lens(), k1to9), w = make(t, s.w_lens(), k1234);
        Tensor y = make(t, s.y_lens(), {10, 20, 30, 40});
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 2.0f, 0.5f);
        EXPECT_EQ(y.values(), (std::vector<double>{79, 104, 149, 174})) << kt::type_name(t);
    }
}

// dy = ones(2x2): every dx element is the sum of the taps that touch it:
// [[1, 1+2, 2], [1+3, 1+2+3+4, 2+4], [3, 3+4, 4]]
TEST(ConvHand, BackwardData3x3Kernel2x2)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 0, 1, 1);
        Tensor dy = make(t, s.y_lens(), {1, 1, 1, 1}), w = make(t, s.w_lens(), k1234);
        Tensor dx(t, s.x_lens());
        dx.fill_nan();
        miopen::cpu::conv_backward_data(params(s), dy.view(), w.view(), dx.view(), 1.0f, 0.0f);
        EXPECT_EQ(dx.values(), (std::vector<double>{1, 3, 2, 4, 10, 6, 3, 7, 4}))
            << kt::type_name(t);
    }
}

// dy = ones(2x2): dw[i][j] = sum of the 2x2 window of x starting at (i, j):
// [[1+2+4+5, 2+3+5+6], [4+5+7+8, 5+6+8+9]] = [[12, 16], [24, 28]]
TEST(ConvHand, BackwardWeights3x3Kernel2x2)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 0, 1, 1);
        Tensor dy = make(t, s.y_lens(), {1, 1, 1, 1}), x = make(t, s.x_lens(), k1to9);
        Tensor dw(t, s.w_lens());
        dw.fill_nan();
        miopen::cpu::conv_backward_weights(params(s), dy.view(), x.view(), dw.view(), 1.0f, 0.0f);
        EXPECT_EQ(dw.values(), (std::vector<double>{12, 16, 24, 28})) << kt::type_name(t);
    }
}

// pad 1, stride 2: output 2x2, windows start at input rows/cols -1 and 1.
// y00 = x00*w11 = 4; y01 = x01*w10 + x02*w11 = 6+12 = 18; y10 = x10*w01 + x20*w11 = 8+28 = 36;
// y11 = x11*w00 + x12*w01 + x21*w10 + x22*w11 = 5+12+24+36 = 77
TEST(ConvHand, ForwardPad1Stride2)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 1, 2, 1);
        ASSERT_EQ(s.out(0), 2);
        Tensor x = make(t, s.x_lens(), k1to9), w = make(t, s.w_lens(), k1234);
        Tensor y(t, s.y_lens());
        y.fill_nan();
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{4, 18, 36, 77})) << kt::type_name(t);
    }
}

// pad 1, stride 2, dy = [1, 10, 100, 1000] (y00, y01, y10, y11): each x receives the taps
// of the windows that cover it, e.g. x00 <- y00*w11 = 4, x11 <- y11*w00 = 1000,
// x12 <- y11*w01 = 2000, x21 <- y11*w10 = 3000, x22 <- y11*w11 = 4000,
// x01 <- y01*w10 = 30, x02 <- y01*w11 = 40, x10 <- y10*w01 = 200, x20 <- y10*w11 = 400.
TEST(ConvHand, BackwardDataPad1Stride2)
{
    for(DataType t : {DataType::Float, DataType::Half})
    {
        const ConvShape s = shape2d(3, 2, 1, 2, 1);
        Tensor dy = make(t, s.y_lens(), {1, 10, 100, 1000}), w = make(t, s.w_lens(), k1234);
        Tensor dx(t, s.x_lens());
        dx.fill_nan();
        miopen::cpu::conv_backward_data(params(s), dy.view(), w.view(), dx.view(), 1.0f, 0.0f);
        EXPECT_EQ(dx.values(),
                  (std::vector<double>{4, 30, 40, 200, 1000, 2000, 400, 3000, 4000}))
            << kt::type_name(t);
    }
}

// Same geometry, dy = ones: dw[i][j] = sum over the 4 windows of the tap (i, j):
// w00 touches x(-1,-1), x(-1,1), x(1,-1), x(1,1) -> 5; w01: x(-1,0), x(-1,2), x(1,0), x(1,2) -> 4+6;
// w10: x(0,-1), x(0,1), x(2,-1), x(2,1) -> 2+8; w11: x00, x02, x20, x22 -> 1+3+7+9
TEST(ConvHand, BackwardWeightsPad1Stride2)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 1, 2, 1);
        Tensor dy = make(t, s.y_lens(), {1, 1, 1, 1}), x = make(t, s.x_lens(), k1to9);
        Tensor dw(t, s.w_lens());
        dw.fill_nan();
        miopen::cpu::conv_backward_weights(params(s), dy.view(), x.view(), dw.view(), 1.0f, 0.0f);
        EXPECT_EQ(dw.values(), (std::vector<double>{5, 10, 10, 20})) << kt::type_name(t);
    }
}

// Dilation 2: the 2x2 kernel samples the corners of the 3x3 input:
// 1*1 + 3*2 + 7*3 + 9*4 = 64
TEST(ConvHand, ForwardDilated)
{
    for(DataType t : kAllTypes)
    {
        const ConvShape s = shape2d(3, 2, 0, 1, 2);
        ASSERT_EQ(s.out(0), 1);
        Tensor x = make(t, s.x_lens(), k1to9), w = make(t, s.w_lens(), k1234);
        Tensor y(t, s.y_lens());
        y.fill_nan();
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{64})) << kt::type_name(t);
        // backward data with dy = 1 scatters the taps to the corners
        Tensor dy = make(t, s.y_lens(), {1});
        Tensor dx(t, s.x_lens());
        dx.fill_nan();
        miopen::cpu::conv_backward_data(params(s), dy.view(), w.view(), dx.view(), 1.0f, 0.0f);
        EXPECT_EQ(dx.values(), (std::vector<double>{1, 0, 2, 0, 0, 0, 3, 0, 4}));
    }
}

// Two groups, 2x2 input per channel, 2x2 kernels, output 1x1:
// channel 0 = [1,2,3,4] with w0 = [[1,0],[0,1]] -> 1+4 = 5 (group 0 only sees channel 0)
// channel 1 = [5,6,7,8] with w1 = [[0,1],[1,0]] -> 6+7 = 13 (group 1 only sees channel 1)
TEST(ConvHand, ForwardGrouped)
{
    for(DataType t : kAllTypes)
    {
        ConvShape s = shape2d(2, 2, 0, 1, 1);
        s.C = 2;
        s.K = 2;
        s.G = 2;
        Tensor x = make(t, s.x_lens(), {1, 2, 3, 4, 5, 6, 7, 8});
        Tensor w = make(t, s.w_lens(), {1, 0, 0, 1, 0, 1, 1, 0});
        Tensor y(t, s.y_lens());
        y.fill_nan();
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{5, 13})) << kt::type_name(t);
        // backward weights, dy = [1, 2]: dw(group 0) = x ch0, dw(group 1) = 2 * x ch1
        Tensor dy = make(t, s.y_lens(), {1, 2});
        Tensor dw(t, s.w_lens());
        dw.fill_nan();
        miopen::cpu::conv_backward_weights(params(s), dy.view(), x.view(), dw.view(), 1.0f, 0.0f);
        EXPECT_EQ(dw.values(), (std::vector<double>{1, 2, 3, 4, 10, 12, 14, 16}));
        // backward data, dy = [1, 2]: dx ch0 = w0, dx ch1 = 2 * w1
        Tensor dx(t, s.x_lens());
        dx.fill_nan();
        miopen::cpu::conv_backward_data(params(s), dy.view(), w.view(), dx.view(), 1.0f, 0.0f);
        EXPECT_EQ(dx.values(), (std::vector<double>{1, 0, 0, 1, 0, 2, 2, 0}));
    }
}

// 3-D: x = 1..8 in a 2x2x2 cube, w = 1..8, output 1x1x1 = sum i^2 = 204; NDHWC layout.
TEST(ConvHand, Forward3D)
{
    for(DataType t : {DataType::Float, DataType::Half})
    {
        ConvShape s;
        s.sd = 3;
        for(int i = 0; i < 3; ++i)
        {
            s.in[i] = 2;
            s.f[i]  = 2;
        }
        const std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8};
        Tensor x = make(t, s.x_lens(), v, Layout::ChannelsLast);
        Tensor w = make(t, s.w_lens(), v, Layout::ChannelsLast);
        Tensor y(t, s.y_lens(), Layout::ChannelsLast);
        y.fill_nan();
        miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{204})) << kt::type_name(t);
    }
}

// The same numbers through NHWC and padded-stride layouts (and a mix of them).
TEST(ConvHand, ForwardLayoutsAgree)
{
    const ConvShape s = shape2d(3, 2, 1, 2, 1);
    for(Layout lx : {Layout::Packed, Layout::ChannelsLast, Layout::Padded})
        for(Layout ly : {Layout::Packed, Layout::ChannelsLast, Layout::Padded})
        {
            Tensor x = make(DataType::Float, s.x_lens(), k1to9, lx);
            Tensor w = make(DataType::Float, s.w_lens(), k1234, ly);
            Tensor y(DataType::Float, s.y_lens(), ly);
            y.fill_nan();
            miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
            EXPECT_EQ(y.values(), (std::vector<double>{4, 18, 36, 77}));
        }
}

// ---------------------------------------------------------------------------
// Randomised checks against the im2col references
// ---------------------------------------------------------------------------

ConvShape random_shape(std::mt19937& rng, int sd)
{
    auto pick = [&](int lo, int hi) {
        return static_cast<std::int64_t>(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    for(;;)
    {
        ConvShape s;
        s.sd = sd;
        s.G  = std::vector<std::int64_t>{1, 1, 2, 3}[pick(0, 3)];
        s.C  = s.G * pick(1, 4);
        s.K  = s.G * pick(1, 3);
        s.N  = pick(1, 2);
        bool ok = true;
        for(int d = 0; d < sd; ++d)
        {
            s.in[d]  = sd == 2 ? pick(1, 9) : pick(1, 5);
            s.f[d]   = pick(1, 3);
            s.pad[d] = pick(0, 2);
            s.str[d] = pick(1, 2);
            s.dil[d] = pick(1, 2);
            if(s.in[d] + 2 * s.pad[d] - s.dil[d] * (s.f[d] - 1) - 1 < 0)
                ok = false;
        }
        if(ok)
            return s;
    }
}

std::string describe(const ConvShape& s)
{
    std::string r = "N" + std::to_string(s.N) + " C" + std::to_string(s.C) + " K" +
                    std::to_string(s.K) + " G" + std::to_string(s.G);
    for(int d = 0; d < s.sd; ++d)
        r += " [in" + std::to_string(s.in[d]) + " f" + std::to_string(s.f[d]) + " p" +
             std::to_string(s.pad[d]) + " s" + std::to_string(s.str[d]) + " d" +
             std::to_string(s.dil[d]) + "]";
    return r;
}

struct AlphaBeta
{
    float alpha, beta;
    bool nan_prefill; // output filled with NaN: beta must be 0 and the output never read
};
const AlphaBeta kAlphaBetas[] = {{1.0f, 0.0f, true}, {0.5f, -0.75f, false}, {-1.25f, 1.0f, false},
                                 {2.0f, 0.0f, true}};

enum class Dir
{
    Fwd,
    BwdData,
    BwdWeights
};

// Runs one kernel on random data; checks against the reference within a rounding bound:
//   |got - want| <= u_storage*|want| + (L + 4) * 2^-24 * (|alpha| * sum|products| + |beta*old|)
// (storage rounding of the result plus fp32 accumulation of L terms and the blend).
void check_random(Dir dir, DataType t, Layout layout, const ConvShape& s, const AlphaBeta& ab,
                  std::mt19937& rng)
{
    SCOPED_TRACE(describe(s) + " alpha " + std::to_string(ab.alpha) + " beta " +
                 std::to_string(ab.beta));
    Tensor x(t, s.x_lens(), layout), w(t, s.w_lens(), layout), y(t, s.y_lens(), layout);
    Tensor* out = dir == Dir::Fwd ? &y : dir == Dir::BwdData ? &x : &w;
    if(dir != Dir::BwdData)
        x.fill_random(rng);
    if(dir != Dir::BwdWeights)
        w.fill_random(rng);
    if(dir != Dir::Fwd)
        y.fill_random(rng);
    if(ab.nan_prefill)
        out->fill_nan();
    else
        out->fill_random(rng);
    const std::vector<double> old  = out->values();
    const auto gaps                = out->gap_bytes();
    const auto p                   = params(s);
    kt::RefResult ref;
    std::int64_t L = 0;
    switch(dir)
    {
    case Dir::Fwd:
        ref = kt::ref_forward(s, x.values(), w.values());
        L   = s.Cg() * s.f_total();
        miopen::cpu::conv_forward(p, x.view(), w.view(), y.view(), ab.alpha, ab.beta);
        break;
    case Dir::BwdData:
        ref = kt::ref_backward_data(s, y.values(), w.values());
        L   = s.Kg() * s.f_total();
        miopen::cpu::conv_backward_data(p, y.view(), w.view(), x.view(), ab.alpha, ab.beta);
        break;
    case Dir::BwdWeights:
        ref = kt::ref_backward_weights(s, y.values(), x.values());
        L   = s.N * s.out_total();
        miopen::cpu::conv_backward_weights(p, y.view(), x.view(), w.view(), ab.alpha, ab.beta);
        break;
    }
    const std::vector<double> got = out->values();
    std::vector<double> want(got.size()), bound(got.size());
    const double u32 = std::ldexp(1.0, -24);
    for(std::size_t i = 0; i < got.size(); ++i)
    {
        const double prev = ab.beta != 0.0f ? ab.beta * old[i] : 0.0;
        want[i]           = ab.alpha * ref.value[i] + prev;
        bound[i] = kt::rounding_bound(t, want[i]) +
                   (L + 4) * u32 * (std::fabs(ab.alpha) * ref.absval[i] + std::fabs(prev)) + 1e-30;
    }
    EXPECT_TRUE(kt::all_close(got, want, bound));
    EXPECT_EQ(out->gap_bytes(), gaps) << "kernel wrote into the layout gaps";

    // Adjoint identity for backward data: <conv(x', w), dy> == <x', conv_bwd_data(dy, w)>.
    if(dir == Dir::BwdData && ab.alpha == 1.0f && ab.beta == 0.0f)
    {
        std::vector<double> xp(x.count());
        std::uniform_real_distribution<double> d(-1.0, 1.0);
        for(auto& v : xp)
            v = d(rng);
        const auto fx   = kt::ref_forward(s, xp, w.values());
        const auto dyv  = y.values();
        double lhs      = 0.0, rhs = 0.0, tol = 0.0;
        for(std::size_t i = 0; i < dyv.size(); ++i)
            lhs += fx.value[i] * dyv[i];
        for(std::size_t i = 0; i < xp.size(); ++i)
        {
            rhs += xp[i] * got[i];
            tol += std::fabs(xp[i]) * bound[i];
        }
        EXPECT_NEAR(lhs, rhs, tol + 1e-12) << "adjoint identity";
    }
}

using ConvParam = std::tuple<DataType, Layout, int>;

class ConvRandom : public ::testing::TestWithParam<ConvParam>
{
    protected:
    void run(Dir dir)
    {
        const DataType t  = std::get<0>(GetParam());
        const Layout l    = std::get<1>(GetParam());
        const int sd      = std::get<2>(GetParam());
        std::mt19937 rng(1000 + 100 * static_cast<int>(t) + 10 * static_cast<int>(l) + sd +
                         1000 * static_cast<int>(dir));
        for(int rep = 0; rep < 5; ++rep)
        {
            const ConvShape s = random_shape(rng, sd);
            for(const auto& ab : kAlphaBetas)
                check_random(dir, t, l, s, ab, rng);
        }
    }
};

TEST_P(ConvRandom, Forward) { run(Dir::Fwd); }
TEST_P(ConvRandom, BackwardData) { run(Dir::BwdData); }
TEST_P(ConvRandom, BackwardWeights) { run(Dir::BwdWeights); }

INSTANTIATE_TEST_SUITE_P(
    AllTypesLayouts, ConvRandom,
    ::testing::Combine(::testing::Values(DataType::Float, DataType::Half, DataType::BFloat16),
                       ::testing::Values(Layout::Packed, Layout::ChannelsLast, Layout::Padded),
                       ::testing::Values(2, 3)),
    [](const ::testing::TestParamInfo<ConvParam>& info) {
        return std::string(kt::type_name(std::get<0>(info.param))) + "_" +
               kt::layout_name(std::get<1>(info.param)) + "_" +
               std::to_string(std::get<2>(info.param)) + "d";
    });

// Tensors of one problem in different layouts (x NHWC, w padded, y NCHW, and rotations).
TEST(ConvMixedLayouts, AllDirections)
{
    std::mt19937 rng(4242);
    const Layout ls[] = {Layout::Packed, Layout::ChannelsLast, Layout::Padded};
    for(int sd : {2, 3})
        for(int r = 0; r < 3; ++r)
        {
            const ConvShape s = random_shape(rng, sd);
            Tensor x(DataType::Float, s.x_lens(), ls[(r + 1) % 3]);
            Tensor w(DataType::Float, s.w_lens(), ls[(r + 2) % 3]);
            Tensor y(DataType::Float, s.y_lens(), ls[r]);
            x.fill_random(rng);
            w.fill_random(rng);
            y.fill_nan();
            miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
            const auto ref = kt::ref_forward(s, x.values(), w.values());
            const auto got = y.values();
            for(std::size_t i = 0; i < got.size(); ++i)
                EXPECT_NEAR(got[i], ref.value[i], 1e-5 * (1 + ref.absval[i])) << describe(s);
            y.fill_random(rng);
            x.fill_nan();
            miopen::cpu::conv_backward_data(params(s), y.view(), w.view(), x.view(), 1.0f, 0.0f);
            const auto refd = kt::ref_backward_data(s, y.values(), w.values());
            const auto gotd = x.values();
            for(std::size_t i = 0; i < gotd.size(); ++i)
                EXPECT_NEAR(gotd[i], refd.value[i], 1e-5 * (1 + refd.absval[i])) << describe(s);
            x.fill_random(rng);
            w.fill_nan();
            miopen::cpu::conv_backward_weights(params(s), y.view(), x.view(), w.view(), 1.0f,
                                               0.0f);
            const auto refw = kt::ref_backward_weights(s, y.values(), x.values());
            const auto gotw = w.values();
            for(std::size_t i = 0; i < gotw.size(); ++i)
                EXPECT_NEAR(gotw[i], refw.value[i], 1e-5 * (1 + refw.absval[i])) << describe(s);
        }
}

// The comparison is sharp enough to notice a misplaced output: the kernel's result must
// NOT match the reference shifted by one element (guards against a vacuous tolerance).
TEST(ConvRandomSensitivity, ShiftedResultIsDetected)
{
    std::mt19937 rng(99);
    ConvShape s = shape2d(5, 3, 1, 1, 1);
    s.C         = 2;
    s.K         = 2;
    Tensor x(DataType::Half, s.x_lens()), w(DataType::Half, s.w_lens());
    Tensor y(DataType::Half, s.y_lens());
    x.fill_random(rng);
    w.fill_random(rng);
    y.fill_nan();
    miopen::cpu::conv_forward(params(s), x.view(), w.view(), y.view(), 1.0f, 0.0f);
    const auto ref  = kt::ref_forward(s, x.values(), w.values());
    const auto got  = y.values();
    std::vector<double> want(got.size()), bound(got.size());
    for(std::size_t i = 0; i < got.size(); ++i)
        bound[i] = kt::unit_roundoff(DataType::Half) * std::fabs(ref.value[i]) + 1e-6;
    EXPECT_TRUE(kt::all_close(got, ref.value, bound));
    // shift the correct reference by one output column: must fail
    for(std::size_t i = 0; i < got.size(); ++i)
        want[i] = ref.value[(i + 1) % got.size()];
    EXPECT_FALSE(kt::all_close(got, want, bound));
}

} // namespace

namespace {

// Longer reductions (fp32 accumulation of hundreds of terms) in every storage type.
TEST(ConvLongReduction, AllDirections)
{
    std::mt19937 rng(777);
    ConvShape s = shape2d(12, 3, 1, 1, 1);
    s.N         = 2;
    s.C         = 16;
    s.K         = 4;
    for(DataType t : kAllTypes)
        for(Dir dir : {Dir::Fwd, Dir::BwdData, Dir::BwdWeights})
            for(const auto& ab : kAlphaBetas)
                check_random(dir, t, Layout::ChannelsLast, s, ab, rng);
}

// Inconsistent descriptors are rejected instead of read out of bounds.
TEST(ConvShapes, MismatchesThrow)
{
    const ConvShape s = shape2d(3, 2, 0, 1, 1);
    Tensor x(DataType::Float, s.x_lens()), w(DataType::Float, s.w_lens());
    Tensor y_bad(DataType::Float, {1, 1, 3, 3}); // should be 2x2
    x.fill(1.0);
    w.fill(1.0);
    y_bad.fill(0.0);
    EXPECT_THROW(miopen::cpu::conv_forward(params(s), x.view(), w.view(), y_bad.view(), 1, 0),
                 std::invalid_argument);
    EXPECT_EQ(y_bad.values(), std::vector<double>(9, 0.0)); // untouched
    ConvShape g = s;
    g.G         = 2; // C = 1 not divisible by 2
    Tensor y(DataType::Float, s.y_lens());
    EXPECT_THROW(miopen::cpu::conv_forward(params(g), x.view(), w.view(), y.view(), 1, 0),
                 std::invalid_argument);
    ConvShape three = s;
    three.sd        = 3; // 4-D tensors with a 3-D convolution
    EXPECT_THROW(miopen::cpu::conv_backward_data(params(three), y.view(), w.view(), x.view(), 1, 0),
                 std::invalid_argument);
}

} // namespace
