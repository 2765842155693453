// PyTorch's MIOpen call sequence for a small network's convolutions
// (ROCm/pytorch aten/src/ATen/native/miopen/Conv_miopen.cpp @6b5e790c):
//
// - torch.backends.cudnn.benchmark off (the default): per call and
//   direction, GetSolutionCount -> GetSolution -> the *Immediate call with
//   the first solution's id and workspace (chooseSolution, raw_miopen_*_out);
// - benchmark on: GetWorkSpaceSize -> Find (requestAlgoCount 1, not
//   exhaustive) -> the legacy compute call with the found algorithm and its
//   memory (chooseAlgorithm; PyTorch caches the algorithm per problem, so
//   Find runs once and the compute call twice here);
// - a frozen conv + bias + ReLU in fp32 NCHW 4-D (miopen_convolution_relu):
//   a fusion plan created, compiled, given its arguments and executed with
//   miopenExecuteFusionPlan, whose status PyTorch does not check, then
//   destroyed, on every call (the operator arguments are never destroyed).
//
// The bias of a plain convolution PyTorch adds itself (miopen_convolution_add_bias_).
#include "replay_util.hpp"

using replay::Conv;
using replay::Workspace;

namespace {

void immediate(miopenHandle_t h, Conv& c)
{
    size_t count = 0, got = 0;
    miopenConvSolution_t s[8];
    // Forward.
    CHECK(miopenConvolutionForwardGetSolutionCount(h, c.w, c.x, c.conv, c.y, &count));
    CHECK(miopenConvolutionForwardGetSolution(h, c.w, c.x, c.conv, c.y, count < 8 ? count : 8, &got, s));
    Workspace fws(s[0].workspace_size);
    CHECK(miopenConvolutionForwardImmediate(h, c.w, c.wb.ptr(), c.x, c.xb.ptr(), c.conv, c.y, c.yb.ptr(), fws.ptr(),
                                            fws.size(), s[0].solution_id));
    replay::report("immediate", c.l, "y", c.yb);
    // Backward data (grad_output = y).
    CHECK(miopenConvolutionBackwardDataGetSolutionCount(h, c.y, c.w, c.conv, c.x, &count));
    CHECK(miopenConvolutionBackwardDataGetSolution(h, c.y, c.w, c.conv, c.x, count < 8 ? count : 8, &got, s));
    Workspace dws(s[0].workspace_size);
    CHECK(miopenConvolutionBackwardDataImmediate(h, c.y, c.yb.ptr(), c.w, c.wb.ptr(), c.conv, c.x, c.dxb.ptr(),
                                                 dws.ptr(), dws.size(), s[0].solution_id));
    replay::report("immediate", c.l, "dx", c.dxb);
    // Backward weights.
    CHECK(miopenConvolutionBackwardWeightsGetSolutionCount(h, c.y, c.x, c.conv, c.w, &count));
    CHECK(miopenConvolutionBackwardWeightsGetSolution(h, c.y, c.x, c.conv, c.w, count < 8 ? count : 8, &got, s));
    Workspace wws(s[0].workspace_size);
    CHECK(miopenConvolutionBackwardWeightsImmediate(h, c.y, c.yb.ptr(), c.x, c.xb.ptr(), c.conv, c.w, c.dwb.ptr(),
                                                    wws.ptr(), wws.size(), s[0].solution_id));
    replay::report("immediate", c.l, "dw", c.dwb);
}

void benchmark(miopenHandle_t h, Conv& c)
{
    const float one = 1, zero = 0;
    size_t size = 0;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(h, c.w, c.x, c.conv, c.y, &size));
    Workspace find_ws(size);
    int returned = 0;
    miopenConvAlgoPerf_t perf;
    CHECK(miopenFindConvolutionForwardAlgorithm(h, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, c.y, c.yb.ptr(), 1,
                                                &returned, &perf, find_ws.ptr(), find_ws.size(), false));
    Workspace ws(perf.memory);
    for(int call = 0; call < 2; ++call)
        CHECK(miopenConvolutionForward(h, &one, c.x, c.xb.ptr(), c.w, c.wb.ptr(), c.conv, perf.fwd_algo, &zero, c.y,
                                       c.yb.ptr(), ws.ptr(), ws.size()));
    replay::report("benchmark", c.l, "y", c.yb);
}

void conv_relu(miopenHandle_t h, Conv& c)
{
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv_op, bias_op, activ_op;
    CHECK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x));
    CHECK(miopenCreateOpConvForward(plan, &conv_op, c.conv, c.w));
    CHECK(miopenCreateOpBiasForward(plan, &bias_op, c.b));
    CHECK(miopenCreateOpActivationForward(plan, &activ_op, miopenActivationRELU));
    CHECK(miopenCompileFusionPlan(h, plan));
    const float alpha = 1, beta = 0;
    miopenOperatorArgs_t args;
    CHECK(miopenCreateOperatorArgs(&args));
    CHECK(miopenSetOpArgsConvForward(args, conv_op, &alpha, &beta, c.wb.ptr()));
    CHECK(miopenSetOpArgsBiasForward(args, bias_op, &alpha, &beta, c.bb.ptr()));
    CHECK(miopenSetOpArgsActivForward(args, activ_op, &alpha, &beta, 0.0, 0.0, 0.0));
    replay::unchecked("miopenExecuteFusionPlan",
                      miopenExecuteFusionPlan(h, plan, c.x, c.xb.ptr(), c.y, c.yb.ptr(), args));
    replay::report("conv_relu", c.l, "y", c.yb);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
}

} // namespace

int main()
{
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    std::uint32_t seed = 11;
    for(const auto& l : replay::network())
    {
        Conv c(l, seed += 10);
        immediate(h, c);
        benchmark(h, c);
        if(l.bias_relu)
            conv_relu(h, c);
    }
    CHECK(miopenDestroy(h));
    replay::done();
    return 0;
}
