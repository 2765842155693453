// Engine-config knobs: the KNOB_CHOICE descriptor and ENGINECFG_KNOB_CHOICES
// as hipDNN's backend takes them, the MIOpen provider's global.benchmarking
// (its first execution searches MIOpen's solvers exhaustively) and
// global.workspace_size_limit (refused outside the range of MIOpen's
// solutions; honoured: no solver over the limit runs), and the reference
// engine, which has no knobs and ignores them.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace
{

const char* kBench = "global.benchmarking";
const char* kLimit = "global.workspace_size_limit";

// A 3x3 forward convolution: MIOpen's direct solvers need no workspace, its
// GEMM solver an im2col buffer (C * 3 * 3 rows, one column per output pixel).
const std::vector<int64_t> kX = {2, 4, 7, 6}, kW = {6, 4, 3, 3}, kY = {2, 6, 7, 6};
const int64_t kGemmBytes = 4 * 3 * 3 * 7 * 6 * 4;

class Knobs : public tu::BackendTest
{
protected:
    Knobs() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    hipdnnBackendDescriptor_t convGraph()
    {
        auto x = keep(tu::tensor(1, HIPDNN_DATA_FLOAT, kX, tu::packedStrides(kX)));
        auto w = keep(tu::tensor(2, HIPDNN_DATA_FLOAT, kW, tu::packedStrides(kW)));
        auto y = keep(tu::tensor(3, HIPDNN_DATA_FLOAT, kY, tu::packedStrides(kY)));
        tu::ConvParams p{{1, 1}, {1, 1}, {1, 1}, {1, 1}};
        auto op = keep(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, x, w, y, p));
        return keep(tu::graph(_h, {op}));
    }

    tu::PlanInfo plan(const char* engine, const std::vector<std::pair<const char*, int64_t>>& knobs)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        std::vector<hipdnnBackendDescriptor_t> choices;
        for(const auto& [id, value] : knobs)
        {
            choices.push_back(keep(tu::knobChoice(id, value)));
        }
        auto pl = tu::plan(convGraph(), choices);
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, engine);
        return pl;
    }

    std::vector<float> run(const tu::PlanInfo& pl)
    {
        std::vector<float> x(2 * 4 * 7 * 6), w(6 * 4 * 3 * 3), y(2 * 6 * 7 * 6, -1.0f);
        for(size_t i = 0; i < x.size(); ++i)
            x[i] = std::sin(0.37f * float(i));
        for(size_t i = 0; i < w.size(); ++i)
            w[i] = std::cos(0.11f * float(i));
        tu::execute(_h, pl, {1, 2, 3}, {x.data(), w.data(), y.data()});
        return y;
    }

    // The provider's benchmark lines of `fn` (its trace under MINI_HIPDNN_TEST_TRACE_EXECUTE).
    template <class F>
    int benchmarks(F fn)
    {
        tu::ScopedEnv trace("MINI_HIPDNN_TEST_TRACE_EXECUTE", "1");
        testing::internal::CaptureStderr();
        fn();
        const std::string err = testing::internal::GetCapturedStderr();
        int n = 0;
        for(size_t at = err.find("benchmarked forward search"); at != std::string::npos;
            at = err.find("benchmarked forward search", at + 1))
            ++n;
        return n;
    }
};

void expectNear(const std::vector<float>& a, const std::vector<float>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for(size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], 1e-4f) << i;
}

TEST_F(Knobs, KnobChoiceDescriptorRules)
{
    auto k = create(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    EXPECT_EQ(hipdnnBackendFinalize(k), HIPDNN_STATUS_BAD_PARAM) << "no id";
    EXPECT_EQ(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                        static_cast<int64_t>(std::strlen(kBench)), kBench),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(k), HIPDNN_STATUS_BAD_PARAM) << "no value";
    double d = 1.0;
    EXPECT_EQ(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_DOUBLE, 1, &d),
              HIPDNN_STATUS_NOT_SUPPORTED);
    int64_t two[2] = {1, 1};
    EXPECT_EQ(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 2, two),
              HIPDNN_STATUS_BAD_PARAM);
    int64_t one = 1;
    EXPECT_EQ(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &one),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(k), HIPDNN_STATUS_SUCCESS);
    int64_t back = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, nullptr, &back),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(back, 1);

    auto cfg = create(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    auto open = create(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    EXPECT_EQ(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                        &open),
              HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
    EXPECT_EQ(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_INT64, 1, &one),
              HIPDNN_STATUS_BAD_PARAM);
    hipdnnBackendDescriptor_t both[2] = {k, k};
    EXPECT_EQ(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2,
                                        both),
              HIPDNN_STATUS_BAD_PARAM)
        << "a knob set twice";
    EXPECT_EQ(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &k),
              HIPDNN_STATUS_SUCCESS);
}

TEST_F(Knobs, ProviderBenchmarksOnlyWhenAsked)
{
    const auto reference = run(plan("MINI_REFERENCE_ENGINE", {}));
    // Negative: without the knob (and with it at 0) the provider takes the
    // first of one Find result, no exhaustive search.
    tu::PlanInfo plain, off, bench;
    EXPECT_EQ(benchmarks([&] { plain = plan("MIOPEN_ENGINE", {}); expectNear(run(plain), reference); }), 0);
    EXPECT_EQ(benchmarks([&] { off = plan("MIOPEN_ENGINE", {{kBench, 0}}); expectNear(run(off), reference); }), 0);
    // Asked: the first execution benchmarks MIOpen's solvers, once; the plan
    // keeps its choice afterwards.
    EXPECT_EQ(benchmarks([&] {
                  bench = plan("MIOPEN_ENGINE", {{kBench, 1}});
                  expectNear(run(bench), reference);
                  expectNear(run(bench), reference);
              }),
              1);
    EXPECT_EQ(bench.workspace, plain.workspace) << "benchmarking alone keeps the default workspace";
}

TEST_F(Knobs, ProviderKeepsToTheWorkspaceLimit)
{
    const auto reference = run(plan("MINI_REFERENCE_ENGINE", {}));
    const auto plain = plan("MIOPEN_ENGINE", {});
    ASSERT_EQ(plain.workspace, kGemmBytes) << "the default plan reserves MIOpen's largest solver workspace";
    // Honoured: a limit under the GEMM solver's need is the plan's workspace,
    // and only a solver within it runs (a GEMM run would need more than the
    // buffer tu::execute allocates for it).
    for(int64_t limit : {int64_t{0}, int64_t{64}, kGemmBytes - 1, kGemmBytes})
    {
        auto pl = plan("MIOPEN_ENGINE", {{kLimit, limit}, {kBench, 1}});
        EXPECT_EQ(pl.workspace, limit);
        expectNear(run(pl), reference);
    }
}

TEST_F(Knobs, ProviderRefusesALimitOutsideItsSolutions)
{
    // Negative: outside [0, the largest solver workspace] (or below 0) the
    // engine config's finalize fails with the provider's reason.
    for(int64_t limit : {kGemmBytes + 1, int64_t{-1}})
    {
        try
        {
            plan("MIOPEN_ENGINE", {{kLimit, limit}});
            ADD_FAILURE() << "limit " << limit << " accepted";
        }
        catch(const std::runtime_error& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find("HIPDNN_STATUS_PLUGIN_ERROR"), std::string::npos) << what;
            EXPECT_NE(what.find("invalid global.workspace_size_limit"), std::string::npos) << what;
        }
    }
}

TEST_F(Knobs, ReferenceEngineIgnoresKnobsItHasNot)
{
    const auto plain = plan("MINI_REFERENCE_ENGINE", {});
    const auto knobbed = plan("MINI_REFERENCE_ENGINE", {{kBench, 1}, {kLimit, kGemmBytes + 1}, {"vendor.other", 7}});
    EXPECT_EQ(knobbed.workspace, plain.workspace);
    EXPECT_EQ(benchmarks([&] { expectNear(run(knobbed), run(plain)); }), 0);
}

} // namespace
