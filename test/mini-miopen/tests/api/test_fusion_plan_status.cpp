// MIOpen's statuses of the fusion plan entry points, quirks included
// (test/mini-miopen/README.md, "Fusion plans").
#include "fusion_case.hpp"

#include <algorithm>
#include <cmath>

using mmt::kOne;
using mmt::kZero;

namespace {

const mmt::ConvShape k3x3{1, 2, 4, 4, 3, 3, 3, 1, 1};

// A compiled conv -> bias -> relu plan with its arguments set.
struct CompiledPlan
{
    mmt::FusionCase c{miopenFloat, k3x3};
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    miopenFusionOpDescriptor_t conv_op = nullptr, bias_op = nullptr, act_op = nullptr;
    std::vector<float> y = std::vector<float>(c.OutSize());

    explicit CompiledPlan(miopenHandle_t h)
    {
        EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
        EXPECT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
        EXPECT_EQ(miopenCreateOpBiasForward(plan, &bias_op, c.b), miopenStatusSuccess);
        EXPECT_EQ(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU),
                  miopenStatusSuccess);
        EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
        EXPECT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
        EXPECT_EQ(miopenSetOpArgsConvForward(args, conv_op, &kOne, &kZero, c.wf.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(miopenSetOpArgsBiasForward(args, bias_op, &kOne, &kZero, c.bf.data()),
                  miopenStatusSuccess);
        EXPECT_EQ(miopenSetOpArgsActivForward(args, act_op, &kOne, &kZero, 0, 0, 0),
                  miopenStatusSuccess);
    }
    ~CompiledPlan()
    {
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
    miopenStatus_t Execute(miopenHandle_t h, miopenTensorDescriptor_t in, miopenTensorDescriptor_t out)
    {
        return miopenExecuteFusionPlan(h, plan, in, c.xf.data(), out, y.data(), args);
    }
};

} // namespace

TEST(FusionPlanStatus, CreateAndDestroy)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    miopenFusionPlanDescriptor_t plan = nullptr;
    // MIOpen stores the direction without a check.
    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, c.x), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
    EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenCreateFusionPlan(nullptr, miopenVerticalFusion, c.x), miopenStatusBadParm);
    // Destroying null is a no-op success, as MIOpen's delete of null.
    EXPECT_EQ(miopenDestroyFusionPlan(nullptr), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyOperatorArgs(nullptr), miopenStatusSuccess);
    EXPECT_EQ(miopenCreateOperatorArgs(nullptr), miopenStatusBadParm);
}

TEST(FusionPlanStatus, CreatingOperators)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    miopenFusionPlanDescriptor_t plan;
    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    miopenFusionOpDescriptor_t op = nullptr, got = nullptr;
    // A null argument is an unknown error (MIOpen drops try_'s status here).
    EXPECT_EQ(miopenCreateOpConvForward(nullptr, &op, c.conv, c.w), miopenStatusUnknownError);
    EXPECT_EQ(miopenCreateOpConvForward(plan, nullptr, c.conv, c.w), miopenStatusUnknownError);
    EXPECT_EQ(miopenCreateOpConvForward(plan, &op, nullptr, c.w), miopenStatusUnknownError);
    EXPECT_EQ(miopenCreateOpBiasForward(plan, &op, nullptr), miopenStatusUnknownError);
    EXPECT_EQ(miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, nullptr),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenCreateOpActivationForward(plan, nullptr, miopenActivationRELU),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenFusionPlanGetOp(plan, 0, &got), miopenStatusBadParm);
    // A filter that does not fit the input: the plan's own status, and the
    // operator stays out of the plan.
    mmt::Tensor wrong(miopenFloat, {3, 5, 3, 3});
    EXPECT_EQ(miopenCreateOpConvForward(plan, &op, c.conv, wrong), miopenStatusBadParm);
    EXPECT_EQ(miopenFusionPlanGetOp(plan, 0, &got), miopenStatusBadParm);
    // The mode is not checked when the operator is created.
    ASSERT_EQ(miopenCreateOpConvForward(plan, &op, c.conv, c.w), miopenStatusSuccess);
    miopenFusionOpDescriptor_t act = nullptr;
    ASSERT_EQ(miopenCreateOpActivationForward(plan, &act, static_cast<miopenActivationMode_t>(42)),
              miopenStatusSuccess);
    ASSERT_EQ(miopenFusionPlanGetOp(plan, 1, &got), miopenStatusSuccess);
    EXPECT_EQ(got, act);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
}

TEST(FusionPlanStatus, PlanQueries)
{
    mmt::Handle h;
    CompiledPlan p(h);
    miopenFusionOpDescriptor_t got = nullptr;
    ASSERT_EQ(miopenFusionPlanGetOp(p.plan, 2, &got), miopenStatusSuccess);
    EXPECT_EQ(got, p.act_op);
    EXPECT_EQ(miopenFusionPlanGetOp(p.plan, 3, &got), miopenStatusBadParm);
    EXPECT_EQ(miopenFusionPlanGetOp(p.plan, -1, &got), miopenStatusBadParm);
    EXPECT_EQ(miopenFusionPlanGetOp(nullptr, 0, &got), miopenStatusBadParm);
    // The plan call succeeded before the null output was written.
    EXPECT_EQ(miopenFusionPlanGetOp(p.plan, 0, nullptr), miopenStatusSuccess);

    size_t ws = 7;
    EXPECT_EQ(miopenFusionPlanGetWorkSpaceSize(h, p.plan, &ws, miopenConvolutionFwdAlgoGEMM),
              miopenStatusSuccess);
    EXPECT_EQ(ws, 0u);
    EXPECT_EQ(miopenFusionPlanGetWorkSpaceSize(nullptr, p.plan, &ws, miopenConvolutionFwdAlgoDirect),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenFusionPlanGetWorkSpaceSize(h, nullptr, &ws, miopenConvolutionFwdAlgoDirect),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenFusionPlanGetWorkSpaceSize(h, p.plan, nullptr, miopenConvolutionFwdAlgoDirect),
              miopenStatusSuccess);

    EXPECT_EQ(miopenCompileFusionPlan(nullptr, p.plan), miopenStatusUnknownError);
    EXPECT_EQ(miopenCompileFusionPlan(h, nullptr), miopenStatusUnknownError);
}

TEST(FusionPlanStatus, AlgorithmQueries)
{
    mmt::Handle h;
    CompiledPlan p(h);
    miopenConvFwdAlgorithm_t algos[4] = {};
    int n = 0;
    ASSERT_EQ(miopenFusionPlanConvolutionGetAlgo(p.plan, 4, &n, algos), miopenStatusSuccess);
    ASSERT_EQ(n, 2);
    EXPECT_EQ(algos[0], miopenConvolutionFwdAlgoDirect);
    EXPECT_EQ(algos[1], miopenConvolutionFwdAlgoWinograd);
    ASSERT_EQ(miopenFusionPlanConvolutionGetAlgo(p.plan, 1, &n, algos), miopenStatusSuccess);
    EXPECT_EQ(n, 1);
    // No bound is checked: a negative request is handed back.
    ASSERT_EQ(miopenFusionPlanConvolutionGetAlgo(p.plan, -3, &n, algos), miopenStatusSuccess);
    EXPECT_EQ(n, -3);
    EXPECT_EQ(miopenFusionPlanConvolutionGetAlgo(p.plan, 2, nullptr, algos), miopenStatusSuccess);
    EXPECT_EQ(miopenFusionPlanConvolutionGetAlgo(p.plan, 2, &n, nullptr), miopenStatusUnknownError);
    EXPECT_EQ(miopenFusionPlanConvolutionGetAlgo(nullptr, 2, &n, algos), miopenStatusUnknownError);

    // The choice is recorded; compilation does not filter on it (MIOpen's
    // fused solvers all count as the fusion primitive).
    EXPECT_EQ(miopenFusionPlanConvolutionSetAlgo(p.plan, miopenConvolutionFwdAlgoGEMM),
              miopenStatusSuccess);
    EXPECT_EQ(miopenCompileFusionPlan(h, p.plan), miopenStatusSuccess);
    EXPECT_EQ(miopenFusionPlanConvolutionSetAlgo(nullptr, miopenConvolutionFwdAlgoDirect),
              miopenStatusUnknownError);
}

TEST(FusionPlanStatus, ArgumentSetters)
{
    mmt::Handle h;
    CompiledPlan p(h);
    // Another kind of operator fails MIOpen's dynamic_cast (std::bad_cast).
    EXPECT_EQ(miopenSetOpArgsBiasForward(p.args, p.conv_op, &kOne, &kZero, p.c.bf.data()),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenSetOpArgsConvForward(p.args, p.act_op, &kOne, &kZero, p.c.wf.data()),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenSetOpArgsBatchNormInference(p.args, p.bias_op, nullptr, nullptr, nullptr,
                                                nullptr, nullptr, nullptr, 1e-5),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenSetOpArgsConvForward(p.args, nullptr, &kOne, &kZero, p.c.wf.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetOpArgsConvForward(nullptr, p.conv_op, &kOne, &kZero, p.c.wf.data()),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetOpArgsActivForward(nullptr, p.act_op, &kOne, &kZero, 0, 0, 0),
              miopenStatusBadParm);
}

TEST(FusionPlanStatus, Execute)
{
    mmt::Handle h;
    CompiledPlan p(h);
    ASSERT_EQ(p.Execute(h, p.c.x, p.c.y), miopenStatusSuccess);
    // Descriptors are compared whole: the same lengths with other strides differ.
    mmt::Tensor padded(miopenFloat, {1, 3, 4, 4}, {64, 16, 4, 1});
    EXPECT_EQ(p.Execute(h, p.c.x, padded), miopenStatusBadParm);
    EXPECT_EQ(p.Execute(h, p.c.y, p.c.y), miopenStatusBadParm);
    EXPECT_EQ(p.Execute(nullptr, p.c.x, p.c.y), miopenStatusBadParm);
    EXPECT_EQ(p.Execute(h, nullptr, p.c.y), miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan(h, p.plan, p.c.x, nullptr, p.c.y, p.y.data(), p.args),
              miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan(h, p.plan, p.c.x, p.c.xf.data(), p.c.y, p.y.data(), nullptr),
              miopenStatusBadParm);
    // A null workspace must come with size 0; a larger workspace than needed is fine.
    std::vector<char> ws(32);
    EXPECT_EQ(miopenExecuteFusionPlan_v2(h, p.plan, p.c.x, p.c.xf.data(), p.c.y, p.y.data(), p.args,
                                         nullptr, 16),
              miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan_v2(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr, 16),
              miopenStatusBadParm);
    EXPECT_EQ(miopenExecuteFusionPlan_v2(h, p.plan, p.c.x, p.c.xf.data(), p.c.y, p.y.data(), p.args,
                                         ws.data(), ws.size()),
              miopenStatusSuccess);

    // Arguments never set for an operator.
    miopenOperatorArgs_t empty;
    ASSERT_EQ(miopenCreateOperatorArgs(&empty), miopenStatusSuccess);
    EXPECT_EQ(miopenExecuteFusionPlan(h, p.plan, p.c.x, p.c.xf.data(), p.c.y, p.y.data(), empty),
              miopenStatusBadParm);
    EXPECT_EQ(miopenDestroyOperatorArgs(empty), miopenStatusSuccess);
}

TEST(FusionPlanStatus, ExecuteBeforeCompileAndAfterAFailedCompile)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3);
    miopenFusionPlanDescriptor_t plan;
    ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
    miopenFusionOpDescriptor_t conv_op, act_op;
    ASSERT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
    miopenOperatorArgs_t args;
    ASSERT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    ASSERT_EQ(miopenSetOpArgsConvForward(args, conv_op, &kOne, &kZero, c.wf.data()),
              miopenStatusSuccess);
    std::vector<float> y(c.OutSize());
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusBadParm);
    ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusSuccess);
    // conv -> activation -> bias compiles to nothing, and drops the previous compile.
    ASSERT_EQ(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU),
              miopenStatusSuccess);
    miopenFusionOpDescriptor_t bias_op;
    ASSERT_EQ(miopenCreateOpBiasForward(plan, &bias_op, c.b), miopenStatusSuccess);
    EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusUnsupportedOp);
    EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusBadParm);
    EXPECT_EQ(miopenDestroyOperatorArgs(args), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
}

// Accepted when created, an invalid activation mode fails the execution;
// per-activation batchnorm compiles (MIOpen's solver takes both modes) and
// computes with one set of parameters per (c, h, w).
TEST(FusionPlanStatus, WhatOnlyTheExecutionRejects)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3);
    std::vector<float> y(c.OutSize());
    {
        miopenFusionPlanDescriptor_t plan;
        ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
        miopenFusionOpDescriptor_t conv_op, act_op;
        ASSERT_EQ(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w), miopenStatusSuccess);
        ASSERT_EQ(miopenCreateOpActivationForward(plan, &act_op, static_cast<miopenActivationMode_t>(42)),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
        miopenOperatorArgs_t args;
        ASSERT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
        ASSERT_EQ(miopenSetOpArgsConvForward(args, conv_op, nullptr, nullptr, c.wf.data()),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenSetOpArgsActivForward(args, act_op, nullptr, nullptr, 0, 0, 0),
                  miopenStatusSuccess);
        EXPECT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
                  miopenStatusBadParm);
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
    {
        mmt::Tensor per_act(miopenFloat, {1, 2, 4, 4});
        miopenFusionPlanDescriptor_t plan;
        ASSERT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x), miopenStatusSuccess);
        miopenFusionOpDescriptor_t bn_op, act_op;
        ASSERT_EQ(miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNPerActivation, per_act),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
        std::vector<float> p(32, 1.0f), scale(32, 1.0f);
        scale[5] = 3.0f; // one position's scale (the others' stay 1)
        miopenOperatorArgs_t args;
        ASSERT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
        ASSERT_EQ(miopenSetOpArgsBatchNormInference(args, bn_op, nullptr, nullptr, scale.data(),
                                                    p.data(), p.data(), p.data(), 1e-5),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenSetOpArgsActivForward(args, act_op, nullptr, nullptr, 0, 0, 0),
                  miopenStatusSuccess);
        std::vector<float> out(32);
        ASSERT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.x, out.data(), args),
                  miopenStatusSuccess);
        // Scale, bias, mean and variance 1 (position 5's scale 3), epsilon 1e-5, then ReLU.
        for(std::size_t i = 0; i < out.size(); ++i)
        {
            const double bn = (i == 5 ? 3.0 : 1.0) * (c.xf[i] - 1.0) / std::sqrt(1.0 + 1e-5) + 1.0;
            EXPECT_NEAR(out[i], std::max(bn, 0.0), 1e-5) << i;
        }
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
}
