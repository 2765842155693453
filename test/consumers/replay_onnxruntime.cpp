// ONNX Runtime's MIOpen call sequence for a small network's convolutions
// (microsoft/onnxruntime, ROCm execution provider):
//
// - Conv (onnxruntime/core/providers/rocm/nn/conv.cc @0077338c): once per
//   input shape, Find (requestedAlgoCount 1, not exhaustive) on a transient
//   workspace of the provider's search size; per call the legacy
//   miopenConvolutionForward with the found algorithm and memory, then
//   miopenConvolutionForwardBias when the node has a bias;
// - FusedConv, conv + bias + ReLU (onnxruntime/contrib_ops/rocm/fused_conv.cc
//   @ef409917): once per problem a plan with its operator arguments, the
//   conv, bias and activation operators, miopenCompileFusionPlan (whose
//   status is not used: CompileOnHandle reports success either way); per
//   call the arguments, miopenExecuteFusionPlan, and on a failed execute the
//   unfused fallback: miopenConvolutionForward, the bias and the activation.
//
// The fallback's bias is miopenOpTensor there; the test bed has no
// miopenOpTensor, so the replay adds it with miopenConvolutionForwardBias.
#include "replay_util.hpp"

using replay::Conv;
using replay::Workspace;

namespace {

// The provider's search workspace when it does not ask MIOpen for the most
// any algorithm needs (AlgoSearchWorkspaceSize: 32 MiB; a smaller buffer is
// enough for the test bed's problems and keeps the replay light).
constexpr std::size_t kSearchWorkspace = 1 << 20;

struct Found
{
    miopenConvFwdAlgorithm_t algo;
    std::size_t memory;
};

Found find(miopenHandle_t h, Conv& c)
{
    Workspace search(kSearchWorkspace);
    int returned = 0;
    miopenConvAlgoPerf_t perf;
    CHECK(miopenFindConvolutionForwardAlgorithm(h, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, c.y, c.yb.ptr(), 1,
                                                &returned, &perf, search.ptr(), search.size(), false));
    return {perf.fwd_algo, perf.memory};
}

void conv(miopenHandle_t h, Conv& c, const Found& f)
{
    const float one = 1, zero = 0;
    Workspace ws(f.memory);
    CHECK(miopenConvolutionForward(h, &one, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, f.algo, &zero, c.y, c.yb.ptr(),
                                   ws.ptr(), ws.size()));
    CHECK(miopenConvolutionForwardBias(h, &one, c.b, c.bb.ptr(), &zero, c.y, c.yb.ptr()));
    replay::report("conv", c.l, "y", c.yb);
}

struct Fusion
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    miopenFusionOpDescriptor_t conv_op = nullptr, bias_op = nullptr, act_op = nullptr;
    miopenActivationDescriptor_t act   = nullptr;
};

Fusion create_fusion(miopenHandle_t h, Conv& c)
{
    Fusion f;
    CHECK(miopenCreateActivationDescriptor(&f.act));
    CHECK(miopenSetActivationDescriptor(f.act, miopenActivationRELU, 0.0, 0.0, 0.0));
    CHECK(miopenCreateFusionPlan(&f.plan, miopenVerticalFusion, c.x));
    CHECK(miopenCreateOperatorArgs(&f.args));
    CHECK(miopenCreateOpConvForward(f.plan, &f.conv_op, c.conv, c.w));
    CHECK(miopenCreateOpBiasForward(f.plan, &f.bias_op, c.b));
    CHECK(miopenCreateOpActivationForward(f.plan, &f.act_op, miopenActivationRELU));
    replay::unchecked("miopenCompileFusionPlan", miopenCompileFusionPlan(h, f.plan));
    return f;
}

void fused_conv(miopenHandle_t h, Conv& c, Fusion& f, const Found& found)
{
    const float alpha = 1, beta = 0;
    CHECK(miopenSetOpArgsConvForward(f.args, f.conv_op, &alpha, &beta, c.wb.ptr()));
    CHECK(miopenSetOpArgsBiasForward(f.args, f.bias_op, &alpha, &beta, c.bb.ptr()));
    CHECK(miopenSetOpArgsActivForward(f.args, f.act_op, &alpha, &beta, 0.0, 0.0, 0.0));
    const miopenStatus_t s = replay::unchecked(
        "miopenExecuteFusionPlan", miopenExecuteFusionPlan(h, f.plan, c.x, c.xb.ptr(), c.y, c.yb.ptr(), f.args));
    if(s != miopenStatusSuccess)
    {
        Workspace ws(found.memory);
        CHECK(miopenConvolutionForward(h, &alpha, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, found.algo, &beta, c.y,
                                       c.yb.ptr(), ws.ptr(), ws.size()));
        CHECK(miopenConvolutionForwardBias(h, &alpha, c.b, c.bb.ptr(), &beta, c.y, c.yb.ptr()));
        CHECK(miopenActivationForward(h, f.act, &alpha, c.y, c.yb.ptr(), &beta, c.y, c.yb.ptr()));
    }
    replay::report("fused_conv", c.l, "y", c.yb);
}

} // namespace

int main()
{
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    std::uint32_t seed = 31;
    for(const auto& l : replay::network())
    {
        Conv c(l, seed += 10);
        const Found found = find(h, c);
        for(int call = 0; call < 2; ++call)
            conv(h, c, found);
        if(l.bias_relu)
        {
            Fusion f = create_fusion(h, c);
            for(int call = 0; call < 2; ++call)
                fused_conv(h, c, f, found);
            CHECK(miopenDestroyFusionPlan(f.plan));
            CHECK(miopenDestroyOperatorArgs(f.args));
            CHECK(miopenDestroyActivationDescriptor(f.act));
        }
    }
    CHECK(miopenDestroy(h));
    replay::done();
    return 0;
}
