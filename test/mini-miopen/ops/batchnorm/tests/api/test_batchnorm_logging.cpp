// Batch normalization (legacy == _V2, hand-worked values) and logging.
#include "common.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

const float kOne = 1.0f, kZero = 0.0f;

} // namespace

TEST(BatchNorm, DeriveIsPerChannelFloat)
{
    mmt::Tensor x(miopenHalf, {2, 3, 4, 5}), d;
    ASSERT_EQ(miopenDeriveBNTensorDescriptor(d, x, miopenBNSpatial), miopenStatusSuccess);
    miopenDataType_t dt;
    int n, c, h, w, s0, s1, s2, s3;
    ASSERT_EQ(miopenGet4dTensorDescriptor(d, &dt, &n, &c, &h, &w, &s0, &s1, &s2, &s3), miopenStatusSuccess);
    EXPECT_EQ(dt, miopenFloat);
    EXPECT_EQ((std::vector<int>{n, c, h, w}), (std::vector<int>{1, 3, 1, 1}));
    EXPECT_EQ(miopenDeriveBNTensorDescriptor(nullptr, x, miopenBNSpatial), miopenStatusBadParm);
    // Any other mode is per-activation (MIOpen's DeriveBNTensorDescriptor).
    EXPECT_EQ(miopenDeriveBNTensorDescriptor(d, x, static_cast<miopenBatchNormMode_t>(5)),
              miopenStatusSuccess);
}

TEST(BatchNorm, InferenceHandWorkedAndLegacyEqualsV2)
{
    // One channel, x = 1 2 3 4, mean 2.5, variance 1.25, scale 2, bias 1, eps 0:
    // y = 2 * (x - 2.5) / sqrt(1.25) + 1.
    mmt::Handle h;
    mmt::Tensor x(miopenFloat, {1, 1, 2, 2}), p(miopenFloat, {1, 1, 1, 1});
    const std::vector<float> xv = {1, 2, 3, 4};
    float scale = 2, bias = 1, mean = 2.5f, var = 1.25f;
    std::vector<float> y1(4), y2(4);
    ASSERT_EQ(miopenBatchNormalizationForwardInference(h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                       const_cast<float*>(&kZero), x, xv.data(), x,
                                                       y1.data(), p, &scale, &bias, &mean, &var, 0.0),
              miopenStatusSuccess);
    ASSERT_EQ(miopenBatchNormalizationForwardInference_V2(
                  h, miopenBNSpatial, const_cast<float*>(&kOne), const_cast<float*>(&kZero), x,
                  xv.data(), x, y2.data(), p, p, p, p, &scale, &bias, &mean, &var, 0.0),
              miopenStatusSuccess);
    for(int i = 0; i < 4; ++i)
        EXPECT_NEAR(y1[i], 2.0 * (xv[i] - 2.5) / std::sqrt(1.25) + 1.0, 1e-5);
    EXPECT_EQ(y1, y2);
}

TEST(BatchNorm, TrainingAndBackwardLegacyEqualsV2)
{
    mmt::Handle h;
    mmt::Tensor x(miopenFloat, {2, 2, 2, 2}), p(miopenFloat, {1, 2, 1, 1});
    std::vector<float> xv(16);
    for(int i = 0; i < 16; ++i)
        xv[i] = static_cast<float>((i * 5) % 9) - 3.0f;
    float scale[2] = {1.5f, -0.5f}, bias[2] = {0.25f, 2.0f};
    float* a = const_cast<float*>(&kOne);
    float* b = const_cast<float*>(&kZero);

    std::vector<float> y1(16), y2(16);
    float rm1[2] = {0, 0}, rv1[2] = {1, 1}, sm1[2], si1[2];
    float rm2[2] = {0, 0}, rv2[2] = {1, 1}, sm2[2], si2[2];
    ASSERT_EQ(miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, a, b, x, xv.data(), x, y1.data(),
                                                      p, scale, bias, 0.1, rm1, rv1, 1e-5, sm1, si1),
              miopenStatusSuccess);
    ASSERT_EQ(miopenBatchNormalizationForwardTraining_V2(h, miopenBNSpatial, a, b, x, xv.data(), x,
                                                         y2.data(), p, p, p, p, scale, bias, 0.1, rm2,
                                                         rv2, 1e-5, sm2, si2),
              miopenStatusSuccess);
    EXPECT_EQ(y1, y2);
    EXPECT_EQ(std::vector<float>(sm1, sm1 + 2), std::vector<float>(sm2, sm2 + 2));
    EXPECT_EQ(std::vector<float>(rv1, rv1 + 2), std::vector<float>(rv2, rv2 + 2));
    // Channel 0 holds x[0..3] and x[8..11]; its saved mean is their average.
    float sum = 0;
    for(int i : {0, 1, 2, 3, 8, 9, 10, 11})
        sum += xv[i];
    EXPECT_NEAR(sm1[0], sum / 8.0f, 1e-5);
    EXPECT_NEAR(rm1[0], 0.1f * sum / 8.0f, 1e-5);

    std::vector<float> dy(16), dx1(16), dx2(16);
    for(int i = 0; i < 16; ++i)
        dy[i] = static_cast<float>(i % 4) - 1.5f;
    float ds1[2], db1[2], ds2[2], db2[2];
    ASSERT_EQ(miopenBatchNormalizationBackward(h, miopenBNSpatial, a, b, a, b, x, xv.data(), x, dy.data(),
                                               x, dx1.data(), p, scale, ds1, db1, 1e-5, sm1, si1),
              miopenStatusSuccess);
    ASSERT_EQ(miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, a, b, a, b, x, xv.data(), x,
                                                  dy.data(), x, dx2.data(), p, p, p, p, scale, ds2, db2,
                                                  1e-5, sm1, si1),
              miopenStatusSuccess);
    EXPECT_EQ(dx1, dx2);
    EXPECT_EQ(std::vector<float>(ds1, ds1 + 2), std::vector<float>(ds2, ds2 + 2));
    // dbias is the sum of dy over each channel: channel 0 = 2 * (-1.5 - 0.5 + 0.5 + 1.5) = 0.
    EXPECT_NEAR(db1[0], 0.0f, 1e-5);
    EXPECT_EQ(db1[1], db2[1]);
}

TEST(BatchNorm, InvalidArguments)
{
    mmt::Handle h;
    mmt::Tensor x(miopenFloat, {1, 2, 2, 2}), p(miopenFloat, {1, 2, 1, 1}), bad_p(miopenFloat, {1, 3, 1, 1});
    mmt::Tensor y_other(miopenFloat, {1, 2, 2, 3}), x3(miopenFloat, {2, 4, 4});
    std::vector<float> xv(8), yv(12), s(3), bb(3), m(3), v(3, 1.0f);
    float* a = const_cast<float*>(&kOne);
    float* b = const_cast<float*>(&kZero);
    auto infer = [&](miopenHandle_t hh, miopenBatchNormMode_t mode, miopenTensorDescriptor_t xd,
                     miopenTensorDescriptor_t yd, miopenTensorDescriptor_t pd) {
        return miopenBatchNormalizationForwardInference(hh, mode, a, b, xd, xv.data(), yd, yv.data(), pd,
                                                        s.data(), bb.data(), m.data(), v.data(), 1e-5);
    };
    EXPECT_EQ(infer(h, miopenBNSpatial, x, x, p), miopenStatusSuccess);
    EXPECT_EQ(infer(nullptr, miopenBNSpatial, x, x, p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, miopenBNSpatial, nullptr, x, p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, miopenBNSpatial, x, x, nullptr), miopenStatusBadParm);
    // Per-activation (and any other mode, which MIOpen takes as per-activation)
    // with per-channel parameters: MIOpen would read past them (test bed: BadParm).
    EXPECT_EQ(infer(h, miopenBNPerActivation, x, x, p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, static_cast<miopenBatchNormMode_t>(7), x, x, p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, miopenBNSpatial, x, x, bad_p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, miopenBNSpatial, x, y_other, p), miopenStatusBadParm);
    EXPECT_EQ(infer(h, miopenBNSpatial, x3, x3, p), miopenStatusBadParm);
    EXPECT_EQ(miopenBatchNormalizationForwardInference(h, miopenBNSpatial, a, b, x, nullptr, x, yv.data(),
                                                       p, s.data(), bb.data(), m.data(), v.data(), 1e-5),
              miopenStatusBadParm);
    EXPECT_EQ(miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, nullptr, b, x, xv.data(), x,
                                                      yv.data(), p, s.data(), bb.data(), 0.1, nullptr,
                                                      nullptr, 1e-5, nullptr, nullptr),
              miopenStatusBadParm);
}

namespace {
std::string CreateSetDestroyTensor()
{
    miopenTensorDescriptor_t t = nullptr;
    if(miopenCreateTensorDescriptor(&t) != miopenStatusSuccess)
        return "miopenCreateTensorDescriptor failed";
    if(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 3, 4) != miopenStatusSuccess)
        return "miopenSet4dTensorDescriptor failed";
    miopenDestroyTensorDescriptor(t);
    return "";
}

std::string SetNullTensor()
{
    return miopenSet4dTensorDescriptor(nullptr, miopenFloat, 1, 1, 1, 1) == miopenStatusBadParm
               ? ""
               : "a null descriptor did not give miopenStatusBadParm";
}

std::string Contains(const std::string& err, std::initializer_list<const char*> needles)
{
    for(const char* needle : needles)
        if(err.find(needle) == std::string::npos)
            return std::string("missing from the log: ") + needle;
    return "";
}

std::string Empty(const std::string& err) { return err.empty() ? "" : "expected no output"; }
} // namespace

namespace {
// MIOPEN_LOG_LEVEL at `level` (unset for null) in a fresh process.
template <class Calls, class Check>
void ExpectLogAtLevel(const char* level, Calls calls, Check check)
{
    mmt::ExpectStderrInFreshProcess("MIOPEN_LOG_LEVEL", level, calls, check);
}
} // namespace

TEST(Logging, LevelFiveLogsApiCallsAndDefaultIsSilent)
{
    // Arguments are printed by name.
    ExpectLogAtLevel("5", CreateSetDestroyTensor, [](const std::string& err) {
        return Contains(err, {"miopenCreateTensorDescriptor", "miopenSet4dTensorDescriptor", "c = 2"});
    });
    ExpectLogAtLevel(nullptr, CreateSetDestroyTensor, Empty);
    // Level 4 (warnings) does not log calls either.
    ExpectLogAtLevel(
        "4",
        [] {
            miopenHandle_t h = nullptr;
            if(miopenCreate(&h) != miopenStatusSuccess)
                return std::string("miopenCreate failed");
            miopenDestroy(h);
            return std::string();
        },
        Empty);
}

TEST(Logging, ErrorsPrintByDefaultButNotWhenQuiet)
{
    ExpectLogAtLevel(nullptr, SetNullTensor, [](const std::string& err) {
        return Contains(err, {"Error", "miopenStatusBadParm"});
    });
    ExpectLogAtLevel("1", SetNullTensor, Empty);
}

namespace {
// The MIOpenDriver lines of a run, in order (MIOpen's error lines left out).
std::vector<std::string> DriverLines(const std::string& err)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    while(at < err.size())
    {
        const auto end  = err.find('\n', at);
        const auto line = err.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if(line.rfind("MIOpen(HIP): Command [", 0) == 0)
            out.push_back(line);
        at = end == std::string::npos ? err.size() : end + 1;
    }
    return out;
}

std::string BnLine(const std::string& args)
{
    return "MIOpen(HIP): Command [LogCmdBNorm] ./bin/MIOpenDriver " + args;
}

// `calls` under MIOPEN_ENABLE_LOGGING_CMD=1 in a fresh process must log
// exactly `want` (hand-worked from MIOpen's BnormArgsForMIOpenDriver).
template <class Calls>
void ExpectBnLines(Calls calls, std::vector<std::string> want)
{
    for(auto& w : want)
        w = BnLine(w);
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", "1", calls, [want](const std::string& err) {
        const auto got = DriverLines(err);
        if(got == want)
            return std::string();
        std::string s = "driver lines differ; expected:\n";
        for(const auto& w : want)
            s += "  " + w + "\n";
        return s;
    });
}

float* One() { return const_cast<float*>(&kOne); }
float* Zero() { return const_cast<float*>(&kZero); }
} // namespace

TEST(BatchNormDriverLine, InferenceLegacyAndV2LogTheRunningStatisticsFlag)
{
    ExpectBnLines(
        [] {
            mmt::Handle h;
            mmt::Tensor x(miopenFloat, {2, 3, 4, 5}), p(miopenFloat, {1, 3, 1, 1});
            std::vector<float> xv(120, 1.0f), yv(120), s(3, 1.0f), b(3), m(3), v(3, 1.0f);
            auto ok = miopenBatchNormalizationForwardInference(h, miopenBNSpatial, One(), Zero(), x, xv.data(),
                                                               x, yv.data(), p, s.data(), b.data(), m.data(),
                                                               v.data(), 1e-5) == miopenStatusSuccess;
            ok = ok && miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, One(), Zero(), x,
                                                                   xv.data(), x, yv.data(), p, p, p, p,
                                                                   s.data(), b.data(), m.data(), v.data(),
                                                                   1e-5) == miopenStatusSuccess;
            // Without estimates MIOpen computes the batch's statistics: no -s 1.
            ok = ok && miopenBatchNormalizationForwardInference(h, miopenBNSpatial, One(), Zero(), x, xv.data(),
                                                                x, yv.data(), p, s.data(), b.data(), nullptr,
                                                                nullptr, 1e-5) == miopenStatusSuccess;
            return ok ? std::string() : std::string("an inference call failed");
        },
        {"bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 --layout NCHW",
         "bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 --layout NCHW",
         "bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 --layout NCHW"});
}

TEST(BatchNormDriverLine, TrainingAndBackwardFlags)
{
    ExpectBnLines(
        [] {
            mmt::Handle h;
            mmt::Tensor x(miopenFloat, {2, 2, 3, 1}), p(miopenFloat, {1, 2, 1, 1});
            std::vector<float> xv(12, 0.5f), yv(12), dy(12, 1.0f), dx(12), s(2, 1.0f), b(2), rm(2), rv(2, 1.0f),
                sm(2), si(2), ds(2), db(2);
            auto ok = miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, One(), Zero(), x, xv.data(), x,
                                                              yv.data(), p, s.data(), b.data(), 0.1, rm.data(),
                                                              rv.data(), 1e-5, sm.data(),
                                                              si.data()) == miopenStatusSuccess;
            ok = ok && miopenBatchNormalizationForwardTraining_V2(h, miopenBNSpatial, One(), Zero(), x,
                                                                  xv.data(), x, yv.data(), p, p, p, p, s.data(),
                                                                  b.data(), 0.1, nullptr, nullptr, 1e-5,
                                                                  sm.data(), si.data()) == miopenStatusSuccess;
            ok = ok && miopenBatchNormalizationBackward(h, miopenBNSpatial, One(), Zero(), One(), Zero(), x,
                                                        xv.data(), x, dy.data(), x, dx.data(), p, s.data(),
                                                        ds.data(), db.data(), 1e-5, sm.data(),
                                                        si.data()) == miopenStatusSuccess;
            // One saved statistic alone is not "saved" (MIOpen wants both).
            ok = ok && miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, One(), Zero(), One(), Zero(), x,
                                                           xv.data(), x, dy.data(), x, dx.data(), p, p, p, p,
                                                           s.data(), ds.data(), db.data(), 1e-5, sm.data(),
                                                           nullptr) == miopenStatusSuccess;
            return ok ? std::string() : std::string("a training or backward call failed");
        },
        {"bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 1 -b 0 -s 1 -r 1 --layout NCHW",
         "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 1 -b 0 -r 1 --layout NCHW",
         "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 0 -b 1 -r 1 --layout NCHW",
         "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 0 -b 1 --layout NCHW"});
}

TEST(BatchNormDriverLine, TypesFiveDimsLayoutModeAndRejectedCallsStillLog)
{
    // MIOpen logs before it checks: these calls all fail (null buffers, an
    // invalid mode) and each still logs its line.
    ExpectBnLines(
        [] {
            mmt::Handle h;
            // N=1 C=2 D=3 H=4 W=5 stored NDHWC.
            mmt::Tensor x16(miopenHalf, {1, 2, 3, 4, 5}, {120, 1, 40, 10, 2});
            mmt::Tensor p32(miopenFloat, {1, 2, 1, 1, 1}), p16(miopenHalf, {1, 2, 1, 1, 1});
            mmt::Tensor xb(miopenBFloat16, {1, 2, 2, 2}, {8, 1, 4, 2}), pb(miopenBFloat16, {1, 2, 1, 1});
            mmt::Tensor pb32(miopenFloat, {1, 2, 1, 1}), x64(miopenDouble, {1, 2, 2, 2});
            float m[2] = {0, 0}, v[2] = {1, 1};
            const auto infer = [&](miopenBatchNormMode_t mode, miopenTensorDescriptor_t x,
                                   miopenTensorDescriptor_t p) {
                return miopenBatchNormalizationForwardInference(h, mode, One(), Zero(), x, nullptr, x, nullptr, p,
                                                                nullptr, nullptr, m, v, 1e-5);
            };
            const bool rejected = infer(miopenBNPerActivation, x16, p32) != miopenStatusSuccess &&
                                  infer(miopenBNSpatial, x16, p16) != miopenStatusSuccess &&
                                  infer(miopenBNSpatial, xb, pb) != miopenStatusSuccess &&
                                  infer(miopenBNSpatial, xb, pb32) != miopenStatusSuccess &&
                                  infer(static_cast<miopenBatchNormMode_t>(7), x64, pb32) != miopenStatusSuccess;
            return rejected ? std::string() : std::string("a call with null buffers succeeded");
        },
        {"bnormfp16fp32 -n 1 -c 2 -D 3 -H 4 -W 5 -m 0 --forw 2 -b 0 -s 1 --layout NDHWC",
         "bnormfp16 -n 1 -c 2 -D 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 --layout NDHWC",
         "bnormbfp16 -n 1 -c 2 -H 2 -W 2 -m 1 --forw 2 -b 0 -s 1 --layout NHWC",
         "bnormbfp16fp32 -n 1 -c 2 -H 2 -W 2 -m 1 --forw 2 -b 0 -s 1 --layout NHWC",
         "bnorm -n 1 -c 2 -H 2 -W 2 -m 7 --forw 2 -b 0 -s 1 --layout NCHW"});
}

TEST(BatchNormDriverLine, NoLineWithoutTheVariableOrWithoutADescriptor)
{
    const auto calls = [] {
        mmt::Handle h;
        mmt::Tensor x(miopenFloat, {1, 1, 2, 2}), p(miopenFloat, {1, 1, 1, 1}), x3(miopenFloat, {1, 1, 4});
        float xv[4] = {1, 2, 3, 4}, yv[4], s = 1, b = 0, m = 0, v = 1;
        miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, One(), Zero(), nullptr, xv, x, yv, p, p,
                                                    p, nullptr, &s, &b, &m, &v, 1e-5);
        miopenBatchNormalizationForwardInference(h, miopenBNSpatial, One(), Zero(), x3, xv, x3, yv, p, &s, &b,
                                                 &m, &v, 1e-5);
        return miopenBatchNormalizationForwardInference(h, miopenBNSpatial, One(), Zero(), x, xv, x, yv, p, &s,
                                                        &b, &m, &v, 1e-5) == miopenStatusSuccess
                   ? std::string()
                   : std::string("the valid call failed");
    };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", nullptr, calls, [](const std::string& err) {
        return DriverLines(err).empty() ? std::string() : std::string("a driver line without the variable");
    });
    // With it, only the valid call's line: a null descriptor and a 3-D x log nothing.
    ExpectBnLines(calls, {"bnorm -n 1 -c 1 -H 2 -W 2 -m 1 --forw 2 -b 0 -s 1 --layout NCHW"});
}
