// Activation and bias kernel tests: hand-worked values per mode, then every dtype x layout
// against an independent double formula (forward) and central finite differences (backward).
#include "test_util.hpp"

#include <tuple>

namespace {

using kt::Layout;
using kt::Tensor;
using miopen::cpu::ActivationMode;
using miopen::cpu::ActivationParams;
using miopen::cpu::DataType;

const DataType kAllTypes[] = {DataType::Float, DataType::Half, DataType::BFloat16};

const char* mode_name(ActivationMode m)
{
    switch(m)
    {
    case ActivationMode::PassThru: return "PassThru";
    case ActivationMode::Logistic: return "Logistic";
    case ActivationMode::Tanh: return "Tanh";
    case ActivationMode::Relu: return "Relu";
    case ActivationMode::SoftRelu: return "SoftRelu";
    case ActivationMode::Abs: return "Abs";
    case ActivationMode::Power: return "Power";
    case ActivationMode::ClippedRelu: return "ClippedRelu";
    case ActivationMode::LeakyRelu: return "LeakyRelu";
    case ActivationMode::Elu: return "Elu";
    case ActivationMode::Clamp: return "Clamp";
    }
    return "?";
}

// One 1-element forward / backward evaluation through the tensor kernels (fp32).
float fwd1(const ActivationParams& a, float x)
{
    Tensor tx(DataType::Float, {1, 1, 1, 1}), ty(DataType::Float, {1, 1, 1, 1});
    tx.fill(x);
    ty.fill_nan();
    miopen::cpu::activation_forward(a, tx.view(), ty.view(), 1.0f, 0.0f);
    return ty.at_linear(0);
}
float bwd1(const ActivationParams& a, float x, float dy)
{
    Tensor tx(DataType::Float, {1, 1, 1, 1}), ty(DataType::Float, {1, 1, 1, 1});
    Tensor tdy(DataType::Float, {1, 1, 1, 1}), tdx(DataType::Float, {1, 1, 1, 1});
    tx.fill(x);
    ty.fill(fwd1(a, x));
    tdy.fill(dy);
    tdx.fill_nan();
    miopen::cpu::activation_backward(a, ty.view(), tdy.view(), tx.view(), tdx.view(), 1.0f, 0.0f);
    return tdx.at_linear(0);
}

struct HandCase
{
    ActivationParams a;
    double x;
    double y;  // act(x), worked out by hand
    double dydx; // act'(x) (backward returns dy * act'(x); tested with dy = -2)
};

// ln 2, ln 3 give exact rational exponentials: e^(ln 3) = 3, tanh(ln 2) = 0.6.
const double ln2 = std::log(2.0), ln3 = std::log(3.0);
const HandCase kHand[] = {
    {{ActivationMode::PassThru, 0, 0, 0}, -1.5, -1.5, 1},
    {{ActivationMode::Logistic, 0, 0, 0}, 0.0, 0.5, 0.25},
    {{ActivationMode::Logistic, 0, 0, 0}, ln3, 0.75, 0.1875},           // 1/(1+1/3); y(1-y)
    {{ActivationMode::Tanh, 2, 3, 0}, ln2 / 2, 1.8, 3.84},                // 3*0.6; 2*(3-1.8^2/3)
    {{ActivationMode::Tanh, 2, 3, 0}, 0.0, 0.0, 6.0},                     // alpha*beta
    {{ActivationMode::Relu, 0, 0, 0}, -2.0, 0.0, 0.0},
    {{ActivationMode::Relu, 0, 0, 0}, 3.0, 3.0, 1.0},
    {{ActivationMode::SoftRelu, 0, 0, 0}, 0.0, ln2, 0.5},                 // log 2; 1/2
    {{ActivationMode::SoftRelu, 0, 0, 0}, ln3, std::log(4.0), 0.75},      // log(1+3); 3/4
    {{ActivationMode::SoftRelu, 0, 0, 0}, -ln3, std::log(4.0 / 3.0), 0.25},
    {{ActivationMode::SoftRelu, 0, 0, 0}, 60.0, 60.0, 1.0},               // no overflow
    {{ActivationMode::Abs, 0, 0, 0}, -2.5, 2.5, -1.0},
    {{ActivationMode::Abs, 0, 0, 0}, 2.5, 2.5, 1.0},
    {{ActivationMode::Abs, 0, 0, 0}, 0.0, 0.0, -1.0},                     // MIOpen: x > 0 ? 1 : -1
    {{ActivationMode::Power, 1, 2, 3}, 0.5, 8.0, 24.0},                   // (1+1)^3; 3*2*2^2
    {{ActivationMode::Power, 0, 1, 0.5}, 4.0, 2.0, 0.25},                 // sqrt(4); 1/(2*2)
    {{ActivationMode::Power, 1, 2, 3}, -1.0, 0.0, 0.0},                   // base -1 <= eps -> 0
    {{ActivationMode::ClippedRelu, 6, 0, 0}, -1.0, 0.0, 0.0},
    {{ActivationMode::ClippedRelu, 6, 0, 0}, 3.0, 3.0, 1.0},
    {{ActivationMode::ClippedRelu, 6, 0, 0}, 6.0, 6.0, 1.0},              // x <= alpha passes
    {{ActivationMode::ClippedRelu, 6, 0, 0}, 7.0, 6.0, 0.0},
    {{ActivationMode::LeakyRelu, 0.125, 0, 0}, -2.0, -0.25, 0.125},
    {{ActivationMode::LeakyRelu, 0.125, 0, 0}, 2.0, 2.0, 1.0},
    {{ActivationMode::Elu, 0.5, 0, 0}, -ln2, -0.25, 0.25},                // 0.5*(1/2-1); y+alpha
    {{ActivationMode::Elu, 0.5, 0, 0}, 1.0, 1.0, 1.0},
    {{ActivationMode::Clamp, -1, 2, 0}, -3.0, -1.0, 0.0},
    {{ActivationMode::Clamp, -1, 2, 0}, 0.5, 0.5, 1.0},
    {{ActivationMode::Clamp, -1, 2, 0}, 5.0, 2.0, 0.0},
    {{ActivationMode::Clamp, -1, 2, 0}, 2.0, 2.0, 1.0},                   // bounds pass dy
    {{ActivationMode::Clamp, -1, 2, 0}, -1.0, -1.0, 1.0},
};

TEST(ActivationHand, ForwardValues)
{
    for(const auto& h : kHand)
    {
        SCOPED_TRACE(std::string(mode_name(h.a.mode)) + " x=" + std::to_string(h.x));
        const float x = static_cast<float>(h.x);
        EXPECT_NEAR(fwd1(h.a, x), h.y, 2e-6 * (1 + std::fabs(h.y)));
        EXPECT_NEAR(miopen::cpu::activation_apply(h.a, x), h.y, 2e-6 * (1 + std::fabs(h.y)));
    }
}

TEST(ActivationHand, BackwardValues)
{
    for(const auto& h : kHand)
    {
        SCOPED_TRACE(std::string(mode_name(h.a.mode)) + " x=" + std::to_string(h.x));
        EXPECT_NEAR(bwd1(h.a, static_cast<float>(h.x), -2.0f), -2.0 * h.dydx,
                    4e-6 * (1 + std::fabs(h.dydx)));
    }
}

// Every mode is covered by the hand table.
TEST(ActivationHand, TableCoversEveryMode)
{
    for(int m = 0; m <= static_cast<int>(ActivationMode::Clamp); ++m)
    {
        bool seen = false;
        for(const auto& h : kHand)
            seen = seen || static_cast<int>(h.a.mode) == m;
        EXPECT_TRUE(seen) << m;
    }
}

TEST(ActivationHand, AlphaBetaAndNaNOutput)
{
    const ActivationParams relu{ActivationMode::Relu, 0, 0, 0};
    for(DataType t : kAllTypes)
    {
        Tensor x(t, {1, 1, 1, 4}), y(t, {1, 1, 1, 4});
        x.set_values({-1, 2, 3, -4});
        y.fill_nan();
        miopen::cpu::activation_forward(relu, x.view(), y.view(), 2.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{0, 4, 6, 0})) << kt::type_name(t);
        // y = 0.5 * relu(x) + (-1) * y_old = [0, 1, 1.5, 0] - [0, 4, 6, 0]
        miopen::cpu::activation_forward(relu, x.view(), y.view(), 0.5f, -1.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{0, -3, -4.5, 0})) << kt::type_name(t);
        // dx = 1 * dy * relu'(x) + 0.5 * dx_old, with dy = [1, 1, 1, 1], dx_old = [2, 2, 2, 2]
        Tensor dy(t, {1, 1, 1, 4}), dx(t, {1, 1, 1, 4});
        dy.fill(1.0);
        dx.fill(2.0);
        miopen::cpu::activation_backward(relu, y.view(), dy.view(), x.view(), dx.view(), 1.0f,
                                         0.5f);
        EXPECT_EQ(dx.values(), (std::vector<double>{1, 2, 2, 1})) << kt::type_name(t);
        dx.fill_nan();
        miopen::cpu::activation_backward(relu, y.view(), dy.view(), x.view(), dx.view(), 3.0f,
                                         0.0f);
        EXPECT_EQ(dx.values(), (std::vector<double>{0, 3, 3, 0})) << kt::type_name(t);
    }
}

// ---------------------------------------------------------------------------
// Randomised: independent double formulas, finite differences for the gradient.
// ---------------------------------------------------------------------------

double ref_act(const ActivationParams& a, double x)
{
    using M = ActivationMode;
    switch(a.mode)
    {
    case M::PassThru: return x;
    case M::Logistic: return std::exp(x) / (std::exp(x) + 1.0);
    case M::Tanh:
    {
        const double e = std::exp(2.0 * a.alpha * x);
        return a.beta * (e - 1.0) / (e + 1.0);
    }
    case M::Relu: return std::max(x, 0.0);
    case M::SoftRelu: return std::log(1.0 + std::exp(x));
    case M::Abs: return x < 0 ? -x : x;
    case M::Power:
    {
        const double b = a.alpha + a.beta * x;
        return b <= 1e-6 ? 0.0 : std::exp(a.gamma * std::log(b));
    }
    case M::ClippedRelu: return x <= 0 ? 0.0 : (x >= a.alpha ? a.alpha : x);
    case M::LeakyRelu: return x > 0 ? x : x * a.alpha;
    case M::Elu: return x > 0 ? x : a.alpha * (std::exp(x) - 1.0);
    case M::Clamp: return x < a.alpha ? a.alpha : (x > a.beta ? a.beta : x);
    }
    return 0;
}

// Points where the derivative jumps (finite differences are meaningless there).
bool near_kink(const ActivationParams& a, double x)
{
    using M = ActivationMode;
    auto near = [&](double k) { return std::fabs(x - k) < 1e-2; };
    switch(a.mode)
    {
    case M::Relu:
    case M::Abs:
    case M::LeakyRelu:
    case M::Elu: return near(0.0);
    case M::ClippedRelu: return near(0.0) || near(a.alpha);
    case M::Clamp: return near(a.alpha) || near(a.beta);
    case M::Power: return a.alpha + a.beta * x < 1e-2;
    default: return false;
    }
}

const ActivationParams kRandomModes[] = {
    {ActivationMode::PassThru, 0, 0, 0},     {ActivationMode::Logistic, 0, 0, 0},
    {ActivationMode::Tanh, 0.7, 1.5, 0},     {ActivationMode::Relu, 0, 0, 0},
    {ActivationMode::SoftRelu, 0, 0, 0},     {ActivationMode::Abs, 0, 0, 0},
    {ActivationMode::Power, 1.5, 0.5, 2.5},  {ActivationMode::ClippedRelu, 0.6, 0, 0},
    {ActivationMode::LeakyRelu, 0.3, 0, 0},  {ActivationMode::Elu, 0.8, 0, 0},
    {ActivationMode::Clamp, -0.4, 0.7, 0},
};

using ActParam = std::tuple<DataType, Layout>;
class ActivationRandom : public ::testing::TestWithParam<ActParam>
{
};

std::vector<std::int64_t> random_lens(std::mt19937& rng, int nd)
{
    std::vector<std::int64_t> l(nd);
    for(int i = 0; i < nd; ++i)
        l[i] = std::uniform_int_distribution<int>(1, i < 2 ? 3 : 4)(rng);
    return l;
}

TEST_P(ActivationRandom, ForwardMatchesFormula)
{
    const DataType t = std::get<0>(GetParam());
    const Layout lx  = std::get<1>(GetParam());
    const Layout ly  = static_cast<Layout>((static_cast<int>(lx) + 1) % 3); // mixed layouts
    std::mt19937 rng(300 + 10 * static_cast<int>(t) + static_cast<int>(lx));
    for(const auto& a : kRandomModes)
        for(int nd : {4, 5})
            for(const auto& ab : {std::pair<float, float>{1.0f, 0.0f}, {-0.5f, 0.25f}})
            {
                SCOPED_TRACE(std::string(mode_name(a.mode)) + " nd " + std::to_string(nd) +
                             " alpha " + std::to_string(ab.first));
                const auto lens = random_lens(rng, nd);
                Tensor x(t, lens, lx), y(t, lens, ly);
                x.fill_random(rng, -2.0, 2.0);
                if(ab.second == 0.0f)
                    y.fill_nan();
                else
                    y.fill_random(rng);
                const auto old  = y.values();
                const auto gaps = y.gap_bytes();
                miopen::cpu::activation_forward(a, x.view(), y.view(), ab.first, ab.second);
                const auto xv = x.values(), got = y.values();
                std::vector<double> want(got.size()), bound(got.size());
                for(std::size_t i = 0; i < got.size(); ++i)
                {
                    const double f    = ab.first * ref_act(a, xv[i]);
                    const double prev = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                    want[i]           = f + prev;
                    bound[i] = kt::rounding_bound(t, want[i]) +
                               1e-6 * (std::fabs(f) + std::fabs(prev)) + 1e-7;
                }
                EXPECT_TRUE(kt::all_close(got, want, bound));
                EXPECT_EQ(y.gap_bytes(), gaps);
            }
}

TEST_P(ActivationRandom, BackwardMatchesFiniteDifferences)
{
    const DataType t = std::get<0>(GetParam());
    const Layout lx  = std::get<1>(GetParam());
    const Layout ldx = static_cast<Layout>((static_cast<int>(lx) + 2) % 3);
    std::mt19937 rng(700 + 10 * static_cast<int>(t) + static_cast<int>(lx));
    const double u = kt::unit_roundoff(t);
    for(const auto& a : kRandomModes)
        for(int nd : {4, 5})
            for(const auto& ab : {std::pair<float, float>{1.0f, 0.0f}, {2.0f, -1.0f}})
            {
                SCOPED_TRACE(std::string(mode_name(a.mode)) + " nd " + std::to_string(nd) +
                             " alpha " + std::to_string(ab.first));
                const auto lens = random_lens(rng, nd);
                Tensor x(t, lens, lx), y(t, lens, ldx), dy(t, lens, lx), dx(t, lens, ldx);
                x.fill_random(rng, -2.0, 2.0);
                // keep away from kinks so that the finite difference is meaningful
                for(std::int64_t i = 0; i < x.count(); ++i)
                    while(near_kink(a, x.at_linear(i)))
                        x.set_linear(i, std::uniform_real_distribution<double>(-2, 2)(rng));
                const auto xv = x.values();
                y.fill(0.0);
                for(std::int64_t i = 0; i < x.count(); ++i)
                    y.set_linear(i, ref_act(a, xv[i]));
                dy.fill_random(rng);
                if(ab.second == 0.0f)
                    dx.fill_nan();
                else
                    dx.fill_random(rng);
                const auto old  = dx.values();
                const auto gaps = dx.gap_bytes();
                miopen::cpu::activation_backward(a, y.view(), dy.view(), x.view(), dx.view(),
                                                 ab.first, ab.second);
                const auto dyv = dy.values(), got = dx.values();
                std::vector<double> want(got.size()), bound(got.size());
                for(std::size_t i = 0; i < got.size(); ++i)
                {
                    const double h = 1e-6;
                    const double d =
                        (ref_act(a, xv[i] + h) - ref_act(a, xv[i] - h)) / (2 * h);
                    const double g    = ab.first * dyv[i] * d;
                    const double prev = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                    want[i]           = g + prev;
                    // y is given in storage precision, so y-based derivatives carry ~u error
                    bound[i] = kt::rounding_bound(t, want[i]) +
                               4 * u * std::fabs(ab.first * dyv[i]) * (1 + std::fabs(d)) +
                               1e-6 * std::fabs(prev) + 1e-7;
                }
                EXPECT_TRUE(kt::all_close(got, want, bound));
                EXPECT_EQ(dx.gap_bytes(), gaps);
            }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypesLayouts, ActivationRandom,
    ::testing::Combine(::testing::Values(DataType::Float, DataType::Half, DataType::BFloat16),
                       ::testing::Values(Layout::Packed, Layout::ChannelsLast, Layout::Padded)),
    [](const ::testing::TestParamInfo<ActParam>& info) {
        return std::string(kt::type_name(std::get<0>(info.param))) + "_" +
               kt::layout_name(std::get<1>(info.param));
    });

// ---------------------------------------------------------------------------
// Bias
// ---------------------------------------------------------------------------

TEST(BiasHand, BroadcastsOverChannels)
{
    for(DataType t : kAllTypes)
    {
        Tensor y(t, {1, 2, 2, 2}, Layout::ChannelsLast), b(t, {1, 2, 1, 1});
        b.set_values({1, -2});
        y.fill_nan();
        miopen::cpu::bias_forward(b.view(), y.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{1, 1, 1, 1, -2, -2, -2, -2}));
        // y = 2*b + 0.5*y = [2+0.5, ..., -4-1, ...]
        miopen::cpu::bias_forward(b.view(), y.view(), 2.0f, 0.5f);
        EXPECT_EQ(y.values(), (std::vector<double>{2.5, 2.5, 2.5, 2.5, -5, -5, -5, -5}))
            << kt::type_name(t);
    }
}

class BiasRandom : public ::testing::TestWithParam<ActParam>
{
};

TEST_P(BiasRandom, MatchesBroadcast)
{
    const DataType t = std::get<0>(GetParam());
    const Layout l   = std::get<1>(GetParam());
    std::mt19937 rng(900 + 10 * static_cast<int>(t) + static_cast<int>(l));
    for(int nd : {4, 5})
        for(const auto& ab : {std::pair<float, float>{1.0f, 0.0f}, {0.75f, 1.0f}, {-2.0f, 0.5f}})
        {
            auto lens = random_lens(rng, nd);
            lens[1]   = 3;
            std::vector<std::int64_t> blens(nd, 1);
            blens[1] = lens[1];
            Tensor y(t, lens, l), b(t, blens, l);
            b.fill_random(rng);
            if(ab.second == 0.0f)
                y.fill_nan();
            else
                y.fill_random(rng);
            const auto old  = y.values();
            const auto gaps = y.gap_bytes();
            miopen::cpu::bias_forward(b.view(), y.view(), ab.first, ab.second);
            const auto got = y.values(), bv = b.values();
            std::vector<double> want(got.size()), bound(got.size());
            for(std::size_t i = 0; i < got.size(); ++i)
            {
                const std::int64_t c = y.unravel(static_cast<std::int64_t>(i))[1];
                const double prev    = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                want[i]              = ab.first * bv[c] + prev;
                bound[i] = kt::rounding_bound(t, want[i]) +
                           3e-7 * (std::fabs(ab.first * bv[c]) + std::fabs(prev)) + 1e-30;
            }
            EXPECT_TRUE(kt::all_close(got, want, bound));
            EXPECT_EQ(y.gap_bytes(), gaps);
        }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypesLayouts, BiasRandom,
    ::testing::Combine(::testing::Values(DataType::Float, DataType::Half, DataType::BFloat16),
                       ::testing::Values(Layout::Packed, Layout::ChannelsLast, Layout::Padded)),
    [](const ::testing::TestParamInfo<ActParam>& info) {
        return std::string(kt::type_name(std::get<0>(info.param))) + "_" +
               kt::layout_name(std::get<1>(info.param));
    });

} // namespace
