// Batchnorm training (type 27) and backward (type 20) through the backend C
// ABI: each descriptor's rules at finalize (required tensors and compute
// type; saved mean / inverse variance both or neither; training's five
// running-statistics attributes all or none), and both engines' results
// (reference; MIOpen provider on Private's _impl) against a double
// reference computed here.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace
{

using Dims = std::vector<int64_t>;
using Attr = hipdnnBackendAttributeName_t;

const Dims kX = {2, 3, 2, 3};
const Dims kP = {1, 3, 1, 1};
constexpr int64_t kN = 2 * 3 * 2 * 3, kC = 3, kM = kN / kC;

// uids: one per attribute the tests set.
enum Uid : int64_t
{
    X = 1, Y, SCALE, BIAS, EPS, MEAN, INV, PREV_M, PREV_V, MOMENTUM, NEXT_M, NEXT_V, DY, DX, DSCALE, DBIAS
};

class BnPass : public tu::BackendTest
{
protected:
    BnPass() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    hipdnnBackendDescriptor_t scalar(int64_t uid, double v) { return keep(tu::valueTensor(uid, HIPDNN_DATA_DOUBLE, &v, 8)); }

    hipdnnBackendDescriptor_t io(int64_t uid) { return keep(tu::tensor(uid, HIPDNN_DATA_FLOAT, kX, tu::packedStrides(kX))); }
    hipdnnBackendDescriptor_t param(int64_t uid) { return keep(tu::tensor(uid, HIPDNN_DATA_FLOAT, kP, tu::packedStrides(kP))); }

    // An operation of `type` with the tensors of `attrs` and (unless
    // `comp` is 0) its compute type.
    hipdnnBackendDescriptor_t op(hipdnnBackendDescriptorType_t type, const std::map<Attr, hipdnnBackendDescriptor_t>& attrs, Attr comp)
    {
        auto d = create(type);
        for(const auto& [a, t] : attrs)
            tu::check(hipdnnBackendSetAttribute(d, a, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), "set tensor");
        hipdnnDataType_t f = HIPDNN_DATA_FLOAT;
        if(comp != 0)
            tu::check(hipdnnBackendSetAttribute(d, comp, HIPDNN_TYPE_DATA_TYPE, 1, &f), "comp type");
        return d;
    }

    std::map<Attr, hipdnnBackendDescriptor_t> training(double eps)
    {
        return {{HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, io(X)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, io(Y)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, param(SCALE)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, param(BIAS)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, scalar(EPS, eps)}};
    }

    std::map<Attr, hipdnnBackendDescriptor_t> backward()
    {
        return {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, io(DY)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, io(X)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, param(SCALE)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, io(DX)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, param(DSCALE)},
                {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, param(DBIAS)}};
    }

    // Plans `d` on `engine` and runs it on the uids' buffers.
    void runOn(const char* engine, hipdnnBackendDescriptor_t d, const std::map<int64_t, std::vector<float>*>& bufs)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        tu::check(hipdnnBackendFinalize(d), "finalize op");
        auto pl = tu::plan(keep(tu::graph(_h, {d})));
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, engine);
        std::vector<int64_t> uids;
        std::vector<void*> ptrs;
        for(const auto& [u, b] : bufs)
        {
            uids.push_back(u);
            ptrs.push_back(b->data());
        }
        tu::execute(_h, pl, uids, ptrs);
    }
};

std::vector<float> wave(int64_t n, double k, double a)
{
    std::vector<float> v;
    for(int64_t i = 0; i < n; ++i)
        v.push_back(float(a * std::sin(k * double(i) + 0.3)));
    return v;
}

// Per-channel mean and biased variance of a packed NCHW tensor, in double.
void moments(const std::vector<float>& x, std::vector<double>& mean, std::vector<double>& var)
{
    mean.assign(kC, 0.0);
    var.assign(kC, 0.0);
    for(int64_t i = 0; i < kN; ++i)
        mean[size_t((i / 6) % kC)] += x[size_t(i)] / double(kM);
    for(int64_t i = 0; i < kN; ++i)
        var[size_t((i / 6) % kC)] += std::pow(x[size_t(i)] - mean[size_t((i / 6) % kC)], 2) / double(kM);
}

void expectNear(double got, double want, const char* what) { EXPECT_NEAR(got, want, 1e-5 * (1 + std::fabs(want))) << what; }

TEST_F(BnPass, TrainingRequiresItsTensorsAndComputeType)
{
    for(Attr skip : {HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT})
    {
        auto a = training(1e-5);
        a.erase(skip);
        EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)),
                  HIPDNN_STATUS_BAD_PARAM) << skip;
    }
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, training(1e-5), Attr(0))),
              HIPDNN_STATUS_BAD_PARAM) << "no compute type";
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, training(1e-5),
                                       HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)),
              HIPDNN_STATUS_SUCCESS);
}

TEST_F(BnPass, TrainingTakesSavedStatisticsBothOrNeitherAndRunningStatisticsAllOrNone)
{
    auto a = training(1e-5);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT] = param(MEAN);
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(tu::lastError().find("both be set or both be null"), std::string::npos) << tu::lastError();
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT] = param(INV);
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)),
              HIPDNN_STATUS_SUCCESS);
    const std::pair<Attr, hipdnnBackendDescriptor_t> running[] = {
        {HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT, param(PREV_M)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT, param(PREV_V)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT, scalar(MOMENTUM, 0.1)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT, param(NEXT_M)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT, param(NEXT_V)}};
    for(size_t k = 0; k < 5; ++k)
    {
        a[running[k].first] = running[k].second;
        const auto want = k == 4 ? HIPDNN_STATUS_SUCCESS : HIPDNN_STATUS_BAD_PARAM;
        EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)),
                  want) << k + 1 << " of 5 running attributes";
    }
}

TEST_F(BnPass, BackwardRequiresItsTensorsAndTakesSavedStatisticsBothOrNeither)
{
    for(Attr skip : {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT,
                     HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT})
    {
        auto a = backward();
        a.erase(skip);
        EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, a,
                                           HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT)),
                  HIPDNN_STATUS_BAD_PARAM) << skip;
    }
    auto a = backward();
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT] = param(INV);
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, a,
                                       HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT)),
              HIPDNN_STATUS_BAD_PARAM);
    // Backward has no epsilon attribute (hipDNN's descriptor takes none).
    auto d = create(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT);
    auto eps = scalar(EPS, 1e-5);
    EXPECT_EQ(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &eps),
              HIPDNN_STATUS_NOT_SUPPORTED);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT] = param(MEAN);
    EXPECT_EQ(hipdnnBackendFinalize(op(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, a,
                                       HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT)),
              HIPDNN_STATUS_SUCCESS);
}

TEST_F(BnPass, BothEnginesTrainAsTheDoubleReference)
{
    const double eps = 0.01 + 1e-9;
    for(const char* engine : {"MINI_REFERENCE_ENGINE", "MIOPEN_ENGINE"})
    {
        SCOPED_TRACE(engine);
        auto a = training(eps);
        a[HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT] = param(MEAN);
        a[HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT] = param(INV);
        auto d = op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT);
        std::vector<float> x = wave(kN, 0.7, 2.0), y(kN, -9), scale = {0.5f, -1.0f, 2.0f}, bias = {0.1f, 0.2f, -0.3f},
                           mean(kC, -9), inv(kC, -9);
        runOn(engine, d, {{X, &x}, {Y, &y}, {SCALE, &scale}, {BIAS, &bias}, {MEAN, &mean}, {INV, &inv}});
        std::vector<double> m, v;
        moments(x, m, v);
        for(int64_t i = 0; i < kN; ++i)
        {
            const auto c = size_t((i / 6) % kC);
            expectNear(y[size_t(i)], scale[c] * (x[size_t(i)] - m[c]) / std::sqrt(v[c] + eps) + bias[c], "y");
        }
        for(size_t c = 0; c < size_t(kC); ++c)
        {
            expectNear(mean[c], m[c], "saved mean");
            expectNear(inv[c], 1.0 / std::sqrt(v[c] + eps), "saved inverse variance");
        }
    }
}

TEST_F(BnPass, BothEnginesRunTheBackwardAsTheDoubleReference)
{
    for(const char* engine : {"MINI_REFERENCE_ENGINE", "MIOPEN_ENGINE"})
    {
        for(bool saved : {true, false})
        {
            SCOPED_TRACE(std::string(engine) + (saved ? " saved statistics" : " recomputed (epsilon 1e-5)"));
            auto a = backward();
            std::vector<float> x = wave(kN, 0.9, 1.5), dy = wave(kN, 0.4, 1.0), dx(kN, -9), scale = {0.5f, -1.0f, 2.0f},
                               ds(kC, -9), db(kC, -9), mean = {0.1f, -0.2f, 0.05f}, inv = {1.5f, 0.8f, 2.0f};
            std::map<int64_t, std::vector<float>*> bufs = {{X, &x}, {DY, &dy}, {DX, &dx}, {SCALE, &scale}, {DSCALE, &ds}, {DBIAS, &db}};
            std::vector<double> m(mean.begin(), mean.end()), s(inv.begin(), inv.end());
            if(saved)
            {
                a[HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT] = param(MEAN);
                a[HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT] = param(INV);
                bufs[MEAN] = &mean;
                bufs[INV] = &inv;
            }
            else
            {
                moments(x, m, s);
                for(auto& e : s)
                    e = 1.0 / std::sqrt(e + 1e-5);
            }
            runOn(engine, op(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT), bufs);
            std::vector<double> sdy(kC, 0), sdyx(kC, 0);
            for(int64_t i = 0; i < kN; ++i)
            {
                const auto c = size_t((i / 6) % kC);
                sdy[c] += dy[size_t(i)];
                sdyx[c] += dy[size_t(i)] * (x[size_t(i)] - m[c]) * s[c];
            }
            for(int64_t i = 0; i < kN; ++i)
            {
                const auto c = size_t((i / 6) % kC);
                const double xhat = (x[size_t(i)] - m[c]) * s[c];
                expectNear(dx[size_t(i)], scale[c] * s[c] / kM * (kM * dy[size_t(i)] - sdy[c] - xhat * sdyx[c]), "dx");
            }
            for(size_t c = 0; c < size_t(kC); ++c)
            {
                expectNear(ds[c], sdyx[c], "dscale");
                expectNear(db[c], sdy[c], "dbias");
            }
        }
    }
}

TEST_F(BnPass, TheProviderDeclinesRunningStatisticsAndOneValuePerChannel)
{
    tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", "MIOPEN_ENGINE");
    auto a = training(1e-5);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT] = param(PREV_M);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT] = param(PREV_V);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT] = scalar(MOMENTUM, 0.1);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT] = param(NEXT_M);
    a[HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT] = param(NEXT_V);
    auto d = op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, a, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT);
    tu::check(hipdnnBackendFinalize(d), "finalize");
    EXPECT_THROW(tu::plan(keep(tu::graph(_h, {d}))), std::runtime_error) << "running statistics";
    const Dims one = {1, 3, 1, 1};
    std::map<Attr, hipdnnBackendDescriptor_t> single = {
        {HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, keep(tu::tensor(X, HIPDNN_DATA_FLOAT, one, tu::packedStrides(one)))},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, keep(tu::tensor(Y, HIPDNN_DATA_FLOAT, one, tu::packedStrides(one)))},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, param(SCALE)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, param(BIAS)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, scalar(EPS, 1e-5)}};
    auto s = op(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, single, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT);
    tu::check(hipdnnBackendFinalize(s), "finalize");
    EXPECT_THROW(tu::plan(keep(tu::graph(_h, {s}))), std::runtime_error) << "N x spatial = 1";
}

} // namespace
