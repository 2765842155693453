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
