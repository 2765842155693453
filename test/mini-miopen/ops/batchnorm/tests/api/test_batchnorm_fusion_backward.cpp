// The batchnorm backward -> activation backward fusion plan (MIOpen's
// BnBwdTrgActivationFused, src/solver/batchnorm/backward_per_activation_fused.cpp
// @2d1fd997; its kernel MIOpenBatchNormActivBwdSpatial.cl): the plan's input
// is dy, its output dx; the kernel recomputes the batchnorm output from x and
// the saved statistics, applies the activation's derivative at it to dy and
// runs the batchnorm backward with the saved statistics (dx, dscale, dbias).
#include "common.hpp"

#include <cmath>
#include <vector>

namespace {

struct BwdPlan
{
    mmt::Handle h;
    mmt::Tensor x{miopenFloat, {2, 2, 2, 3}};
    std::vector<float> xv, dy, dx = std::vector<float>(24, -9.0f);
    std::vector<float> scale = {1.5f, -0.75f}, bias = {0.25f, -0.5f}, mean = {0.1f, -0.2f}, inv = {0.8f, 1.25f};
    std::vector<float> dscale = {-9, -9}, dbias = {-9, -9};
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t bn = nullptr, act = nullptr;
    miopenOperatorArgs_t args = nullptr;

    BwdPlan()
    {
        for(int i = 0; i < 24; ++i)
        {
            xv.push_back(float(std::sin(0.7 * i) * 2.0));
            dy.push_back(float(std::cos(0.45 * i)));
        }
        EXPECT_EQ(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x), miopenStatusSuccess);
        EXPECT_EQ(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    }
    ~BwdPlan()
    {
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
    void ops(miopenActivationMode_t mode)
    {
        ASSERT_EQ(miopenCreateOpBatchNormBackward(plan, &bn, miopenBNSpatial), miopenStatusSuccess);
        ASSERT_EQ(miopenCreateOpActivationBackward(plan, &act, mode), miopenStatusSuccess);
    }
    miopenStatus_t set_args(double a = 0.0)
    {
        const miopenStatus_t s = miopenSetOpArgsBatchNormBackward(args, bn, nullptr, nullptr, xv.data(), scale.data(),
                                                                  bias.data(), dscale.data(), dbias.data(),
                                                                  mean.data(), inv.data());
        if(s != miopenStatusSuccess)
            return s;
        return miopenSetOpArgsActivBackward(args, act, nullptr, nullptr, nullptr, nullptr, a, 0.0, 1.0);
    }
};

} // namespace

TEST(BatchNormFusionBackward, ReluPlanEqualsTheReference)
{
    BwdPlan p;
    p.ops(miopenActivationRELU);
    ASSERT_EQ(miopenCompileFusionPlan(p.h, p.plan), miopenStatusSuccess);
    ASSERT_EQ(p.set_args(), miopenStatusSuccess);
    ASSERT_EQ(miopenExecuteFusionPlan(p.h, p.plan, p.x, p.dy.data(), p.x, p.dx.data(), p.args), miopenStatusSuccess);
    // Reference: per channel c over M = N * H * W = 12 values.
    const int M = 12;
    int masked = 0;
    for(int c = 0; c < 2; ++c)
    {
        std::vector<int> at;
        for(int n = 0; n < 2; ++n)
            for(int k = 0; k < 6; ++k)
                at.push_back(n * 12 + c * 6 + k);
        double db = 0, ds = 0;
        std::vector<double> g, xh;
        for(int i : at)
        {
            const double xhat = (double(p.xv[size_t(i)]) - p.mean[size_t(c)]) * p.inv[size_t(c)];
            const double bnv  = p.scale[size_t(c)] * xhat + p.bias[size_t(c)];
            const double gi   = bnv > 0 ? p.dy[size_t(i)] : 0.0;
            masked += bnv <= 0;
            g.push_back(gi);
            xh.push_back(xhat);
            db += gi;
            ds += gi * xhat;
        }
        EXPECT_NEAR(p.dbias[size_t(c)], db, 1e-4) << "channel " << c;
        EXPECT_NEAR(p.dscale[size_t(c)], ds, 1e-4) << "channel " << c;
        for(size_t j = 0; j < at.size(); ++j)
        {
            const double want = p.scale[size_t(c)] * p.inv[size_t(c)] / M * (M * g[j] - db - xh[j] * ds);
            EXPECT_NEAR(p.dx[size_t(at[j])], want, 1e-4) << "element " << at[j];
        }
    }
    EXPECT_GT(masked, 0) << "the data exercise the ReLU's mask";
}

TEST(BatchNormFusionBackward, OnlyTheExactSequenceCompiles)
{
    {
        BwdPlan p;
        ASSERT_EQ(miopenCreateOpBatchNormBackward(p.plan, &p.bn, miopenBNSpatial), miopenStatusSuccess);
        EXPECT_EQ(miopenCompileFusionPlan(p.h, p.plan), miopenStatusUnsupportedOp) << "batchnorm backward alone";
    }
    {
        BwdPlan p;
        ASSERT_EQ(miopenCreateOpActivationBackward(p.plan, &p.act, miopenActivationRELU), miopenStatusSuccess);
        ASSERT_EQ(miopenCreateOpBatchNormBackward(p.plan, &p.bn, miopenBNSpatial), miopenStatusSuccess);
        EXPECT_EQ(miopenCompileFusionPlan(p.h, p.plan), miopenStatusUnsupportedOp) << "the reverse order";
    }
}

TEST(BatchNormFusionBackward, ArgumentsOfAnotherKindAndNullBuffersAreRefused)
{
    BwdPlan p;
    p.ops(miopenActivationRELU);
    ASSERT_EQ(miopenCompileFusionPlan(p.h, p.plan), miopenStatusSuccess);
    // The activation's setter on the batchnorm operator: MIOpen's dynamic_cast fails.
    EXPECT_EQ(miopenSetOpArgsActivBackward(p.args, p.bn, nullptr, nullptr, nullptr, nullptr, 0, 0, 0),
              miopenStatusUnknownError);
    ASSERT_EQ(p.set_args(), miopenStatusSuccess);
    EXPECT_EQ(miopenSetOpArgsBatchNormBackward(p.args, p.bn, nullptr, nullptr, p.xv.data(), p.scale.data(),
                                               p.bias.data(), nullptr, p.dbias.data(), p.mean.data(), p.inv.data()),
              miopenStatusSuccess)
        << "MIOpen stores a null gradient buffer";
    EXPECT_EQ(miopenExecuteFusionPlan(p.h, p.plan, p.x, p.dy.data(), p.x, p.dx.data(), p.args), miopenStatusBadParm);
    EXPECT_EQ(p.dx, std::vector<float>(24, -9.0f)) << "nothing written";
}
