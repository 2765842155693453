// TensorFlow/XLA's MIOpen call sequence for a small network's convolutions
// (openxla/xla xla/stream_executor/rocm/rocm_dnn.cc @001918b7):
//
// - Find mode (GetMIOpenConvolveAlgorithmsFindMode): GetWorkSpaceSize ->
//   Find (requestedAlgorithmCount 1, exhaustiveSearch false), then
//   RocmConvRunner runs the legacy compute call with the algorithm and
//   workspace the autotuner kept;
// - immediate mode (TF_ROCM_USE_IMMEDIATE_MODE; GetMIOpenConvolveAlgorithmsImmediateMode):
//   GetSolutionCount -> GetSolution -> CompileSolution for every solution,
//   then RocmConvRunner's *Immediate call with the chosen solution id;
// - conv + bias + ReLU (ScopedFusionPlanConvolutionBiasActivation): the plan
//   is created and compiled once per problem (CachedFusionPlans); every call
//   creates operator arguments, finds each operator with
//   miopenFusionPlanGetOp, sets its arguments, runs miopenExecuteFusionPlan
//   (a failure is fatal) and destroys the arguments.
#include "replay_util.hpp"

using replay::Conv;
using replay::Workspace;

namespace {

void find_mode(miopenHandle_t h, Conv& c)
{
    const float one = 1, zero = 0;
    size_t size = 0;
    int returned = 0;
    miopenConvAlgoPerf_t perf;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(h, c.w, c.x, c.conv, c.y, &size));
    Workspace fws(size);
    CHECK(miopenFindConvolutionForwardAlgorithm(h, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, c.y, c.yb.ptr(), 1,
                                                &returned, &perf, fws.ptr(), fws.size(), false));
    Workspace ws(perf.memory);
    CHECK(miopenConvolutionForward(h, &one, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, perf.fwd_algo, &zero, c.y,
                                   c.yb.ptr(), ws.ptr(), ws.size()));
    replay::report("find", c.l, "y", c.yb);

    CHECK(miopenConvolutionBackwardDataGetWorkSpaceSize(h, c.y, c.w, c.conv, c.x, &size));
    Workspace dfws(size);
    CHECK(miopenFindConvolutionBackwardDataAlgorithm(h, c.y, c.yb.ptr(), c.w, c.wb.ptr(), c.conv, c.x, c.dxb.ptr(), 1,
                                                     &returned, &perf, dfws.ptr(), dfws.size(), false));
    Workspace dws(perf.memory);
    CHECK(miopenConvolutionBackwardData(h, &one, c.y, c.yb.ptr(), c.w, c.wb.ptr(), c.conv, perf.bwd_data_algo, &zero,
                                        c.x, c.dxb.ptr(), dws.ptr(), dws.size()));
    replay::report("find", c.l, "dx", c.dxb);

    CHECK(miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, c.y, c.x, c.conv, c.w, &size));
    Workspace wfws(size);
    CHECK(miopenFindConvolutionBackwardWeightsAlgorithm(h, c.y, c.yb.ptr(), c.x, c.xb.ptr(), c.conv, c.w,
                                                        c.dwb.ptr(), 1, &returned, &perf, wfws.ptr(), wfws.size(),
                                                        false));
    Workspace wws(perf.memory);
    CHECK(miopenConvolutionBackwardWeights(h, &one, c.y, c.yb.ptr(), c.x, c.xb.ptr(), c.conv, perf.bwd_weights_algo,
                                           &zero, c.w, c.dwb.ptr(), wws.ptr(), wws.size()));
    replay::report("find", c.l, "dw", c.dwb);
}

void immediate_mode(miopenHandle_t h, Conv& c)
{
    size_t max = 0, got = 0;
    CHECK(miopenConvolutionForwardGetSolutionCount(h, c.w, c.x, c.conv, c.y, &max));
    std::vector<miopenConvSolution_t> s(max);
    CHECK(miopenConvolutionForwardGetSolution(h, c.w, c.x, c.conv, c.y, max, &got, s.data()));
    for(size_t i = 0; i < got; ++i)
        CHECK(miopenConvolutionForwardCompileSolution(h, c.w, c.x, c.conv, c.y, s[i].solution_id));
    Workspace ws(s[0].workspace_size);
    CHECK(miopenConvolutionForwardImmediate(h, c.w, c.wb.ptr(), c.x, c.xb.ptr(), c.conv, c.y, c.yb.ptr(), ws.ptr(),
                                            ws.size(), s[0].solution_id));
    replay::report("immediate", c.l, "y", c.yb);
}

// One cached plan per problem, as CachedFusionPlans keeps it.
struct CachedPlan
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    bool compiled                     = false;
};

void conv_bias_activation(miopenHandle_t h, Conv& c, CachedPlan& cached)
{
    if(cached.plan == nullptr)
    {
        miopenFusionOpDescriptor_t conv_op, bias_op, activ_op;
        CHECK(miopenCreateFusionPlan(&cached.plan, miopenVerticalFusion, c.x));
        CHECK(miopenCreateOpConvForward(cached.plan, &conv_op, c.conv, c.w));
        CHECK(miopenCreateOpBiasForward(cached.plan, &bias_op, c.b));
        CHECK(miopenCreateOpActivationForward(cached.plan, &activ_op, miopenActivationRELU));
        cached.compiled = replay::unchecked("miopenCompileFusionPlan", miopenCompileFusionPlan(h, cached.plan)) ==
                          miopenStatusSuccess;
    }
    if(!cached.compiled)
        return; // XLA does not use a plan that failed to compile
    const float alpha = 1, beta = 0;
    miopenOperatorArgs_t args;
    CHECK(miopenCreateOperatorArgs(&args));
    miopenFusionOpDescriptor_t op;
    CHECK(miopenFusionPlanGetOp(cached.plan, 0, &op));
    CHECK(miopenSetOpArgsConvForward(args, op, &alpha, &beta, c.wb.ptr()));
    CHECK(miopenFusionPlanGetOp(cached.plan, 1, &op));
    CHECK(miopenSetOpArgsBiasForward(args, op, &alpha, &beta, c.bb.ptr()));
    CHECK(miopenFusionPlanGetOp(cached.plan, 2, &op));
    CHECK(miopenSetOpArgsActivForward(args, op, &alpha, &beta, 0.0, 0.0, 0.0));
    CHECK(miopenExecuteFusionPlan(h, cached.plan, c.x, c.xb.ptr(), c.y, c.yb.ptr(), args));
    replay::report("fused", c.l, "y", c.yb);
    CHECK(miopenDestroyOperatorArgs(args));
}

} // namespace

int main()
{
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    std::uint32_t seed = 21;
    for(const auto& l : replay::network())
    {
        Conv c(l, seed += 10);
        find_mode(h, c);
        immediate_mode(h, c);
        if(l.bias_relu)
        {
            CachedPlan cached;
            for(int step = 0; step < 2; ++step)
                conv_bias_activation(h, c, cached);
            if(cached.plan)
                CHECK(miopenDestroyFusionPlan(cached.plan));
        }
    }
    CHECK(miopenDestroy(h));
    replay::done();
    return 0;
}
