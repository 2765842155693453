// Batch normalization statuses the wrapper can observe, as MIOpen's forward
// passes return them (src/ocl/batchnormocl.cpp @2d1fd997): alpha/beta other
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
