// Activation entry points and fusion plans (checked against separate calls).
#include "common.hpp"

#include <cmath>

namespace {

const float kOne = 1.0f, kZero = 0.0f;

} // namespace

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

// conv (3x3, pad 1) -> bias -> activation on a 1x2x4x4 input with 3 output
// channels, computed with separate API calls.
struct FusionCase
{
    miopenDataType_t type;
    mmt::Tensor x, w, y, b;
    mmt::Conv conv{1, 1, 1};
    std::vector<float> xf, wf, bf;

    explicit FusionCase(miopenDataType_t t)
        : type(t),
          x(t, {1, 2, 4, 4}),
          w(t, {3, 2, 3, 3}),
          y(t, {1, 3, 4, 4}),
          b(t, {1, 3, 1, 1})
    {
        for(int i = 0; i < 32; ++i)
            xf.push_back(static_cast<float>((i * 7) % 11) - 5.0f);
        for(int i = 0; i < 54; ++i)
            wf.push_back(static_cast<float>((i * 5) % 7) - 3.0f);
        bf = {-20.0f, 0.5f, 4.0f};
    }

    std::vector<std::uint16_t> Enc(const std::vector<float>& v) const
    {
        std::vector<std::uint16_t> out;
        for(float f : v)
            out.push_back(type == miopenHalf ? mmt::to_half(f) : mmt::to_bf16(f));
        return out;
    }
};

template <class T>
std::vector<T> RunSeparate(miopenHandle_t h,
                           FusionCase& c,
                           const std::vector<T>& x,
                           const std::vector<T>& w,
                           const std::vector<T>& b,
                           miopenActivationDescriptor_t act)
{
    std::vector<T> y(48), z(48);
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, c.x, x.data(), c.w, w.data(), c.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, c.y, y.data(), nullptr, 0),
              miopenStatusSuccess);
    EXPECT_EQ(miopenConvolutionForwardBias(h, &kOne, c.b, b.data(), &kZero, c.y, y.data()),
              miopenStatusSuccess);
    EXPECT_EQ(miopenActivationForward(h, act, &kOne, c.y, y.data(), &kZero, c.y, z.data()),
              miopenStatusSuccess);
    return z;
}

template <class T>
std::vector<T> RunFused(miopenHandle_t h,
                        FusionCase& c,
                        const std::vector<T>& x,
                        const std::vector<T>& w,
                        const std::vector<T>& b,
                        miopenActivationMode_t mode,
                        double a,
                        double be)
{
    std::vector<T> y(48);
    miopenFusionPlanDescriptor_t plan;
    EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    miopenFusionOpDescriptor_t conv_op, bias_op, act_op;
    EXPECT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
    EXPECT_EQ(miopenCreateOpBiasForward(plan, &bias_op, c.b), miopenStatusSuccess);
    EXPECT_EQ(miopenCreateOpActivationForward(plan, &act_op, mode), miopenStatusSuccess);
    EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
    miopenOperatorArgs_t args;
    EXPECT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    EXPECT_EQ(miopenSetOpArgsConvForward(args, conv_op, &kOne, &kZero, w.data()), miopenStatusSuccess);
    EXPECT_EQ(miopenSetOpArgsBiasForward(args, bias_op, &kOne, &kZero, b.data()), miopenStatusSuccess);
    EXPECT_EQ(miopenSetOpArgsActivForward(args, act_op, &kOne, &kZero, a, be, 0.0), miopenStatusSuccess);
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, x.data(), c.y, y.data(), args), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyOperatorArgs(args), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
    return y;
}

} // namespace

TEST(Fusion, ConvBiasActivationEqualsSeparateCallsFp32)
{
    mmt::Handle h;
    FusionCase c(miopenFloat);
    struct
    {
        miopenActivationMode_t mode;
        double a, b;
    } cases[] = {{miopenActivationRELU, 0, 0},
                 {miopenActivationCLIPPEDRELU, 6.0, 0},
                 {miopenActivationCLAMP, -3.0, 5.0}};
    for(const auto& k : cases)
    {
        mmt::Activ act(k.mode, k.a, k.b);
        const auto separate = RunSeparate(h, c, c.xf, c.wf, c.bf, act);
        const auto fused    = RunFused(h, c, c.xf, c.wf, c.bf, k.mode, k.a, k.b);
        EXPECT_EQ(fused, separate) << "mode " << k.mode;
        // The activation must have done something on this data.
        bool clipped = false;
        for(float v : fused)
            clipped = clipped || v == 0.0f || v == 6.0f || v == -3.0f || v == 5.0f;
        EXPECT_TRUE(clipped) << "mode " << k.mode;

        // Same through the one-call API.
        std::vector<float> y(48);
        ASSERT_EQ(miopenConvolutionBiasActivationForward(h, &kOne, c.x, c.xf.data(), c.w, c.wf.data(),
                                                         c.conv, miopenConvolutionFwdAlgoDirect,
                                                         nullptr, 0, &kOne, nullptr, nullptr, c.b,
                                                         c.bf.data(), act, c.y, y.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(y, separate);
    }
}

TEST(Fusion, ConvBiasReluEqualsSeparateCallsFp16)
{
    mmt::Handle h;
    FusionCase c(miopenHalf);
    mmt::Activ act(miopenActivationRELU);
    const auto x = c.Enc(c.xf), w = c.Enc(c.wf), b = c.Enc(c.bf);
    const auto separate = RunSeparate(h, c, x, w, b, act);
    const auto fused    = RunFused(h, c, x, w, b, miopenActivationRELU, 0, 0);
    EXPECT_EQ(fused, separate);
}

TEST(Fusion, PlanErrors)
{
    mmt::Handle h;
    FusionCase c(miopenFloat);
    miopenFusionPlanDescriptor_t plan;
    EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, c.x), miopenStatusNotImplemented);
    EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenCreateFusionPlan(nullptr, miopenVerticalFusion, c.x), miopenStatusBadParm);

    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    miopenFusionOpDescriptor_t act_op, conv_op, got;
    // Activation before the convolution cannot be fused.
    ASSERT_EQ(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
    EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusUnsupportedOp);
    ASSERT_EQ(miopenFusionPlanGetOp(plan, 1, &got), miopenStatusSuccess);
    EXPECT_EQ(got, conv_op);
    EXPECT_EQ(miopenFusionPlanGetOp(plan, 2, &got), miopenStatusBadParm);
    miopenOperatorArgs_t args;
    ASSERT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    // Argument setter for the wrong kind of operator.
    EXPECT_EQ(miopenSetOpArgsBiasForward(args, conv_op, &kOne, &kZero, c.bf.data()), miopenStatusBadParm);
    std::vector<float> y(48);
    // Not compiled.
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args), miopenStatusBadParm);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);

    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
    ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
    size_t ws = 1;
    EXPECT_EQ(miopenFusionPlanGetWorkSpaceSize(h, plan, &ws, miopenConvolutionFwdAlgoDirect),
              miopenStatusSuccess);
    EXPECT_EQ(ws, 0u);
    int n = 0;
    miopenConvFwdAlgorithm_t algos[4];
    ASSERT_EQ(miopenFusionPlanConvolutionGetAlgo(plan, 4, &n, algos), miopenStatusSuccess);
    ASSERT_EQ(n, 1);
    EXPECT_EQ(algos[0], miopenConvolutionFwdAlgoDirect);
    EXPECT_EQ(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoDirect), miopenStatusSuccess);
    EXPECT_EQ(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoWinograd),
              miopenStatusNotImplemented);
    // Arguments for the convolution never set.
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args), miopenStatusBadParm);
    ASSERT_EQ(miopenSetOpArgsConvForward(args, conv_op, &kOne, &kZero, c.wf.data()), miopenStatusSuccess);
    // Output descriptor that is not the plan's output.
    mmt::Tensor wrong(miopenFloat, {1, 2, 4, 4});
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), wrong, y.data(), args), miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.y, c.xf.data(), c.y, y.data(), args), miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan(nullptr, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyOperatorArgs(args), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);

    // The one-call API only takes alpha1 = alpha2 = 1.
    mmt::Activ act(miopenActivationRELU);
    const float two = 2.0f;
    EXPECT_EQ(miopenConvolutionBiasActivationForward(h, &two, c.x, c.xf.data(), c.w, c.wf.data(), c.conv,
                                                     miopenConvolutionFwdAlgoDirect, nullptr, 0, &kOne,
                                                     nullptr, nullptr, c.b, c.bf.data(), act, c.y, y.data()),
              miopenStatusNotImplemented);
}
