// What the wrapper adds to a forwarded convolution at steady state.
//
//   forwarded wrapper <calls> <threads>   miopenConvolutionForward through
//       libMIOpen.so (run with forwarding enabled and an engine that returns
//       at once), one MIOpen handle per thread, plan cache warm; the
//       threads' timed loops start together (every mode with <threads>)
//   forwarded coldstart 0 0   the first miopenConvolutionForward of this
//       process (a 1x16x32x32 * 16x16x3x3 convolution), in microseconds:
//       with forwarding enabled it includes loading the backend and
//       building the plan
//   forwarded fused <calls> plan|planv1|onecall   conv -> bias -> ReLU through a
//       compiled fusion plan (miopenExecuteFusionPlan_v2 with the workspace
//       miopenFusionPlanGetWorkSpaceSize reports; planv1:
//       miopenExecuteFusionPlan, which passes none, so the plan runs with the
//       workspace the handle owns) or through
//       miopenConvolutionBiasActivationForward on the same problem: both run
//       the same hipDNN plan (reference engine), so the difference is what the
//       fusion-plan path adds (the recorded plan's lookup and translation)
//   forwarded fused <calls> backend   the backend alone running the same
//       conv -> bias -> ReLU graph on a plan built once, with the same engine:
//       what the fusion plan's execute adds over hipDNN's own
//   forwarded find2 <calls> <threads>   the same convolution through the
//       Find 2.0 problem API: one search on preallocated buffers (a hipDNN
//       solution), then miopenRunSolution per call (MIGraphX's steady state)
//   forwarded find2_tuned <calls> <threads>   find2 with a search that asks
//       for tuning (miopenSetFindOptionTuning): the solution's plan is built
//       with hipDNN's global.benchmarking=1 knob, and each run uses it
//   forwarded backend <calls> <threads>   the hipDNN backend alone doing what
//       the wrapper asks of it per call (variant pack, execute) on a plan
//       built once, with the same engine
//   forwarded batchnorm <calls> <threads>   miopenBatchNormalizationForwardInference_V2
//       (a 1x1x4x4 fp32 spatial inference) through libMIOpen.so: on MIOpen
//       Private when disabled, forwarded when enabled with a library whose
//       forwarding set has batchnorm (bench/run.sh: the second build tree's)
//   forwarded bn_backend <calls> <threads>   the backend alone running the
//       same batchnorm inference graph (type 21, epsilon by value) on a plan
//       built once, with the same engine
//   forwarded bn_training|bn_backward <calls> <threads>
//       miopenBatchNormalizationForwardTraining_V2 (saving the batch
//       statistics, no running ones) / miopenBatchNormalizationBackward_V2
//       (with the saved statistics) on the same 1x1x4x4 problem, as batchnorm
//   forwarded bn_training_backend|bn_backward_backend <calls> <threads>   the
//       backend alone running the same training (type 27) / backward (type
//       20) graph on a plan built once, with the same engine
//   forwarded bn_fused <calls> <threads>   the same inference as a batchnorm
//       inference -> RELU fusion plan, miopenExecuteFusionPlan_v2 per call
//   forwarded bn_fused_backend <calls> <threads>   the backend alone running
//       that plan's two-node graph (type 21 with y virtual -> RELU_FWD)
//   forwarded bn_fused_bwd <calls> <threads>   the backward as a batchnorm
//       backward -> RELU backward fusion plan (dy in, dx out)
//   forwarded bn_fused_bwd_backend <calls> <threads>   the backend alone running
//       its three-node graph (type 17 -> RELU_BWD -> type 20)
//
// bench/run.sh runs both; the difference is the wrapper's share: the routing
// decision, descriptor reads, plan-cache lookup and variant pack assembly.
#include <miopen/miopen.h>

#include <hipdnn_backend.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

namespace {

const int N = 1, C = 1, H = 4, W = 4, K = 1;

// Every thread sets up (handle, descriptors, first call) and then waits here,
// so that the timed loops of all threads run at once.
int g_threads = 1;
std::atomic<int> g_ready{0};

void start_line()
{
    g_ready.fetch_add(1);
    while(g_ready.load() < g_threads)
        std::this_thread::yield();
}

void must(bool ok, const char* what)
{
    if(!ok)
    {
        std::fprintf(stderr, "forwarded: %s failed\n", what);
        std::exit(2);
    }
}

// An fp32 NCHW "same" convolution (stride 1, pad filter/2) on a new handle.
struct SameConv
{
    miopenHandle_t h;
    miopenTensorDescriptor_t x, w, y;
    miopenConvolutionDescriptor_t c;
    std::vector<float> xv, wv, yv;

    SameConv(int n, int ch, int hw, int k, int filter)
    {
        must(miopenCreate(&h) == miopenStatusSuccess, "miopenCreate");
        miopenCreateTensorDescriptor(&x);
        miopenCreateTensorDescriptor(&w);
        miopenCreateTensorDescriptor(&y);
        miopenSet4dTensorDescriptor(x, miopenFloat, n, ch, hw, hw);
        miopenSet4dTensorDescriptor(w, miopenFloat, k, ch, filter, filter);
        miopenSet4dTensorDescriptor(y, miopenFloat, n, k, hw, hw);
        miopenCreateConvolutionDescriptor(&c);
        const int pad = filter / 2;
        miopenInitConvolutionDescriptor(c, miopenConvolution, pad, pad, 1, 1, 1, 1);
        xv.assign(size_t(n * ch * hw * hw), 1.0f);
        wv.assign(size_t(k * ch * filter * filter), 1.0f);
        yv.assign(size_t(n * k * hw * hw), 0.0f);
    }

    miopenStatus_t forward()
    {
        const float alpha = 1.0f, beta = 0.0f;
        return miopenConvolutionForward(h, &alpha, x, xv.data(), w, wv.data(), c, miopenConvolutionFwdAlgoDirect,
                                        &beta, y, yv.data(), nullptr, 0);
    }
};

// ns per call of `calls` calls of `call`, timed once every thread is ready.
template <class Call>
double timed(long calls, Call call)
{
    start_line();
    auto t0 = std::chrono::steady_clock::now();
    for(long i = 0; i < calls; ++i)
        call();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(calls);
}

double wrapper_thread(long calls)
{
    SameConv p(N, C, H, K, 1);
    auto call = [&] { return p.forward(); };
    must(call() == miopenStatusSuccess, "first miopenConvolutionForward");
    const double ns = timed(calls, call);
    must(p.yv[0] == 42.0f || p.yv[0] == float(C), "an engine ran");
    miopenDestroy(p.h);
    return ns;
}

// `tuned`: the search asks for tuning (miopenSetFindOptionTuning), which a
// hipDNN solution keeps as the provider's global.benchmarking=1 knob.
double find2_run(long calls, bool tuned)
{
    SameConv p(N, C, H, K, 1);
    miopenProblem_t problem;
    must(miopenCreateConvProblem(&problem, p.c, miopenProblemDirectionForward) == miopenStatusSuccess, "problem");
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, p.x);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, p.w);
    miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, p.y);
    miopenFindOptions_t o;
    miopenCreateFindOptions(&o);
    miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionX, p.xv.data());
    miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionW, p.wv.data());
    miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionY, p.yv.data());
    if(tuned)
        must(miopenSetFindOptionTuning(o, 1) == miopenStatusSuccess, "tuning");
    miopenSolution_t s = nullptr;
    size_t found       = 0;
    must(miopenFindSolutions(p.h, problem, o, &s, &found, 1) == miopenStatusSuccess && found == 1, "search");
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, p.xv.data()},
                                            {miopenTensorConvolutionW, nullptr, p.wv.data()},
                                            {miopenTensorConvolutionY, nullptr, p.yv.data()}};
    auto call = [&] { return miopenRunSolution(p.h, s, 3, args, nullptr, 0); };
    must(call() == miopenStatusSuccess, "first miopenRunSolution");
    const double ns = timed(calls, call);
    must(p.yv[0] == 42.0f || p.yv[0] == float(C), "an engine ran");
    miopenDestroySolution(s);
    miopenDestroyFindOptions(o);
    miopenDestroyProblem(problem);
    miopenDestroy(p.h);
    return ns;
}

double find2_thread(long calls) { return find2_run(calls, false); }
double find2_tuned_thread(long calls) { return find2_run(calls, true); }

hipdnnBackendDescriptor_t make(hipdnnBackendDescriptorType_t t)
{
    hipdnnBackendDescriptor_t d = nullptr;
    must(hipdnnBackendCreateDescriptor(t, &d) == HIPDNN_STATUS_SUCCESS, "create descriptor");
    return d;
}

void set(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c,
         const void* v)
{
    must(hipdnnBackendSetAttribute(d, n, t, c, v) == HIPDNN_STATUS_SUCCESS, "set attribute");
}

hipdnnBackendDescriptor_t tensor(int64_t uid, std::vector<int64_t> dims, bool virt = false)
{
    std::vector<int64_t> strides(dims.size(), 1);
    for(int i = int(dims.size()) - 2; i >= 0; --i)
        strides[size_t(i)] = strides[size_t(i) + 1] * dims[size_t(i) + 1];
    auto d                = make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    hipdnnDataType_t type = HIPDNN_DATA_FLOAT;
    set(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid);
    set(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &type);
    set(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, int64_t(dims.size()), dims.data());
    set(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, int64_t(dims.size()), strides.data());
    set(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt);
    must(hipdnnBackendFinalize(d) == HIPDNN_STATUS_SUCCESS, "finalize tensor");
    return d;
}

hipdnnBackendDescriptor_t plan_of(hipdnnHandle_t h, std::vector<hipdnnBackendDescriptor_t> ops);

// ns per call of `calls` executes of `plan`, each with a new variant pack:
// per call, exactly what the wrapper asks of the backend.
double time_executes(hipdnnHandle_t h, hipdnnBackendDescriptor_t plan, int64_t n, const int64_t* uids, void** ptrs,
                     long calls, void* ws = nullptr)
{
    auto call = [&] {
        auto vp = make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        set(vp, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, n, uids);
        set(vp, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, n, ptrs);
        set(vp, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws);
        hipdnnBackendFinalize(vp);
        auto s = hipdnnBackendExecute(h, plan, vp);
        hipdnnBackendDestroyDescriptor(vp);
        return s;
    };
    must(call() == HIPDNN_STATUS_SUCCESS, "first execute");
    return timed(calls, call);
}

// A 1x1 cross-correlation (stride 1, no padding) of x and w into y.
hipdnnBackendDescriptor_t conv_forward(hipdnnBackendDescriptor_t x, hipdnnBackendDescriptor_t w,
                                       hipdnnBackendDescriptor_t y)
{
    auto op                        = make(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    hipdnnDataType_t comp          = HIPDNN_DATA_FLOAT;
    hipdnnConvolutionMode_t mode   = HIPDNN_CROSS_CORRELATION;
    const int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    set(op, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp);
    set(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
    set(op, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one);
    set(op, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one);
    set(op, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, zero);
    set(op, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, zero);
    set(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x);
    set(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w);
    set(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y);
    must(hipdnnBackendFinalize(op) == HIPDNN_STATUS_SUCCESS, "finalize op");
    return op;
}

double backend_thread(long calls)
{
    hipdnnHandle_t h;
    must(hipdnnCreate(&h) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    auto x = tensor(1, {N, C, H, W}), w = tensor(2, {K, C, 1, 1}), y = tensor(3, {N, K, H, W});
    auto op = conv_forward(x, w, y);
    auto plan = plan_of(h, {op});

    std::vector<float> xv(N * C * H * W, 1.0f), wv(K * C, 1.0f), yv(N * K * H * W);
    const int64_t uids[3] = {1, 2, 3};
    void* ptrs[3]         = {xv.data(), wv.data(), yv.data()};
    return time_executes(h, plan, 3, uids, ptrs, calls);
}

// A 1x1x4x4 fp32 spatial batchnorm problem (alpha 1, beta 0), every x 2,
// and its buffers: the three passes' results are exact (x equals its mean,
// so y is the bias, dx and dscale 0, dbias the sum of dy).
const int BN_C = 1, BN_HW = 4, BN_N = BN_C * BN_HW * BN_HW;
const double BN_EPSILON = 1e-5;

struct BnProblem
{
    miopenHandle_t h;
    miopenTensorDescriptor_t x, p;
    std::vector<float> xv = std::vector<float>(BN_N, 2.0f), yv = std::vector<float>(BN_N),
                       dy = std::vector<float>(BN_N, 1.0f), scale = std::vector<float>(BN_C, 1.0f),
                       bias = std::vector<float>(BN_C, 0.5f), mean = std::vector<float>(BN_C, 2.0f),
                       var = std::vector<float>(BN_C, 1.0f), dscale = std::vector<float>(BN_C),
                       dbias = std::vector<float>(BN_C);
    float alpha = 1.0f, beta = 0.0f;

    BnProblem()
    {
        must(miopenCreate(&h) == miopenStatusSuccess, "miopenCreate");
        miopenCreateTensorDescriptor(&x);
        miopenCreateTensorDescriptor(&p);
        miopenSet4dTensorDescriptor(x, miopenFloat, 1, BN_C, BN_HW, BN_HW);
        miopenSet4dTensorDescriptor(p, miopenFloat, 1, BN_C, 1, 1);
    }
    ~BnProblem() { miopenDestroy(h); }

    miopenStatus_t inference()
    {
        return miopenBatchNormalizationForwardInference_V2(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                           yv.data(), p, p, p, p, scale.data(), bias.data(),
                                                           mean.data(), var.data(), BN_EPSILON);
    }

    // Saves the batch statistics (into mean and var: inverse variance), no running ones.
    miopenStatus_t training()
    {
        return miopenBatchNormalizationForwardTraining_V2(h, miopenBNSpatial, &alpha, &beta, x, xv.data(), x,
                                                          yv.data(), p, p, p, p, scale.data(), bias.data(), 1.0,
                                                          nullptr, nullptr, BN_EPSILON, mean.data(), var.data());
    }

    // With the saved statistics (mean and inverse variance).
    miopenStatus_t backward()
    {
        return miopenBatchNormalizationBackward_V2(h, miopenBNSpatial, &alpha, &beta, &alpha, &beta, x, xv.data(), x,
                                                   dy.data(), x, yv.data(), p, p, p, p, scale.data(),
                                                   dscale.data(), dbias.data(), BN_EPSILON, mean.data(), var.data());
    }

    void check(miopenStatus_t (BnProblem::*pass)()) const
    {
        if(pass == &BnProblem::backward)
            must(yv[0] == 0.0f && dbias[0] == float(BN_N), "the batchnorm backward result");
        else
            must(yv[0] == 0.5f, "the batchnorm result");
    }
};

double bn_pass_thread(long calls, miopenStatus_t (BnProblem::*pass)())
{
    BnProblem b;
    auto call = [&] { return (b.*pass)(); };
    must(call() == miopenStatusSuccess, "first batchnorm call");
    const double ns = timed(calls, call);
    b.check(pass);
    return ns;
}

double bn_thread(long calls) { return bn_pass_thread(calls, &BnProblem::inference); }
double bn_training_thread(long calls) { return bn_pass_thread(calls, &BnProblem::training); }
double bn_backward_thread(long calls) { return bn_pass_thread(calls, &BnProblem::backward); }

hipdnnBackendDescriptor_t bn_epsilon(int64_t uid, double epsilon)
{
    auto d                = make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    hipdnnDataType_t type = HIPDNN_DATA_DOUBLE;
    const int64_t one     = 1;
    set(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid);
    set(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &type);
    set(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, &one);
    set(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, &one);
    set(d, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, sizeof epsilon, &epsilon);
    must(hipdnnBackendFinalize(d) == HIPDNN_STATUS_SUCCESS, "finalize epsilon");
    return d;
}

// The plan of an operation graph (heuristic fallback, its first engine).
hipdnnBackendDescriptor_t plan_of(hipdnnHandle_t h, std::vector<hipdnnBackendDescriptor_t> ops)
{
    auto graph = make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    set(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h);
    set(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, int64_t(ops.size()), ops.data());
    must(hipdnnBackendFinalize(graph) == HIPDNN_STATUS_SUCCESS, "finalize graph");
    auto heur                     = make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    hipdnnBackendHeurMode_t hmode = HIPDNN_HEUR_MODE_FALLBACK;
    set(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
    set(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hmode);
    must(hipdnnBackendFinalize(heur) == HIPDNN_STATUS_SUCCESS, "finalize heuristic");
    auto cfg    = make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    int64_t got = 0;
    must(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got,
                                   &cfg) == HIPDNN_STATUS_SUCCESS && got == 1,
         "engine config");
    must(hipdnnBackendFinalize(cfg) == HIPDNN_STATUS_SUCCESS, "finalize config");
    auto plan = make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    set(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
    must(hipdnnBackendFinalize(plan) == HIPDNN_STATUS_SUCCESS, "finalize plan");
    return plan;
}

using BnTensors = std::vector<std::pair<hipdnnBackendAttributeName_t, hipdnnBackendDescriptor_t>>;

// A batchnorm operation of `type` on `tensors`, compute type FLOAT.
hipdnnBackendDescriptor_t bn_operation(hipdnnBackendDescriptorType_t type, const BnTensors& tensors,
                                       hipdnnBackendAttributeName_t comp_attr)
{
    auto op = make(type);
    for(const auto& [name, t] : tensors)
        set(op, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t);
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    set(op, comp_attr, HIPDNN_TYPE_DATA_TYPE, 1, &comp);
    must(hipdnnBackendFinalize(op) == HIPDNN_STATUS_SUCCESS, "finalize batchnorm");
    return op;
}

// The batchnorm operation run `calls` times on `ptrs` (tensor i's data,
// tensor i with uid uids[i]) on a plan built once.
double time_bn_backend(hipdnnBackendDescriptorType_t type, const BnTensors& tensors,
                       hipdnnBackendAttributeName_t comp_attr, std::vector<void*> ptrs,
                       const std::vector<int64_t>& uids, long calls)
{
    hipdnnHandle_t h;
    must(hipdnnCreate(&h) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    auto plan = plan_of(h, {bn_operation(type, tensors, comp_attr)});
    return time_executes(h, plan, int64_t(ptrs.size()), uids.data(), ptrs.data(), calls);
}

const std::vector<int64_t> BN_XD = {1, BN_C, BN_HW, BN_HW}, BN_PD = {1, BN_C, 1, 1};

// The uids the wrapper gives each batchnorm tensor (miopen_forwarding_core's
// batchnorm `uid` module): the backend alone gets the same variant pack, so
// it does the same per-call work (the test bed's backend formats every uid
// into its checks' messages, whose cost grows with the uid's digits).
enum BnUid : int64_t
{
    BN_X = 1,
    BN_MEAN,
    BN_VARIANCE,
    BN_SCALE,
    BN_BIAS,
    BN_Y,
    BN_EPSILON_UID,
    BN_INV_VARIANCE,
    BN_DY,
    BN_DX,
    BN_DSCALE,
    BN_DBIAS,
    // The fused batchnorm inference -> activation graph's output (its y is virtual).
    BN_FUSED_OUT,
    // The fused backward graph's activated dy (virtual; its y is too).
    BN_DY_ACTIVATED
};

// The batchnorm inference operation's tensors with y (uid BN_Y) as given.
BnTensors bn_inference_tensors(hipdnnBackendDescriptor_t y)
{
    return {
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, tensor(BN_X, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, tensor(BN_MEAN, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, tensor(BN_VARIANCE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, tensor(BN_SCALE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, tensor(BN_BIAS, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, y},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT, bn_epsilon(BN_EPSILON_UID, BN_EPSILON)},
    };
}

double bn_backend_thread(long calls)
{
    BnProblem b;
    const BnTensors tensors = bn_inference_tensors(tensor(BN_Y, BN_XD));
    const double ns = time_bn_backend(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT, tensors,
                                      HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT,
                                      {b.xv.data(), b.mean.data(), b.var.data(), b.scale.data(), b.bias.data(),
                                       b.yv.data()},
                                      {BN_X, BN_MEAN, BN_VARIANCE, BN_SCALE, BN_BIAS, BN_Y}, calls);
    b.check(&BnProblem::inference);
    return ns;
}

double bn_training_backend_thread(long calls)
{
    BnProblem b;
    const BnTensors tensors = {
        {HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, tensor(BN_X, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, tensor(BN_Y, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, tensor(BN_SCALE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, tensor(BN_BIAS, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, tensor(BN_MEAN, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT, tensor(BN_INV_VARIANCE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, bn_epsilon(BN_EPSILON_UID, BN_EPSILON)},
    };
    const double ns = time_bn_backend(
        HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, tensors, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT,
        {b.xv.data(), b.yv.data(), b.scale.data(), b.bias.data(), b.mean.data(), b.var.data()},
        {BN_X, BN_Y, BN_SCALE, BN_BIAS, BN_MEAN, BN_INV_VARIANCE}, calls);
    b.check(&BnProblem::training);
    return ns;
}

double bn_backward_backend_thread(long calls)
{
    BnProblem b;
    const BnTensors tensors = {
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, tensor(BN_X, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, tensor(BN_DY, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, tensor(BN_DX, BN_XD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, tensor(BN_SCALE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, tensor(BN_DSCALE, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, tensor(BN_DBIAS, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, tensor(BN_MEAN, BN_PD)},
        {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, tensor(BN_INV_VARIANCE, BN_PD)},
    };
    const double ns = time_bn_backend(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, tensors,
                                      HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT,
                                      {b.xv.data(), b.dy.data(), b.yv.data(), b.scale.data(), b.dscale.data(),
                                       b.dbias.data(), b.mean.data(), b.var.data()},
                                      {BN_X, BN_DY, BN_DX, BN_SCALE, BN_DSCALE, BN_DBIAS, BN_MEAN, BN_INV_VARIANCE}, calls);
    b.check(&BnProblem::backward);
    return ns;
}

// One fused problem, executed `calls` times through one of the two APIs.
int fused(long calls, const char* api)
{
    SameConv p(N, C, H, K, 1);
    miopenTensorDescriptor_t b;
    miopenCreateTensorDescriptor(&b);
    miopenSet4dTensorDescriptor(b, miopenFloat, 1, K, 1, 1);
    miopenActivationDescriptor_t act;
    miopenCreateActivationDescriptor(&act);
    miopenSetActivationDescriptor(act, miopenActivationRELU, 0.0, 0.0, 0.0);
    std::vector<float> bias(K, 0.5f);
    const float one = 1.0f, zero = 0.0f;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv_op, bias_op, act_op;
    miopenOperatorArgs_t args;
    must(miopenCreateFusionPlan(&plan, miopenVerticalFusion, p.x) == miopenStatusSuccess, "create plan");
    miopenCreateOpConvForward(plan, &conv_op, p.c, p.w);
    miopenCreateOpBiasForward(plan, &bias_op, b);
    miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU);
    must(miopenCompileFusionPlan(p.h, plan) == miopenStatusSuccess, "compile plan");
    miopenCreateOperatorArgs(&args);
    miopenSetOpArgsConvForward(args, conv_op, &one, &zero, p.wv.data());
    miopenSetOpArgsBiasForward(args, bias_op, &one, &zero, bias.data());
    miopenSetOpArgsActivForward(args, act_op, &one, &zero, 0.0, 0.0, 0.0);
    size_t size = 0;
    must(miopenFusionPlanGetWorkSpaceSize(p.h, plan, &size, miopenConvolutionFwdAlgoDirect) == miopenStatusSuccess,
         "plan workspace");
    size_t one_call = 0;
    must(miopenConvolutionForwardGetWorkSpaceSize(p.h, p.w, p.x, p.c, p.y, &one_call) == miopenStatusSuccess,
         "forward workspace");
    std::vector<unsigned char> ws(size > one_call ? size : one_call);
    auto call = [&] {
        if(std::strcmp(api, "plan") == 0)
            return miopenExecuteFusionPlan_v2(p.h, plan, p.x, p.xv.data(), p.y, p.yv.data(), args, ws.data(), size);
        if(std::strcmp(api, "planv1") == 0) // no workspace argument: the handle's own
            return miopenExecuteFusionPlan(p.h, plan, p.x, p.xv.data(), p.y, p.yv.data(), args);
        return miopenConvolutionBiasActivationForward(p.h, &one, p.x, p.xv.data(), p.w, p.wv.data(), p.c,
                                                      miopenConvolutionFwdAlgoDirect, ws.data(), one_call, &one,
                                                      p.y, nullptr, b, bias.data(), act, p.y, p.yv.data());
    };
    for(long i = 0; i < calls; ++i)
        must(call() == miopenStatusSuccess, "fused call");
    must(p.yv[0] == float(C) + 0.5f, "the fused result");
    std::printf("fused calls=%ld\n", calls);
    return 0;
}

hipdnnBackendDescriptor_t pointwise(hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0,
                                    hipdnnBackendDescriptor_t in1, hipdnnBackendDescriptor_t out)
{
    auto d                = make(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    set(d, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode);
    set(d, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec);
    set(d, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0);
    if(in1 != nullptr)
        set(d, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1);
    set(d, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out);
    must(hipdnnBackendFinalize(d) == HIPDNN_STATUS_SUCCESS, "finalize pointwise");
    return d;
}

// Times `calls` executes of a compiled batchnorm fusion plan on b's handle
// with miopenExecuteFusionPlan_v2 (`in` -> `out`) and the workspace MIOpen
// reports for it, then destroys the plan and its arguments.
double time_bn_plan(BnProblem& b, miopenFusionPlanDescriptor_t plan, miopenOperatorArgs_t args, void* in, void* out,
                    long calls)
{
    size_t size = 0;
    must(miopenFusionPlanGetWorkSpaceSize(b.h, plan, &size, miopenConvolutionFwdAlgoDirect) == miopenStatusSuccess,
         "bn plan workspace");
    std::vector<unsigned char> ws(size + 1);
    auto call = [&] { return miopenExecuteFusionPlan_v2(b.h, plan, b.x, in, b.x, out, args, ws.data(), size); };
    must(call() == miopenStatusSuccess, "first bn fusion execute");
    const double ns = timed(calls, call);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    return ns;
}

// The batchnorm problem as a batchnorm inference -> RELU fusion plan,
// compiled once and executed `calls` times with miopenExecuteFusionPlan_v2
// and the workspace MIOpen reports (forwarded: the batchnorm group's
// two-node graph, whose reference-engine plan needs workspace for its
// virtual y). y = relu(0.5) = 0.5, as the plain inference.
double bn_fused_thread(long calls)
{
    BnProblem b;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn_op, act_op;
    miopenOperatorArgs_t args;
    must(miopenCreateFusionPlan(&plan, miopenVerticalFusion, b.x) == miopenStatusSuccess, "create bn plan");
    must(miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNSpatial, b.p) == miopenStatusSuccess, "bn op");
    must(miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU) == miopenStatusSuccess, "act op");
    must(miopenCompileFusionPlan(b.h, plan) == miopenStatusSuccess, "compile bn plan");
    must(miopenCreateOperatorArgs(&args) == miopenStatusSuccess, "operator args");
    must(miopenSetOpArgsBatchNormInference(args, bn_op, &b.alpha, &b.beta, b.scale.data(), b.bias.data(),
                                           b.mean.data(), b.var.data(), BN_EPSILON) == miopenStatusSuccess,
         "bn args");
    must(miopenSetOpArgsActivForward(args, act_op, &b.alpha, &b.beta, 0.0, 0.0, 0.0) == miopenStatusSuccess,
         "act args");
    const double ns = time_bn_plan(b, plan, args, b.xv.data(), b.yv.data(), calls);
    b.check(&BnProblem::inference);
    return ns;
}

// The same graph on the backend alone: batchnorm inference (y virtual) ->
// RELU_FWD, with the wrapper's uids in its order (x, output, scale, bias,
// mean, variance), its plan built once and run with the plan's workspace.
double bn_fused_backend_thread(long calls)
{
    BnProblem b;
    hipdnnHandle_t h;
    must(hipdnnCreate(&h) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    auto y  = tensor(BN_Y, BN_XD, true);
    auto bn = bn_operation(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
                           bn_inference_tensors(y), HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT);
    auto relu = pointwise(HIPDNN_POINTWISE_MODE_RELU_FWD, y, nullptr, tensor(BN_FUSED_OUT, BN_XD));
    auto plan = plan_of(h, {bn, relu});
    int64_t size = 0;
    must(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr,
                                   &size) == HIPDNN_STATUS_SUCCESS,
         "bn plan workspace");
    std::vector<unsigned char> ws(size_t(size) + 1);
    const int64_t uids[6] = {BN_X, BN_FUSED_OUT, BN_SCALE, BN_BIAS, BN_MEAN, BN_VARIANCE};
    void* ptrs[6] = {b.xv.data(), b.yv.data(), b.scale.data(), b.bias.data(), b.mean.data(), b.var.data()};
    const double ns = time_executes(h, plan, 6, uids, ptrs, calls, ws.data());
    b.check(&BnProblem::inference);
    return ns;
}

// The batchnorm problem's backward as a batchnorm backward -> RELU backward
// fusion plan (the plan's input dy, its output dx), compiled once and
// executed `calls` times with miopenExecuteFusionPlan_v2 and the workspace
// MIOpen reports (forwarded: the provider's three-node graph). The
// recomputed y is the bias, 0.5 > 0, so dy passes and the results are the
// plain backward's.
double bn_fused_bwd_thread(long calls)
{
    BnProblem b;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn_op, act_op;
    miopenOperatorArgs_t args;
    must(miopenCreateFusionPlan(&plan, miopenVerticalFusion, b.x) == miopenStatusSuccess, "create bn bwd plan");
    must(miopenCreateOpBatchNormBackward(plan, &bn_op, miopenBNSpatial) == miopenStatusSuccess, "bn bwd op");
    must(miopenCreateOpActivationBackward(plan, &act_op, miopenActivationRELU) == miopenStatusSuccess, "act bwd op");
    must(miopenCompileFusionPlan(b.h, plan) == miopenStatusSuccess, "compile bn bwd plan");
    must(miopenCreateOperatorArgs(&args) == miopenStatusSuccess, "operator args");
    must(miopenSetOpArgsBatchNormBackward(args, bn_op, &b.alpha, &b.beta, b.xv.data(), b.scale.data(), b.bias.data(),
                                          b.dscale.data(), b.dbias.data(), b.mean.data(),
                                          b.var.data()) == miopenStatusSuccess,
         "bn bwd args");
    must(miopenSetOpArgsActivBackward(args, act_op, &b.alpha, &b.beta, nullptr, nullptr, 0.0, 0.0, 0.0) ==
             miopenStatusSuccess,
         "act bwd args");
    const double ns = time_bn_plan(b, plan, args, b.dy.data(), b.yv.data(), calls);
    b.check(&BnProblem::backward);
    return ns;
}

// The same three-node graph on the backend alone: batchnorm inference with
// inverse variance (type 17, y virtual) -> RELU_BWD (dy, y -> activated dy,
// virtual) -> batchnorm backward, with the wrapper's uids in its order (dy,
// dx, x, scale, bias, dscale, dbias, mean, inverse variance).
double bn_fused_bwd_backend_thread(long calls)
{
    BnProblem b;
    hipdnnHandle_t h;
    must(hipdnnCreate(&h) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    auto x = tensor(BN_X, BN_XD), mean = tensor(BN_MEAN, BN_PD), inv = tensor(BN_INV_VARIANCE, BN_PD),
         scale = tensor(BN_SCALE, BN_PD), y = tensor(BN_Y, BN_XD, true), dy = tensor(BN_DY, BN_XD),
         dy_act = tensor(BN_DY_ACTIVATED, BN_XD, true);
    auto inference = bn_operation(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT,
                                  {{HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, x},
                                   {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, mean},
                                   {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, inv},
                                   {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, scale},
                                   {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, tensor(BN_BIAS, BN_PD)},
                                   {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, y}},
                                  HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT);
    auto relu = pointwise(HIPDNN_POINTWISE_MODE_RELU_BWD, dy, y, dy_act);
    auto backward = bn_operation(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
                                 {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, dy_act},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, x},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, scale},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, tensor(BN_DX, BN_XD)},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, tensor(BN_DSCALE, BN_PD)},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, tensor(BN_DBIAS, BN_PD)},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, mean},
                                  {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, inv}},
                                 HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT);
    auto plan = plan_of(h, {inference, relu, backward});
    int64_t size = 0;
    must(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr,
                                   &size) == HIPDNN_STATUS_SUCCESS,
         "bn bwd plan workspace");
    std::vector<unsigned char> ws(size_t(size) + 1);
    const int64_t uids[9] = {BN_DY, BN_DX, BN_X, BN_SCALE, BN_BIAS, BN_DSCALE, BN_DBIAS, BN_MEAN, BN_INV_VARIANCE};
    void* ptrs[9] = {b.dy.data(),     b.yv.data(),    b.xv.data(),   b.scale.data(), b.bias.data(),
                     b.dscale.data(), b.dbias.data(), b.mean.data(), b.var.data()};
    const double ns = time_executes(h, plan, 9, uids, ptrs, calls, ws.data());
    b.check(&BnProblem::backward);
    return ns;
}

// The fused problem's conv -> ADD bias -> RELU_FWD graph on the backend
// alone, its plan built once and run `calls` times with the plan's workspace.
int fused_backend(long calls)
{
    hipdnnHandle_t h;
    must(hipdnnCreate(&h) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    const std::vector<int64_t> yd = {N, K, H, W};
    auto x = tensor(1, {N, C, H, W}), w = tensor(2, {K, C, 1, 1}), y = tensor(3, yd), bias = tensor(4, {1, K, 1, 1});
    auto conv_out = tensor(10, yd, true), add_out = tensor(11, yd, true);
    auto conv = conv_forward(x, w, conv_out);
    auto add  = pointwise(HIPDNN_POINTWISE_MODE_ADD, conv_out, bias, add_out);
    auto relu = pointwise(HIPDNN_POINTWISE_MODE_RELU_FWD, add_out, nullptr, y);
    auto plan = plan_of(h, {conv, add, relu});
    int64_t size = 0;
    must(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr,
                                   &size) == HIPDNN_STATUS_SUCCESS,
         "plan workspace");
    std::vector<unsigned char> ws(size_t(size) + 1);
    std::vector<float> xv(N * C * H * W, 1.0f), wv(K * C, 1.0f), yv(N * K * H * W), bv(K, 0.5f);
    const int64_t uids[4] = {1, 2, 3, 4};
    void* ptrs[4]         = {xv.data(), wv.data(), yv.data(), bv.data()};
    time_executes(h, plan, 4, uids, ptrs, calls, ws.data());
    must(yv[0] == float(C) + 0.5f, "the fused result");
    std::printf("fused calls=%ld\n", calls);
    return 0;
}

int cold_start()
{
    SameConv p(1, 16, 32, 16, 3);
    auto t0 = std::chrono::steady_clock::now();
    must(p.forward() == miopenStatusSuccess, "first miopenConvolutionForward");
    auto t1 = std::chrono::steady_clock::now();
    std::printf("coldstart us=%.1f\n", std::chrono::duration<double, std::micro>(t1 - t0).count());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc > 1 && std::strcmp(argv[1], "coldstart") == 0)
        return cold_start();
    if(argc == 4 && std::strcmp(argv[1], "fused") == 0)
    {
        if(std::strcmp(argv[3], "backend") == 0)
            return fused_backend(std::atol(argv[2]));
        return fused(std::atol(argv[2]), argv[3]);
    }
    const std::pair<const char*, double (*)(long)> modes[] = {{"wrapper", wrapper_thread},
                                                               {"find2", find2_thread},
                                                               {"find2_tuned", find2_tuned_thread},
                                                               {"backend", backend_thread},
                                                               {"batchnorm", bn_thread},
                                                               {"bn_backend", bn_backend_thread},
                                                               {"bn_training", bn_training_thread},
                                                               {"bn_training_backend", bn_training_backend_thread},
                                                               {"bn_backward", bn_backward_thread},
                                                               {"bn_backward_backend", bn_backward_backend_thread},
                                                               {"bn_fused", bn_fused_thread},
                                                               {"bn_fused_backend", bn_fused_backend_thread},
                                                               {"bn_fused_bwd", bn_fused_bwd_thread},
                                                               {"bn_fused_bwd_backend", bn_fused_bwd_backend_thread}};
    double (*thread_body)(long) = nullptr;
    for(const auto& [name, body] : modes)
        if(argc == 4 && std::strcmp(argv[1], name) == 0)
            thread_body = body;
    if(thread_body == nullptr)
    {
        std::fprintf(stderr, "usage: forwarded wrapper|find2|find2_tuned|backend|batchnorm|bn_backend|bn_training|"
                             "bn_training_backend|bn_backward|bn_backward_backend|bn_fused|bn_fused_backend|bn_fused_bwd|"
                             "bn_fused_bwd_backend <calls> "
                             "<threads> | fused <calls> "
                             "plan|onecall|backend\n");
        return 2;
    }
    const long calls   = std::atol(argv[2]);
    const int threads  = std::atoi(argv[3]);
    g_threads          = threads;
    std::vector<double> ns(size_t(threads), 0.0);
    std::vector<std::thread> ts;
    for(int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            ns[size_t(t)] = thread_body(calls);
        });
    for(auto& t : ts)
        t.join();
    double worst = 0, sum = 0;
    for(double v : ns)
    {
        sum += v;
        worst = v > worst ? v : worst;
    }
    std::printf("%s threads=%d calls=%ld ns_per_call_mean=%.1f ns_per_call_worst=%.1f\n", argv[1], threads, calls,
                sum / threads, worst);
    return 0;
}
