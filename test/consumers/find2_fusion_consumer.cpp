// A MIOpen consumer of the Find 2.0 problem API and the fusion-plan API, as
// MIGraphX (problems, solutions, save/load) and PyTorch / TensorFlow / XLA
// (conv -> bias -> activation plans, miopenExecuteFusionPlan_v2) use them. It
// writes every output tensor's raw bytes to argv[1]; the test suite requires
// the file bit-identical through the pre-wrapper baseline and the wrapper.
#include "output_consumer.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using consumer::emit;
using consumer::pseudo_random;
using consumer::tensor4d;

struct Conv
{
    miopenConvolutionDescriptor_t desc;
    miopenTensorDescriptor_t x, w, y;
    std::vector<float> xv, wv, yv;
};

// x 2x3x9x9, w 4x3x3x3, pad 1, stride 2 -> y 2x4x5x5.
Conv MakeConv()
{
    Conv c;
    CHECK(miopenCreateConvolutionDescriptor(&c.desc));
    CHECK(miopenInitConvolutionDescriptor(c.desc, miopenConvolution, 1, 1, 2, 2, 1, 1));
    c.x  = tensor4d(2, 3, 9, 9);
    c.w  = tensor4d(4, 3, 3, 3);
    c.y  = tensor4d(2, 4, 5, 5);
    c.xv = pseudo_random(2 * 3 * 9 * 9, 1);
    c.wv = pseudo_random(4 * 3 * 3 * 3, 2);
    c.yv = pseudo_random(2 * 4 * 5 * 5, 3);
    return c;
}

// Runs a solution on copies of the inputs; returns what the direction writes.
std::vector<float> Run(miopenHandle_t h, miopenSolution_t s, const Conv& c, miopenProblemDirection_t dir)
{
    auto x = c.xv, w = c.wv, y = c.yv;
    size_t ws_size = 0;
    CHECK(miopenGetSolutionWorkspaceSize(s, &ws_size));
    std::vector<char> ws(ws_size + 1);
    const miopenTensorArgument_t args[] = {{miopenTensorConvolutionX, nullptr, x.data()},
                                           {miopenTensorConvolutionW, nullptr, w.data()},
                                           {miopenTensorConvolutionY, nullptr, y.data()}};
    CHECK(miopenRunSolution(h, s, 3, args, ws.data(), ws_size));
    return dir == miopenProblemDirectionForward ? y : dir == miopenProblemDirectionBackward ? x : w;
}

// Find 2.0 in every direction: each solution (in solver-id order, as timings
// vary) is run, then saved, loaded and run again.
void Find2(miopenHandle_t h, const Conv& c)
{
    const struct
    {
        miopenProblemDirection_t dir;
        const char* name;
    } dirs[] = {{miopenProblemDirectionForward, "find2 forward"},
                {miopenProblemDirectionBackward, "find2 backward data"},
                {miopenProblemDirectionBackwardWeights, "find2 backward weights"}};
    for(const auto& d : dirs)
    {
        miopenProblem_t p;
        CHECK(miopenCreateConvProblem(&p, c.desc, d.dir));
        CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.x));
        CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, c.w));
        CHECK(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionY, c.y));
        miopenFindOptions_t o;
        CHECK(miopenCreateFindOptions(&o));
        CHECK(miopenSetFindOptionResultsOrder(o, miopenFindResultsOrderByWorkspaceSize));
        std::vector<miopenSolution_t> sols(4);
        size_t n = 0;
        CHECK(miopenFindSolutions(h, p, o, sols.data(), &n, sols.size()));
        sols.resize(n);
        std::sort(sols.begin(), sols.end(), [](miopenSolution_t a, miopenSolution_t b) {
            uint64_t ia = 0, ib = 0;
            miopenGetSolutionSolverId(a, &ia);
            miopenGetSolutionSolverId(b, &ib);
            return ia < ib;
        });
        for(size_t i = 0; i < n; ++i)
        {
            emit(d.name, Run(h, sols[i], c, d.dir));
            size_t size = 0;
            CHECK(miopenGetSolutionSize(sols[i], &size));
            std::vector<char> blob(size);
            CHECK(miopenSaveSolution(sols[i], blob.data()));
            miopenSolution_t loaded;
            CHECK(miopenLoadSolution(&loaded, blob.data(), blob.size()));
            emit("  loaded and run", Run(h, loaded, c, d.dir));
            CHECK(miopenDestroySolution(loaded));
            CHECK(miopenDestroySolution(sols[i]));
        }
        CHECK(miopenDestroyFindOptions(o));
        CHECK(miopenDestroyProblem(p));
    }
}

// conv -> bias -> activation, and conv -> batchnorm -> activation.
void FusionPlans(miopenHandle_t h, const Conv& c)
{
    auto bd    = tensor4d(1, 4, 1, 1);
    auto bias  = pseudo_random(4, 4);
    auto scale = pseudo_random(4, 5), shift = pseudo_random(4, 6), mean = pseudo_random(4, 7);
    std::vector<float> var(4, 0.75f);
    const float one = 1.0f, zero = 0.0f;
    for(bool batchnorm : {false, true})
    {
        miopenFusionPlanDescriptor_t plan;
        miopenFusionOpDescriptor_t conv_op, mid_op, act_op;
        CHECK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x));
        CHECK(miopenCreateOpConvForward(plan, &conv_op, c.desc, c.w));
        if(batchnorm)
            CHECK(miopenCreateOpBatchNormInference(plan, &mid_op, miopenBNSpatial, bd));
        else
            CHECK(miopenCreateOpBiasForward(plan, &mid_op, bd));
        CHECK(miopenCreateOpActivationForward(plan, &act_op, miopenActivationCLIPPEDRELU));
        CHECK(miopenCompileFusionPlan(h, plan));
        size_t ws_size = 0;
        CHECK(miopenFusionPlanGetWorkSpaceSize(h, plan, &ws_size, miopenConvolutionFwdAlgoDirect));
        std::vector<char> ws(ws_size + 64);
        miopenOperatorArgs_t args;
        CHECK(miopenCreateOperatorArgs(&args));
        CHECK(miopenSetOpArgsConvForward(args, conv_op, &one, &zero, c.wv.data()));
        if(batchnorm)
            CHECK(miopenSetOpArgsBatchNormInference(args, mid_op, &one, &zero, scale.data(),
                                                    shift.data(), mean.data(), var.data(), 1e-5));
        else
            CHECK(miopenSetOpArgsBiasForward(args, mid_op, &one, &zero, bias.data()));
        CHECK(miopenSetOpArgsActivForward(args, act_op, &one, &zero, 0.5, 0.0, 0.0));
        std::vector<float> y(c.yv.size(), 0.0f), y2(c.yv.size(), 0.0f);
        CHECK(miopenExecuteFusionPlan_v2(h, plan, c.x, c.xv.data(), c.y, y.data(), args, ws.data(), ws.size()));
        emit(batchnorm ? "fusion conv+bn+clippedrelu (v2)" : "fusion conv+bias+clippedrelu (v2)", y);
        CHECK(miopenExecuteFusionPlan(h, plan, c.x, c.xv.data(), c.y, y2.data(), args));
        emit("  without workspace", y2);
        CHECK(miopenDestroyOperatorArgs(args));
        CHECK(miopenDestroyFusionPlan(plan));
    }
    CHECK(miopenDestroyTensorDescriptor(bd));
}

// batchnorm inference -> activation on the convolution's input.
void BatchNormActivationPlan(miopenHandle_t h, const Conv& c)
{
    miopenTensorDescriptor_t bnd;
    CHECK(miopenCreateTensorDescriptor(&bnd));
    CHECK(miopenDeriveBNTensorDescriptor(bnd, c.x, miopenBNSpatial));
    auto scale = pseudo_random(3, 8), shift = pseudo_random(3, 9), mean = pseudo_random(3, 10);
    std::vector<float> var(3, 1.5f);
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn_op, act_op;
    CHECK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, c.x));
    CHECK(miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNSpatial, bnd));
    CHECK(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU));
    CHECK(miopenCompileFusionPlan(h, plan));
    miopenOperatorArgs_t args;
    CHECK(miopenCreateOperatorArgs(&args));
    CHECK(miopenSetOpArgsBatchNormInference(args, bn_op, nullptr, nullptr, scale.data(), shift.data(),
                                            mean.data(), var.data(), 1e-5));
    CHECK(miopenSetOpArgsActivForward(args, act_op, nullptr, nullptr, 0.0, 0.0, 0.0));
    std::vector<float> y(c.xv.size(), 0.0f);
    CHECK(miopenExecuteFusionPlan(h, plan, c.x, c.xv.data(), c.x, y.data(), args));
    emit("fusion bn+relu", y);
    CHECK(miopenDestroyOperatorArgs(args));
    CHECK(miopenDestroyFusionPlan(plan));
    CHECK(miopenDestroyTensorDescriptor(bnd));
}

} // namespace

int main(int argc, char** argv)
{
    if(!consumer::open_output(argc, argv))
        return 2;
    miopenHandle_t handle;
    CHECK(miopenCreate(&handle));
    const Conv c = MakeConv();
    Find2(handle, c);
    FusionPlans(handle, c);
    BatchNormActivationPlan(handle, c);
    for(auto t : {c.x, c.w, c.y})
        CHECK(miopenDestroyTensorDescriptor(t));
    CHECK(miopenDestroyConvolutionDescriptor(c.desc));
    CHECK(miopenDestroy(handle));
    return consumer::close_output();
}
