// Per-activation batch normalization through the public API against a double
// reference, and the argument rules MIOpen applies to every mode
// (src/ocl/batchnormocl.cpp, src/batch_norm.cpp, src/batch_norm_api.cpp,
// src/include/miopen/batchnorm/problem_description.hpp,
// src/solver/batchnorm/*per_activation*.cpp @2d1fd997): epsilon and the
// exponential-average factor are never checked, one buffer of a pair counts
// as none, and the checks come in MIOpen's order.
#include "common.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace {

float one = 1.0f, zero = 0.0f, two = 2.0f;

// x (N, C, [D,] H, W) fp32 packed, its per-activation parameters and buffers.
struct PerAct
{
    mmt::Handle h;
    std::vector<int> lens;
    mmt::Tensor x, p;
    std::vector<float> xv, y, dy, dx, scale, bias, mean, var;
    std::size_t groups = 0, n = 0;

    explicit PerAct(std::vector<int> l) : lens(l), x(miopenFloat, l)
    {
        EXPECT_EQ(miopenDeriveBNTensorDescriptor(p, x, miopenBNPerActivation), miopenStatusSuccess);
        n             = std::size_t(l[0]);
        std::size_t c = 1;
        for(std::size_t i = 1; i < l.size(); ++i)
            c *= std::size_t(l[i]);
        groups = c;
        for(std::size_t i = 0; i < n * groups; ++i)
        {
            xv.push_back(float((i * 7) % 13) * 0.5f - 3.0f);
            dy.push_back(float((i * 5) % 9) * 0.25f - 1.0f);
        }
        y.assign(xv.size(), -99.0f);
        dx.assign(xv.size(), -99.0f);
        for(std::size_t g = 0; g < groups; ++g)
        {
            scale.push_back(0.5f + 0.25f * float(g % 4));
            bias.push_back(float(g % 3) - 1.0f);
            mean.push_back(float(g % 5) * 0.5f - 1.0f);
            var.push_back(0.5f + float(g % 3));
        }
    }

    // Batch mean and biased variance of position g, in double.
    void moments(std::size_t g, double& m, double& v) const
    {
        m = 0;
        for(std::size_t k = 0; k < n; ++k)
            m += xv[k * groups + g];
        m /= double(n);
        v = 0;
        for(std::size_t k = 0; k < n; ++k)
            v += std::pow(xv[k * groups + g] - m, 2) / double(n);
    }
};

double max_error(const std::vector<float>& got, const std::vector<double>& want)
{
    double e = 0;
    for(std::size_t i = 0; i < want.size(); ++i)
        e = std::max(e, std::fabs(got[i] - want[i]) / (1.0 + std::fabs(want[i])));
    return e;
}

} // namespace

TEST(BatchNormPerActivation, DeriveKeepsEverySpatialDimension)
{
    for(const auto mode : {miopenBNPerActivation, static_cast<miopenBatchNormMode_t>(5)})
    {
        mmt::Tensor x(miopenHalf, {2, 3, 4, 5, 6}), d;
        ASSERT_EQ(miopenDeriveBNTensorDescriptor(d, x, mode), miopenStatusSuccess);
        int nd = 0;
        ASSERT_EQ(miopenGetTensorDescriptorSize(d, &nd), miopenStatusSuccess);
        ASSERT_EQ(nd, 5);
        miopenDataType_t dt;
        std::vector<int> lens(5), strides(5);
        ASSERT_EQ(miopenGetTensorDescriptor(d, &dt, lens.data(), strides.data()), miopenStatusSuccess);
        EXPECT_EQ(dt, miopenFloat);
        EXPECT_EQ(lens, (std::vector<int>{1, 3, 4, 5, 6})) << "mode " << mode;
    }
}

TEST(BatchNormPerActivation, InferenceLegacyAndV2AgainstDouble)
{
    for(const auto& lens : {std::vector<int>{3, 2, 2, 3}, std::vector<int>{2, 2, 2, 1, 3}})
    {
        PerAct b(lens);
        const double eps = 1e-3;
        std::vector<double> want(b.xv.size());
        for(std::size_t k = 0; k < b.n; ++k)
            for(std::size_t g = 0; g < b.groups; ++g)
                want[k * b.groups + g] =
                    b.scale[g] * (b.xv[k * b.groups + g] - b.mean[g]) / std::sqrt(b.var[g] + eps) + b.bias[g];
        ASSERT_EQ(miopenBatchNormalizationForwardInference(b.h, miopenBNPerActivation, &one, &zero, b.x,
                                                           b.xv.data(), b.x, b.y.data(), b.p, b.scale.data(),
                                                           b.bias.data(), b.mean.data(), b.var.data(), eps),
                  miopenStatusSuccess);
        EXPECT_LT(max_error(b.y, want), 1e-6);
        b.y.assign(b.y.size(), -99.0f);
        ASSERT_EQ(miopenBatchNormalizationForwardInference_V2(b.h, miopenBNPerActivation, &one, &zero, b.x,
                                                              b.xv.data(), b.x, b.y.data(), b.p, b.p, b.p, b.p,
                                                              b.scale.data(), b.bias.data(), b.mean.data(),
                                                              b.var.data(), eps),
                  miopenStatusSuccess);
        EXPECT_LT(max_error(b.y, want), 1e-6);
    }
}

TEST(BatchNormPerActivation, TrainingAgainstDouble)
{
    for(const auto& lens : {std::vector<int>{3, 2, 2, 3}, std::vector<int>{4, 1, 2, 2, 2}})
    {
        PerAct b(lens);
        const double eps = 1e-4, factor = 0.3;
        std::vector<float> rm(b.mean), rv(b.var), sm(b.groups, -7.0f), si(b.groups, -7.0f);
        ASSERT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNPerActivation, &one, &zero, b.x,
                                                          b.xv.data(), b.x, b.y.data(), b.p, b.scale.data(),
                                                          b.bias.data(), factor, rm.data(), rv.data(), eps,
                                                          sm.data(), si.data()),
                  miopenStatusSuccess);
        std::vector<double> want_y(b.xv.size()), want_rm(b.groups), want_rv(b.groups), want_sm(b.groups),
            want_si(b.groups);
        for(std::size_t g = 0; g < b.groups; ++g)
        {
            double m, v;
            b.moments(g, m, v);
            const double inv = 1.0 / std::sqrt(v + eps), nn = double(b.n);
            for(std::size_t k = 0; k < b.n; ++k)
                want_y[k * b.groups + g] = b.scale[g] * (b.xv[k * b.groups + g] - m) * inv + b.bias[g];
            want_rm[g] = (1 - factor) * b.mean[g] + factor * m;
            want_rv[g] = (1 - factor) * b.var[g] + factor * v * nn / (nn - 1); // unbiased, N > 1
            want_sm[g] = m;
            want_si[g] = inv;
        }
        EXPECT_LT(max_error(b.y, want_y), 1e-6);
        EXPECT_LT(max_error(rm, want_rm), 1e-6);
        EXPECT_LT(max_error(rv, want_rv), 1e-6);
        EXPECT_LT(max_error(sm, want_sm), 1e-6);
        EXPECT_LT(max_error(si, want_si), 1e-6);
    }
}

TEST(BatchNormPerActivation, BackwardSavedAndRecomputedAgainstDouble)
{
    PerAct b({3, 2, 2, 2});
    const double eps = 1e-5;
    std::vector<float> sm(b.groups), si(b.groups);
    for(std::size_t g = 0; g < b.groups; ++g)
    {
        double m, v;
        b.moments(g, m, v);
        sm[g] = float(m);
        si[g] = float(1.0 / std::sqrt(v + eps));
    }
    for(bool saved : {true, false})
    {
        std::vector<float> ds(b.groups, -99.0f), db(b.groups, -99.0f);
        ASSERT_EQ(miopenBatchNormalizationBackward(b.h, miopenBNPerActivation, &one, &zero, &one, &zero, b.x,
                                                   b.xv.data(), b.x, b.dy.data(), b.x, b.dx.data(), b.p,
                                                   b.scale.data(), ds.data(), db.data(), eps,
                                                   saved ? sm.data() : nullptr, saved ? si.data() : nullptr),
                  miopenStatusSuccess);
        std::vector<double> want_dx(b.xv.size()), want_ds(b.groups), want_db(b.groups);
        for(std::size_t g = 0; g < b.groups; ++g)
        {
            double m = sm[g], inv = si[g];
            if(!saved)
            {
                double v;
                b.moments(g, m, v);
                inv = 1.0 / std::sqrt(v + eps);
            }
            double sdy = 0, sdyxh = 0;
            for(std::size_t k = 0; k < b.n; ++k)
            {
                sdy += b.dy[k * b.groups + g];
                sdyxh += b.dy[k * b.groups + g] * (b.xv[k * b.groups + g] - m) * inv;
            }
            const double nn = double(b.n);
            for(std::size_t k = 0; k < b.n; ++k)
            {
                const double xh          = (b.xv[k * b.groups + g] - m) * inv;
                want_dx[k * b.groups + g] = b.scale[g] * inv / nn * (nn * b.dy[k * b.groups + g] - sdy - xh * sdyxh);
            }
            want_ds[g] = sdyxh;
            want_db[g] = sdy;
        }
        EXPECT_LT(max_error(b.dx, want_dx), 1e-5) << (saved ? "saved" : "recomputed");
        EXPECT_LT(max_error(ds, want_ds), 1e-5);
        EXPECT_LT(max_error(db, want_db), 1e-5);
    }
}

// Neither epsilon nor the exponential-average factor is checked by MIOpen:
// any double is taken, and the result is what the formula gives.
TEST(BatchNormArguments, EpsilonAndFactorAreNeverChecked)
{
    for(const auto mode : {miopenBNSpatial, miopenBNPerActivation})
    {
        PerAct b({2, 1, 1, 2});
        mmt::Tensor spatial_p(miopenFloat, {1, 1, 1, 1});
        const miopenTensorDescriptor_t pd = mode == miopenBNSpatial ? spatial_p.d : b.p.d;
        for(const double eps : {0.0, -1e-3, 1e6, std::numeric_limits<double>::quiet_NaN()})
        {
            EXPECT_EQ(miopenBatchNormalizationForwardInference(b.h, mode, &one, &zero, b.x, b.xv.data(), b.x,
                                                               b.y.data(), pd, b.scale.data(), b.bias.data(),
                                                               b.mean.data(), b.var.data(), eps),
                      miopenStatusSuccess)
                << eps;
            EXPECT_EQ(miopenBatchNormalizationBackward(b.h, mode, &one, &zero, &one, &zero, b.x, b.xv.data(), b.x,
                                                       b.dy.data(), b.x, b.dx.data(), pd, b.scale.data(),
                                                       b.mean.data(), b.var.data(), eps, nullptr, nullptr),
                      miopenStatusSuccess)
                << eps;
        }
        for(const double factor : {0.0, 1.0, 2.5, -0.5})
        {
            std::vector<float> rm(2, 1.0f), rv(2, 1.0f);
            ASSERT_EQ(miopenBatchNormalizationForwardTraining(b.h, mode, &one, &zero, b.x, b.xv.data(), b.x,
                                                              b.y.data(), pd, b.scale.data(), b.bias.data(), factor,
                                                              rm.data(), rv.data(), 0.0, nullptr, nullptr),
                      miopenStatusSuccess)
                << factor;
            // x = [-3, 0.5 | -2.5, 1]: the first group is position 0 of both
            // images per activation, the whole channel spatially.
            const double m = mode == miopenBNSpatial ? (-3 + 0.5 - 2.5 + 1) / 4.0 : (-3 - 2.5) / 2.0;
            EXPECT_NEAR(rm[0], (1 - factor) * 1.0 + factor * m, 1e-5) << factor;
        }
    }
}

// One buffer of a pair counts as none (batchnormocl.cpp: resultsave,
// resultrunning, useSaved, and inference's estimates).
TEST(BatchNormArguments, OneOfAPairIsNone)
{
    PerAct b({3, 1, 2, 2});
    std::vector<float> rm(b.groups, 5.0f), si(b.groups, 5.0f), y_batch(b.y.size());
    // Training with a running mean only and a saved inverse variance only: nothing written.
    ASSERT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNPerActivation, &one, &zero, b.x, b.xv.data(),
                                                      b.x, y_batch.data(), b.p, b.scale.data(), b.bias.data(), 0.5,
                                                      rm.data(), nullptr, 1e-5, nullptr, si.data()),
              miopenStatusSuccess);
    EXPECT_EQ(rm, std::vector<float>(b.groups, 5.0f));
    EXPECT_EQ(si, std::vector<float>(b.groups, 5.0f));
    // Inference with one estimate: the batch's own statistics, as training computed them.
    for(bool mean_only : {true, false})
    {
        b.y.assign(b.y.size(), -99.0f);
        ASSERT_EQ(miopenBatchNormalizationForwardInference(b.h, miopenBNPerActivation, &one, &zero, b.x,
                                                           b.xv.data(), b.x, b.y.data(), b.p, b.scale.data(),
                                                           b.bias.data(), mean_only ? b.mean.data() : nullptr,
                                                           mean_only ? nullptr : b.var.data(), 1e-5),
                  miopenStatusSuccess);
        EXPECT_EQ(b.y, y_batch);
    }
    // Backward with one saved statistic: recomputed from x, as with none.
    std::vector<float> dx_none(b.dx.size()), ds(b.groups), db(b.groups);
    ASSERT_EQ(miopenBatchNormalizationBackward(b.h, miopenBNPerActivation, &one, &zero, &one, &zero, b.x,
                                               b.xv.data(), b.x, b.dy.data(), b.x, dx_none.data(), b.p,
                                               b.scale.data(), ds.data(), db.data(), 1e-5, nullptr, nullptr),
              miopenStatusSuccess);
    std::vector<float> wrong(b.groups, 100.0f);
    ASSERT_EQ(miopenBatchNormalizationBackward(b.h, miopenBNPerActivation, &one, &zero, &one, &zero, b.x,
                                               b.xv.data(), b.x, b.dy.data(), b.x, b.dx.data(), b.p,
                                               b.scale.data(), ds.data(), db.data(), 1e-5, wrong.data(), nullptr),
              miopenStatusSuccess);
    EXPECT_EQ(b.dx, dx_none);
}

// The checks come in MIOpen's order, so a call with two faults gets the
// status of the first.
TEST(BatchNormArguments, MIOpensOrder)
{
    PerAct b({2, 1, 2, 2});
    mmt::Tensor padded(miopenFloat, {2, 1, 2, 2}, {8, 8, 4, 1}), x16(miopenHalf, {2, 1, 2, 2});
    mmt::Tensor x3(miopenFloat, {2, 2, 3}), p3(miopenFloat, {1, 2, 3});
    std::vector<float> big(16, 1.0f), out(16);
    const auto train = [&](miopenTensorDescriptor_t xd, const void* x, float* alpha) {
        return miopenBatchNormalizationForwardTraining(b.h, miopenBNPerActivation, alpha, &zero, xd, x, xd, out.data(),
                                                       b.p, b.scale.data(), b.bias.data(), 0.1, nullptr, nullptr,
                                                       1e-5, nullptr, nullptr);
    };
    EXPECT_EQ(train(b.x, nullptr, &two), miopenStatusBadParm) << "null x before alpha";
    EXPECT_EQ(train(padded, big.data(), &two), miopenStatusBadParm) << "packed before alpha";
    EXPECT_EQ(train(b.x, b.xv.data(), &two), miopenStatusUnknownError) << "alpha: a message-only throw";
    // Inference with one estimate is a training pass: its packed rule applies.
    EXPECT_EQ(miopenBatchNormalizationForwardInference(b.h, miopenBNPerActivation, &one, &zero, padded, big.data(),
                                                       padded, out.data(), b.p, b.scale.data(), b.bias.data(),
                                                       nullptr, b.var.data(), 1e-5),
              miopenStatusBadParm);
    // A 3-D x passes the rank checks and fails the problem description.
    std::vector<float> p3v(6, 1.0f);
    EXPECT_EQ(miopenBatchNormalizationForwardInference(b.h, miopenBNPerActivation, &one, &zero, x3, big.data(), x3,
                                                       out.data(), p3, p3v.data(), p3v.data(), p3v.data(),
                                                       p3v.data(), 1e-5),
              miopenStatusUnknownError);
    // Backward compares dx's type with dy's, not with x's.
    std::vector<std::uint16_t> x_half(8, mmt::to_half(1.0f));
    EXPECT_EQ(miopenBatchNormalizationBackward(b.h, miopenBNPerActivation, &one, &zero, &one, &zero, x16,
                                               x_half.data(), b.x, b.dy.data(), b.x, b.dx.data(), b.p,
                                               b.scale.data(), nullptr, nullptr, 1e-5, nullptr, nullptr),
              miopenStatusSuccess);
    EXPECT_EQ(miopenBatchNormalizationBackward(b.h, miopenBNPerActivation, &one, &zero, &one, &zero, b.x,
                                               b.xv.data(), b.x, b.dy.data(), x16, x_half.data(), b.p,
                                               b.scale.data(), nullptr, nullptr, 1e-5, nullptr, nullptr),
              miopenStatusBadParm);
}

// MIOpen's kernels take any mode but spatial as per-activation; backward has
// no solver for it.
TEST(BatchNormArguments, AnInvalidModeIsPerActivationForwardOnly)
{
    PerAct b({2, 1, 2, 2});
    const auto seven = static_cast<miopenBatchNormMode_t>(7);
    std::vector<float> y_per_act(b.y.size());
    ASSERT_EQ(miopenBatchNormalizationForwardInference(b.h, miopenBNPerActivation, &one, &zero, b.x, b.xv.data(),
                                                       b.x, y_per_act.data(), b.p, b.scale.data(), b.bias.data(),
                                                       b.mean.data(), b.var.data(), 1e-5),
              miopenStatusSuccess);
    ASSERT_EQ(miopenBatchNormalizationForwardInference(b.h, seven, &one, &zero, b.x, b.xv.data(), b.x, b.y.data(),
                                                       b.p, b.scale.data(), b.bias.data(), b.mean.data(),
                                                       b.var.data(), 1e-5),
              miopenStatusSuccess);
    EXPECT_EQ(b.y, y_per_act);
    EXPECT_EQ(miopenBatchNormalizationForwardTraining(b.h, seven, &one, &zero, b.x, b.xv.data(), b.x, b.y.data(),
                                                      b.p, b.scale.data(), b.bias.data(), 0.1, nullptr, nullptr,
                                                      1e-5, nullptr, nullptr),
              miopenStatusSuccess);
    EXPECT_EQ(miopenBatchNormalizationBackward(b.h, seven, &one, &zero, &one, &zero, b.x, b.xv.data(), b.x,
                                               b.dy.data(), b.x, b.dx.data(), b.p, b.scale.data(), nullptr,
                                               nullptr, 1e-5, nullptr, nullptr),
              miopenStatusNotImplemented);
}
