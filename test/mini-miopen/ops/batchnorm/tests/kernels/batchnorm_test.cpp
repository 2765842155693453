// Spatial batch normalisation kernel tests: hand-worked cases, then data type x parameter
// type x layout x (4-D, 5-D) against straightforward long-double references.
#include "batchnorm_test_util.hpp"

#include <tuple>

namespace {

using kt::Layout;
using kt::Tensor;
using miopen::cpu::DataType;
using miopen::cpu::TensorView;

std::vector<std::int64_t> param_lens(int nd, std::int64_t C)
{
    std::vector<std::int64_t> l(nd, 1);
    l[1] = C;
    return l;
}

Tensor param(DataType t, int nd, const std::vector<double>& v, Layout l = Layout::Packed)
{
    Tensor p(t, param_lens(nd, static_cast<std::int64_t>(v.size())), l);
    p.fill(0.0);
    p.set_values(v);
    return p;
}

void expect_near_vec(const std::vector<double>& got, const std::vector<double>& want, double tol)
{
    ASSERT_EQ(got.size(), want.size());
    for(std::size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// ---------------------------------------------------------------------------
// Hand-worked cases
// ---------------------------------------------------------------------------

// x = [1,2,3,4] in one channel: mean 2.5, biased var 1.25, unbiased var 5/3,
// inv std (eps 0) = 1/sqrt(1.25) = 0.894427191, xhat = [-1.5,-0.5,0.5,1.5] * 0.894427191.
TEST(BatchNormHand, TrainingOneChannel)
{
    Tensor x(DataType::Float, {1, 1, 2, 2}), y(DataType::Float, {1, 1, 2, 2});
    x.set_values({1, 2, 3, 4});
    y.fill_nan();
    Tensor scale = param(DataType::Float, 4, {2}), bias = param(DataType::Float, 4, {1});
    Tensor rmean = param(DataType::Float, 4, {0}), rvar = param(DataType::Float, 4, {1});
    Tensor smean = param(DataType::Float, 4, {-7}), sinv = param(DataType::Float, 4, {-7});
    miopen::cpu::batchnorm_training(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(), 0.1, 0.0,
                                            rmean.view(), rvar.view(), smean.view(), sinv.view(),
                                            1.0f, 0.0f);
    // y = 2 * xhat + 1
    expect_near_vec(y.values(), {-1.6832816, 0.1055728, 1.8944272, 3.6832816}, 1e-6);
    EXPECT_NEAR(rmean.at_linear(0), 0.25, 1e-7);      // 0.9*0 + 0.1*2.5
    EXPECT_NEAR(rvar.at_linear(0), 1.0666667, 1e-6);  // 0.9*1 + 0.1*5/3 (unbiased)
    EXPECT_NEAR(smean.at_linear(0), 2.5, 1e-7);
    EXPECT_NEAR(sinv.at_linear(0), 0.894427191, 1e-7);
}

// Two channels, N = 2, 1x1 spatial: ch0 = {1, 3}: mean 2, var 1; ch1 = {10, 30}: mean 20,
// var 100. y = xhat = [-1, -1, 1, 1] in (n, c) order; factor 1 replaces the running values
// with the batch mean and the unbiased variance (m/(m-1) = 2): [2, 200].
TEST(BatchNormHand, TrainingChannelsAreSeparate)
{
    for(DataType t : {DataType::Float, DataType::Half, DataType::BFloat16})
    {
        Tensor x(t, {2, 2, 1, 1}, Layout::ChannelsLast), y(t, {2, 2, 1, 1});
        x.set_values({1, 10, 3, 30});
        y.fill_nan();
        Tensor scale = param(DataType::Float, 4, {1, 1}), bias = param(DataType::Float, 4, {0, 0});
        Tensor rmean = param(DataType::Float, 4, {5, 5}), rvar = param(DataType::Float, 4, {5, 5});
        Tensor smean = param(DataType::Float, 4, {0, 0}), sinv = param(DataType::Float, 4, {0, 0});
        miopen::cpu::batchnorm_training(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(), 1.0,
                                                0.0, rmean.view(), rvar.view(), smean.view(),
                                                sinv.view(), 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{-1, -1, 1, 1})) << kt::type_name(t);
        expect_near_vec(rmean.values(), {2, 20}, 1e-6);
        expect_near_vec(rvar.values(), {2, 200}, 1e-4);
        expect_near_vec(smean.values(), {2, 20}, 1e-6);
        expect_near_vec(sinv.values(), {1, 0.1}, 1e-7);
    }
}

// A single element per channel: variance 0, the unbiased correction is skipped (m = 1),
// y = bias, running var = (1-f)*rv + f*0.
TEST(BatchNormHand, TrainingSingleElement)
{
    Tensor x(DataType::Float, {1, 1, 1, 1}), y(DataType::Float, {1, 1, 1, 1});
    x.set_values({3});
    y.fill_nan();
    Tensor scale = param(DataType::Float, 4, {2}), bias = param(DataType::Float, 4, {0.5});
    Tensor rmean = param(DataType::Float, 4, {1}), rvar = param(DataType::Float, 4, {4});
    miopen::cpu::batchnorm_training(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(), 0.25,
                                            1e-5, rmean.view(), rvar.view(), rmean.null_view(),
                                            rvar.null_view(), 1.0f, 0.0f);
    EXPECT_EQ(y.at_linear(0), 0.5f);
    EXPECT_NEAR(rmean.at_linear(0), 0.75 * 1 + 0.25 * 3, 1e-7);
    EXPECT_NEAR(rvar.at_linear(0), 3.0, 1e-7);
}

// mean 2, var 4, eps 0 -> inv std 0.5; y = 3 * (x - 2) * 0.5 + 1
TEST(BatchNormHand, Inference)
{
    for(DataType t : {DataType::Float, DataType::Half, DataType::BFloat16})
    {
        Tensor x(t, {1, 1, 1, 4}), y(t, {1, 1, 1, 4});
        x.set_values({1, 2, 3, 4});
        y.fill_nan();
        Tensor scale = param(t, 4, {3}), bias = param(t, 4, {1});
        Tensor mean = param(DataType::Float, 4, {2}), var = param(DataType::Float, 4, {4});
        miopen::cpu::batchnorm_inference(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(),
                                                 mean.view(), var.view(), 0.0, 1.0f, 0.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{-0.5, 1, 2.5, 4})) << kt::type_name(t);
        // alpha 2, beta -1 over the previous result: 2*y - y = y
        miopen::cpu::batchnorm_inference(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(),
                                                 mean.view(), var.view(), 0.0, 2.0f, -1.0f);
        EXPECT_EQ(y.values(), (std::vector<double>{-0.5, 1, 2.5, 4})) << kt::type_name(t);
    }
}

// x = [1,2,3,4], dy = [1,0,0,0], scale 1, eps 0: dbias = 1, dscale = xhat0 = -1.3416408,
// dx = inv/4 * (4*dy - dbias - xhat*dscale) = 0.2236068 * [1.2, -1.6, -0.4, 0.8]
TEST(BatchNormHand, Backward)
{
    for(bool saved : {false, true})
    {
        Tensor x(DataType::Float, {1, 1, 2, 2}), dy(DataType::Float, {1, 1, 2, 2});
        Tensor dx(DataType::Float, {1, 1, 2, 2});
        x.set_values({1, 2, 3, 4});
        dy.set_values({1, 0, 0, 0});
        dx.fill_nan();
        Tensor scale = param(DataType::Float, 4, {1});
        Tensor ds = param(DataType::Float, 4, {0}), db = param(DataType::Float, 4, {0});
        ds.fill_nan();
        db.fill_nan();
        Tensor smean = param(DataType::Float, 4, {2.5}), sinv = param(DataType::Float, 4, {0.894427191});
        miopen::cpu::batchnorm_backward(miopen::cpu::BatchNormMode::Spatial,
            x.view(), dy.view(), dx.view(), scale.view(), ds.view(), db.view(), 0.0,
            saved ? smean.view() : smean.null_view(), saved ? sinv.view() : sinv.null_view(),
            1.0f, 0.0f, 1.0f, 0.0f);
        expect_near_vec(dx.values(), {0.2683282, -0.3577709, -0.0894427, 0.1788854}, 1e-6);
        EXPECT_NEAR(ds.at_linear(0), -1.3416408, 1e-6);
        EXPECT_NEAR(db.at_linear(0), 1.0, 1e-7);
        // accumulate: dscale = 1*new + 2*old, dbias likewise; dx = 0.5*new + 1*old
        miopen::cpu::batchnorm_backward(miopen::cpu::BatchNormMode::Spatial,
            x.view(), dy.view(), dx.view(), scale.view(), ds.view(), db.view(), 0.0,
            saved ? smean.view() : smean.null_view(), saved ? sinv.view() : sinv.null_view(),
            0.5f, 1.0f, 1.0f, 2.0f);
        expect_near_vec(dx.values(), {0.4024922, -0.5366563, -0.1341641, 0.2683282}, 1e-6);
        EXPECT_NEAR(ds.at_linear(0), -3 * 1.3416408, 3e-6);
        EXPECT_NEAR(db.at_linear(0), 3.0, 1e-6);
    }
}

// Saved statistics are really used when given: a shifted saved mean changes dx/dscale.
TEST(BatchNormHand, BackwardUsesSavedStatistics)
{
    Tensor x(DataType::Float, {1, 1, 1, 2}), dy(DataType::Float, {1, 1, 1, 2});
    Tensor dx(DataType::Float, {1, 1, 1, 2});
    x.set_values({1, 3});
    dy.set_values({1, 1});
    Tensor scale = param(DataType::Float, 4, {1});
    Tensor ds = param(DataType::Float, 4, {0}), db = param(DataType::Float, 4, {0});
    // saved mean 0, inv 1: xhat = x = [1, 3]; dscale = 4, dbias = 2,
    // dx = 1/2 * (2*dy - 2 - xhat*4) = [-2, -6]
    Tensor smean = param(DataType::Float, 4, {0}), sinv = param(DataType::Float, 4, {1});
    dx.fill_nan();
    miopen::cpu::batchnorm_backward(miopen::cpu::BatchNormMode::Spatial, x.view(), dy.view(), dx.view(), scale.view(), ds.view(),
                                            db.view(), 0.0, smean.view(), sinv.view(), 1.0f, 0.0f,
                                            1.0f, 0.0f);
    expect_near_vec(dx.values(), {-2, -6}, 1e-6);
    EXPECT_NEAR(ds.at_linear(0), 4.0, 1e-6);
    EXPECT_NEAR(db.at_linear(0), 2.0, 1e-6);
    // recomputed statistics (mean 2, var 1): xhat = [-1, 1], dscale = 0, dx = 0
    dx.fill_nan();
    miopen::cpu::batchnorm_backward(miopen::cpu::BatchNormMode::Spatial, x.view(), dy.view(), dx.view(), scale.view(), ds.view(),
                                            db.view(), 0.0, smean.null_view(), sinv.null_view(),
                                            1.0f, 0.0f, 1.0f, 0.0f);
    expect_near_vec(dx.values(), {0, 0}, 1e-6);
    EXPECT_NEAR(ds.at_linear(0), 0.0, 1e-6);
}

// ---------------------------------------------------------------------------
// Randomised against long-double references
// ---------------------------------------------------------------------------

struct Stats
{
    std::vector<long double> mean, var; // biased variance
    std::int64_t m = 0;
};

// One pass with sum and sum of squares (the kernel uses two passes).
Stats ref_stats(const Tensor& x)
{
    const std::int64_t C = x.lens()[1];
    Stats s;
    s.mean.assign(C, 0.0L);
    s.var.assign(C, 0.0L);
    std::vector<long double> sq(C, 0.0L);
    std::vector<std::int64_t> cnt(C, 0);
    for(std::int64_t i = 0; i < x.count(); ++i)
    {
        const std::int64_t c = x.unravel(i)[1];
        const long double v  = x.at_linear(i);
        s.mean[c] += v;
        sq[c] += v * v;
        ++cnt[c];
    }
    for(std::int64_t c = 0; c < C; ++c)
    {
        s.mean[c] /= cnt[c];
        s.var[c] = sq[c] / cnt[c] - s.mean[c] * s.mean[c];
        if(s.var[c] < 0)
            s.var[c] = 0;
    }
    s.m = C ? cnt[0] : 0;
    return s;
}

std::vector<std::int64_t> random_lens(std::mt19937& rng, int nd)
{
    std::vector<std::int64_t> l(nd);
    l[0] = std::uniform_int_distribution<int>(1, 3)(rng);
    l[1] = std::uniform_int_distribution<int>(1, 3)(rng);
    for(int i = 2; i < nd; ++i)
        l[i] = std::uniform_int_distribution<int>(1, 4)(rng);
    return l;
}

// x with a per-channel offset and spread so that the means are far from zero.
void fill_data(Tensor& x, std::mt19937& rng)
{
    x.fill(0.0);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> off(x.lens()[1]), spread(x.lens()[1]);
    for(std::size_t c = 0; c < off.size(); ++c)
    {
        off[c]    = 2.0 * u(rng);
        spread[c] = 0.5 + std::fabs(u(rng));
    }
    for(std::int64_t i = 0; i < x.count(); ++i)
    {
        const auto c = x.unravel(i)[1];
        x.set_linear(i, off[c] + spread[c] * u(rng));
    }
}

using kt::BnParam;

class BatchNormRandom : public ::testing::TestWithParam<BnParam>
{
    protected:
    DataType dt() const { return std::get<0>(GetParam()).first; }
    DataType pt() const { return std::get<0>(GetParam()).second; }
    Layout lay() const { return std::get<1>(GetParam()); }
    std::mt19937 rng_for(int salt) const
    {
        return std::mt19937(5000 + 100 * salt + 20 * static_cast<int>(dt()) +
                            5 * static_cast<int>(pt()) + static_cast<int>(lay()));
    }
    Tensor rand_param(int nd, std::int64_t C, std::mt19937& rng, double lo, double hi)
    {
        Tensor p(pt(), param_lens(nd, C), lay());
        p.fill_random(rng, lo, hi);
        return p;
    }
};

const std::pair<float, float> kAlphaBetas[] = {{1.0f, 0.0f}, {0.5f, 0.5f}, {-1.0f, 2.0f}};

TEST_P(BatchNormRandom, Inference)
{
    auto rng       = rng_for(1);
    for(int nd : {4, 5})
        for(const auto& ab : kAlphaBetas)
        {
            const auto lens      = random_lens(rng, nd);
            const std::int64_t C = lens[1];
            Tensor x(dt(), lens, lay()), y(dt(), lens, static_cast<Layout>((static_cast<int>(lay()) + 1) % 3));
            fill_data(x, rng);
            if(ab.second == 0.0f)
                y.fill_nan();
            else
                y.fill_random(rng);
            Tensor scale = rand_param(nd, C, rng, 0.5, 1.5), bias = rand_param(nd, C, rng, -1, 1);
            Tensor mean = rand_param(nd, C, rng, -1, 1), var = rand_param(nd, C, rng, 0.2, 2);
            const double eps = 1e-3;
            const auto old  = y.values();
            const auto gaps = y.gap_bytes();
            miopen::cpu::batchnorm_inference(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(),
                                                     mean.view(), var.view(), eps, ab.first,
                                                     ab.second);
            const auto got = y.values();
            std::vector<double> want(got.size()), bound(got.size());
            for(std::int64_t i = 0; i < x.count(); ++i)
            {
                const auto c      = x.unravel(i)[1];
                const double n    = scale.at_linear(c) * (x.at_linear(i) - mean.at_linear(c)) /
                                 std::sqrt(var.at_linear(c) + eps) +
                             bias.at_linear(c);
                const double prev = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                want[i]           = ab.first * n + prev;
                bound[i]          = kt::rounding_bound(dt(), want[i]) +
                           1e-6 * (std::fabs(ab.first) * (std::fabs(n) + 1) + std::fabs(prev));
            }
            EXPECT_TRUE(kt::all_close(got, want, bound));
            EXPECT_EQ(y.gap_bytes(), gaps);
        }
}

TEST_P(BatchNormRandom, Training)
{
    auto rng        = rng_for(2);
    const double up = kt::unit_roundoff(pt());
    for(int nd : {4, 5})
        for(const auto& ab : kAlphaBetas)
        {
            const auto lens      = random_lens(rng, nd);
            const std::int64_t C = lens[1];
            Tensor x(dt(), lens, lay()), y(dt(), lens, lay());
            fill_data(x, rng);
            if(ab.second == 0.0f)
                y.fill_nan();
            else
                y.fill_random(rng);
            Tensor scale = rand_param(nd, C, rng, 0.5, 1.5), bias = rand_param(nd, C, rng, -1, 1);
            Tensor rmean = rand_param(nd, C, rng, -1, 1), rvar = rand_param(nd, C, rng, 0.2, 2);
            Tensor smean(pt(), param_lens(nd, C), lay()), sinv(pt(), param_lens(nd, C), lay());
            smean.fill_nan();
            sinv.fill_nan();
            const auto rm0 = rmean.values(), rv0 = rvar.values();
            const double eps = 1e-5, factor = 0.3;
            const auto old  = y.values();
            const auto gaps = y.gap_bytes();
            miopen::cpu::batchnorm_training(miopen::cpu::BatchNormMode::Spatial, x.view(), y.view(), scale.view(), bias.view(),
                                                    factor, eps, rmean.view(), rvar.view(),
                                                    smean.view(), sinv.view(), ab.first, ab.second);
            const Stats st = ref_stats(x);
            const auto got = y.values();
            std::vector<double> want(got.size()), bound(got.size());
            for(std::int64_t i = 0; i < x.count(); ++i)
            {
                const auto c = x.unravel(i)[1];
                const long double inv = 1.0L / std::sqrt(st.var[c] + eps);
                const double n =
                    static_cast<double>(scale.at_linear(c) * (x.at_linear(i) - st.mean[c]) * inv +
                                        bias.at_linear(c));
                const double prev = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                want[i]           = ab.first * n + prev;
                bound[i]          = kt::rounding_bound(dt(), want[i]) +
                           1e-6 * (std::fabs(ab.first) * (std::fabs(n) + 1) + std::fabs(prev));
            }
            EXPECT_TRUE(kt::all_close(got, want, bound)) << "y";
            EXPECT_EQ(y.gap_bytes(), gaps);
            for(std::int64_t c = 0; c < C; ++c)
            {
                const double m   = static_cast<double>(st.m);
                const double var = static_cast<double>(st.var[c]), mean = static_cast<double>(st.mean[c]);
                const double unb = st.m > 1 ? var * m / (m - 1) : var;
                kt::expect_training_stats(rmean, rvar, smean, sinv, c,
                                          {(1 - factor) * rm0[c] + factor * mean, (1 - factor) * rv0[c] + factor * unb,
                                           mean, 1.0 / std::sqrt(var + eps)},
                                          up);
            }
        }
}

// Backward with recomputed statistics against the textbook chain rule:
//   dxhat = dy*scale; dvar = sum(dxhat*(x-mu)) * -1/2 * (var+eps)^-3/2
//   dmu = -sum(dxhat)/sigma + dvar * sum(-2(x-mu))/m
//   dx = dxhat/sigma + dvar*2(x-mu)/m + dmu/m;   dscale = sum(dy*xhat); dbias = sum(dy)
// and, with saved statistics taken from a training call, against the same reference.
TEST_P(BatchNormRandom, Backward)
{
    auto rng        = rng_for(3);
    const double up = kt::unit_roundoff(pt());
    for(int nd : {4, 5})
        for(bool use_saved : {false, true})
            for(const auto& ab : kAlphaBetas)
            {
                SCOPED_TRACE("nd " + std::to_string(nd) + (use_saved ? " saved" : " recomputed") +
                             " beta " + std::to_string(ab.second));
                auto lens = random_lens(rng, nd);
                lens[0]   = std::max<std::int64_t>(lens[0], 2); // m >= 2
                const std::int64_t C = lens[1];
                const Layout lo      = static_cast<Layout>((static_cast<int>(lay()) + 2) % 3);
                Tensor x(dt(), lens, lay()), dy(dt(), lens, lo), dx(dt(), lens, lay());
                fill_data(x, rng);
                dy.fill_random(rng);
                if(ab.second == 0.0f)
                    dx.fill_nan();
                else
                    dx.fill_random(rng);
                Tensor scale = rand_param(nd, C, rng, 0.5, 1.5);
                Tensor ds = rand_param(nd, C, rng, -1, 1), db = rand_param(nd, C, rng, -1, 1);
                if(ab.second == 0.0f)
                {
                    ds.fill_nan();
                    db.fill_nan();
                }
                Tensor smean(pt(), param_lens(nd, C), lay()), sinv(pt(), param_lens(nd, C), lay());
                const double eps = 1e-5;
                if(use_saved)
                {
                    // statistics as a training call stores them (in the parameter type)
                    const Stats st0 = ref_stats(x);
                    smean.fill(0.0);
                    sinv.fill(0.0);
                    for(std::int64_t c = 0; c < C; ++c)
                    {
                        smean.set_linear(c, static_cast<double>(st0.mean[c]));
                        sinv.set_linear(c, 1.0 / std::sqrt(static_cast<double>(st0.var[c]) + eps));
                    }
                }
                const auto old = dx.values(), ds0 = ds.values(), db0 = db.values();
                const auto gaps = dx.gap_bytes();
                miopen::cpu::batchnorm_backward(miopen::cpu::BatchNormMode::Spatial,
                    x.view(), dy.view(), dx.view(), scale.view(), ds.view(), db.view(), eps,
                    use_saved ? smean.view() : smean.null_view(),
                    use_saved ? sinv.view() : sinv.null_view(), ab.first, ab.second, ab.first,
                    ab.second);

                // reference statistics: the saved ones (as stored) or recomputed
                const Stats st = ref_stats(x);
                std::vector<long double> mu(C), sig_inv(C);
                for(std::int64_t c = 0; c < C; ++c)
                {
                    mu[c]      = use_saved ? smean.at_linear(c) : st.mean[c];
                    sig_inv[c] = use_saved ? sinv.at_linear(c) : 1.0L / std::sqrt(st.var[c] + eps);
                }
                const long double m = static_cast<long double>(st.m);
                std::vector<long double> sdxhat_xmu(C, 0), sdxhat(C, 0), sxmu(C, 0), sdy(C, 0),
                    sdyxhat(C, 0), sabs(C, 0);
                for(std::int64_t i = 0; i < x.count(); ++i)
                {
                    const auto c           = x.unravel(i)[1];
                    const long double xmu  = x.at_linear(i) - mu[c];
                    const long double g    = dy.at_linear(i);
                    const long double dxh  = g * scale.at_linear(c);
                    sdxhat_xmu[c] += dxh * xmu;
                    sdxhat[c] += dxh;
                    sxmu[c] += xmu;
                    sdy[c] += g;
                    sdyxhat[c] += g * xmu * sig_inv[c];
                    sabs[c] += std::fabs(g) * (1 + std::fabs(xmu * sig_inv[c]));
                }
                const auto got = dx.values();
                std::vector<double> want(got.size()), bound(got.size());
                for(std::int64_t i = 0; i < x.count(); ++i)
                {
                    const auto c          = x.unravel(i)[1];
                    const long double xmu = x.at_linear(i) - mu[c];
                    const long double s3  = sig_inv[c] * sig_inv[c] * sig_inv[c];
                    const long double dvar = sdxhat_xmu[c] * -0.5L * s3;
                    const long double dmu  = -sdxhat[c] * sig_inv[c] + dvar * -2.0L * sxmu[c] / m;
                    const long double r    = dy.at_linear(i) * scale.at_linear(c) * sig_inv[c] +
                                          dvar * 2.0L * xmu / m + dmu / m;
                    const double prev = ab.second != 0.0f ? ab.second * old[i] : 0.0;
                    want[i]           = ab.first * static_cast<double>(r) + prev;
                    // storage rounding + the size of the cancelling terms; saved statistics
                    // rounded to the parameter type perturb the identity sum(x-mu) = 0
                    const double terms = static_cast<double>(
                        scale.at_linear(c) * sig_inv[c] *
                        (std::fabs(dy.at_linear(i)) + sabs[c] / m * (1 + std::fabs(xmu * sig_inv[c]))));
                    const double perr = use_saved ? 16 * up : 1e-6;
                    bound[i] = kt::rounding_bound(dt(), want[i]) +
                               perr * std::fabs(ab.first) * terms + 1e-6 * std::fabs(prev) + 1e-7;
                }
                EXPECT_TRUE(kt::all_close(got, want, bound)) << "dx";
                EXPECT_EQ(dx.gap_bytes(), gaps);
                for(std::int64_t c = 0; c < C; ++c)
                {
                    const double pb = ab.second != 0.0f ? ab.second * db0[c] : 0.0;
                    const double ps = ab.second != 0.0f ? ab.second * ds0[c] : 0.0;
                    const double wb = ab.first * static_cast<double>(sdy[c]) + pb;
                    const double ws = ab.first * static_cast<double>(sdyxhat[c]) + ps;
                    const double sc = std::fabs(ab.first) * static_cast<double>(sabs[c]) +
                                      std::fabs(pb) + std::fabs(ps);
                    const double pe = use_saved ? 16 * up : 1e-6;
                    EXPECT_NEAR(db.at_linear(c), wb, 1.001 * up * std::fabs(wb) + pe * sc) << c;
                    EXPECT_NEAR(ds.at_linear(c), ws, 1.001 * up * std::fabs(ws) + pe * sc) << c;
                }
            }
}

INSTANTIATE_TEST_SUITE_P(TypesLayouts, BatchNormRandom, kt::bn_type_layouts(), kt::bn_param_name);

} // namespace
