// Activation entry points and the one-call convolution + bias + activation
// (the statuses of the fusion plan MIOpen runs it as). Fusion plans: test_fusion_plan.cpp.
#include "fusion_case.hpp"

#include <cmath>

using mmt::kOne;
using mmt::kZero;

TEST(Activation, DescriptorRoundTrip)
{
    mmt::Activ a(miopenActivationCLIPPEDRELU, 6.0, 0.5, 2.0);
    miopenActivationMode_t m;
    double al, be, ga;
    ASSERT_EQ(miopenGetActivationDescriptor(a, &m, &al, &be, &ga), miopenStatusSuccess);
    EXPECT_EQ(m, miopenActivationCLIPPEDRELU);
    EXPECT_EQ(al, 6.0);
    EXPECT_EQ(be, 0.5);
    EXPECT_EQ(ga, 2.0);
    EXPECT_EQ(miopenSetActivationDescriptor(a, static_cast<miopenActivationMode_t>(42), 0, 0, 0),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetActivationDescriptor(nullptr, miopenActivationRELU, 0, 0, 0), miopenStatusBadParm);
    EXPECT_EQ(miopenCreateActivationDescriptor(nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenGetActivationDescriptor(a, nullptr, &al, &be, &ga), miopenStatusBadParm);
}

TEST(Activation, ForwardAndBackwardHandWorked)
{
    mmt::Handle h;
    mmt::Tensor t(miopenFloat, {1, 1, 1, 4});
    const std::vector<float> x = {-2, -0.5f, 0.5f, 3};
    {
        mmt::Activ relu(miopenActivationRELU);
        std::vector<float> y(4, 9.0f);
        ASSERT_EQ(miopenActivationForward(h, relu, &kOne, t, x.data(), &kZero, t, y.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(y, (std::vector<float>{0, 0, 0.5f, 3}));
        // Gradient passes only where x > 0.
        const std::vector<float> dy = {1, 2, 3, 4};
        std::vector<float> dx(4, 9.0f);
        ASSERT_EQ(miopenActivationBackward(h, relu, &kOne, t, y.data(), t, dy.data(), t, x.data(), &kZero,
                                           t, dx.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(dx, (std::vector<float>{0, 0, 3, 4}));
    }
    {
        // Clamp to [-1, 1] with alpha 2 and beta 1 on y = 10: y = 2 * clamp(x) + 10.
        mmt::Activ clamp(miopenActivationCLAMP, -1.0, 1.0);
        std::vector<float> y(4, 10.0f);
        const float two = 2.0f;
        ASSERT_EQ(miopenActivationForward(h, clamp, &two, t, x.data(), &kOne, t, y.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(y, (std::vector<float>{8, 9, 11, 12}));
    }
}

TEST(Activation, InvalidArguments)
{
    mmt::Handle h;
    mmt::Activ relu(miopenActivationRELU);
    mmt::Tensor t(miopenFloat, {1, 1, 1, 4}), t5(miopenFloat, {1, 1, 1, 5}), th(miopenHalf, {1, 1, 1, 4});
    mmt::Tensor tb(miopenBFloat16, {1, 1, 1, 4});
    std::vector<float> x(5), y(5);
    EXPECT_EQ(miopenActivationForward(nullptr, relu, &kOne, t, x.data(), &kZero, t, y.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenActivationForward(h, nullptr, &kOne, t, x.data(), &kZero, t, y.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenActivationForward(h, relu, &kOne, nullptr, x.data(), &kZero, t, y.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenActivationForward(h, relu, &kOne, t, x.data(), &kZero, t5, y.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenActivationForward(h, relu, &kOne, t, x.data(), &kZero, th, y.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenActivationForward(h, relu, &kOne, t, nullptr, &kZero, t, y.data()),
              miopenStatusBadParm);
    // bfloat16 activations are not implemented (as in MIOpen).
    EXPECT_EQ(miopenActivationForward(h, relu, &kOne, tb, x.data(), &kZero, tb, y.data()),
              miopenStatusNotImplemented);
}

namespace {

// conv (3x3, pad 1) -> bias -> activation on a 1x2x4x4 input with 3 output channels.
const mmt::ConvShape k3x3{1, 2, 4, 4, 3, 3, 3, 1, 1};

} // namespace

namespace {

// The one-call form on case c with activation `act`, alpha1 `alpha1`, and
// zDesc / biasDesc as given.
miopenStatus_t OneCall(mmt::FusionCase& c,
                       miopenActivationDescriptor_t act,
                       const float* alpha1,
                       miopenTensorDescriptor_t z_desc,
                       miopenTensorDescriptor_t bias_desc)
{
    mmt::Handle h;
    std::vector<float> y(c.OutSize());
    return miopenConvolutionBiasActivationForward(h, alpha1, c.x, c.xf.data(), c.w, c.wf.data(),
                                                  c.conv, miopenConvolutionFwdAlgoDirect, nullptr, 0,
                                                  &kOne, z_desc, nullptr, bias_desc, c.bf.data(), act,
                                                  c.y, y.data());
}

} // namespace

// MIOpen builds conv -> z addition -> bias -> activation as a fusion plan;
// no fused solver of a target without Composable Kernel takes the addition,
// so a valid call fails at that plan's compile. A plan of the same operators
// less the addition compiles (the fused solvers exist for it).
TEST(Fusion, ConvBiasActivationOneCallHasNoFusedSolver)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    mmt::Activ act(miopenActivationRELU);
    EXPECT_EQ(OneCall(c, act, &kOne, c.y, c.b), miopenStatusUnsupportedOp);
    mmt::Handle h;
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t conv = nullptr, bias = nullptr, relu = nullptr;
    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateOpConvForward(plan, &conv, c.conv, c.w), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateOpBiasForward(plan, &bias, c.b), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateOpActivationForward(plan, &relu, miopenActivationRELU), miopenStatusSuccess);
    EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
}

// Before the compile: RELU only (NotImplemented), every descriptor
// dereferenced (zDesc and biasDesc null: BadParm), alpha1 not checked.
TEST(Fusion, ConvBiasActivationOneCallStatusesBeforeTheCompile)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    mmt::Activ relu(miopenActivationRELU);
    for(const auto& k : mmt::kFusedActivations)
    {
        mmt::Activ act(k.mode, k.alpha, k.beta);
        EXPECT_EQ(OneCall(c, act, &kOne, c.y, c.b),
                  k.mode == miopenActivationRELU ? miopenStatusUnsupportedOp
                                                 : miopenStatusNotImplemented)
            << "mode " << k.mode;
    }
    EXPECT_EQ(OneCall(c, relu, &kOne, nullptr, c.b), miopenStatusBadParm);
    EXPECT_EQ(OneCall(c, relu, &kOne, c.y, nullptr), miopenStatusBadParm);
    const float two = 2.0f;
    EXPECT_EQ(OneCall(c, relu, &two, c.y, c.b), miopenStatusUnsupportedOp);
    EXPECT_EQ(OneCall(c, relu, nullptr, c.y, c.b), miopenStatusUnsupportedOp);
}
