// Batchnorm inference with mean and inverse variance (type 17, y virtual) ->
// pointwise RELU_BWD (in_0 dy, in_1 that y, out_0 virtual) -> batchnorm
// backward (type 20) through the backend C ABI: both engines (reference;
// MIOpen provider, which runs MIOpen Private's
// miopenBatchNormBackwardActivation_impl as hipDNN's provider runs MIOpen's)
// against a double-precision reference computed here; type 17's finalize
// rules; and the provider's applicability rules for the fused graph
// (ops/batchnorm/README.md, "Batchnorm inference + DReLU + backward").
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace
{

using Dims = std::vector<int64_t>;

enum Uid : int64_t
{
    X = 1,
    MEAN,
    INV,
    SCALE,
    BIAS,
    Y,
    DY,
    DYA,
    DX,
    DSCALE,
    DBIAS
};

struct Problem
{
    Dims x = {2, 3, 4, 5};
    hipdnnDataType_t io = HIPDNN_DATA_FLOAT;
    bool yVirtual = true;
    bool dyaVirtual = true;
    hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_MODE_RELU_BWD;
    bool olderOrder = false;   // in_0 = y, in_1 = dy (the builder @ec383f43)
    bool otherScale = false;   // the backward's scale is another tensor
    bool reversed = false;     // list the operations backward first
    hipdnnDataType_t bwdCompute = HIPDNN_DATA_FLOAT;
};

class BnBackwardActivation : public tu::BackendTest
{
protected:
    BnBackwardActivation() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    hipdnnBackendDescriptor_t op(hipdnnBackendDescriptorType_t type,
                                 const std::vector<std::pair<hipdnnBackendAttributeName_t, hipdnnBackendDescriptor_t>>& ts,
                                 hipdnnBackendAttributeName_t compAttr, hipdnnDataType_t comp)
    {
        auto d = create(type);
        for(const auto& [name, t] : ts)
            tu::check(hipdnnBackendSetAttribute(d, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), "set tensor");
        tu::check(hipdnnBackendSetAttribute(d, compAttr, HIPDNN_TYPE_DATA_TYPE, 1, &comp), "comp type");
        tu::check(hipdnnBackendFinalize(d), "finalize");
        return d;
    }

    // Builds, plans and (when planned) runs the graph; false when no engine
    // of `engine` takes it. got/want: dx, then dscale, then dbias.
    bool run(const Problem& p, const char* engine, std::vector<double>& got, std::vector<double>& want)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        Dims pd(p.x.size(), 1);
        pd[1] = p.x[1];
        auto st = tu::packedStrides(p.x);
        auto pst = tu::packedStrides(pd);
        auto tx = keep(tu::tensor(X, p.io, p.x, st));
        auto ty = keep(tu::tensor(Y, HIPDNN_DATA_FLOAT, p.x, st, p.yVirtual));
        auto tdy = keep(tu::tensor(DY, p.io, p.x, st));
        auto tdya = keep(tu::tensor(DYA, HIPDNN_DATA_FLOAT, p.x, st, p.dyaVirtual));
        auto tdx = keep(tu::tensor(DX, p.io, p.x, st));
        auto param = [&](int64_t uid) { return keep(tu::tensor(uid, HIPDNN_DATA_FLOAT, pd, pst)); };
        auto tmean = param(MEAN), tinv = param(INV), tscale = param(SCALE), tbias = param(BIAS);
        auto tds = param(DSCALE), tdb = param(DBIAS);
        auto bn = keep(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT,
                          {{HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, tx},
                           {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, tmean},
                           {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, tinv},
                           {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, tscale},
                           {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, tbias},
                           {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, ty}},
                          HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT, HIPDNN_DATA_FLOAT));
        auto act = keep(p.olderOrder ? tu::pointwiseOp(p.mode, ty, tdy, tdya) : tu::pointwiseOp(p.mode, tdy, ty, tdya));
        auto bwdScale = p.otherScale ? keep(tu::tensor(99, HIPDNN_DATA_FLOAT, pd, pst)) : tscale;
        auto bwd = keep(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
                           {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, tdya},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, tx},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, bwdScale},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, tdx},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, tds},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, tdb},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, tmean},
                            {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, tinv}},
                           HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT, p.bwdCompute));
        auto opGraph = keep(p.reversed ? tu::graph(_h, {bwd, act, bn}) : tu::graph(_h, {bn, act, bwd}));
        tu::PlanInfo pl;
        try
        {
            pl = tu::plan(opGraph);
        }
        catch(const std::runtime_error&)
        {
            return false;
        }
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, engine);
        int64_t n = 1;
        for(auto v : p.x)
            n *= v;
        const int64_t c = p.x[1], m = n / c;
        std::vector<float> xs, dys;
        for(int64_t i = 0; i < n; ++i)
        {
            xs.push_back(float(std::sin(0.37 * double(i)) * 3.0));
            dys.push_back(float(std::cos(0.91 * double(i))));
        }
        std::vector<float> stats[4]; // mean, inverse variance, scale, bias
        for(int k = 0; k < 4; ++k)
            for(int64_t i = 0; i < c; ++i)
                stats[k].push_back(k == 1 ? 0.5f + 0.25f * float(i) : 0.3f * float(i + k) - 0.4f);
        std::vector<uint16_t> x16, dy16, dx16(size_t(n), 0);
        if(p.io == HIPDNN_DATA_HALF)
            for(int64_t i = 0; i < n; ++i)
            {
                x16.push_back(tu::toHalf(xs[size_t(i)]));
                dy16.push_back(tu::toHalf(dys[size_t(i)]));
            }
        std::vector<float> dx32(size_t(n), -7.0f), ds(size_t(c), -7.0f), db(size_t(c), -7.0f);
        const bool half = !x16.empty();
        std::vector<int64_t> uids = {X, MEAN, INV, SCALE, BIAS, DY, DX, DSCALE, DBIAS};
        std::vector<void*> ptrs = {half ? static_cast<void*>(x16.data()) : xs.data(), stats[0].data(), stats[1].data(),
                                   stats[2].data(), stats[3].data(),
                                   half ? static_cast<void*>(dy16.data()) : dys.data(),
                                   half ? static_cast<void*>(dx16.data()) : dx32.data(), ds.data(), db.data()};
        tu::execute(_h, pl, uids, ptrs);
        // The reference, per channel of the packed NCHW data.
        std::vector<double> g(static_cast<size_t>(n), 0.0), xh(static_cast<size_t>(n), 0.0);
        std::vector<double> sg(static_cast<size_t>(c), 0.0), sgx(static_cast<size_t>(c), 0.0);
        for(int64_t i = 0; i < n; ++i)
        {
            const int64_t ch = (i / st[1]) % c;
            const double xv = half ? tu::fromHalf(x16[size_t(i)]) : xs[size_t(i)];
            const double dyv = half ? tu::fromHalf(dy16[size_t(i)]) : dys[size_t(i)];
            xh[size_t(i)] = (xv - stats[0][size_t(ch)]) * stats[1][size_t(ch)];
            const double v = stats[2][size_t(ch)] * xh[size_t(i)] + stats[3][size_t(ch)];
            g[size_t(i)] = v > 0 ? dyv : 0.0;
            sg[size_t(ch)] += g[size_t(i)];
            sgx[size_t(ch)] += g[size_t(i)] * xh[size_t(i)];
        }
        got.clear();
        want.clear();
        for(int64_t i = 0; i < n; ++i)
        {
            const int64_t ch = (i / st[1]) % c;
            const double k = double(stats[2][size_t(ch)]) * stats[1][size_t(ch)] / double(m);
            want.push_back(k * (double(m) * g[size_t(i)] - sg[size_t(ch)] - xh[size_t(i)] * sgx[size_t(ch)]));
            got.push_back(half ? tu::fromHalf(dx16[size_t(i)]) : dx32[size_t(i)]);
        }
        for(int64_t ch = 0; ch < c; ++ch)
        {
            want.push_back(sgx[size_t(ch)]);
            got.push_back(ds[size_t(ch)]);
            want.push_back(sg[size_t(ch)]);
            got.push_back(db[size_t(ch)]);
        }
        return true;
    }
};

TEST_F(BnBackwardActivation, BothEnginesMatchTheDoubleReference)
{
    for(const char* engine : {"MINI_REFERENCE_ENGINE", "MIOPEN_ENGINE"})
        for(auto io : {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF})
            for(bool reversed : {false, true})
            {
                SCOPED_TRACE(std::string(engine) + " type " + std::to_string(io) + (reversed ? " reversed" : ""));
                Problem p;
                p.io = io;
                p.reversed = reversed;
                std::vector<double> got, want;
                ASSERT_TRUE(run(p, engine, got, want)) << "declined";
                const double tol = io == HIPDNN_DATA_FLOAT ? 1e-4 : 4e-3;
                for(size_t i = 0; i < got.size(); ++i)
                    ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::fabs(want[i]))) << "element " << i;
            }
}

TEST_F(BnBackwardActivation, TheInverseVarianceInferenceRequiresItsTensorsAndComputeType)
{
    const Dims x = {2, 3, 4, 5}, pd = {1, 3, 1, 1};
    auto tx = keep(tu::tensor(X, HIPDNN_DATA_FLOAT, x, tu::packedStrides(x)));
    auto ty = keep(tu::tensor(Y, HIPDNN_DATA_FLOAT, x, tu::packedStrides(x), true));
    auto tp = keep(tu::tensor(MEAN, HIPDNN_DATA_FLOAT, pd, tu::packedStrides(pd)));
    const hipdnnBackendAttributeName_t names[] = {
        HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT,     HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT,
        HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT,
        HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT,  HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT};
    // Each tensor left out, then the compute type left out: BAD_PARAM; all set: SUCCESS.
    for(int skip = 0; skip <= 7; ++skip)
    {
        auto d = create(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT);
        for(int i = 0; i < 6; ++i)
        {
            if(i == skip)
                continue;
            auto t = i == 0 ? tx : i == 5 ? ty : tp;
            tu::check(hipdnnBackendSetAttribute(d, names[i], HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), "set");
        }
        if(skip != 6)
        {
            hipdnnDataType_t f = HIPDNN_DATA_FLOAT;
            tu::check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &f),
                      "comp");
        }
        EXPECT_EQ(hipdnnBackendFinalize(d), skip == 7 ? HIPDNN_STATUS_SUCCESS : HIPDNN_STATUS_BAD_PARAM) << skip;
    }
}

TEST_F(BnBackwardActivation, TheProviderDeclinesWhatItsBuilderDeclines)
{
    std::vector<double> got, want;
    struct Case
    {
        const char* what;
        Problem p;
    };
    std::vector<Case> cases;
    Problem c;
    c.yVirtual = false;
    cases.push_back({"the inference's y is not virtual", c});
    c = Problem{};
    c.dyaVirtual = false;
    cases.push_back({"the pointwise's output is not virtual", c});
    c = Problem{};
    c.mode = HIPDNN_POINTWISE_MODE_RELU_FWD;
    cases.push_back({"the pointwise mode is not RELU_BWD", c});
    c = Problem{};
    c.olderOrder = true;
    cases.push_back({"in_0 is the inference's y and in_1 dy (the older builder's order)", c});
    c = Problem{};
    c.otherScale = true;
    cases.push_back({"the backward's scale is not the inference's", c});
    c = Problem{};
    c.bwdCompute = HIPDNN_DATA_HALF;
    cases.push_back({"a node's compute type is not FLOAT", c});
    c = Problem{};
    c.x = {1, 3, 1, 1};
    cases.push_back({"one value per channel", c});
    for(const auto& k : cases)
        EXPECT_FALSE(run(k.p, "MIOPEN_ENGINE", got, want)) << k.what;
    // The positive control: the same builder takes the default problem.
    EXPECT_TRUE(run(Problem{}, "MIOPEN_ENGINE", got, want));
}

} // namespace
