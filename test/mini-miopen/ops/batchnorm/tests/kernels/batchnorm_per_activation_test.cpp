// Per-activation batch normalisation kernel tests: a hand-worked case, then
// data type x parameter type x layout x (4-D, 5-D) against long-double
// references. Per-activation statistics are per (c, [d,] h, w) element over
// N (MIOpen's MIOpenBatchNormFwdTrainPerAct.cl / MIOpenBatchNormBwdPerAct.cl /
// MIOpenBatchNormFwdInferPerAct.cl @2d1fd997); the parameters are
// (1, C, [D,] H, W).
#include "batchnorm_test_util.hpp"

#include <tuple>

namespace {

using kt::Layout;
using kt::Tensor;
using miopen::cpu::BatchNormMode;
using miopen::cpu::DataType;

constexpr BatchNormMode kPerAct = BatchNormMode::PerActivation;

// The per-activation parameter shape of x: (1, C, [D,] H, W).
std::vector<std::int64_t> param_lens(const std::vector<std::int64_t>& x)
{
    auto l = x;
    l[0]   = 1;
    return l;
}

// The group (parameter element) of logical element i of x: i without its N.
std::int64_t group_of(const Tensor& x, std::int64_t i) { return i % (x.count() / x.lens()[0]); }

// x = two images of 1x1x2: [1, 10] and [3, 14]. Position 0: mean 2, biased
// var 1, unbiased 2; position 1: mean 12, var 4, unbiased 8 (epsilon 0).
TEST(BatchNormPerActivationHand, TrainingAndInference)
{
    Tensor x(DataType::Float, {2, 1, 1, 2}), y(DataType::Float, {2, 1, 1, 2});
    x.set_values({1, 10, 3, 14});
    y.fill_nan();
    Tensor scale(DataType::Float, {1, 1, 1, 2}), bias(DataType::Float, {1, 1, 1, 2});
    scale.set_values({2, 1});
    bias.set_values({0, 1});
    Tensor rmean(DataType::Float, {1, 1, 1, 2}), rvar(DataType::Float, {1, 1, 1, 2});
    rmean.set_values({0, 0});
    rvar.set_values({1, 1});
    Tensor smean(DataType::Float, {1, 1, 1, 2}), sinv(DataType::Float, {1, 1, 1, 2});
    smean.fill_nan();
    sinv.fill_nan();
    miopen::cpu::batchnorm_training(kPerAct, x.view(), y.view(), scale.view(), bias.view(), 0.5, 0.0,
                                    rmean.view(), rvar.view(), smean.view(), sinv.view(), 1.0f, 0.0f);
    EXPECT_EQ(y.values(), (std::vector<double>{-2, 0, 2, 2}));
    EXPECT_EQ(rmean.values(), (std::vector<double>{1, 6}));     // 0.5*0 + 0.5*mean
    EXPECT_EQ(rvar.values(), (std::vector<double>{1.5, 4.5})); // 0.5*1 + 0.5*unbiased
    EXPECT_EQ(smean.values(), (std::vector<double>{2, 12}));
    EXPECT_EQ(sinv.values(), (std::vector<double>{1, 0.5}));

    // Inference with the saved statistics as estimates (variance 1 and 4).
    Tensor var(DataType::Float, {1, 1, 1, 2}), y2(DataType::Float, {2, 1, 1, 2});
    var.set_values({1, 4});
    y2.fill_nan();
    miopen::cpu::batchnorm_inference(kPerAct, x.view(), y2.view(), scale.view(), bias.view(), smean.view(),
                                     var.view(), 0.0, 1.0f, 0.0f);
    EXPECT_EQ(y2.values(), y.values());
}

TEST(BatchNormPerActivationHand, OneImageKeepsTheBiasedVarianceForRunning)
{
    // N = 1: every position is its own mean, variance 0; MIOpen's running
    // update then takes the variance as is (no N / (N - 1)).
    Tensor x(DataType::Float, {1, 1, 1, 2}), y(DataType::Float, {1, 1, 1, 2});
    x.set_values({3, -4});
    Tensor one(DataType::Float, {1, 1, 1, 2}), zero(DataType::Float, {1, 1, 1, 2});
    one.fill(1.0);
    zero.fill(0.0);
    Tensor rmean(DataType::Float, {1, 1, 1, 2}), rvar(DataType::Float, {1, 1, 1, 2});
    rmean.fill(0.0);
    rvar.fill(2.0);
    miopen::cpu::batchnorm_training(kPerAct, x.view(), y.view(), one.view(), zero.view(), 0.25, 1.0,
                                    rmean.view(), rvar.view(), rmean.null_view(), rvar.null_view(), 1.0f,
                                    0.0f);
    EXPECT_EQ(y.values(), (std::vector<double>{0, 0}));
    EXPECT_EQ(rmean.values(), (std::vector<double>{0.75, -1}));
    EXPECT_EQ(rvar.values(), (std::vector<double>{1.5, 1.5}));
}

TEST(BatchNormPerActivationHand, SpatialShapedParametersAreRefused)
{
    Tensor x(DataType::Float, {2, 1, 1, 2}), y(DataType::Float, {2, 1, 1, 2});
    Tensor p(DataType::Float, {1, 1, 1, 1});
    x.fill(1.0);
    p.fill(1.0);
    EXPECT_THROW(miopen::cpu::batchnorm_inference(kPerAct, x.view(), y.view(), p.view(), p.view(), p.view(),
                                                  p.view(), 1e-5, 1.0f, 0.0f),
                 std::invalid_argument);
}

// Statistics per group over N, in long double.
struct Stats
{
    std::vector<long double> mean, var; // biased variance
    std::int64_t n = 0;
};

Stats ref_stats(const Tensor& x)
{
    const std::int64_t g = x.count() / x.lens()[0];
    Stats s;
    s.n = x.lens()[0];
    s.mean.assign(g, 0.0L);
    s.var.assign(g, 0.0L);
    for(std::int64_t i = 0; i < x.count(); ++i)
        s.mean[group_of(x, i)] += x.at_linear(i);
    for(auto& m : s.mean)
        m /= s.n;
    for(std::int64_t i = 0; i < x.count(); ++i)
    {
        const long double d = x.at_linear(i) - s.mean[group_of(x, i)];
        s.var[group_of(x, i)] += d * d / s.n;
    }
    return s;
}

// y against scale * (x - mean) / sqrt(var + eps) + bias, mean and var per group.
template <typename Mean, typename Var>
void expect_normalized(const Tensor& x, const Tensor& y, const Tensor& scale, const Tensor& bias, Mean mean, Var var,
                       double eps)
{
    const auto got = y.values();
    std::vector<double> want(got.size()), bound(got.size());
    for(std::int64_t i = 0; i < x.count(); ++i)
    {
        const auto g = group_of(x, i);
        want[i]      = static_cast<double>(scale.at_linear(g) * (x.at_linear(i) - mean(g)) / std::sqrt(var(g) + eps) +
                                      bias.at_linear(g));
        bound[i]     = kt::rounding_bound(y.type(), want[i]) + 1e-6 * (std::fabs(want[i]) + 1);
    }
    EXPECT_TRUE(kt::all_close(got, want, bound)) << x.nd() << "-D";
}

std::vector<std::int64_t> random_lens(std::mt19937& rng, int nd)
{
    std::vector<std::int64_t> l(nd);
    l[0] = std::uniform_int_distribution<int>(2, 4)(rng);
    for(int i = 1; i < nd; ++i)
        l[i] = std::uniform_int_distribution<int>(1, 3)(rng);
    return l;
}

using kt::BnParam;

class BatchNormPerActivationRandom : public ::testing::TestWithParam<BnParam>
{
    protected:
    DataType dt() const { return std::get<0>(GetParam()).first; }
    DataType pt() const { return std::get<0>(GetParam()).second; }
    Layout lay() const { return std::get<1>(GetParam()); }
    std::mt19937 rng_for(int salt) const
    {
        return std::mt19937(7000 + 100 * salt + 20 * static_cast<int>(dt()) + 5 * static_cast<int>(pt()) +
                            static_cast<int>(lay()));
    }
    Tensor rand_param(const std::vector<std::int64_t>& x, std::mt19937& rng, double lo, double hi)
    {
        Tensor p(pt(), param_lens(x), lay());
        p.fill_random(rng, lo, hi);
        return p;
    }
    // A forward pass's random x, its y (NaN), scale and bias.
    std::tuple<Tensor, Tensor, Tensor, Tensor> forward_case(const std::vector<std::int64_t>& lens, std::mt19937& rng)
    {
        Tensor x(dt(), lens, lay()), y(dt(), lens, lay());
        x.fill_random(rng, -3, 3);
        y.fill_nan();
        Tensor scale = rand_param(lens, rng, 0.5, 1.5);
        Tensor bias  = rand_param(lens, rng, -1, 1);
        return {std::move(x), std::move(y), std::move(scale), std::move(bias)};
    }
};

TEST_P(BatchNormPerActivationRandom, Inference)
{
    auto rng = rng_for(1);
    for(int nd : {4, 5})
    {
        const auto lens = random_lens(rng, nd);
        auto [x, y, scale, bias] = forward_case(lens, rng);
        Tensor mean = rand_param(lens, rng, -1, 1), var = rand_param(lens, rng, 0.2, 2);
        const double eps = 1e-3;
        const auto gaps  = y.gap_bytes();
        miopen::cpu::batchnorm_inference(kPerAct, x.view(), y.view(), scale.view(), bias.view(), mean.view(),
                                         var.view(), eps, 1.0f, 0.0f);
        expect_normalized(
            x, y, scale, bias, [&](std::int64_t g) { return (long double)mean.at_linear(g); },
            [&](std::int64_t g) { return (long double)var.at_linear(g); }, eps);
        EXPECT_EQ(y.gap_bytes(), gaps);
    }
}

TEST_P(BatchNormPerActivationRandom, Training)
{
    auto rng        = rng_for(2);
    const double up = kt::unit_roundoff(pt());
    for(int nd : {4, 5})
    {
        const auto lens = random_lens(rng, nd);
        auto [x, y, scale, bias] = forward_case(lens, rng);
        Tensor rmean = rand_param(lens, rng, -1, 1), rvar = rand_param(lens, rng, 0.2, 2);
        Tensor smean(pt(), param_lens(lens), lay()), sinv(pt(), param_lens(lens), lay());
        smean.fill_nan();
        sinv.fill_nan();
        const auto rm0 = rmean.values(), rv0 = rvar.values();
        const double eps = 1e-5, factor = 0.3;
        miopen::cpu::batchnorm_training(kPerAct, x.view(), y.view(), scale.view(), bias.view(), factor, eps,
                                        rmean.view(), rvar.view(), smean.view(), sinv.view(), 1.0f, 0.0f);
        const Stats st = ref_stats(x);
        expect_normalized(
            x, y, scale, bias, [&](std::int64_t g) { return st.mean[size_t(g)]; },
            [&](std::int64_t g) { return st.var[size_t(g)]; }, eps);
        const double n = static_cast<double>(st.n);
        for(std::size_t g = 0; g < st.mean.size(); ++g)
        {
            const double m = static_cast<double>(st.mean[g]), v = static_cast<double>(st.var[g]);
            kt::expect_training_stats(rmean, rvar, smean, sinv, static_cast<std::int64_t>(g),
                                      {(1 - factor) * rm0[g] + factor * m, (1 - factor) * rv0[g] + factor * v * n / (n - 1),
                                       m, 1.0 / std::sqrt(v + eps)},
                                      up);
        }
    }
}

// Backward against the textbook chain rule per group (m = N):
//   dxhat = dy*scale; dvar = sum(dxhat*(x-mu)) * -1/2 * (var+eps)^-3/2
//   dmu = -sum(dxhat)/sigma + dvar * sum(-2(x-mu))/m
//   dx = dxhat/sigma + dvar*2(x-mu)/m + dmu/m;   dscale = sum(dy*xhat); dbias = sum(dy)
// with the statistics recomputed, or saved (as a training call stores them).
TEST_P(BatchNormPerActivationRandom, Backward)
{
    auto rng        = rng_for(3);
    const double up = kt::unit_roundoff(pt());
    for(int nd : {4, 5})
        for(bool use_saved : {false, true})
        {
            SCOPED_TRACE(std::to_string(nd) + (use_saved ? "-D saved" : "-D recomputed"));
            const auto lens = random_lens(rng, nd);
            Tensor x(dt(), lens, lay()), dy(dt(), lens, lay()), dx(dt(), lens, lay());
            x.fill_random(rng, -3, 3);
            dy.fill_random(rng);
            dx.fill_nan();
            Tensor scale = rand_param(lens, rng, 0.5, 1.5);
            Tensor ds(pt(), param_lens(lens), lay()), db(pt(), param_lens(lens), lay());
            ds.fill_nan();
            db.fill_nan();
            Tensor smean(pt(), param_lens(lens), lay()), sinv(pt(), param_lens(lens), lay());
            const double eps = 1e-5;
            const Stats st   = ref_stats(x);
            for(std::size_t g = 0; g < st.mean.size(); ++g)
            {
                smean.set_linear(static_cast<std::int64_t>(g), static_cast<double>(st.mean[g]));
                sinv.set_linear(static_cast<std::int64_t>(g), 1.0 / std::sqrt(static_cast<double>(st.var[g]) + eps));
            }
            miopen::cpu::batchnorm_backward(kPerAct, x.view(), dy.view(), dx.view(), scale.view(), ds.view(),
                                            db.view(), eps, use_saved ? smean.view() : smean.null_view(),
                                            use_saved ? sinv.view() : sinv.null_view(), 1.0f, 0.0f, 1.0f, 0.0f);
            const std::size_t groups = st.mean.size();
            std::vector<long double> mu(groups), sig_inv(groups), sdxh_xmu(groups, 0), sdxh(groups, 0),
                sxmu(groups, 0), sdy(groups, 0), sdyxhat(groups, 0), sabs(groups, 0);
            for(std::size_t g = 0; g < groups; ++g)
            {
                const auto gi = static_cast<std::int64_t>(g);
                mu[g]         = use_saved ? smean.at_linear(gi) : st.mean[g];
                sig_inv[g]    = use_saved ? sinv.at_linear(gi) : 1.0L / std::sqrt(st.var[g] + eps);
            }
            for(std::int64_t i = 0; i < x.count(); ++i)
            {
                const auto g          = static_cast<std::size_t>(group_of(x, i));
                const long double xmu = x.at_linear(i) - mu[g], gy = dy.at_linear(i);
                sdxh_xmu[g] += gy * scale.at_linear(static_cast<std::int64_t>(g)) * xmu;
                sdxh[g] += gy * scale.at_linear(static_cast<std::int64_t>(g));
                sxmu[g] += xmu;
                sdy[g] += gy;
                sdyxhat[g] += gy * xmu * sig_inv[g];
                sabs[g] += std::fabs(gy) * (1 + std::fabs(xmu * sig_inv[g]));
            }
            const long double m = static_cast<long double>(st.n);
            const auto got      = dx.values();
            std::vector<double> want(got.size()), bound(got.size());
            for(std::int64_t i = 0; i < x.count(); ++i)
            {
                const auto g           = static_cast<std::size_t>(group_of(x, i));
                const long double sc   = scale.at_linear(static_cast<std::int64_t>(g));
                const long double xmu  = x.at_linear(i) - mu[g];
                const long double dvar = sdxh_xmu[g] * -0.5L * sig_inv[g] * sig_inv[g] * sig_inv[g];
                const long double dmu  = -sdxh[g] * sig_inv[g] + dvar * -2.0L * sxmu[g] / m;
                want[i] = static_cast<double>(dy.at_linear(i) * sc * sig_inv[g] + dvar * 2.0L * xmu / m + dmu / m);
                const double terms = static_cast<double>(
                    sc * sig_inv[g] * (std::fabs(dy.at_linear(i)) + sabs[g] / m * (1 + std::fabs(xmu * sig_inv[g]))));
                bound[i] = kt::rounding_bound(dt(), want[i]) + (use_saved ? 16 * up : 1e-6) * terms + 1e-7;
            }
            EXPECT_TRUE(kt::all_close(got, want, bound)) << "dx";
            for(std::size_t g = 0; g < groups; ++g)
            {
                const auto gi   = static_cast<std::int64_t>(g);
                const double pe = (use_saved ? 16 * up : 1e-6) * static_cast<double>(sabs[g]);
                EXPECT_NEAR(db.at_linear(gi), static_cast<double>(sdy[g]), 1.001 * up * std::fabs((double)sdy[g]) + pe);
                EXPECT_NEAR(ds.at_linear(gi), static_cast<double>(sdyxhat[g]),
                            1.001 * up * std::fabs((double)sdyxhat[g]) + pe);
            }
        }
}

INSTANTIATE_TEST_SUITE_P(TypesLayouts, BatchNormPerActivationRandom, kt::bn_type_layouts(), kt::bn_param_name);

} // namespace
