// Failure attribution seen by a framework: GetWorkSpaceSize -> Find ->
// convolution (argument `fusion`: a fusion plan's compile, workspace and
// execute; `find2`: a Find 2.0 search and its run; `find2-observed`: MIOpen's
// own search and the run of its solution; `batchnorm`: a batchnorm inference,
// legacy, _V2, legacy again on one problem), and after each call what
// the wrapper's own API and miopenGetErrorString say. test/forwarding/check_faults.py runs it with the
// hipDNN test bed's fault knobs. Records (test/consumers/test_protocol.hpp) on stdout: a `call` per
// call (its label, and forwarded_error.hpp's attribution fields), the `output` y[0] (7 unless a call
// wrote y), and `null_argument`: what miopenGetLastForwardedError(NULL) returns.
#include "consumer_util.hpp"
#include "forwarded_error.hpp"

#include <miopen/miopen.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

void report(const char* label, miopenStatus_t s)
{
    protocol::Record r("call");
    r.field("call", label);
    consumer::attribution(r, s).emit();
}

// y's first element after a sequence: 7 unless a call wrote y.
void output(float y0) { protocol::Record("output").field("name", "y[0]").field("value", y0).emit(); }

void null_argument()
{
    protocol::Record("null_argument").field("status", static_cast<int>(miopenGetLastForwardedError(nullptr))).emit();
}

// The problem every sequence runs: x 1x2x5x5, w 3x2x3x3, pad 1 -> y 1x3x5x5,
// y filled with 7 (a failed call leaves it so).
struct ConvCase
{
    consumer::Tensor x = consumer::tensor4d(1, 2, 5, 5), w = consumer::tensor4d(3, 2, 3, 3),
                     y = consumer::tensor4d(1, 3, 5, 5);
    consumer::ConvDescriptor c;
    std::vector<float> xv = std::vector<float>(50, 0.5f), wv = std::vector<float>(54, 0.25f),
                       yv = std::vector<float>(75, 7.0f);
    ConvCase()
    {
        miopenCreateConvolutionDescriptor(c.out());
        miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1);
    }
};

// A call outside the forwarding set does not change the record (made before
// a sequence's destroy calls, which are in its family).
void after_a_non_forwarded_call()
{
    miopenTensorDescriptor_t extra;
    miopenCreateTensorDescriptor(&extra);
    report("after a non-forwarded call", miopenStatusSuccess);
    miopenDestroyTensorDescriptor(extra);
}

// --- the fusion-plan sequence (faults_consumer fusion) -------------------------
// Compile -> GetWorkSpaceSize -> miopenExecuteFusionPlan_v2 of conv (3x3, pad
// 1) -> bias -> RELU, the plan a framework executes with a workspace; after
// a failed compile the framework falls back (no execute).
int fusion(miopenHandle_t h)
{
    ConvCase p;
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
    report("compile", compiled);
    if(compiled == miopenStatusSuccess)
    {
        size_t ws = 0;
        report("GetWorkSpaceSize", miopenFusionPlanGetWorkSpaceSize(h, plan, &ws, miopenConvolutionFwdAlgoDirect));
        std::vector<char> work(ws);
        miopenOperatorArgs_t args;
        miopenCreateOperatorArgs(&args);
        const float alpha = 1.0f, beta = 0.0f;
        miopenSetOpArgsConvForward(args, conv_op, &alpha, &beta, wv.data());
        miopenSetOpArgsBiasForward(args, bias_op, &alpha, &beta, bv.data());
        miopenSetOpArgsActivForward(args, act_op, &alpha, &beta, 0.0, 0.0, 0.0);
        report("forward", miopenExecuteFusionPlan_v2(h, plan, x, xv.data(), y, yv.data(), args, work.data(), ws));
        miopenDestroyOperatorArgs(args);
    }
    output(yv[0]);
    after_a_non_forwarded_call();
    miopenDestroyFusionPlan(plan);
    return 0;
}

// --- the Find 2.0 sequences (faults_consumer find2, find2-observed) ------------
// miopenFindSolutions on preallocated buffers (the search the wrapper
// answers), or (observed) without them (MIOpen's search, whose solutions the
// wrapper observes), then miopenRunSolution of its solution when there is one.
int find2(miopenHandle_t h, bool observed)
{
    ConvCase p;
    auto& [x, w, y, c, xv, wv, yv] = p;
    std::vector<char> ws(1 << 16);
    miopenProblem_t problem;
    miopenCreateConvProblem(&problem, c, miopenProblemDirectionForward);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, x);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, w);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, y);
    miopenFindOptions_t options;
    miopenCreateFindOptions(&options);
    if(!observed)
    {
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionX, xv.data());
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionW, wv.data());
        miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionY, yv.data());
        miopenSetFindOptionPreallocatedWorkspace(options, ws.data(), ws.size());
    }
    miopenSolution_t solution = nullptr;
    size_t found              = 0;
    const miopenStatus_t searched = miopenFindSolutions(h, problem, options, &solution, &found, 1);
    report("Find", searched);
    if(searched == miopenStatusSuccess && found == 1)
    {
        yv.assign(yv.size(), 7.0f);
        const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, xv.data()},
                                                {miopenTensorConvolutionW, nullptr, wv.data()},
                                                {miopenTensorConvolutionY, nullptr, yv.data()}};
        report("forward", miopenRunSolution(h, solution, 3, args, ws.data(), ws.size()));
    }
    output(yv[0]);
    after_a_non_forwarded_call();
    if(solution != nullptr)
        miopenDestroySolution(solution);
    miopenDestroyFindOptions(options);
    miopenDestroyProblem(problem);
    return 0;
}

// --- the batchnorm sequence (faults_consumer batchnorm, the batchnorm set) ----
int batchnorm(miopenHandle_t h)
{
    consumer::Tensor x = consumer::tensor4d(2, 3, 4, 4), p = consumer::tensor4d(1, 3, 1, 1);
    std::vector<float> xv(96, 0.5f), yv(96, 7.0f), scale(3, 1.0f), bias(3, 0.25f), mean(3, 0.5f), var(3, 2.0f);
    float alpha = 1.0f, beta = 0.0f;
    report("inference", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                                 yv.data(), p, scale.data(), bias.data(),
                                                                 mean.data(), var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    report("inference_V2",
           miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x, yv.data(),
                                                       p, p, p, p, scale.data(), bias.data(), mean.data(),
                                                       var.data(), 1e-5));
    yv.assign(yv.size(), 7.0f);
    report("inference again", miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &alpha, &beta, x,
                                                                       xv.data(), x, yv.data(), p, scale.data(),
                                                                       bias.data(), mean.data(), var.data(), 1e-5));
    output(yv[0]);
    after_a_non_forwarded_call();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string sequence = argc > 1 ? argv[1] : "convolution";
    const bool known = sequence == "convolution" || sequence == "fusion" || sequence == "find2" ||
                       sequence == "find2-observed" || sequence == "batchnorm";
    if(!known)
    {
        std::fprintf(stderr, "usage: faults_consumer [convolution|fusion|find2|find2-observed|batchnorm]\n");
        return 2;
    }
    miopenHandle_t h;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    report("before any call", miopenStatusSuccess);
    if(sequence != "convolution")
    {
        const int rc = sequence == "fusion"      ? fusion(h)
                       : sequence == "batchnorm" ? batchnorm(h)
                                                 : find2(h, sequence == "find2-observed");
        null_argument();
        miopenDestroy(h);
        return rc;
    }
    ConvCase p;
    auto& [x, w, y, c, xv, wv, yv] = p;

    size_t ws = 0;
    report("GetWorkSpaceSize", miopenConvolutionForwardGetWorkSpaceSize(h, w, x, c, y, &ws));
    std::vector<char> work(ws);
    miopenConvAlgoPerf_t perf{};
    int found = 0;
    report("Find", miopenFindConvolutionForwardAlgorithm(h, x, xv.data(), w, wv.data(), c, y, yv.data(), 1, &found,
                                                         &perf, work.data(), ws, false));
    yv.assign(yv.size(), 7.0f);
    const float alpha = 1.0f, beta = 0.0f;
    report("forward", miopenConvolutionForward(h, &alpha, x, xv.data(), w, wv.data(), c,
                                               miopenConvolutionFwdAlgoDirect, &beta, y, yv.data(), work.data(), ws));
    // A failed call leaves y as it was: it was not run anywhere else.
    output(yv[0]);
    // A call outside the forwarding set does not change the record.
    miopenTensorDescriptor_t extra;
    miopenCreateTensorDescriptor(&extra);
    report("after a non-forwarded call", miopenStatusSuccess);
    miopenDestroyTensorDescriptor(extra);
    null_argument();
    miopenDestroy(h);
    return 0;
}
