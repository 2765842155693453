// miopenBatchNormForwardInferenceActivation (newer than MIOpen 3.3.0;
// ROCm/rocm-libraries projects/miopen src/batch_norm_api.cpp): the inference
// of miopenBatchNormalizationForwardInference_V2 with an activation applied
// to each output value; a null activation descriptor is the plain inference
// (its _V2 calls it so there). The statuses are the inference's.
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

struct BnAct
{
    mmt::Handle h;
    mmt::Tensor x{miopenFloat, {2, 2, 2, 2}}, p{miopenFloat, {1, 2, 1, 1}};
    std::vector<float> xv, y = std::vector<float>(16, -9.0f);
    std::vector<float> scale = {2.0f, -1.5f}, bias = {0.25f, 0.5f}, mean = {0.5f, -1.0f}, var = {4.0f, 0.25f};
    double eps = 1e-3;

    BnAct()
    {
        for(int i = 0; i < 16; ++i)
            xv.push_back(std::sin(0.9 * i) * 3.0f);
    }

    miopenStatus_t run(miopenActivationDescriptor_t act, float alpha = 1.0f, float beta = 0.0f)
    {
        return miopenBatchNormForwardInferenceActivation(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                         y.data(), p, p, p, p, scale.data(), bias.data(),
                                                         mean.data(), var.data(), eps, act);
    }

    // The batchnorm value of element i (NCHW, C = 2, HW = 4), in double.
    double bn(int i) const
    {
        const int c = (i / 4) % 2;
        return scale[size_t(c)] * (xv[size_t(i)] - mean[size_t(c)]) / std::sqrt(double(var[size_t(c)]) + eps) +
               bias[size_t(c)];
    }
};

} // namespace

TEST(BatchNormActivation, AppliesEachForwardActivationAfterTheInference)
{
    struct Case
    {
        miopenActivationMode_t mode;
        double a, b;
        double (*f)(double v, double a, double b);
    };
    const Case cases[] = {
        {miopenActivationRELU, 0, 0, [](double v, double, double) { return std::max(0.0, v); }},
        {miopenActivationCLIPPEDRELU, 1.5, 0, [](double v, double a, double) { return std::min(a, std::max(0.0, v)); }},
        {miopenActivationCLAMP, -0.5, 1.0, [](double v, double a, double b) { return std::min(b, std::max(a, v)); }},
    };
    for(const auto& c : cases)
    {
        BnAct t;
        mmt::Activ act(c.mode, c.a, c.b, 0.0);
        ASSERT_EQ(t.run(act.d), miopenStatusSuccess);
        int changed = 0;
        for(int i = 0; i < 16; ++i)
        {
            EXPECT_NEAR(t.y[size_t(i)], c.f(t.bn(i), c.a, c.b), 1e-5) << "mode " << c.mode << " element " << i;
            changed += std::abs(c.f(t.bn(i), c.a, c.b) - t.bn(i)) > 1e-3;
        }
        EXPECT_GT(changed, 0) << "the data exercise the activation";
    }
}

TEST(BatchNormActivation, NullDescriptorIsThePlainInference)
{
    BnAct t;
    ASSERT_EQ(t.run(nullptr), miopenStatusSuccess);
    std::vector<float> plain(16, -9.0f);
    float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(miopenBatchNormalizationForwardInference_V2(t.h, miopenBNSpatial, &one, &zero, t.x, t.xv.data(), t.x,
                                                          plain.data(), t.p, t.p, t.p, t.p, t.scale.data(),
                                                          t.bias.data(), t.mean.data(), t.var.data(), t.eps),
              miopenStatusSuccess);
    EXPECT_EQ(t.y, plain);
    EXPECT_TRUE(std::any_of(plain.begin(), plain.end(), [](float v) { return v < 0; })) << "negatives kept";
}

TEST(BatchNormActivation, TheInferenceChecksComeFirst)
{
    BnAct t;
    mmt::Activ act(miopenActivationRELU);
    EXPECT_EQ(t.run(act.d, 0.5f, 0.0f), miopenStatusBadParm);
    EXPECT_EQ(t.y, std::vector<float>(16, -9.0f)) << "nothing written";
    EXPECT_EQ(miopenBatchNormForwardInferenceActivation(t.h, miopenBNSpatial, nullptr, nullptr, t.x, nullptr, t.x,
                                                        t.y.data(), t.p, t.p, t.p, t.p, t.scale.data(),
                                                        t.bias.data(), t.mean.data(), t.var.data(), t.eps, act.d),
              miopenStatusBadParm);
}

// miopenBatchNormBackwardActivation (rocm-libraries projects/miopen
// src/batch_norm_api.cpp @c0f1ee89): the backward with the forward's
// activation, bn recomputed from x and the saved statistics; its result is
// the plain backward's with dy masked by RELU's derivative at bn.
namespace {

struct BnBwdAct
{
    mmt::Handle h;
    mmt::Tensor x{miopenFloat, {2, 2, 2, 2}}, p{miopenFloat, {1, 2, 1, 1}};
    std::vector<float> xv, dy, dx = std::vector<float>(16, -9.0f), ds = {-9, -9}, db = {-9, -9};
    std::vector<float> scale = {2.0f, -1.5f}, bias = {0.25f, 0.5f}, mean = {0.5f, -1.0f}, inv = {0.5f, 2.0f};

    BnBwdAct()
    {
        for(int i = 0; i < 16; ++i)
        {
            xv.push_back(std::sin(0.9 * i) * 3.0f);
            dy.push_back(std::cos(1.3 * i));
        }
    }

    miopenStatus_t run(miopenActivationDescriptor_t act, const void* b, const void* m, const void* iv)
    {
        const float one = 1.0f, zero = 0.0f;
        return miopenBatchNormBackwardActivation(h, miopenBNSpatial, &one, &zero, &one, &zero, x, xv.data(), x,
                                                 dy.data(), x, dx.data(), p, p, p, p, scale.data(), b, ds.data(),
                                                 db.data(), 1e-5, m, iv, act);
    }

    // The plain backward with the saved statistics on `g`.
    miopenStatus_t plain(const std::vector<float>& g, std::vector<float>& out, std::vector<float>& s,
                         std::vector<float>& b)
    {
        const float one = 1.0f, zero = 0.0f;
        return miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, &one, &zero, &one, &zero, x, xv.data(), x,
                                                   g.data(), x, out.data(), p, p, p, p, scale.data(), s.data(),
                                                   b.data(), 1e-5, mean.data(), inv.data());
    }
};

} // namespace

TEST(BatchNormBackwardActivation, IsThePlainBackwardOfTheMaskedGradient)
{
    BnBwdAct t;
    mmt::Activ act(miopenActivationRELU);
    ASSERT_EQ(t.run(act.d, t.bias.data(), t.mean.data(), t.inv.data()), miopenStatusSuccess);
    std::vector<float> g = t.dy;
    int masked = 0;
    for(int i = 0; i < 16; ++i)
    {
        const int c = (i / 4) % 2;
        const float bn = t.scale[size_t(c)] * ((t.xv[size_t(i)] - t.mean[size_t(c)]) * t.inv[size_t(c)]) + t.bias[size_t(c)];
        if(!(bn > 0))
        {
            g[size_t(i)] = 0;
            ++masked;
        }
    }
    ASSERT_GT(masked, 0) << "the data exercise the derivative";
    ASSERT_LT(masked, 16);
    std::vector<float> dx(16, -9.0f), ds(2, -9.0f), db(2, -9.0f);
    ASSERT_EQ(t.plain(g, dx, ds, db), miopenStatusSuccess);
    for(int i = 0; i < 16; ++i)
        EXPECT_NEAR(t.dx[size_t(i)], dx[size_t(i)], 1e-5) << i;
    for(int c = 0; c < 2; ++c)
    {
        EXPECT_NEAR(t.ds[size_t(c)], ds[size_t(c)], 1e-5);
        EXPECT_NEAR(t.db[size_t(c)], db[size_t(c)], 1e-5);
    }
}

TEST(BatchNormBackwardActivation, NullDescriptorIsThePlainBackward)
{
    BnBwdAct t;
    ASSERT_EQ(t.run(nullptr, nullptr, t.mean.data(), t.inv.data()), miopenStatusSuccess);
    std::vector<float> dx(16, -9.0f), ds(2, -9.0f), db(2, -9.0f);
    ASSERT_EQ(t.plain(t.dy, dx, ds, db), miopenStatusSuccess);
    EXPECT_EQ(t.dx, dx);
}

TEST(BatchNormBackwardActivation, WithAnActivationTheBiasAndSavedStatisticsAreRequired)
{
    mmt::Activ act(miopenActivationRELU);
    for(int missing = 0; missing < 3; ++missing)
    {
        BnBwdAct t;
        EXPECT_EQ(t.run(act.d, missing == 0 ? nullptr : t.bias.data(), missing == 1 ? nullptr : t.mean.data(),
                        missing == 2 ? nullptr : t.inv.data()),
                  miopenStatusBadParm)
            << missing;
        EXPECT_EQ(t.dx, std::vector<float>(16, -9.0f)) << "nothing written";
    }
}
