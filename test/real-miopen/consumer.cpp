// consumer.cpp -- a public-API consumer of a real MIOpen built with the
// HIPNOGPU backend (no device). scripts/real-miopen-check.sh builds it
// against the pre-wrapper install and against the adopted install and runs
// it on both libraries; stdout must be byte-identical.
//
// Only calls that work without a device are made: host-side descriptors and
// their queries, status strings, handle creation (HIPNOGPU needs no device),
// and the handle-based queries that only consult solvers and databases
// (workspace sizes, solution counts and lists, dropout/RNN/reduction sizes).
// Nothing allocates device memory or launches a kernel.
//
//   consumer [PROBE...]    run the named probes (default: all, in order)
//   consumer --list        print the probe names
// Every probe prints what it called and what came back; the process's peak
// and current RSS go to stderr at the end (not compared).
#include <miopen/miopen.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int g_failures = 0;

// Prints `<what>: status=<n>` and returns whether it succeeded.
bool report(const char* what, miopenStatus_t status)
{
    std::printf("  %s: status=%d\n", what, static_cast<int>(status));
    return status == miopenStatusSuccess;
}

// A call whose failure means the library, not the probe, is wrong.
bool require(const char* what, miopenStatus_t status)
{
    if(!report(what, status))
        ++g_failures;
    return status == miopenStatusSuccess;
}

void print_dims(const char* what, const int* v, int n)
{
    std::printf("  %s: [", what);
    for(int i = 0; i < n; ++i)
        std::printf(i ? ",%d" : "%d", v[i]);
    std::printf("]\n");
}

struct Tensor
{
    miopenTensorDescriptor_t d = nullptr;
    Tensor() { require("miopenCreateTensorDescriptor", miopenCreateTensorDescriptor(&d)); }
    Tensor(int n, int c, int h, int w) : Tensor()
    {
        require("miopenSet4dTensorDescriptor", miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w));
    }
    ~Tensor() { miopenDestroyTensorDescriptor(d); }
    Tensor(const Tensor&)            = delete;
    Tensor& operator=(const Tensor&) = delete;
};

struct Conv
{
    miopenConvolutionDescriptor_t d = nullptr;
    Conv(int pad, int stride, int dilation, int groups)
    {
        require("miopenCreateConvolutionDescriptor", miopenCreateConvolutionDescriptor(&d));
        require("miopenInitConvolutionDescriptor",
                miopenInitConvolutionDescriptor(d, miopenConvolution, pad, pad, stride, stride, dilation, dilation));
        require("miopenSetConvolutionGroupCount", miopenSetConvolutionGroupCount(d, groups));
    }
    ~Conv() { miopenDestroyConvolutionDescriptor(d); }
    Conv(const Conv&)            = delete;
    Conv& operator=(const Conv&) = delete;
};

struct Handle
{
    miopenHandle_t h = nullptr;
    Handle() { require("miopenCreate", miopenCreate(&h)); }
    ~Handle()
    {
        if(h != nullptr)
            report("miopenDestroy", miopenDestroy(h));
    }
    Handle(const Handle&)            = delete;
    Handle& operator=(const Handle&) = delete;
};

void probe_version()
{
    size_t major = 0, minor = 0, patch = 0;
    require("miopenGetVersion", miopenGetVersion(&major, &minor, &patch));
    std::printf("  version: %zu.%zu.%zu\n", major, minor, patch);
}

void probe_error_strings()
{
    for(int s = -1; s <= 11; ++s)
        std::printf("  miopenGetErrorString(%d): %s\n", s, miopenGetErrorString(static_cast<miopenStatus_t>(s)));
}

void probe_tensor_descriptors()
{
    Tensor t(2, 3, 8, 8);
    miopenDataType_t type;
    int n, c, h, w, ns, cs, hs, ws;
    require("miopenGet4dTensorDescriptor", miopenGet4dTensorDescriptor(t.d, &type, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    std::printf("  4d: type=%d dims=%d,%d,%d,%d strides=%d,%d,%d,%d\n", type, n, c, h, w, ns, cs, hs, ws);
    size_t bytes = 0;
    int size     = 0;
    require("miopenGetTensorNumBytes", miopenGetTensorNumBytes(t.d, &bytes));
    require("miopenGetTensorDescriptorSize", miopenGetTensorDescriptorSize(t.d, &size));
    std::printf("  bytes=%zu nbdims=%d\n", bytes, size);

    Tensor ex;
    require("miopenSet4dTensorDescriptorEx",
            miopenSet4dTensorDescriptorEx(ex.d, miopenHalf, 1, 4, 5, 6, 240, 60, 12, 2));
    require("miopenGetTensorNumBytes(Ex)", miopenGetTensorNumBytes(ex.d, &bytes));
    std::printf("  ex bytes=%zu\n", bytes);

    Tensor nd;
    const int dims[5]    = {2, 4, 3, 5, 7};
    const int strides[5] = {420, 105, 35, 7, 1};
    require("miopenSetTensorDescriptor", miopenSetTensorDescriptor(nd.d, miopenInt8, 5, dims, strides));
    int gdims[5], gstrides[5];
    require("miopenGetTensorDescriptor", miopenGetTensorDescriptor(nd.d, &type, gdims, gstrides));
    std::printf("  nd: type=%d\n", type);
    print_dims("nd dims", gdims, 5);
    print_dims("nd strides", gstrides, 5);

    Tensor layout;
    const int ldims[4] = {2, 3, 4, 5};
    require("miopenSetNdTensorDescriptorWithLayout",
            miopenSetNdTensorDescriptorWithLayout(layout.d, miopenFloat, miopenTensorNHWC, ldims, 4));
    require("miopenGetTensorDescriptor(NHWC)", miopenGetTensorDescriptor(layout.d, &type, gdims, gstrides));
    print_dims("NHWC dims", gdims, 4);
    print_dims("NHWC strides", gstrides, 4);

    Tensor v2;
    const size_t dims2[3]    = {6, 7, 8};
    const size_t strides2[3] = {56, 8, 1};
    require("miopenSetTensorDescriptorV2", miopenSetTensorDescriptorV2(v2.d, miopenBFloat16, 3, dims2, strides2));
    require("miopenGetTensorNumBytes(V2)", miopenGetTensorNumBytes(v2.d, &bytes));
    std::printf("  v2 bytes=%zu\n", bytes);
    report("miopenSetTensorCastType", miopenSetTensorCastType(v2.d, miopenFloat8));

    // Invalid descriptors: the status each version of the library returns.
    report("miopenSet4dTensorDescriptor(negative dim)", miopenSet4dTensorDescriptor(t.d, miopenFloat, 1, -3, 4, 4));
    report("miopenSetTensorDescriptor(0 dims)", miopenSetTensorDescriptor(t.d, miopenFloat, 0, dims, nullptr));
}

void probe_null_arguments()
{
    int size = 0;
    report("miopenGetTensorDescriptorSize(NULL)", miopenGetTensorDescriptorSize(nullptr, &size));
    report("miopenCreateTensorDescriptor(NULL)", miopenCreateTensorDescriptor(nullptr));
    report("miopenCreateConvolutionDescriptor(NULL)", miopenCreateConvolutionDescriptor(nullptr));
    report("miopenCreate(NULL)", miopenCreate(nullptr));
    report("miopenDestroyTensorDescriptor(NULL)", miopenDestroyTensorDescriptor(nullptr));
    report("miopenGetVersion(NULL,...)", miopenGetVersion(nullptr, nullptr, nullptr));
}

void probe_convolution_descriptors()
{
    Conv conv(1, 2, 1, 1);
    miopenConvolutionMode_t mode;
    int ph, pw, sh, sw, dh, dw;
    require("miopenGetConvolutionDescriptor", miopenGetConvolutionDescriptor(conv.d, &mode, &ph, &pw, &sh, &sw, &dh, &dw));
    std::printf("  conv: mode=%d pad=%d,%d stride=%d,%d dilation=%d,%d\n", mode, ph, pw, sh, sw, dh, dw);
    int spatial = 0;
    require("miopenGetConvolutionSpatialDim", miopenGetConvolutionSpatialDim(conv.d, &spatial));
    std::printf("  spatial dims=%d\n", spatial);

    Tensor x(2, 6, 17, 19), w(4, 3, 3, 3);
    Conv grouped(1, 2, 1, 2);
    int groups = 0;
    require("miopenGetConvolutionGroupCount", miopenGetConvolutionGroupCount(grouped.d, &groups));
    int n, c, h, wd;
    require("miopenGetConvolutionForwardOutputDim",
            miopenGetConvolutionForwardOutputDim(grouped.d, x.d, w.d, &n, &c, &h, &wd));
    std::printf("  grouped (groups=%d) output: %d,%d,%d,%d\n", groups, n, c, h, wd);

    miopenConvolutionDescriptor_t nd;
    require("miopenCreateConvolutionDescriptor(3d)", miopenCreateConvolutionDescriptor(&nd));
    const int pads[3] = {0, 1, 2}, strides[3] = {1, 2, 1}, dil[3] = {1, 1, 2};
    require("miopenInitConvolutionNdDescriptor",
            miopenInitConvolutionNdDescriptor(nd, 3, pads, strides, dil, miopenConvolution));
    Tensor x5, w5;
    const int xd[5] = {1, 2, 9, 10, 11}, wdims[5] = {3, 2, 3, 3, 3};
    require("miopenSetTensorDescriptor(x5)", miopenSetTensorDescriptor(x5.d, miopenFloat, 5, xd, nullptr));
    require("miopenSetTensorDescriptor(w5)", miopenSetTensorDescriptor(w5.d, miopenFloat, 5, wdims, nullptr));
    int nout = 0, out[5] = {};
    require("miopenGetConvolutionNdForwardOutputDim",
            miopenGetConvolutionNdForwardOutputDim(nd, x5.d, w5.d, &nout, out));
    print_dims("3d output", out, nout);
    int rank = 0, gp[3], gs[3], gdl[3];
    require("miopenGetConvolutionNdDescriptor",
            miopenGetConvolutionNdDescriptor(nd, 3, &rank, gp, gs, gdl, &mode));
    std::printf("  3d: rank=%d mode=%d\n", rank, mode);
    // A 2-D query of a 3-D descriptor fails inside a file the rename edits
    // (convolution_api.cpp); MIOpen's error message names its source line,
    // which the rename's #line keeps (compared in MIOpen's log).
    report("miopenGetConvolutionDescriptor(3d, fails)",
           miopenGetConvolutionDescriptor(nd, &mode, &ph, &pw, &sh, &sw, &dh, &dw));

    Conv transpose(0, 2, 1, 1);
    require("miopenInitConvolutionDescriptor(transpose)",
            miopenInitConvolutionDescriptor(transpose.d, miopenTranspose, 0, 0, 2, 2, 1, 1));
    require("miopenSetTransposeConvOutputPadding", miopenSetTransposeConvOutputPadding(transpose.d, 1, 1));
    Tensor wt(6, 4, 3, 3);
    require("miopenGetConvolutionForwardOutputDim(transpose)",
            miopenGetConvolutionForwardOutputDim(transpose.d, x.d, wt.d, &n, &c, &h, &wd));
    std::printf("  transpose output: %d,%d,%d,%d\n", n, c, h, wd);

    int value = -1;
    require("miopenSetConvolutionAttribute(DETERMINISTIC)",
            miopenSetConvolutionAttribute(conv.d, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1));
    require("miopenGetConvolutionAttribute(DETERMINISTIC)",
            miopenGetConvolutionAttribute(conv.d, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &value));
    std::printf("  deterministic=%d\n", value);
    report("miopenGetConvolutionForwardOutputDim(NULL conv)",
           miopenGetConvolutionForwardOutputDim(nullptr, x.d, w.d, &n, &c, &h, &wd));
    miopenDestroyConvolutionDescriptor(nd);
}

void probe_other_descriptors()
{
    miopenActivationDescriptor_t act;
    require("miopenCreateActivationDescriptor", miopenCreateActivationDescriptor(&act));
    require("miopenSetActivationDescriptor", miopenSetActivationDescriptor(act, miopenActivationCLIPPEDRELU, 6.0, 0.5, 2.0));
    miopenActivationMode_t amode;
    double a, b, g;
    require("miopenGetActivationDescriptor", miopenGetActivationDescriptor(act, &amode, &a, &b, &g));
    std::printf("  activation: mode=%d alpha=%g beta=%g gamma=%g\n", amode, a, b, g);
    miopenDestroyActivationDescriptor(act);

    miopenLRNDescriptor_t lrn;
    require("miopenCreateLRNDescriptor", miopenCreateLRNDescriptor(&lrn));
    require("miopenSetLRNDescriptor", miopenSetLRNDescriptor(lrn, miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0));
    miopenLRNMode_t lmode;
    unsigned int lrn_n;
    double la, lb, lk;
    require("miopenGetLRNDescriptor", miopenGetLRNDescriptor(lrn, &lmode, &lrn_n, &la, &lb, &lk));
    std::printf("  lrn: mode=%d n=%u alpha=%g beta=%g k=%g\n", lmode, lrn_n, la, lb, lk);
    Tensor y(2, 3, 8, 8);
    size_t ws = 0;
    require("miopenLRNGetWorkSpaceSize", miopenLRNGetWorkSpaceSize(y.d, &ws));
    std::printf("  lrn workspace=%zu\n", ws);
    miopenDestroyLRNDescriptor(lrn);

    miopenPoolingDescriptor_t pool;
    require("miopenCreatePoolingDescriptor", miopenCreatePoolingDescriptor(&pool));
    require("miopenSet2dPoolingDescriptor", miopenSet2dPoolingDescriptor(pool, miopenPoolingMax, 3, 3, 1, 1, 2, 2));
    Tensor x(2, 3, 17, 16);
    int n, c, h, w;
    require("miopenGetPoolingForwardOutputDim", miopenGetPoolingForwardOutputDim(pool, x.d, &n, &c, &h, &w));
    std::printf("  pooling output: %d,%d,%d,%d\n", n, c, h, w);
    require("miopenSetPoolingIndexType", miopenSetPoolingIndexType(pool, miopenIndexUint16));
    miopenIndexType_t itype;
    require("miopenGetPoolingIndexType", miopenGetPoolingIndexType(pool, &itype));
    Tensor py(n, c, h, w);
    require("miopenPoolingGetWorkSpaceSizeV2", miopenPoolingGetWorkSpaceSizeV2(pool, py.d, &ws));
    std::printf("  pooling index type=%d workspace=%zu\n", itype, ws);
    miopenDestroyPoolingDescriptor(pool);

    miopenSoftmaxDescriptor_t sm;
    require("miopenCreateSoftmaxDescriptor", miopenCreateSoftmaxDescriptor(&sm));
    require("miopenSetSoftmaxDescriptor",
            miopenSetSoftmaxDescriptor(sm, 1.0f, 0.0f, MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_CHANNEL));
    float salpha, sbeta;
    miopenSoftmaxAlgorithm_t salgo;
    miopenSoftmaxMode_t smode;
    require("miopenGetSoftmaxDescriptor", miopenGetSoftmaxDescriptor(sm, &salpha, &sbeta, &salgo, &smode));
    std::printf("  softmax: alpha=%g beta=%g algo=%d mode=%d\n", salpha, sbeta, salgo, smode);

    miopenReduceTensorDescriptor_t red;
    require("miopenCreateReduceTensorDescriptor", miopenCreateReduceTensorDescriptor(&red));
    require("miopenSetReduceTensorDescriptor",
            miopenSetReduceTensorDescriptor(red, MIOPEN_REDUCE_TENSOR_MAX, miopenFloat, MIOPEN_PROPAGATE_NAN,
                                            MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES, MIOPEN_32BIT_INDICES));
    miopenReduceTensorOp_t rop;
    miopenDataType_t rtype;
    miopenNanPropagation_t rnan;
    miopenReduceTensorIndices_t rind;
    miopenIndicesType_t ritype;
    require("miopenGetReduceTensorDescriptor",
            miopenGetReduceTensorDescriptor(red, &rop, &rtype, &rnan, &rind, &ritype));
    std::printf("  reduce: op=%d type=%d nan=%d indices=%d index type=%d\n", rop, rtype, rnan, rind, ritype);
    miopenDestroyReduceTensorDescriptor(red);

    Tensor bn;
    require("miopenDeriveBNTensorDescriptor(spatial)", miopenDeriveBNTensorDescriptor(bn.d, x.d, miopenBNSpatial));
    miopenDataType_t type;
    int s[4], st[4];
    require("miopenGet4dTensorDescriptor(bn)",
            miopenGet4dTensorDescriptor(bn.d, &type, &s[0], &s[1], &s[2], &s[3], &st[0], &st[1], &st[2], &st[3]));
    print_dims("bn spatial dims", s, 4);
    require("miopenDeriveBNTensorDescriptor(per-activation)",
            miopenDeriveBNTensorDescriptor(bn.d, x.d, miopenBNPerActivation));
    require("miopenGet4dTensorDescriptor(bn pa)",
            miopenGet4dTensorDescriptor(bn.d, &type, &s[0], &s[1], &s[2], &s[3], &st[0], &st[1], &st[2], &st[3]));
    print_dims("bn per-activation dims", s, 4);

    size_t reserve = 0;
    require("miopenDropoutGetReserveSpaceSize", miopenDropoutGetReserveSpaceSize(x.d, &reserve));
    std::printf("  dropout reserve=%zu\n", reserve);

    miopenCTCLossDescriptor_t ctc;
    require("miopenCreateCTCLossDescriptor", miopenCreateCTCLossDescriptor(&ctc));
    require("miopenSetCTCLossDescriptor", miopenSetCTCLossDescriptor(ctc, miopenFloat, 0, true));
    miopenDataType_t ctype;
    int blank = -1;
    bool apply = false;
    require("miopenGetCTCLossDescriptor", miopenGetCTCLossDescriptor(ctc, &ctype, &blank, &apply));
    std::printf("  ctc: type=%d blank=%d softmax=%d\n", ctype, blank, apply ? 1 : 0);
    miopenDestroyCTCLossDescriptor(ctc);
}

void probe_handle()
{
    Handle handle;
    miopenAcceleratorQueue_t stream = reinterpret_cast<miopenAcceleratorQueue_t>(1);
    report("miopenGetStream", miopenGetStream(handle.h, &stream));
    std::printf("  stream is null: %d\n", stream == nullptr ? 1 : 0);
    report("miopenEnableProfiling", miopenEnableProfiling(handle.h, true));
    float t = -1;
    report("miopenGetKernelTime", miopenGetKernelTime(handle.h, &t));
    std::printf("  kernel time=%g\n", t);
}

// The convolution queries of one direction, as a framework asks them before
// choosing an algorithm.
void probe_convolution_queries()
{
    Handle handle;
    Tensor x(1, 8, 14, 14), w(16, 8, 3, 3), y(1, 16, 14, 14);
    Conv conv(1, 1, 1, 1);
    size_t ws = 0;
    require("miopenConvolutionForwardGetWorkSpaceSize",
            miopenConvolutionForwardGetWorkSpaceSize(handle.h, w.d, x.d, conv.d, y.d, &ws));
    std::printf("  fwd workspace=%zu\n", ws);
    report("miopenConvolutionBackwardDataGetWorkSpaceSize",
           miopenConvolutionBackwardDataGetWorkSpaceSize(handle.h, y.d, w.d, conv.d, x.d, &ws));
    std::printf("  bwd data workspace=%zu\n", ws);
    report("miopenConvolutionBackwardWeightsGetWorkSpaceSize",
           miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle.h, y.d, x.d, conv.d, w.d, &ws));
    std::printf("  bwd weights workspace=%zu\n", ws);

    size_t count = 0;
    require("miopenConvolutionForwardGetSolutionCount",
            miopenConvolutionForwardGetSolutionCount(handle.h, w.d, x.d, conv.d, y.d, &count));
    std::printf("  fwd solutions=%zu\n", count);
    std::vector<miopenConvSolution_t> sol(count + 1);
    size_t got = 0;
    if(require("miopenConvolutionForwardGetSolution",
               miopenConvolutionForwardGetSolution(handle.h, w.d, x.d, conv.d, y.d, sol.size(), &got, sol.data())))
    {
        for(size_t i = 0; i < got; ++i)
        {
            miopenConvAlgorithm_t algo;
            report("miopenGetSolverIdConvAlgorithm", miopenGetSolverIdConvAlgorithm(sol[i].solution_id, &algo));
            size_t sws = 0;
            report("miopenConvolutionForwardGetSolutionWorkspaceSize",
                   miopenConvolutionForwardGetSolutionWorkspaceSize(handle.h, w.d, x.d, conv.d, y.d,
                                                                    sol[i].solution_id, &sws));
            std::printf("  solution %zu: id=%llu algorithm=%d (solver algorithm %d) workspace=%zu/%zu time=%g\n", i,
                        static_cast<unsigned long long>(sol[i].solution_id), sol[i].algorithm, algo,
                        sol[i].workspace_size, sws, sol[i].time);
        }
    }
    report("miopenConvolutionBackwardDataGetSolutionCount",
           miopenConvolutionBackwardDataGetSolutionCount(handle.h, y.d, w.d, conv.d, x.d, &count));
    std::printf("  bwd data solutions=%zu\n", count);
    report("miopenConvolutionBackwardWeightsGetSolutionCount",
           miopenConvolutionBackwardWeightsGetSolutionCount(handle.h, y.d, x.d, conv.d, w.d, &count));
    std::printf("  bwd weights solutions=%zu\n", count);
    report("miopenConvolutionForwardGetWorkSpaceSize(NULL handle)",
           miopenConvolutionForwardGetWorkSpaceSize(nullptr, w.d, x.d, conv.d, y.d, &ws));
}

void probe_problem_api()
{
    Tensor x(1, 4, 8, 8), w(4, 4, 1, 1), y(1, 4, 8, 8);
    Conv conv(0, 1, 1, 1);
    miopenProblem_t problem;
    require("miopenCreateConvProblem", miopenCreateConvProblem(&problem, conv.d, miopenProblemDirectionForward));
    require("miopenSetProblemTensorDescriptor(x)",
            miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, x.d));
    require("miopenSetProblemTensorDescriptor(w)",
            miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, w.d));
    require("miopenSetProblemTensorDescriptor(y)",
            miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, y.d));
    miopenFindOptions_t options;
    require("miopenCreateFindOptions", miopenCreateFindOptions(&options));
    require("miopenSetFindOptionTuning", miopenSetFindOptionTuning(options, 0));
    require("miopenSetFindOptionResultsOrder", miopenSetFindOptionResultsOrder(options, miopenFindResultsOrderByTime));
    require("miopenSetFindOptionWorkspaceLimit", miopenSetFindOptionWorkspaceLimit(options, 1 << 20));
    require("miopenDestroyFindOptions", miopenDestroyFindOptions(options));
    require("miopenDestroyProblem", miopenDestroyProblem(problem));
}

void probe_fusion_plan()
{
    Handle handle;
    Tensor x(1, 8, 7, 7), w(8, 8, 3, 3), b(1, 8, 1, 1);
    Conv conv(1, 1, 1, 1);
    miopenFusionPlanDescriptor_t plan;
    require("miopenCreateFusionPlan", miopenCreateFusionPlan(&plan, miopenVerticalFusion, x.d));
    miopenFusionOpDescriptor_t conv_op, bias_op, act_op;
    require("miopenCreateOpConvForward", miopenCreateOpConvForward(plan, &conv_op, conv.d, w.d));
    require("miopenCreateOpBiasForward", miopenCreateOpBiasForward(plan, &bias_op, b.d));
    require("miopenCreateOpActivationForward", miopenCreateOpActivationForward(plan, &act_op, miopenActivationRELU));
    miopenOperatorArgs_t args;
    require("miopenCreateOperatorArgs", miopenCreateOperatorArgs(&args));
    const float alpha = 1.0f, beta = 0.0f;
    require("miopenSetOpArgsActivForward", miopenSetOpArgsActivForward(args, act_op, &alpha, &beta, 0.0, 0.0, 0.0));
    require("miopenDestroyOperatorArgs", miopenDestroyOperatorArgs(args));
    require("miopenDestroyFusionPlan", miopenDestroyFusionPlan(plan));
}

void probe_rnn()
{
    Handle handle;
    miopenRNNDescriptor_t rnn;
    require("miopenCreateRNNDescriptor", miopenCreateRNNDescriptor(&rnn));
    require("miopenSetRNNDescriptor",
            miopenSetRNNDescriptor(rnn, 16, 2, miopenRNNlinear, miopenRNNunidirection, miopenLSTM, miopenRNNwithBias,
                                   miopenRNNdefault, miopenFloat));
    miopenRNNMode_t mode;
    miopenRNNAlgo_t algo;
    miopenRNNInputMode_t input;
    miopenRNNDirectionMode_t dir;
    miopenRNNBiasMode_t bias;
    int hidden = 0, layers = 0;
    require("miopenGetRNNDescriptor",
            miopenGetRNNDescriptor(rnn, &mode, &algo, &input, &dir, &bias, &hidden, &layers));
    std::printf("  rnn: mode=%d algo=%d input=%d dir=%d bias=%d hidden=%d layers=%d\n", mode, algo, input, dir, bias,
                hidden, layers);
    Tensor x;
    const int xd[2] = {4, 10};
    require("miopenSetTensorDescriptor(rnn x)", miopenSetTensorDescriptor(x.d, miopenFloat, 2, xd, nullptr));
    size_t params = 0;
    report("miopenGetRNNParamsSize", miopenGetRNNParamsSize(handle.h, rnn, x.d, &params, miopenFloat));
    std::printf("  rnn params bytes=%zu\n", params);
    miopenDestroyRNNDescriptor(rnn);
}

void probe_handle_sizes()
{
    Handle handle;
    size_t states = 0;
    report("miopenDropoutGetStatesSize", miopenDropoutGetStatesSize(handle.h, &states));
    std::printf("  dropout states=%zu\n", states);
    miopenReduceTensorDescriptor_t red;
    require("miopenCreateReduceTensorDescriptor", miopenCreateReduceTensorDescriptor(&red));
    require("miopenSetReduceTensorDescriptor",
            miopenSetReduceTensorDescriptor(red, MIOPEN_REDUCE_TENSOR_ADD, miopenFloat, MIOPEN_NOT_PROPAGATE_NAN,
                                            MIOPEN_REDUCE_TENSOR_NO_INDICES, MIOPEN_32BIT_INDICES));
    Tensor a(4, 8, 16, 16), c(4, 1, 16, 16);
    size_t ws = 0, idx = 0;
    report("miopenGetReductionWorkspaceSize", miopenGetReductionWorkspaceSize(handle.h, red, a.d, c.d, &ws));
    report("miopenGetReductionIndicesSize", miopenGetReductionIndicesSize(handle.h, red, a.d, c.d, &idx));
    std::printf("  reduction workspace=%zu indices=%zu\n", ws, idx);
    miopenDestroyReduceTensorDescriptor(red);
}

const std::vector<std::pair<std::string, std::function<void()>>>& probes()
{
    static const std::vector<std::pair<std::string, std::function<void()>>> all = {
        {"version", probe_version},
        {"error_strings", probe_error_strings},
        {"tensor_descriptors", probe_tensor_descriptors},
        {"null_arguments", probe_null_arguments},
        {"convolution_descriptors", probe_convolution_descriptors},
        {"other_descriptors", probe_other_descriptors},
        {"handle", probe_handle},
        {"convolution_queries", probe_convolution_queries},
        {"problem_api", probe_problem_api},
        {"fusion_plan", probe_fusion_plan},
        {"rnn", probe_rnn},
        {"handle_sizes", probe_handle_sizes},
    };
    return all;
}

void print_rss()
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if(f == nullptr)
        return;
    char line[256];
    while(std::fgets(line, sizeof line, f) != nullptr)
        if(std::strncmp(line, "VmHWM:", 6) == 0 || std::strncmp(line, "VmRSS:", 6) == 0)
            std::fprintf(stderr, "consumer: %s", line);
    std::fclose(f);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> wanted(argv + 1, argv + argc);
    if(wanted.size() == 1 && wanted[0] == "--list")
    {
        for(const auto& p : probes())
            std::printf("%s\n", p.first.c_str());
        return 0;
    }
    int ran = 0;
    for(const auto& p : probes())
    {
        bool selected = wanted.empty();
        for(const auto& w : wanted)
            selected = selected || w == p.first;
        if(!selected)
            continue;
        std::printf("[%s]\n", p.first.c_str());
        std::fflush(stdout);
        p.second();
        std::fflush(stdout);
        ++ran;
    }
    if(ran == 0)
    {
        std::fprintf(stderr, "consumer: no probe named by the arguments (see --list)\n");
        return 2;
    }
    std::printf("probes run: %d, failed required calls: %d\n", ran, g_failures);
    print_rss();
    return g_failures == 0 ? 0 : 1;
}
