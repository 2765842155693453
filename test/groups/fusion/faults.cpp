// The fusion group's fault sequence (faults_consumer fusion): a fusion plan's
// compile, workspace and _v2 execute; a failed compile ends it.
#include "faults.hpp"

namespace {

void fusion(miopenHandle_t h)
{
    faults::ConvCase p;
    auto& [x, w, y, c, xv, wv, yv] = p;
    const consumer::Tensor b = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> bv(3, 1.0f);
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv_op, bias_op, act_op;
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, x);
    miopenCreateOpConvForward(plan, &conv_op, c, w);
    miopenCreateOpBiasForward(plan, &bias_op, b);
    miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU);
    const miopenStatus_t compiled = miopenCompileFusionPlan(h, plan);
    faults::report("compile", compiled);
    if(compiled == miopenStatusSuccess)
    {
        size_t ws = 0;
        faults::report("GetWorkSpaceSize", miopenFusionPlanGetWorkSpaceSize(h, plan, &ws, miopenConvolutionFwdAlgoDirect));
        std::vector<char> work(ws);
        miopenOperatorArgs_t args;
        miopenCreateOperatorArgs(&args);
        const float alpha = 1.0f, beta = 0.0f;
        miopenSetOpArgsConvForward(args, conv_op, &alpha, &beta, wv.data());
        miopenSetOpArgsBiasForward(args, bias_op, &alpha, &beta, bv.data());
        miopenSetOpArgsActivForward(args, act_op, &alpha, &beta, 0.0, 0.0, 0.0);
        faults::report("forward", miopenExecuteFusionPlan_v2(h, plan, x, xv.data(), y, yv.data(), args, work.data(), ws));
        miopenDestroyOperatorArgs(args);
    }
    faults::output(yv[0]);
    faults::after_a_non_forwarded_call();
    miopenDestroyFusionPlan(plan);
}

const faults::Registration registered("fusion", fusion);

} // namespace
