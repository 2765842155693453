// Engine plugin discovery (default directory, HIPDNN_PLUGIN_DIR,
// hipdnnSetEnginePluginPaths_ext), engine ordering and the test-bed fault knobs.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

namespace
{

class Plugins : public ::testing::Test
{
protected:
    void SetUp() override { resetPaths(); }
    void TearDown() override
    {
        tu::destroyAll(_descs);
        if(_h != nullptr)
        {
            hipdnnDestroy(_h);
        }
        resetPaths();
    }
    static void resetPaths()
    {
        tu::check(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE), "reset plugin paths");
    }
    void open()
    {
        tu::check(hipdnnCreate(&_h), "create handle");
    }
    size_t engineCount()
    {
        size_t n = 0;
        tu::check(hipdnnGetEngineCount_ext(_h, &n), "engine count");
        return n;
    }
    hipdnnBackendDescriptor_t keep(hipdnnBackendDescriptor_t d)
    {
        _descs.push_back(d);
        return d;
    }
    // 1x1x4x4 * 1x1x3x3 -> 1x1x2x2, all ones: every output is 9 (42 from the dummy engine)
    hipdnnBackendDescriptor_t convGraph()
    {
        std::vector<int64_t> xd = {1, 1, 4, 4}, wd = {1, 1, 3, 3}, yd = {1, 1, 2, 2};
        auto x = keep(tu::tensor(1, HIPDNN_DATA_FLOAT, xd, tu::packedStrides(xd)));
        auto w = keep(tu::tensor(2, HIPDNN_DATA_FLOAT, wd, tu::packedStrides(wd)));
        auto y = keep(tu::tensor(3, HIPDNN_DATA_FLOAT, yd, tu::packedStrides(yd)));
        tu::ConvParams p{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
        auto c = keep(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, x, w, y, p));
        return keep(tu::graph(_h, {c}));
    }
    float runConv(tu::PlanInfo* out = nullptr)
    {
        auto pl = tu::plan(convGraph());
        keep(pl.plan);
        std::vector<float> x(16, 1.0f), w(9, 1.0f), y(4, -1.0f);
        tu::execute(_h, pl, {1, 2, 3}, {x.data(), w.data(), y.data()});
        if(out != nullptr)
        {
            *out = pl;
        }
        return y[0];
    }
    // The heuristic's finalize status; on success `*count` is its result count.
    hipdnnStatus_t finalizeHeuristic(int64_t* count)
    {
        auto g = convGraph();
        hipdnnBackendDescriptor_t heur = nullptr;
        tu::check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur), "heur");
        keep(heur);
        tu::check(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g), "g");
        auto mode = HIPDNN_HEUR_MODE_FALLBACK;
        tu::check(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode), "mode");
        const hipdnnStatus_t s = hipdnnBackendFinalize(heur);
        if(s == HIPDNN_STATUS_SUCCESS)
        {
            tu::check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, count, nullptr), "count");
        }
        return s;
    }
    int64_t resultCount()
    {
        int64_t n = -1;
        tu::check(finalizeHeuristic(&n), "finalize heur");
        return n;
    }
    hipdnnHandle_t _h = nullptr;
    std::vector<hipdnnBackendDescriptor_t> _descs;
};

TEST_F(Plugins, DefaultDirectoryNextToBackend)
{
    tu::ScopedEnv env("HIPDNN_PLUGIN_DIR", nullptr);
    open();
    EXPECT_EQ(engineCount(), 1u);
    tu::PlanInfo pl;
    EXPECT_FLOAT_EQ(runConv(&pl), 9.0f);
    EXPECT_EQ(pl.engineName, "MINI_REFERENCE_ENGINE");
    EXPECT_EQ(pl.engineId, tu::fnv1a64("MINI_REFERENCE_ENGINE")) << "hipDNN derives the id from the name";
}

TEST_F(Plugins, EnvDirectoryReplacesDefault)
{
    // the test plugin dir also holds a plugin with a wrong ABI version: it is skipped
    tu::ScopedEnv env("HIPDNN_PLUGIN_DIR", MINI_HIPDNN_TEST_PLUGIN_DIR);
    open();
    EXPECT_EQ(engineCount(), 1u);
    tu::PlanInfo pl;
    EXPECT_FLOAT_EQ(runConv(&pl), 42.0f);
    EXPECT_EQ(pl.engineName, "MINI_TEST_DUMMY_ENGINE");
}

TEST_F(Plugins, EmptyEnvDirectoryMeansNoEngines)
{
    std::string dir = std::string(MINI_HIPDNN_LIB_DIR) + "/../empty_plugin_dir";
    mkdir(dir.c_str(), 0755);
    tu::ScopedEnv env("HIPDNN_PLUGIN_DIR", dir.c_str());
    open();
    EXPECT_EQ(engineCount(), 0u);
    EXPECT_EQ(resultCount(), 0) << "heuristic finalizes with zero results";
}

TEST_F(Plugins, AdditivePathsAndFallbackOrderKnob)
{
    const char* paths[] = {MINI_HIPDNN_TEST_PLUGIN_DIR};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ADDITIVE), HIPDNN_STATUS_SUCCESS);
    open();
    EXPECT_EQ(engineCount(), 2u);
    EXPECT_EQ(resultCount(), 2);
    EXPECT_FLOAT_EQ(runConv(), 9.0f) << "default order: default directory first";
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", "MINI_TEST_DUMMY_ENGINE");
        EXPECT_EQ(resultCount(), 1) << "only listed engines are eligible";
        EXPECT_FLOAT_EQ(runConv(), 42.0f);
    }
    {
        // Ids work too, decimal or 0x-hex (hipDNN's tokens).
        const int64_t dummy = tu::fnv1a64("MINI_TEST_DUMMY_ENGINE");
        const int64_t ref = tu::fnv1a64("MINI_REFERENCE_ENGINE");
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(ref));
        const std::string ids = std::to_string(dummy) + ", " + hex;
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", ids.c_str());
        EXPECT_EQ(resultCount(), 2);
        EXPECT_FLOAT_EQ(runConv(), 42.0f) << "the dummy engine first";
    }
    {
        // The two real forms of "no engine": candidates exist but the order
        // names none, so no policy succeeds and finalize fails; no candidate
        // at all is a successful finalize with zero results (above).
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", "NO_SUCH_ENGINE");
        int64_t n = -1;
        EXPECT_EQ(finalizeHeuristic(&n), HIPDNN_STATUS_INTERNAL_ERROR);
        char msg[256] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        EXPECT_NE(std::string(msg).find("No heuristic policy succeeded"), std::string::npos) << msg;
    }
}

TEST_F(Plugins, AbsoluteModeWithBareFileNameRelativeToBackend)
{
    // relative to the directory of libhipdnn_backend.so; "lib" and ".so" may be omitted
    const char* paths[] = {"../test_plugins/mini_hipdnn_test_dummy_engine"};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE), HIPDNN_STATUS_SUCCESS);
    open();
    EXPECT_EQ(engineCount(), 1u);
    EXPECT_FLOAT_EQ(runConv(), 42.0f);
}

TEST_F(Plugins, AbsoluteModeWithNothingLoadsNothing)
{
    const char* paths[] = {"/nonexistent/plugin/dir"};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE), HIPDNN_STATUS_SUCCESS);
    open();
    EXPECT_EQ(engineCount(), 0u);
}

// ---- fault knobs (test bed only) ------------------------------------------------------------
TEST_F(Plugins, FailCreateKnob)
{
    tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_CREATE", "1");
    EXPECT_EQ(hipdnnCreate(&_h), HIPDNN_STATUS_INTERNAL_ERROR);
    EXPECT_EQ(_h, nullptr);
}

TEST_F(Plugins, FailFinalizeKnobTargetsOneDescriptorType)
{
    open();
    tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "EXECUTION_PLAN");
    auto g = convGraph(); // tensors, op and graph still finalize
    hipdnnBackendDescriptor_t heur = nullptr, cfg = nullptr, plan = nullptr;
    tu::check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur), "heur");
    keep(heur);
    hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g);
    auto mode = HIPDNN_HEUR_MODE_FALLBACK;
    hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
    ASSERT_EQ(hipdnnBackendFinalize(heur), HIPDNN_STATUS_SUCCESS);
    tu::check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "cfg");
    keep(cfg);
    int64_t n = 0;
    tu::check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg), "res");
    ASSERT_EQ(hipdnnBackendFinalize(cfg), HIPDNN_STATUS_SUCCESS);
    tu::check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan), "plan");
    keep(plan);
    hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
    EXPECT_EQ(hipdnnBackendFinalize(plan), HIPDNN_STATUS_INTERNAL_ERROR);
    EXPECT_NE(tu::lastError().find("MINI_HIPDNN_TEST_FAIL_FINALIZE"), std::string::npos);
}

TEST_F(Plugins, FailFinalizeKnobByNumberAndAll)
{
    open();
    std::vector<int64_t> d = {1, 1, 2, 2};
    {
        tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "14"); // HIPDNN_BACKEND_TENSOR_DESCRIPTOR
        EXPECT_THROW(tu::tensor(1, HIPDNN_DATA_FLOAT, d, tu::packedStrides(d)), std::runtime_error);
    }
    {
        tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "all");
        EXPECT_THROW(tu::tensor(1, HIPDNN_DATA_FLOAT, d, tu::packedStrides(d)), std::runtime_error);
    }
    {
        tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_FINALIZE", "OPERATIONGRAPH");
        keep(tu::tensor(1, HIPDNN_DATA_FLOAT, d, tu::packedStrides(d))); // other types unaffected
    }
}

TEST_F(Plugins, FailExecuteKnob)
{
    open();
    tu::ScopedEnv k("MINI_HIPDNN_TEST_FAIL_EXECUTE", "1");
    auto pl = tu::plan(convGraph());
    keep(pl.plan);
    std::vector<float> x(16, 1.0f), w(9, 1.0f), y(4, -1.0f);
    try
    {
        tu::execute(_h, pl, {1, 2, 3}, {x.data(), w.data(), y.data()});
        ADD_FAILURE() << "execute should fail";
    }
    catch(const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("HIPDNN_STATUS_EXECUTION_FAILED"), std::string::npos) << e.what();
    }
    EXPECT_FLOAT_EQ(y[0], -1.0f) << "output untouched";
}

TEST_F(Plugins, ZeroEnginesKnob)
{
    open();
    EXPECT_EQ(resultCount(), 1);
    tu::ScopedEnv k("MINI_HIPDNN_TEST_ZERO_ENGINES", "1");
    EXPECT_EQ(resultCount(), 0);
}

} // namespace
