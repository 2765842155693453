// hipDNN's own frontend sequence, replayed through the C ABI: descriptors
// created, attributes set in the order and with the types and values hipDNN's
// C++ frontend lowers a graph with (per-op lowering with the CONVOLUTION_MODE
// helper; docs/hipdnn-compatibility.md, "The frontend's sequence", cites the
// revisions). It must finalize and execute on the test bed for conv fwd,
// backward data, backward weights and conv -> bias -> ReLU, and compute what
// a plain loop here computes. Written for this project: only the order and
// the values come from hipDNN.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace
{

// One 2-D NCHW fp32 problem: N=1, C=2, H=W=5, K=3, R=S=3, pad 1, stride 1, dilation 1.
constexpr int64_t N = 1, C = 2, H = 5, W = 5, K = 3, R = 3, S = 3, P = 1;
constexpr int64_t OH = H + 2 * P - R + 1, OW = W + 2 * P - S + 1;

std::vector<float> pattern(size_t n, float scale)
{
    std::vector<float> v(n);
    for(size_t i = 0; i < n; ++i)
    {
        v[i] = scale * static_cast<float>(static_cast<int>((i * 7 + 3) % 11) - 5);
    }
    return v;
}

// The loops every direction is checked against (cross-correlation).
float xAt(const std::vector<float>& x, int64_t c, int64_t h, int64_t w)
{
    return (h < 0 || h >= H || w < 0 || w >= W) ? 0.0f : x[static_cast<size_t>((c * H + h) * W + w)];
}
std::vector<float> forward(const std::vector<float>& x, const std::vector<float>& w)
{
    std::vector<float> y(K * OH * OW, 0.0f);
    for(int64_t k = 0; k < K; ++k)
        for(int64_t oh = 0; oh < OH; ++oh)
            for(int64_t ow = 0; ow < OW; ++ow)
                for(int64_t c = 0; c < C; ++c)
                    for(int64_t r = 0; r < R; ++r)
                        for(int64_t s = 0; s < S; ++s)
                            y[static_cast<size_t>((k * OH + oh) * OW + ow)]
                                += xAt(x, c, oh - P + r, ow - P + s) * w[static_cast<size_t>(((k * C + c) * R + r) * S + s)];
    return y;
}

// The adjoint of `forwardOf` (a linear map of its argument) applied to dy:
// component i is <forwardOf(e_i), dy>.
template <typename F>
std::vector<float> adjoint(size_t n, F forwardOf, const std::vector<float>& dy)
{
    std::vector<float> out(n, 0.0f);
    for(size_t i = 0; i < n; ++i)
    {
        std::vector<float> e(n, 0.0f);
        e[i] = 1.0f;
        const auto y = forwardOf(e);
        for(size_t j = 0; j < y.size(); ++j)
            out[i] += y[j] * dy[j];
    }
    return out;
}

class FrontendSequence : public tu::BackendTest
{
protected:
    template <typename T>
    void set(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t count, const T* v)
    {
        tu::check(hipdnnBackendSetAttribute(d, n, t, count, v), ("set attribute " + std::to_string(n)).c_str());
    }
    void ref(hipdnnBackendDescriptor_t op, hipdnnBackendAttributeName_t n, hipdnnBackendDescriptor_t t)
    {
        set(op, n, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t);
    }
    // createOrFindTensorDesc: UID, name, type, dims, strides, virtual, and the
    // byte alignment only when it is not the default 16.
    hipdnnBackendDescriptor_t tensor(int64_t uid, const char* name, std::vector<int64_t> dims, bool isVirtual = false,
                                     int64_t alignment = 16)
    {
        auto d = create(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        const auto strides = tu::packedStrides(dims);
        const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
        const bool v = isVirtual;
        set(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid);
        set(d, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, static_cast<int64_t>(std::strlen(name)), name);
        set(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt);
        set(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, static_cast<int64_t>(dims.size()), dims.data());
        set(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, static_cast<int64_t>(strides.size()), strides.data());
        set(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &v);
        if(alignment != 16)
        {
            set(d, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &alignment);
        }
        tu::check(hipdnnBackendFinalize(d), "finalize tensor");
        return d;
    }
    // The shared convolution parameters, in the helper's order.
    void convParams(hipdnnBackendDescriptor_t op)
    {
        const std::vector<int64_t> pad = {P, P}, one = {1, 1};
        const hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
        const hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        set(op, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad.data());
        set(op, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad.data());
        set(op, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one.data());
        set(op, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one.data());
        set(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
        set(op, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp);
    }
    // Graph (ops, then handle), heuristic, one engine config (finalized, its
    // engine's id read back), plan (handle, config), its workspace size;
    // then a variant pack (pointers, ids, workspace always) and execute.
    void run(const std::vector<hipdnnBackendDescriptor_t>& ops, std::vector<int64_t> uids, std::vector<void*> ptrs)
    {
        auto graph = create(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
        set(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, static_cast<int64_t>(ops.size()), ops.data());
        set(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_h);
        tu::check(hipdnnBackendFinalize(graph), "finalize graph");
        auto heur = create(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        set(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
        set(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
        tu::check(hipdnnBackendFinalize(heur), "finalize heuristic");
        int64_t count = 0;
        tu::check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr), "result count");
        ASSERT_GE(count, 1);
        auto cfg = create(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        int64_t got = 0;
        tu::check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got, &cfg), "results");
        ASSERT_EQ(got, 1);
        tu::check(hipdnnBackendFinalize(cfg), "finalize engine config");
        hipdnnBackendDescriptor_t engine = nullptr;
        tu::check(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got, &engine), "engine");
        _descs.push_back(engine);
        int64_t id = 0;
        tu::check(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &got, &id), "engine id");
        EXPECT_EQ(id, tu::fnv1a64("MINI_REFERENCE_ENGINE"));
        auto plan = create(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        set(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_h);
        set(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
        tu::check(hipdnnBackendFinalize(plan), "finalize plan");
        int64_t workspace = -1;
        tu::check(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &got, &workspace), "workspace");
        std::vector<unsigned char> ws(static_cast<size_t>(workspace));
        void* wsPtr = workspace > 0 ? ws.data() : nullptr;
        auto pack = create(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        set(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, static_cast<int64_t>(ptrs.size()), ptrs.data());
        set(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, static_cast<int64_t>(uids.size()), uids.data());
        set(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &wsPtr);
        tu::check(hipdnnBackendFinalize(pack), "finalize variant pack");
        tu::check(hipdnnBackendExecute(_h, plan, pack), "execute");
    }
    static void expectNear(const std::vector<float>& got, const std::vector<float>& want)
    {
        ASSERT_EQ(got.size(), want.size());
        for(size_t i = 0; i < got.size(); ++i)
        {
            EXPECT_NEAR(got[i], want[i], 1e-4f * (1.0f + std::fabs(want[i]))) << "element " << i;
        }
    }
};

const std::vector<float> X = pattern(N * C * H * W, 0.5f), Wt = pattern(K * C * R * S, 0.25f);

TEST_F(FrontendSequence, ConvolutionForward)
{
    // Tensors first, then the op (ConvolutionFpropPacker).
    auto x = tensor(1, "x", {N, C, H, W}), w = tensor(2, "w", {K, C, R, S}), y = tensor(3, "y", {N, K, OH, OW});
    auto op = create(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, y);
    convParams(op);
    tu::check(hipdnnBackendFinalize(op), "finalize conv");
    std::vector<float> xs = X, ws = Wt, out(K * OH * OW, -7.0f);
    run({op}, {1, 2, 3}, {xs.data(), ws.data(), out.data()});
    expectNear(out, forward(X, Wt));
}

TEST_F(FrontendSequence, ConvolutionBackwardData)
{
    // The op first; each tensor created just before it is referenced; then the
    // parameters and the operation's name (ConvolutionDgradPacker).
    auto op = create(HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, tensor(3, "dy", {N, K, OH, OW}));
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, tensor(2, "w", {K, C, R, S}));
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, tensor(1, "dx", {N, C, H, W}));
    convParams(op);
    const char* name = "dgrad";
    set(op, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, static_cast<int64_t>(std::strlen(name)), name);
    tu::check(hipdnnBackendFinalize(op), "finalize dgrad");
    const std::vector<float> dy = pattern(K * OH * OW, 0.5f);
    std::vector<float> dys = dy, ws = Wt, dx(C * H * W, -7.0f);
    run({op}, {3, 2, 1}, {dys.data(), ws.data(), dx.data()});
    // dx is the adjoint of forward in x.
    expectNear(dx, adjoint(C * H * W, [](const std::vector<float>& e) { return forward(e, Wt); }, dy));
}

TEST_F(FrontendSequence, ConvolutionBackwardWeightsWithAnAlignmentOtherThanTheDefault)
{
    // Tensors first (ConvolutionWgradPacker); x declares an alignment of 4, so
    // the frontend sends HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT for it, and a
    // pointer 4 bytes past a 16-byte boundary is taken.
    auto x = tensor(1, "x", {N, C, H, W}, false, 4), dy = tensor(3, "dy", {N, K, OH, OW}), dw = tensor(2, "dw", {K, C, R, S});
    auto op = create(HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, x);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, dy);
    ref(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, dw);
    convParams(op);
    tu::check(hipdnnBackendFinalize(op), "finalize wgrad");
    const std::vector<float> dyv = pattern(K * OH * OW, 0.5f);
    alignas(16) static float xbuf[N * C * H * W + 4];
    float* xs = xbuf + 1;
    std::memcpy(xs, X.data(), X.size() * sizeof(float));
    std::vector<float> dys = dyv, out(K * C * R * S, -7.0f);
    run({op}, {1, 3, 2}, {xs, dys.data(), out.data()});
    // dw is the adjoint of forward in w.
    expectNear(out, adjoint(K * C * R * S, [](const std::vector<float>& e) { return forward(X, e); }, dyv));
}

TEST_F(FrontendSequence, ConvolutionBiasRelu)
{
    auto x = tensor(1, "x", {N, C, H, W}), w = tensor(2, "w", {K, C, R, S});
    auto convOut = tensor(4, "conv_out", {N, K, OH, OW}, true);
    auto conv = create(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    ref(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
    ref(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
    ref(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, convOut);
    convParams(conv);
    tu::check(hipdnnBackendFinalize(conv), "finalize conv");
    // Pointwise ops: created first, then inputs, output, mode, clips, precision (PointwisePacker).
    auto add = create(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    auto bias = tensor(5, "bias", {1, K, 1, 1}), added = tensor(6, "added", {N, K, OH, OW}, true);
    ref(add, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, convOut);
    ref(add, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, added);
    ref(add, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, bias);
    const hipdnnPointwiseMode_t addMode = HIPDNN_POINTWISE_MODE_ADD, reluMode = HIPDNN_POINTWISE_MODE_RELU_FWD;
    const hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    set(add, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &addMode);
    set(add, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec);
    tu::check(hipdnnBackendFinalize(add), "finalize add");
    auto relu = create(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    auto y = tensor(3, "y", {N, K, OH, OW});
    ref(relu, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, added);
    ref(relu, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, y);
    set(relu, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &reluMode);
    const float lower = 0.0f;
    set(relu, HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, HIPDNN_TYPE_FLOAT, 1, &lower);
    set(relu, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec);
    tu::check(hipdnnBackendFinalize(relu), "finalize relu");
    const std::vector<float> b = {0.5f, -1.0f, 2.0f};
    std::vector<float> xs = X, ws = Wt, bs = b, out(K * OH * OW, -7.0f);
    run({conv, add, relu}, {1, 2, 5, 3}, {xs.data(), ws.data(), bs.data(), out.data()});
    auto want = forward(X, Wt);
    for(size_t i = 0; i < want.size(); ++i)
        want[i] = std::fmax(0.0f, want[i] + b[i / static_cast<size_t>(OH * OW)]);
    expectNear(out, want);
}

} // namespace
