// Fusion plans: results against separate calls, which operator sequences
// compile (MIOpen's fused solvers), and MIOpen's statuses and quirks of every
// plan entry point (test/mini-miopen/README.md, "Fusion plans").
#include "fusion_case.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

using mmt::kOne;
using mmt::kZero;

namespace {

struct Plan
{
    miopenFusionPlanDescriptor_t p = nullptr;
    explicit Plan(miopenTensorDescriptor_t input, miopenFusionDirection_t dir = miopenVerticalFusion)
    {
        EXPECT_EQ(miopenCreateFusionPlan(&p, dir, input), miopenStatusSuccess);
    }
    ~Plan() { EXPECT_EQ(miopenDestroyFusionPlan(p), miopenStatusSuccess); }
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;
    operator miopenFusionPlanDescriptor_t() const { return p; }
};

struct Args
{
    miopenOperatorArgs_t a = nullptr;
    Args() { EXPECT_EQ(miopenCreateOperatorArgs(&a), miopenStatusSuccess); }
    ~Args() { EXPECT_EQ(miopenDestroyOperatorArgs(a), miopenStatusSuccess); }
    Args(const Args&) = delete;
    Args& operator=(const Args&) = delete;
    operator miopenOperatorArgs_t() const { return a; }
};

struct Ops
{
    miopenFusionOpDescriptor_t conv = nullptr, bias = nullptr, bn = nullptr, act = nullptr;
};

// Adds the case's operators in the order of `seq`: c conv, b bias,
// n batchnorm inference, a activation of `mode`.
Ops AddOps(miopenFusionPlanDescriptor_t plan,
           mmt::FusionCase& c,
           const std::string& seq,
           miopenActivationMode_t mode)
{
    Ops ops;
    for(char k : seq)
    {
        miopenStatus_t s = miopenStatusUnknownError;
        switch(k)
        {
        case 'c': s = miopenCreateOpConvForward(plan, &ops.conv, c.conv, c.w); break;
        case 'b': s = miopenCreateOpBiasForward(plan, &ops.bias, c.b); break;
        case 'n': s = miopenCreateOpBatchNormInference(plan, &ops.bn, miopenBNSpatial, c.bn); break;
        case 'a': s = miopenCreateOpActivationForward(plan, &ops.act, mode); break;
        default: ADD_FAILURE() << "unknown operator " << k;
        }
        EXPECT_EQ(s, miopenStatusSuccess) << "operator " << k;
    }
    return ops;
}

template <class T>
void SetArgs(miopenOperatorArgs_t args,
             const Ops& ops,
             mmt::FusionCase& c,
             const std::vector<T>& w,
             const std::vector<T>& bias,
             double a,
             double b)
{
    if(ops.conv)
    {
        EXPECT_EQ(miopenSetOpArgsConvForward(args, ops.conv, &kOne, &kZero, w.data()),
                  miopenStatusSuccess);
    }
    if(ops.bias)
    {
        EXPECT_EQ(miopenSetOpArgsBiasForward(args, ops.bias, &kOne, &kZero, bias.data()),
                  miopenStatusSuccess);
    }
    if(ops.bn)
    {
        EXPECT_EQ(miopenSetOpArgsBatchNormInference(args, ops.bn, nullptr, nullptr, c.scale.data(),
                                                    c.shift.data(), c.mean.data(), c.var.data(),
                                                    1e-5),
                  miopenStatusSuccess);
    }
    if(ops.act)
    {
        EXPECT_EQ(miopenSetOpArgsActivForward(args, ops.act, &kOne, &kZero, a, b, 0.0),
                  miopenStatusSuccess);
    }
}

// The case through a plan of `seq`, executed with miopenExecuteFusionPlan or
// (v2) miopenExecuteFusionPlan_v2 with a workspace.
template <class T>
std::vector<T> RunFused(miopenHandle_t h,
                        mmt::FusionCase& c,
                        const std::vector<T>& x,
                        const std::vector<T>& w,
                        const std::vector<T>& bias,
                        const std::string& seq,
                        miopenActivationMode_t mode,
                        double a,
                        double b,
                        bool v2)
{
    std::vector<T> y(c.OutSize());
    Plan plan(c.x);
    const auto ops = AddOps(plan, c, seq, mode);
    EXPECT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess) << seq;
    Args args;
    SetArgs(args, ops, c, w, bias, a, b);
    std::vector<char> ws(64);
    const auto status =
        v2 ? miopenExecuteFusionPlan_v2(
                 h, plan, c.x, x.data(), c.y, y.data(), args, ws.data(), ws.size())
           : miopenExecuteFusionPlan(h, plan, c.x, x.data(), c.y, y.data(), args);
    EXPECT_EQ(status, miopenStatusSuccess) << seq;
    return y;
}

const mmt::ConvShape k3x3{1, 2, 4, 4, 3, 3, 3, 1, 1};
const mmt::ConvShape k3x3Stride2{2, 3, 9, 9, 4, 3, 3, 1, 2};

} // namespace

TEST(FusionPlan, ConvBiasActivationEqualsSeparateCallsFp32)
{
    mmt::Handle h;
    for(const auto& shape : {k3x3, k3x3Stride2})
    {
        mmt::FusionCase c(miopenFloat, shape);
        for(const auto& k : mmt::kFusedActivations)
        {
            mmt::Activ act(k.mode, k.alpha, k.beta);
            const auto separate = mmt::RunSeparate(h, c, c.xf, c.wf, &c.bf, false, act);
            for(bool v2 : {false, true})
                EXPECT_EQ(RunFused(h, c, c.xf, c.wf, c.bf, "cba", k.mode, k.alpha, k.beta, v2),
                          separate)
                    << "mode " << k.mode << (v2 ? " (v2)" : "");
        }
    }
}

// A 1x1 convolution fuses in fp16 too (MIOpen's ConvBiasActivAsm1x1U).
TEST(FusionPlan, Conv1x1BiasReluFp16EqualsSeparateCalls)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenHalf, {2, 4, 3, 3, 6, 1, 1, 0, 1});
    mmt::Activ act(miopenActivationRELU);
    const auto x = c.Enc(c.xf), w = c.Enc(c.wf), b = c.Enc(c.bf);
    const auto separate = mmt::RunSeparate(h, c, x, w, &b, false, act);
    EXPECT_EQ(RunFused(h, c, x, w, b, "cba", miopenActivationRELU, 0, 0, false), separate);
}

TEST(FusionPlan, ConvBatchNormActivationEqualsSeparateCalls)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3Stride2);
    mmt::Activ act(miopenActivationRELU);
    const auto with_bias = mmt::RunSeparate(h, c, c.xf, c.wf, &c.bf, true, act);
    EXPECT_EQ(RunFused(h, c, c.xf, c.wf, c.bf, "cbna", miopenActivationRELU, 0, 0, true), with_bias);
    const auto without = mmt::RunSeparate<float>(h, c, c.xf, c.wf, nullptr, true, act);
    EXPECT_EQ(RunFused(h, c, c.xf, c.wf, c.bf, "cna", miopenActivationRELU, 0, 0, false), without);
    EXPECT_NE(with_bias, without);
}

// MIOpen's BnFwdInferActivationFused: batchnorm inference -> activation.
TEST(FusionPlan, BatchNormActivationEqualsSeparateCalls)
{
    mmt::Handle h;
    for(auto type : {miopenFloat, miopenHalf})
    {
        mmt::Tensor x(type, {2, 3, 4, 4}), bn(miopenFloat, {1, 3, 1, 1});
        const std::vector<float> scale{0.5f, 1.0f, 2.0f}, shift{1, -1, 0.25f}, mean{-1, 0, 2},
            var{1, 4, 0.25f};
        std::vector<float> xf(96);
        for(int i = 0; i < 96; ++i)
            xf[i] = static_cast<float>((i * 7) % 13) - 6.0f;
        std::vector<std::uint16_t> xh;
        for(float f : xf)
            xh.push_back(mmt::to_half(f));
        const void* xin = type == miopenFloat ? static_cast<const void*>(xf.data()) : xh.data();
        const std::size_t bytes = type == miopenFloat ? 4 : 2;

        mmt::Activ act(miopenActivationCLIPPEDRELU, 1.5);
        std::vector<char> t(96 * bytes), separate(96 * bytes), fused(96 * bytes);
        ASSERT_EQ(miopenBatchNormalizationForwardInference(
                      h, miopenBNSpatial, const_cast<float*>(&kOne), const_cast<float*>(&kZero), x,
                      xin, x, t.data(), bn, const_cast<float*>(scale.data()),
                      const_cast<float*>(shift.data()), const_cast<float*>(mean.data()),
                      const_cast<float*>(var.data()), 1e-3),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenActivationForward(h, act, &kOne, x, t.data(), &kZero, x, separate.data()),
                  miopenStatusSuccess);

        Plan plan(x);
        miopenFusionOpDescriptor_t bn_op, act_op;
        ASSERT_EQ(miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNSpatial, bn),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenCreateOpActivationForward(plan, &act_op, miopenActivationCLIPPEDRELU),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
        Args args;
        ASSERT_EQ(miopenSetOpArgsBatchNormInference(args, bn_op, &kOne, &kZero, scale.data(),
                                                    shift.data(), mean.data(), var.data(), 1e-3),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenSetOpArgsActivForward(args, act_op, nullptr, nullptr, 1.5, 0, 0),
                  miopenStatusSuccess);
        ASSERT_EQ(miopenExecuteFusionPlan(h, plan, x, xin, x, fused.data(), args),
                  miopenStatusSuccess);
        EXPECT_EQ(fused, separate) << "type " << type;
    }
}

// The fused kernels take no alpha/beta: a convolution's are stored, not applied,
// and the output is overwritten whatever it held.
TEST(FusionPlan, ScalingArgumentsAreNotApplied)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3);
    mmt::Activ act(miopenActivationRELU);
    const auto expected = mmt::RunSeparate(h, c, c.xf, c.wf, &c.bf, false, act);

    Plan plan(c.x);
    const auto ops = AddOps(plan, c, "cba", miopenActivationRELU);
    ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
    Args args;
    const float two = 2.0f;
    ASSERT_EQ(miopenSetOpArgsConvForward(args, ops.conv, &two, &kOne, c.wf.data()),
              miopenStatusSuccess);
    ASSERT_EQ(miopenSetOpArgsBiasForward(args, ops.bias, &two, &two, c.bf.data()),
              miopenStatusSuccess);
    ASSERT_EQ(miopenSetOpArgsActivForward(args, ops.act, &two, &two, 0, 0, 0), miopenStatusSuccess);
    std::vector<float> y(c.OutSize(), 100.0f);
    ASSERT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusSuccess);
    EXPECT_EQ(y, expected);
    // Null scaling pointers are accepted.
    ASSERT_EQ(miopenSetOpArgsConvForward(args, ops.conv, nullptr, nullptr, c.wf.data()),
              miopenStatusSuccess);
    ASSERT_EQ(miopenExecuteFusionPlan(h, plan, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusSuccess);
    EXPECT_EQ(y, expected);
}

// MIOpen stores arguments by operator position: one pack serves another plan
// with its operators in the same places, and arguments set for another kind
// of operator at a position fail its dynamic_cast (unknown error).
TEST(FusionPlan, ArgumentsAreKeptPerOperatorIndex)
{
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3);
    mmt::Activ act(miopenActivationRELU);
    const auto expected = mmt::RunSeparate(h, c, c.xf, c.wf, &c.bf, false, act);

    Plan first(c.x), second(c.x);
    const auto ops = AddOps(first, c, "cba", miopenActivationRELU);
    AddOps(second, c, "cba", miopenActivationRELU);
    ASSERT_EQ(miopenCompileFusionPlan(h, second), miopenStatusSuccess);
    Args args;
    SetArgs(args, ops, c, c.wf, c.bf, 0, 0);
    std::vector<float> y(c.OutSize());
    ASSERT_EQ(miopenExecuteFusionPlan(h, second, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusSuccess);
    EXPECT_EQ(y, expected);

    Plan conv_act(c.x);
    AddOps(conv_act, c, "ca", miopenActivationRELU);
    ASSERT_EQ(miopenCompileFusionPlan(h, conv_act), miopenStatusSuccess);
    // Position 1 holds bias arguments.
    EXPECT_EQ(miopenExecuteFusionPlan(h, conv_act, c.x, c.xf.data(), c.y, y.data(), args),
              miopenStatusUnknownError);
}

namespace {

struct ConvSpec
{
    miopenDataType_t type = miopenFloat;
    int c = 4, k = 4, r = 3, s = 3, pad = 1, stride = 1, dilation = 1, groups = 1;
    bool nhwc    = false;
    bool three_d = false;
};

// Compile status of a plan over a 12x12 input (4x4x4 when three_d) with the
// operators of `seq` (see AddOps).
miopenStatus_t CompileStatus(const ConvSpec& spec, const std::string& seq)
{
    mmt::Handle h;
    mmt::Tensor x, w, b(spec.type, {1, spec.k, 1, 1}), bn(miopenFloat, {1, spec.k, 1, 1});
    miopenConvolutionDescriptor_t conv;
    EXPECT_EQ(miopenCreateConvolutionDescriptor(&conv), miopenStatusSuccess);
    const int nd = spec.three_d ? 3 : 2;
    const std::vector<int> pads(nd, spec.pad), strides(nd, spec.stride), dils(nd, spec.dilation);
    EXPECT_EQ(miopenInitConvolutionNdDescriptor(conv, nd, pads.data(), strides.data(), dils.data(),
                                                miopenConvolution),
              miopenStatusSuccess);
    EXPECT_EQ(miopenSetConvolutionGroupCount(conv, spec.groups), miopenStatusSuccess);
    std::vector<int> xl{1, spec.c}, wl{spec.k, spec.c / spec.groups};
    for(int i = 0; i < nd; ++i)
    {
        xl.push_back(spec.three_d ? 4 : 12);
        wl.push_back(i == nd - 1 ? spec.s : spec.r);
    }
    const auto layout = spec.nhwc      ? miopenTensorNHWC
                        : spec.three_d ? miopenTensorNCDHW
                                       : miopenTensorNCHW;
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(x, spec.type, layout, xl.data(), nd + 2),
              miopenStatusSuccess);
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(w, spec.type, layout, wl.data(), nd + 2),
              miopenStatusSuccess);

    Plan plan(x);
    miopenFusionOpDescriptor_t op;
    for(char kind : seq)
    {
        miopenStatus_t s = miopenStatusUnknownError;
        if(kind == 'c')
            s = miopenCreateOpConvForward(plan, &op, conv, w);
        else if(kind == 'b')
            s = miopenCreateOpBiasForward(plan, &op, b);
        else if(kind == 'n')
            s = miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, bn);
        else
            s = miopenCreateOpActivationForward(plan, &op, miopenActivationRELU);
        EXPECT_EQ(s, miopenStatusSuccess) << seq;
    }
    const auto status = miopenCompileFusionPlan(h, plan);
    miopenDestroyConvolutionDescriptor(conv);
    return status;
}

} // namespace

TEST(FusionPlan, CompileTakesTheSequencesOfMIOpensFusedSolvers)
{
    const ConvSpec k3;
    // ConvOclDirectFwdFused: conv, then [bias|bn|activ], [activ|bn], [activ].
    for(const char* seq : {"c", "ca", "cb", "cba", "cn", "cna", "cbn", "cbna", "can"})
        EXPECT_EQ(CompileStatus(k3, seq), miopenStatusSuccess) << seq;
    for(const char* seq : {"cab", "ac", "ba", "cbab", "cbbn", "cbnaa"})
        EXPECT_EQ(CompileStatus(k3, seq), miopenStatusUnsupportedOp) << seq;
    // BnFwdInferActivationFused: exactly batchnorm, activation (over the input).
    ConvSpec bn_input;
    bn_input.k = 4; // the batchnorm tensor has the input's 4 channels
    EXPECT_EQ(CompileStatus(bn_input, "na"), miopenStatusSuccess);
    for(const char* seq : {"n", "a", "b", "naa", "nac"})
        EXPECT_EQ(CompileStatus(bn_input, seq), miopenStatusUnsupportedOp) << seq;
    // An empty plan makes every fused solver's applicability check throw.
    EXPECT_EQ(CompileStatus(k3, ""), miopenStatusUnknownError);
}

// MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED off: BnFwdInferActivationFused does
// not apply (its IsApplicable, after the empty plan), so nothing compiles a
// batchnorm inference -> activation plan; MIOpen's boolean spellings. An
// unknown one throws InvalidValue, which the compile logs and answers with
// its own UnknownError (miopenCompileFusionPlan keeps its status).
TEST(FusionPlan, TheFusedBatchNormInferenceSwitchTurnsItsSolverOff)
{
    ConvSpec bn_input;
    bn_input.k = 4;
    const char* name = "MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED";
    for(const char* v : {"0", "off", "Disabled", "FALSE", "no"})
    {
        mmt::ScopedEnv off(name, v);
        EXPECT_EQ(CompileStatus(bn_input, "na"), miopenStatusUnsupportedOp) << v;
        EXPECT_EQ(CompileStatus(ConvSpec{}, "ca"), miopenStatusSuccess) << v << ": another solver's plan";
    }
    for(const char* v : {"1", "on", "Enabled", "true", "yes"})
    {
        mmt::ScopedEnv on(name, v);
        EXPECT_EQ(CompileStatus(bn_input, "na"), miopenStatusSuccess) << v;
    }
    mmt::ScopedEnv bogus(name, "maybe");
    EXPECT_EQ(CompileStatus(bn_input, "na"), miopenStatusUnknownError);
    // A convolution plan whose find-db record (the loop above) names its own
    // solver asks no other: it compiles, as in MIOpen.
    EXPECT_EQ(CompileStatus(ConvSpec{}, "ca"), miopenStatusSuccess);
}

TEST(FusionPlan, CompileAppliesTheConvolutionLimitsOfTheFusedSolvers)
{
    auto with = [](auto change) {
        ConvSpec s;
        change(s);
        return CompileStatus(s, "cba");
    };
    // Direct (ConvOclDirectFwdFused): fp32, square 3/5/7/9/11 or 5x10/5x20 at
    // stride 2 without padding, stride <= 2, no dilation, NCHW, 2-D; grouped
    // convolutions skip the filter rule.
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 7, s.pad = 3, s.stride = 2; }),
              miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = 5, s.s = 10, s.pad = 0, s.stride = 2; }),
              miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.groups = 2, s.r = s.s = 4; }), miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.groups = 2, s.r = s.s = 1, s.pad = 0; }),
              miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 4; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.stride = 3; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.dilation = 2, s.pad = 2; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.type = miopenHalf; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.type = miopenBFloat16; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.nhwc = true; }), miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.three_d = true; }), miopenStatusUnsupportedOp);
    // 1x1 (ConvBiasActivAsm1x1U): stride 1, no padding, fp32 or fp16 (even
    // channel counts, at least 4 outputs); not with a batchnorm.
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 1, s.pad = 0; }), miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 1, s.pad = 0, s.type = miopenHalf; }),
              miopenStatusSuccess);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 1, s.pad = 0, s.type = miopenHalf, s.c = 3; }),
              miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 1, s.pad = 0, s.stride = 2; }),
              miopenStatusUnsupportedOp);
    EXPECT_EQ(with([](ConvSpec& s) { s.r = s.s = 1; }), miopenStatusUnsupportedOp);
    ConvSpec one;
    one.r = one.s = 1;
    one.pad       = 0;
    EXPECT_EQ(CompileStatus(one, "cna"), miopenStatusUnsupportedOp);
}

// --- MIOPEN_ENABLE_LOGGING_CMD: the MIOpenDriver line of an execution ---------
namespace {

// Compiles a plan of `seq` on `input` and executes it once with output
// descriptor `out`; "" when the execution's status is `expect`. The data's
// values do not matter to the line: one buffer large enough for every case.
std::string ExecuteOnce(mmt::FusionCase& c,
                        miopenTensorDescriptor_t input,
                        const std::string& seq,
                        miopenTensorDescriptor_t out,
                        miopenStatus_t expect)
{
    mmt::Handle h;
    Plan plan(input);
    const auto ops = AddOps(plan, c, seq, miopenActivationRELU);
    if(miopenCompileFusionPlan(h, plan) != miopenStatusSuccess)
        return "the plan " + seq + " did not compile";
    Args args;
    const std::vector<float> data(4096, 0.5f);
    SetArgs(args, ops, c, data, data, 0.0, 0.0);
    std::vector<float> y(4096);
    const auto s = miopenExecuteFusionPlan(h, plan, input, data.data(), out, y.data(), args);
    return s == expect ? "" : "execute returned " + std::to_string(s);
}

const std::string kCommand = "MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver ";

auto Contains(const std::string& want)
{
    return [want](const std::string& err) {
        return err.find(want) != std::string::npos ? std::string() : "missing: " + want;
    };
}

} // namespace

// Worked by hand from MIOpen's LogCmdFusion: conv -> bias -> activation is
// fusion mode 4, MIOpenDriver's CBAInfer, with the convolution's shape as in
// a convolution's line less its driver name, -m, -F and -t.
TEST(FusionPlanLogging, ConvBiasActivationIsCBAInferMode4)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    const auto calls = [&] { return ExecuteOnce(c, c.x, "cba", c.y, miopenStatusSuccess); };
    mmt::ExpectStderrInFreshProcess(
        "MIOPEN_ENABLE_LOGGING_CMD", "1", calls,
        Contains(kCommand + "CBAInfer -J 4 -n 1 -c 2 -H 4 -W 4 -k 3 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 "
                            "-l 1 -j 1 -g 1\n"));
}

// conv -> activation is mode 5, CAInfer; the input's type is a suffix.
TEST(FusionPlanLogging, ConvActivationFp16IsCAInferfp16Mode5)
{
    mmt::FusionCase c(miopenHalf, {1, 2, 4, 4, 4, 1, 1, 0, 1});
    const auto calls = [&] { return ExecuteOnce(c, c.x, "ca", c.y, miopenStatusSuccess); };
    mmt::ExpectStderrInFreshProcess(
        "MIOPEN_ENABLE_LOGGING_CMD", "1", calls,
        Contains(kCommand + "CAInferfp16 -J 5 -n 1 -c 2 -H 4 -W 4 -k 4 -y 1 -x 1 -p 0 -q 0 -u 1 "
                            "-v 1 -l 1 -j 1 -g 1\n"));
}

// batchnorm -> activation is mode 2: a batchnorm shape, and MIOpen calls a
// bf16 plan "CBAInferfp16" (it tests for bf16 alone).
TEST(FusionPlanLogging, BatchNormActivationBf16IsMode2)
{
    mmt::FusionCase c(miopenBFloat16, k3x3);
    const auto calls = [&] { return ExecuteOnce(c, c.y, "na", c.y, miopenStatusSuccess); };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", "1", calls,
                                    Contains(kCommand + "CBAInferfp16 -J 2 -n 1 -c 3 -H 4 -W 4 -m 1 -I 0\n"));
}

// conv -> batchnorm -> activation (mode 1) has no MIOpenDriver sub-command:
// MIOpen logs an error and a line without one.
TEST(FusionPlanLogging, ConvBatchNormActivationLogsAnErrorAndNoSubCommand)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    const auto calls = [&] { return ExecuteOnce(c, c.x, "cna", c.y, miopenStatusSuccess); };
    const auto check = [&](const std::string& err) {
        const auto e = Contains("Error [LogCmdConvolutionFusion] Unknown fusion plan : 1\n")(err);
        return e.empty() ? Contains(kCommand + " -J 1 -n 1 -c 2 -H 4 -W 4 -k 3 ")(err) : e;
    };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", "1", calls, check);
}

// The line comes before the execution's checks: a mismatched output
// descriptor fails the call (BadParm) after the line was written.
TEST(FusionPlanLogging, AFailedExecutionHasItsLineToo)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    const auto calls = [&] { return ExecuteOnce(c, c.x, "cba", c.x, miopenStatusBadParm); };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", "1", calls,
                                    Contains(kCommand + "CBAInfer -J 4 "));
}

// Without the variable there is no line.
TEST(FusionPlanLogging, NoLineWithoutTheVariable)
{
    mmt::FusionCase c(miopenFloat, k3x3);
    const auto calls = [&] { return ExecuteOnce(c, c.x, "cba", c.y, miopenStatusSuccess); };
    const auto check = [](const std::string& err) {
        return err.find("MIOpenDriver") == std::string::npos ? std::string() : "a line was written";
    };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", nullptr, calls, check);
}

// MIOpen's compile records the fused solver it took in the user find-db
// (algorithm "fusion") and takes it from there next time.
TEST(FusionPlan, CompileRecordsItsSolverInTheUserFindDb)
{
    const auto dir = mmt::MakeTempDir("fusion-db");
    mmt::ScopedEnv db("MIOPEN_USER_DB_PATH", dir.c_str());
    const auto file = dir + "/cpu_ref.HIP.ufdb.txt";
    mmt::Handle h;
    mmt::FusionCase c(miopenFloat, k3x3);
    for(int compile = 0; compile < 2; ++compile)
    {
        Plan plan(c.x);
        AddOps(plan, c, "cba", miopenActivationRELU);
        ASSERT_EQ(miopenCompileFusionPlan(h, plan), miopenStatusSuccess);
        std::ifstream in(file);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text.find("fusion-cba-2-4x4-3-3x3-"), 0u) << text;
        EXPECT_NE(text.find("=ConvOclDirectFwdFused:0,0,12"), std::string::npos) << text;
        EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << "one record, kept: " << text;
    }
}
