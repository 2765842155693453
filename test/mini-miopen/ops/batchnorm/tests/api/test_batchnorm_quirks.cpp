// Batch normalization statuses and outputs the wrapper can observe, as MIOpen
// returns them (src/ocl/batchnormocl.cpp @2d1fd997): alpha/beta other
// than 1/0, and inference without both estimates (a training pass over the
// batch's own statistics).
#include "common.hpp"

#include <cmath>
#include <vector>

namespace {

struct Bn
{
    mmt::Handle h;
    mmt::Tensor x{miopenFloat, {1, 1, 2, 2}}, p{miopenFloat, {1, 1, 1, 1}};
    std::vector<float> xv = {1, 2, 3, 4}, y = std::vector<float>(4, -1.0f);
    float scale = 2, bias = 1, mean = 0.5f, var = 4.0f;

    miopenStatus_t inference(float alpha, float beta, float* m, float* v)
    {
        return miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                        y.data(), p, &scale, &bias, m, v, 0.0);
    }
};

} // namespace

TEST(BatchNormQuirks, InferenceTakesOnlyUnitScales)
{
    Bn b;
    EXPECT_EQ(b.inference(0.5f, 0.0f, &b.mean, &b.var), miopenStatusBadParm);
    EXPECT_EQ(b.inference(1.0f, 1.0f, &b.mean, &b.var), miopenStatusBadParm);
    EXPECT_EQ(b.y, std::vector<float>(4, -1.0f)) << "nothing written";
    ASSERT_EQ(b.inference(1.0f, 0.0f, &b.mean, &b.var), miopenStatusSuccess);
    EXPECT_NEAR(b.y[0], 2.0 * (1 - 0.5) / 2.0 + 1.0, 1e-6);
}

TEST(BatchNormQuirks, InferenceWithoutBothEstimatesUsesTheBatchStatistics)
{
    // Batch mean 2.5, variance 1.25: y = 2 * (x - 2.5) / sqrt(1.25) + 1.
    for(bool meanOnly : {true, false})
    {
        Bn b;
        ASSERT_EQ(b.inference(1.0f, 0.0f, meanOnly ? &b.mean : nullptr, meanOnly ? nullptr : &b.var),
                  miopenStatusSuccess);
        for(int i = 0; i < 4; ++i)
            EXPECT_NEAR(b.y[size_t(i)], 2.0 * (b.xv[size_t(i)] - 2.5) / std::sqrt(1.25) + 1.0, 1e-5);
        EXPECT_EQ(b.mean, 0.5f) << "an estimate given is not written";
        // The training pass's own rule for the scales.
        EXPECT_EQ(b.inference(2.0f, 0.0f, nullptr, nullptr), miopenStatusUnknownError);
    }
}

TEST(BatchNormQuirks, TrainingTakesOnlyUnitScales)
{
    Bn b;
    float two = 2.0f, zero = 0.0f, one = 1.0f;
    float rm = 0, rv = 1, sm = 0, si = 0;
    EXPECT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNSpatial, &two, &zero, b.x, b.xv.data(), b.x,
                                                      b.y.data(), b.p, &b.scale, &b.bias, 0.1, &rm, &rv, 1e-5,
                                                      &sm, &si),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNSpatial, &one, &zero, b.x, b.xv.data(), b.x,
                                                      b.y.data(), b.p, &b.scale, &b.bias, 0.1, &rm, &rv, 1e-5,
                                                      &sm, &si),
              miopenStatusSuccess);
}

TEST(BatchNormQuirks, TrainingWritesAPairOfOutputsOnlyWhenBothAreGiven)
{
    // batchnormocl.cpp: resultsave / resultrunning need both buffers.
    Bn b;
    float one = 1.0f, zero = 0.0f;
    float rm = 7, sm = 7;
    ASSERT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNSpatial, &one, &zero, b.x, b.xv.data(), b.x,
                                                      b.y.data(), b.p, &b.scale, &b.bias, 0.5, &rm, nullptr, 1e-5,
                                                      &sm, nullptr),
              miopenStatusSuccess);
    EXPECT_EQ(rm, 7.0f) << "a running mean without its variance is not updated";
    EXPECT_EQ(sm, 7.0f) << "a saved mean without its inverse variance is not written";
    float rv = 1, si = 0;
    ASSERT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNSpatial, &one, &zero, b.x, b.xv.data(), b.x,
                                                      b.y.data(), b.p, &b.scale, &b.bias, 0.5, &rm, &rv, 1e-5,
                                                      &sm, &si),
              miopenStatusSuccess);
    EXPECT_NEAR(sm, 2.5, 1e-6);
    EXPECT_NEAR(rm, 0.5 * 7 + 0.5 * 2.5, 1e-5);
}

TEST(BatchNormQuirks, TrainingTakesOnlyPackedTensors)
{
    Bn b;
    mmt::Tensor strided{miopenFloat, {1, 1, 2, 2}, {8, 8, 4, 1}};
    std::vector<float> big(8, 1.0f), out(8, 0.0f);
    float one = 1.0f, zero = 0.0f;
    EXPECT_EQ(miopenBatchNormalizationForwardTraining(b.h, miopenBNSpatial, &one, &zero, strided, big.data(), strided,
                                                      out.data(), b.p, &b.scale, &b.bias, 0.0, nullptr, nullptr,
                                                      1e-5, nullptr, nullptr),
              miopenStatusBadParm);
}

TEST(BatchNormQuirks, BackwardTakesOnlyUnitScales)
{
    // batchnormocl.cpp BatchNormBackward: both pairs must be 1/0 (BadParm).
    Bn b;
    std::vector<float> dy = {1, -1, 2, 0}, dx(4, -9.0f);
    float ds = -9, db = -9;
    const float one = 1.0f, zero = 0.0f, half = 0.5f;
    auto run = [&](const float* ad, const float* bd, const float* ap, const float* bp) {
        return miopenBatchNormalizationBackward(b.h, miopenBNSpatial, ad, bd, ap, bp, b.x, b.xv.data(), b.x, dy.data(),
                                                b.x, dx.data(), b.p, &b.scale, &ds, &db, 1e-5, nullptr, nullptr);
    };
    EXPECT_EQ(run(&half, &zero, &one, &zero), miopenStatusBadParm);
    EXPECT_EQ(run(&one, &one, &one, &zero), miopenStatusBadParm);
    EXPECT_EQ(run(&one, &zero, &half, &zero), miopenStatusBadParm);
    EXPECT_EQ(run(&one, &zero, &one, &half), miopenStatusBadParm);
    EXPECT_EQ(dx, std::vector<float>(4, -9.0f)) << "nothing written";
    ASSERT_EQ(run(&one, &zero, &one, &zero), miopenStatusSuccess);
    EXPECT_NEAR(db, 2.0, 1e-6);
}
