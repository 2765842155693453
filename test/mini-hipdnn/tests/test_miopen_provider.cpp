// MIOpen provider engine: loads from its own directory, runs single convolutions
// through libMIOpen_private.so (_impl entry points) and agrees with the
// reference engine; declines what MIOpen cannot express; never loads libMIOpen.so.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <link.h>

#include <cmath>
#include <string>
#include <vector>

namespace
{

struct Shape
{
    hipdnnBackendDescriptorType_t type = HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR;
    std::vector<int64_t> x = {2, 4, 7, 6}, w = {6, 4, 3, 3};
    std::vector<int64_t> pre = {1, 1}, post = {1, 1}, stride = {1, 1}, dil = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    bool channelsLast = false;
};

std::vector<int64_t> outDims(const Shape& s)
{
    std::vector<int64_t> y = {s.x[0], s.w[0]};
    for(size_t d = 0; d + 2 < s.x.size(); ++d)
    {
        y.push_back((s.x[2 + d] + s.pre[d] + s.post[d] - s.dil[d] * (s.w[2 + d] - 1) - 1) / s.stride[d] + 1);
    }
    return y;
}

int64_t count(const std::vector<int64_t>& d)
{
    int64_t n = 1;
    for(auto v : d)
    {
        n *= v;
    }
    return n;
}

class Provider : public tu::BackendTest
{
protected:
    Provider() : BackendTest(MINI_HIPDNN_PROVIDER_PLUGIN_DIR) {}

    // Runs the convolution on the engine named `engine`; returns the output
    // buffer, or an empty vector when that engine does not take the graph.
    std::vector<float> run(const Shape& s, const char* engine)
    {
        tu::ScopedEnv order("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", engine);
        auto yd = outDims(s);
        auto strides = [&](const std::vector<int64_t>& d) {
            return s.channelsLast ? tu::channelsLastStrides(d) : tu::packedStrides(d);
        };
        auto x = keep(tu::tensor(1, HIPDNN_DATA_FLOAT, s.x, strides(s.x)));
        auto w = keep(tu::tensor(2, HIPDNN_DATA_FLOAT, s.w, strides(s.w)));
        auto y = keep(tu::tensor(3, HIPDNN_DATA_FLOAT, yd, strides(yd)));
        tu::ConvParams p{s.pre, s.post, s.stride, s.dil, s.mode};
        auto op = keep(tu::convOp(s.type, x, w, y, p));
        auto g = keep(tu::graph(_h, {op}));
        tu::PlanInfo pl;
        try
        {
            pl = tu::plan(g);
        }
        catch(const std::runtime_error&)
        {
            return {};
        }
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, engine);
        std::vector<float> bx(size_t(count(s.x))), bw(size_t(count(s.w))), by(size_t(count(yd)));
        bool fwd = s.type == HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR;
        bool bwdData = s.type == HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR;
        auto fill = [](std::vector<float>& v, int seed) {
            for(size_t i = 0; i < v.size(); ++i)
                v[i] = float(int((i * 5 + size_t(seed) * 11) % 13) - 6) / 4.0f;
        };
        fill(bx, 1), fill(bw, 2), fill(by, 3);
        tu::execute(_h, pl, {1, 2, 3}, {bx.data(), bw.data(), by.data()});
        return fwd ? by : bwdData ? bx : bw;
    }

    void compare(const Shape& s)
    {
        auto ref = run(s, "MINI_REFERENCE_ENGINE");
        auto mio = run(s, "MIOPEN_ENGINE");
        ASSERT_FALSE(ref.empty());
        ASSERT_EQ(mio.size(), ref.size()) << "MIOPEN_ENGINE did not take the graph: " << tu::lastError();
        for(size_t i = 0; i < ref.size(); ++i)
        {
            ASSERT_NEAR(mio[i], ref[i], 1e-4 * std::max(1.0f, std::fabs(ref[i]))) << "element " << i;
        }
    }

};

TEST_F(Provider, LoadedNextToTheReferenceEngine)
{
    size_t n = 0;
    tu::check(hipdnnGetEngineCount_ext(_h, &n), "count");
    EXPECT_EQ(n, 2u);
}

TEST_F(Provider, ForwardMatchesReference) { compare(Shape{}); }

TEST_F(Provider, ForwardGroupedStridedDilatedNhwc)
{
    Shape s;
    s.w = {6, 2, 3, 3}; // groups = 2
    s.stride = {2, 1};
    s.dil = {1, 2};
    s.pre = s.post = {2, 1};
    s.channelsLast = true;
    compare(s);
}

TEST_F(Provider, BackwardDataMatchesReference)
{
    Shape s;
    s.type = HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR;
    s.stride = {2, 2};
    compare(s);
}

TEST_F(Provider, BackwardFilterMatchesReference)
{
    Shape s;
    s.type = HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR;
    s.w = {6, 2, 3, 3};
    compare(s);
}

TEST_F(Provider, Forward3d)
{
    Shape s;
    s.x = {1, 2, 4, 5, 5};
    s.w = {3, 2, 2, 3, 3};
    s.pre = s.post = {0, 1, 1};
    s.stride = {1, 1, 1};
    s.dil = {1, 1, 1};
    compare(s);
}

TEST_F(Provider, DeclinesWhatMiopenCannotExpress)
{
    Shape asym;
    asym.post = {0, 1};
    EXPECT_TRUE(run(asym, "MIOPEN_ENGINE").empty()) << "asymmetric padding";
    EXPECT_FALSE(run(asym, "MINI_REFERENCE_ENGINE").empty());
    Shape trueConv;
    trueConv.mode = HIPDNN_CONVOLUTION;
    EXPECT_TRUE(run(trueConv, "MIOPEN_ENGINE").empty()) << "mirrored-filter convolution";
}

int findLib(dl_phdr_info* info, size_t, void* data)
{
    auto* names = static_cast<std::vector<std::string>*>(data);
    if(info->dlpi_name != nullptr)
    {
        names->emplace_back(info->dlpi_name);
    }
    return 0;
}

TEST_F(Provider, UsesMiopenPrivateNeverPublicMiopen)
{
    compare(Shape{}); // make sure the provider did real work first
    std::vector<std::string> libs;
    dl_iterate_phdr(findLib, &libs);
    bool priv = false, pub = false;
    for(const auto& l : libs)
    {
        priv = priv || l.find("libMIOpen_private.so") != std::string::npos;
        pub = pub || l.find("/libMIOpen.so") != std::string::npos;
    }
    EXPECT_TRUE(priv) << "the provider links libMIOpen_private.so";
    EXPECT_FALSE(pub) << "RFC 0001 §4.5: no path back through the public libMIOpen.so";
}

} // namespace
