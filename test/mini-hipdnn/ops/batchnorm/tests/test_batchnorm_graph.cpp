// Batchnorm inference with variance (type 21) through the backend C ABI: the
// descriptor's rules at set and finalize, the pass-by-value epsilon tensor's
// rules, and results of both engines (reference; MIOpen provider, which runs
// MIOpen Private's miopenBatchNormalizationForwardInference_V2_impl) against
// a double-precision reference computed here.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace
{

using Dims = std::vector<int64_t>;

int64_t count(const Dims& d)
{
    int64_t n = 1;
    for(auto v : d)
        n *= v;
    return n;
}

Dims derived(const Dims& x)
{
    Dims p(x.size(), 1);
    p[1] = x[1];
    return p;
}

struct Problem
{
    Dims x = {2, 3, 4, 5};
    bool channelsLast = false;
    hipdnnDataType_t io = HIPDNN_DATA_FLOAT;
    hipdnnDataType_t param = HIPDNN_DATA_FLOAT;
    double epsilon = 1e-5;
};

enum Uid : int64_t
{
    X = 1,
    MEAN,
    VAR,
    SCALE,
    BIAS,
    Y,
    EPS
};

class Batchnorm : public tu::BackendTest
{
protected:
    Batchnorm() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    // The operation over fresh tensors; `skip` leaves one attribute unset.
    hipdnnBackendDescriptor_t op(const Problem& p, hipdnnBackendAttributeName_t skip = HIPDNN_ATTR_TENSOR_UNIQUE_ID)
    {
        auto strides = [&](const Dims& d) {
            return p.channelsLast ? tu::channelsLastStrides(d) : tu::packedStrides(d);
        };
        Dims pd = derived(p.x);
        const std::pair<hipdnnBackendAttributeName_t, hipdnnBackendDescriptor_t> tensors[] = {
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, keep(tu::tensor(X, p.io, p.x, strides(p.x)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, keep(tu::tensor(MEAN, p.param, pd, strides(pd)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, keep(tu::tensor(VAR, p.param, pd, strides(pd)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, keep(tu::tensor(SCALE, p.param, pd, strides(pd)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, keep(tu::tensor(BIAS, p.param, pd, strides(pd)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, keep(tu::tensor(Y, p.io, p.x, strides(p.x)))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT,
             keep(tu::valueTensor(EPS, HIPDNN_DATA_DOUBLE, &p.epsilon, 8))},
        };
        auto d = create(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT);
        for(const auto& [name, t] : tensors)
            if(name != skip)
                tu::check(hipdnnBackendSetAttribute(d, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), "set tensor");
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        if(skip != HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT)
            tu::check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1,
                                                &comp),
                      "comp type");
        return d;
    }

    // Runs the problem on `engine` with random data; the result and the
    // double reference as doubles, or empty when the engine declines it.
    bool run(const Problem& p, const char* engine, std::vector<double>& got, std::vector<double>& want)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        auto d = op(p);
        tu::check(hipdnnBackendFinalize(d), "finalize bn");
        auto g = keep(tu::graph(_h, {d}));
        tu::PlanInfo pl;
        try
        {
            pl = tu::plan(g);
        }
        catch(const std::runtime_error&)
        {
            return false;
        }
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, engine);
        EXPECT_EQ(pl.workspace, 0);
        const int64_t n = count(p.x), c = p.x[1];
        std::vector<float> xs(size_t(n), 0), stats[4];
        for(int64_t i = 0; i < n; ++i)
            xs[size_t(i)] = std::sin(0.37 * double(i)) * 3.0f;
        for(int k = 0; k < 4; ++k)
            for(int64_t i = 0; i < c; ++i)
                stats[k].push_back(k == 1 ? 0.5f + 0.25f * float(i) : 0.1f * float(i + k) - 0.2f);
        auto encode = [](const std::vector<float>& v, hipdnnDataType_t dt) {
            std::vector<uint16_t> h;
            for(float f : v)
                h.push_back(dt == HIPDNN_DATA_HALF ? tu::toHalf(f) : tu::toBf16(f));
            return h;
        };
        auto decode = [&](uint16_t b) { return p.io == HIPDNN_DATA_HALF ? tu::fromHalf(b) : tu::fromBf16(b); };
        std::vector<uint16_t> x16 = p.io == HIPDNN_DATA_FLOAT ? std::vector<uint16_t>{} : encode(xs, p.io);
        std::vector<float> y32(size_t(n), -7.0f);
        std::vector<uint16_t> y16(size_t(n), 0);
        void* xp = x16.empty() ? static_cast<void*>(xs.data()) : x16.data();
        void* yp = x16.empty() ? static_cast<void*>(y32.data()) : y16.data();
        tu::execute(_h, pl, {X, MEAN, VAR, SCALE, BIAS, Y},
                    {xp, stats[0].data(), stats[1].data(), stats[2].data(), stats[3].data(), yp});
        // The reference, from the values the engine read (x after rounding).
        Dims st = p.channelsLast ? tu::channelsLastStrides(p.x) : tu::packedStrides(p.x);
        got.assign(size_t(n), 0);
        want.assign(size_t(n), 0);
        for(int64_t off = 0; off < n; ++off)
        {
            int64_t ch = (off / st[1]) % c;
            double xv = x16.empty() ? xs[size_t(off)] : decode(x16[size_t(off)]);
            want[size_t(off)] = stats[2][size_t(ch)] * (xv - stats[0][size_t(ch)])
                                    / std::sqrt(double(stats[1][size_t(ch)]) + p.epsilon)
                                + stats[3][size_t(ch)];
            got[size_t(off)] = x16.empty() ? y32[size_t(off)] : decode(y16[size_t(off)]);
        }
        return true;
    }

    void expectClose(const Problem& p, const char* engine)
    {
        std::vector<double> got, want;
        ASSERT_TRUE(run(p, engine, got, want)) << engine << " declined";
        const double tol = p.io == HIPDNN_DATA_FLOAT ? 1e-5 : p.io == HIPDNN_DATA_HALF ? 4e-3 : 3e-2;
        for(size_t i = 0; i < got.size(); ++i)
            ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::fabs(want[i]))) << engine << " element " << i;
    }
};

TEST_F(Batchnorm, EveryTensorAndTheComputeTypeAreRequiredAtFinalize)
{
    for(auto skip : {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT,
                     HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT})
    {
        auto d = op(Problem{}, skip);
        EXPECT_EQ(hipdnnBackendFinalize(d), HIPDNN_STATUS_BAD_PARAM) << skip;
    }
    EXPECT_EQ(hipdnnBackendFinalize(op(Problem{})), HIPDNN_STATUS_SUCCESS);
}

// The fault knob takes the name the op folder registered for its type
// (src/operations.hpp), and only that type's.
TEST_F(Batchnorm, TheFinalizeKnobKnowsTheRegisteredName)
{
    {
        tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "BATCHNORM_INFERENCE_VARIANCE");
        EXPECT_EQ(hipdnnBackendFinalize(op(Problem{})), HIPDNN_STATUS_INTERNAL_ERROR);
    }
    {
        tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "BATCHNORM_BACKWARD");
        EXPECT_EQ(hipdnnBackendFinalize(op(Problem{})), HIPDNN_STATUS_SUCCESS);
    }
}

TEST_F(Batchnorm, AttributesTakeTheirTypesOnly)
{
    auto d = create(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT);
    int64_t notADescriptor = 1;
    EXPECT_EQ(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, HIPDNN_TYPE_INT64, 1,
                                        &notADescriptor),
              HIPDNN_STATUS_BAD_PARAM);
    int64_t comp = HIPDNN_DATA_FLOAT;
    EXPECT_EQ(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT, HIPDNN_TYPE_INT64, 1, &comp),
              HIPDNN_STATUS_BAD_PARAM);
    // A convolution attribute is not one of this operation's.
    EXPECT_EQ(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp),
              HIPDNN_STATUS_NOT_SUPPORTED);
}

TEST_F(Batchnorm, ATensorValueIsTheCharBytesOfOneElementOfItsType)
{
    double eps = 1e-3;
    auto fresh = [&](bool withType) {
        auto t = create(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        hipdnnDataType_t dt = HIPDNN_DATA_DOUBLE;
        if(withType)
            tu::check(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt), "dt");
        return t;
    };
    EXPECT_EQ(hipdnnBackendSetAttribute(fresh(true), HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_DOUBLE, 1, &eps),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendSetAttribute(fresh(true), HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &eps),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendSetAttribute(fresh(false), HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &eps),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendSetAttribute(fresh(true), HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, nullptr),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendSetAttribute(fresh(true), HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &eps),
              HIPDNN_STATUS_SUCCESS);
}

TEST_F(Batchnorm, AnEpsilonWithoutAValueFailsTheGraph)
{
    Problem p;
    auto d = op(p, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT);
    auto bare = keep(tu::tensor(EPS, HIPDNN_DATA_DOUBLE, {1}, {1}));
    tu::check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &bare),
              "set epsilon");
    tu::check(hipdnnBackendFinalize(d), "finalize bn");
    auto g = create(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    tu::check(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_h), "handle");
    tu::check(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &d), "ops");
    EXPECT_EQ(hipdnnBackendFinalize(g), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(tu::lastError().find("epsilon"), std::string::npos) << tu::lastError();
}

TEST_F(Batchnorm, BothEnginesMatchTheDoubleReferenceInEveryLayoutAndType)
{
    for(const char* engine : {"MINI_REFERENCE_ENGINE", "MIOPEN_ENGINE"})
    {
        for(bool last : {false, true})
        {
            for(const Dims& x : {Dims{2, 3, 4, 5}, Dims{1, 4, 2, 3, 3}})
            {
                for(auto io : {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF, HIPDNN_DATA_BFLOAT16})
                {
                    SCOPED_TRACE(std::string(engine) + (last ? " channels-last" : " channels-first") + " rank "
                                 + std::to_string(x.size()) + " type " + std::to_string(io));
                    Problem p;
                    p.x = x;
                    p.channelsLast = last;
                    p.io = io;
                    p.epsilon = 0.0625 + 1e-9; // not a float: the double reaches the kernel
                    expectClose(p, engine);
                }
            }
        }
    }
}

TEST_F(Batchnorm, TheProviderDeclinesWhatItsChecksDecline)
{
    std::vector<double> got, want;
    Problem halfParams;
    halfParams.io = HIPDNN_DATA_HALF;
    halfParams.param = HIPDNN_DATA_HALF;
    EXPECT_FALSE(run(halfParams, "MIOPEN_ENGINE", got, want)) << "fp16 scale/bias/mean/variance";
    Problem threeD;
    threeD.x = {2, 3, 4};
    EXPECT_FALSE(run(threeD, "MIOPEN_ENGINE", got, want)) << "3-D";
    // The reference engine takes both.
    EXPECT_TRUE(run(halfParams, "MINI_REFERENCE_ENGINE", got, want));
    EXPECT_TRUE(run(threeD, "MINI_REFERENCE_ENGINE", got, want));
}

} // namespace
