// Batchnorm inference with variance -> pointwise RELU_FWD (the batchnorm's y
// virtual) through the backend C ABI: both engines (reference; MIOpen
// provider, which runs MIOpen Private's
// miopenBatchNormForwardInferenceActivation_impl as hipDNN's provider runs
// MIOpen's) against a double-precision reference computed here, and the
// provider's applicability rules for the fused graph
// (ops/batchnorm/README.md, "Batchnorm inference + activation").
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

enum Uid : int64_t
{
    X = 1,
    MEAN,
    VAR,
    SCALE,
    BIAS,
    Y,
    EPS,
    OUT
};

struct Problem
{
    Dims x = {2, 3, 4, 5};
    hipdnnDataType_t io = HIPDNN_DATA_FLOAT;
    bool yVirtual = true;
    hipdnnDataType_t yType = HIPDNN_DATA_FLOAT;
    hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_MODE_RELU_FWD;
    bool lower = false, upper = false;
    float lo = 0.0f, hi = 0.0f;
    hipdnnDataType_t bnCompute = HIPDNN_DATA_FLOAT;
    bool reversed = false; // list the pointwise operation first
    double epsilon = 1e-3;
};

class BnActivation : public tu::BackendTest
{
protected:
    BnActivation() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    // Builds, plans and (when planned) runs the graph; false when the engine declines it.
    bool run(const Problem& p, const char* engine, std::vector<double>& got, std::vector<double>& want)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        Dims pd(p.x.size(), 1);
        pd[1] = p.x[1];
        auto st = tu::packedStrides(p.x);
        auto pst = tu::packedStrides(pd);
        auto tx = keep(tu::tensor(X, p.io, p.x, st));
        auto ty = keep(tu::tensor(Y, p.yType, p.x, st, p.yVirtual));
        auto tout = keep(tu::tensor(OUT, p.io, p.x, st));
        auto teps = keep(tu::valueTensor(EPS, HIPDNN_DATA_DOUBLE, &p.epsilon, 8));
        const std::pair<hipdnnBackendAttributeName_t, hipdnnBackendDescriptor_t> tensors[] = {
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, tx},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, keep(tu::tensor(MEAN, HIPDNN_DATA_FLOAT, pd, pst))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, keep(tu::tensor(VAR, HIPDNN_DATA_FLOAT, pd, pst))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, keep(tu::tensor(SCALE, HIPDNN_DATA_FLOAT, pd, pst))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, keep(tu::tensor(BIAS, HIPDNN_DATA_FLOAT, pd, pst))},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, ty},
            {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT, teps},
        };
        auto bn = create(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT);
        for(const auto& [name, t] : tensors)
            tu::check(hipdnnBackendSetAttribute(bn, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), "set tensor");
        tu::check(hipdnnBackendSetAttribute(bn, HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1,
                                            &p.bnCompute),
                  "comp type");
        tu::check(hipdnnBackendFinalize(bn), "finalize bn");
        auto act = keep(tu::pointwiseOp(p.mode, ty, nullptr, tout, p.lower ? &p.lo : nullptr,
                                        p.upper ? &p.hi : nullptr));
        auto g = keep(p.reversed ? tu::graph(_h, {act, bn}) : tu::graph(_h, {bn, act}));
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
        const int64_t n = count(p.x), c = p.x[1];
        std::vector<float> xs(static_cast<size_t>(n));
        std::vector<float> stats[4];
        for(int64_t i = 0; i < n; ++i)
            xs[size_t(i)] = float(std::sin(0.37 * double(i)) * 3.0);
        for(int k = 0; k < 4; ++k)
            for(int64_t i = 0; i < c; ++i)
                stats[k].push_back(k == 1 ? 0.5f + 0.25f * float(i) : 0.3f * float(i + k) - 0.4f);
        std::vector<uint16_t> x16, o16(size_t(n), 0);
        if(p.io == HIPDNN_DATA_HALF)
            for(float f : xs)
                x16.push_back(tu::toHalf(f));
        std::vector<float> o32(size_t(n), -7.0f);
        std::vector<float> yUser(size_t(n), 0.0f); // y as a graph output, when it is not virtual
        void* xp = x16.empty() ? static_cast<void*>(xs.data()) : x16.data();
        void* op = x16.empty() ? static_cast<void*>(o32.data()) : o16.data();
        std::vector<int64_t> uids = {X, MEAN, VAR, SCALE, BIAS, OUT};
        std::vector<void*> ptrs = {xp, stats[0].data(), stats[1].data(), stats[2].data(), stats[3].data(), op};
        if(!p.yVirtual)
        {
            uids.push_back(Y);
            ptrs.push_back(yUser.data());
        }
        tu::execute(_h, pl, uids, ptrs);
        got.assign(size_t(n), 0);
        want.assign(size_t(n), 0);
        for(int64_t off = 0; off < n; ++off)
        {
            const int64_t ch = (off / st[1]) % c;
            const double xv = x16.empty() ? xs[size_t(off)] : tu::fromHalf(x16[size_t(off)]);
            double v = stats[2][size_t(ch)] * (xv - stats[0][size_t(ch)])
                           / std::sqrt(double(stats[1][size_t(ch)]) + p.epsilon)
                       + stats[3][size_t(ch)];
            v = std::max(v, p.lower ? double(p.lo) : 0.0);
            if(p.upper)
                v = std::min(v, double(p.hi));
            want[size_t(off)] = v;
            got[size_t(off)] = x16.empty() ? o32[size_t(off)] : tu::fromHalf(o16[size_t(off)]);
        }
        return true;
    }

    void expectClose(const Problem& p, const char* engine)
    {
        std::vector<double> got, want;
        ASSERT_TRUE(run(p, engine, got, want)) << engine << " declined";
        const double tol = p.io == HIPDNN_DATA_FLOAT ? 1e-5 : 4e-3;
        int clipped = 0;
        for(size_t i = 0; i < got.size(); ++i)
        {
            ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::fabs(want[i]))) << engine << " element " << i;
            clipped += want[i] == 0.0 || (p.upper && want[i] == double(p.hi));
        }
        EXPECT_GT(clipped, 0) << "the data exercise the activation";
    }
};

TEST_F(BnActivation, BothEnginesMatchTheDoubleReferenceForEachActivationForm)
{
    for(const char* engine : {"MINI_REFERENCE_ENGINE", "MIOPEN_ENGINE"})
        for(auto io : {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF})
            for(int form = 0; form < 3; ++form)
                for(bool reversed : {false, true})
                {
                    SCOPED_TRACE(std::string(engine) + " type " + std::to_string(io) + " form " + std::to_string(form));
                    Problem p;
                    p.io = io;
                    p.reversed = reversed;
                    p.upper = form >= 1;
                    p.hi = 1.5f;
                    p.lower = form == 2;
                    p.lo = form == 2 ? -0.25f : 0.0f;
                    expectClose(p, engine);
                }
}

TEST_F(BnActivation, TheProviderDeclinesWhatItsBuilderDeclines)
{
    std::vector<double> got, want;
    struct Case
    {
        const char* what;
        Problem p;
    };
    std::vector<Case> cases;
    Problem nonVirtual;
    nonVirtual.yVirtual = false;
    cases.push_back({"the batchnorm's y is not virtual", nonVirtual});
    Problem halfY;
    halfY.io = HIPDNN_DATA_HALF;
    halfY.yType = HIPDNN_DATA_HALF;
    cases.push_back({"the intermediate y is not FLOAT", halfY});
    Problem identity;
    identity.mode = HIPDNN_POINTWISE_MODE_IDENTITY;
    cases.push_back({"the pointwise mode is not RELU_FWD", identity});
    Problem lowOnly;
    lowOnly.lower = true;
    lowOnly.lo = 0.5f;
    cases.push_back({"a non-zero lower clip alone", lowOnly});
    Problem threeD;
    threeD.x = {2, 3, 4};
    cases.push_back({"3-D", threeD});
    for(const auto& c : cases)
    {
        EXPECT_FALSE(run(c.p, "MIOPEN_ENGINE", got, want)) << c.what;
    }
    // The positive control: the same builder takes the default problem.
    EXPECT_TRUE(run(Problem{}, "MIOPEN_ENGINE", got, want));
    // The reference engine runs an identity and a 3-D graph.
    EXPECT_TRUE(run(identity, "MINI_REFERENCE_ENGINE", got, want));
    EXPECT_TRUE(run(threeD, "MINI_REFERENCE_ENGINE", got, want));
}

} // namespace
