// Applicability of the fused solvers, after MIOpen's IsApplicable of each
// (ConvBiasActivAsm1x1U, ConvOclDirectFwdFused, BnFwdInferActivationFused,
// BnBwdTrgActivationFused)
// and of the plain convolution solvers they build on (ConvAsm1x1U,
// ConvOclDirectFwd). Checks MIOpen makes about the device (gfx9, xnack, code
// object version) hold for the target the test bed stands for.
#include <miopen/env.hpp>
#include <miopen/fusion.hpp>
#include <miopen/fusion_solvers.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>

namespace miopen {

namespace {

bool KindIn(const FusionOpDescriptor& op, std::initializer_list<FusionOpKind> kinds)
{
    return std::find(kinds.begin(), kinds.end(), op.kind) != kinds.end();
}

// The operator sequence a solver takes: at most allowed.size() operators, the
// i-th one of the kinds allowed[i].
bool SequenceIs(const FusionPlanDescriptor& plan,
                std::initializer_list<std::initializer_list<FusionOpKind>> allowed)
{
    if(plan.ops.size() > allowed.size())
        return false;
    auto slot = allowed.begin();
    for(const auto& op : plan.ops)
        if(!KindIn(*op, *slot++))
            return false;
    return true;
}

// The plan's leading convolution as a 2-D, packed, NCHW problem, the shape
// both direct fused solvers require.
struct Conv2d
{
    std::int64_t n, c, h, w, k, r, s, out_h, out_w;
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    miopenDataType_t type;
};

bool LeadingConv2d(const FusionPlanDescriptor& plan, Conv2d& out)
{
    if(plan.ops.empty())
        return false;
    const auto& op = *plan.ops.front();
    if(op.conv.GetSpatialDim() != 2 || op.input.GetNumDims() != 4 || op.tensor.GetNumDims() != 4)
        return false;
    TensorDescriptor y;
    if(op.GetOutputDesc(y) != miopenStatusSuccess)
        return false;
    for(const auto& t : {op.input, op.tensor, y})
        if(!t.IsPacked() || t.GetLayoutName() != "NCHW")
            return false;
    const auto &xl = op.input.GetLengths(), &wl = op.tensor.GetLengths(), &yl = y.GetLengths();
    const auto &p = op.conv.GetPads(), &st = op.conv.GetStrides(), &d = op.conv.GetDilations();
    auto i64 = [](std::size_t v) { return static_cast<std::int64_t>(v); };
    out = {i64(xl[0]), i64(xl[1]), i64(xl[2]), i64(xl[3]), i64(wl[0]), i64(wl[2]), i64(wl[3]),
           i64(yl[2]), i64(yl[3]), p[0], p[1], st[0], st[1], d[0], d[1], op.conv.GetGroupCount(),
           op.input.GetType()};
    return true;
}

// ConvAsm1x1U's limits, for the forward direction.
bool Asm1x1UConvApplicable(const Conv2d& p)
{
    if(p.type != miopenFloat && p.type != miopenHalf)
        return false;
    const std::int64_t per_dword = p.type == miopenHalf ? 2 : 1;
    const bool shape_ok = p.pad_h == 0 && p.pad_w == 0 && p.stride_h == 1 && p.stride_w == 1 &&
                          p.dil_h == 1 && p.dil_w == 1 && p.r == 1 && p.s == 1 && p.groups == 1 &&
                          p.c % per_dword == 0 && p.k % per_dword == 0 &&
                          p.out_h * p.out_w >= per_dword && (per_dword == 1 || p.k >= 4);
    if(!shape_ok)
        return false;
    constexpr std::int64_t two16 = 1LL << 16, two24 = 1LL << 24, two29 = 1LL << 29;
    const std::int64_t hw = p.h * p.w;
    return 4 * hw * p.c < two24 && 4 * p.out_h * p.out_w * p.k < two24 && p.n < two16 &&
           p.c < two16 && p.k < two16 && p.c * hw < two24 && p.k * hw < two24 &&
           p.n * p.c * hw < two29 && p.n * p.k * hw < two29 && p.c * p.k < two29;
}

// ConvOclDirectFwd's filter, stride and padding rules (the fused variant adds fp32 only).
bool OclDirectConvApplicable(const Conv2d& p)
{
    if(p.type != miopenFloat)
        return false;
    if(p.groups == 1)
    {
        const bool square_odd =
            p.r == p.s && (p.r == 3 || p.r == 5 || p.r == 7 || p.r == 9 || p.r == 11);
        const bool wide_5 = (p.s == 10 || p.s == 20) && p.r == 5 && p.stride_h == 2 &&
                            p.stride_w == 2 && p.pad_h == 0 && p.pad_w == 0;
        if(!square_odd && !wide_5)
            return false;
    }
    return p.stride_w == p.stride_h && p.pad_w == p.pad_h && p.dil_w == 1 && p.dil_h == 1 &&
           p.stride_w <= 2 && !(p.groups == 1 && p.r == 1 && p.s == 1);
}

using K = FusionOpKind;

bool ConvBiasActivAsm1x1UApplicable(const FusionPlanDescriptor& plan)
{
    Conv2d conv{};
    return SequenceIs(plan,
                      {{K::ConvForward}, {K::BiasForward, K::ActivForward}, {K::ActivForward}}) &&
           LeadingConv2d(plan, conv) && Asm1x1UConvApplicable(conv);
}

bool ConvOclDirectFwdFusedApplicable(const FusionPlanDescriptor& plan)
{
    Conv2d conv{};
    return SequenceIs(plan,
                      {{K::ConvForward},
                       {K::BatchNormInference, K::BiasForward, K::ActivForward},
                       {K::ActivForward, K::BatchNormInference},
                       {K::ActivForward}}) &&
           LeadingConv2d(plan, conv) && OclDirectConvApplicable(conv);
}

// MIOpen's switch comes first, after the empty plan (which Compile refuses).
bool BnFwdInferActivationFusedApplicable(const FusionPlanDescriptor& plan)
{
    if(env::disabled("MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED"))
        return false;
    return plan.ops.size() == 2 && SequenceIs(plan, {{K::BatchNormInference}, {K::ActivForward}});
}

// MIOpen's BnFwdTrgActivationFused (batchnorm training -> activation): the
// test bed creates no training operator, so only its switch is read, first,
// as MIOpen reads it (src/solver/batchnorm/forward_per_activation_fused.cpp
// @ 2d1fd997): a refused spelling fails every plan's compile.
bool BnFwdTrgActivationFusedApplicable(const FusionPlanDescriptor&)
{
    (void)env::disabled("MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED");
    return false;
}

// MIOpen's BnBwdTrgActivationFused: exactly batchnorm backward -> activation backward.
bool BnBwdTrgActivationFusedApplicable(const FusionPlanDescriptor& plan)
{
    if(env::disabled("MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED"))
        return false;
    return plan.ops.size() == 2 && SequenceIs(plan, {{K::BatchNormBwdTrain}, {K::ActivBackward}});
}

} // namespace

const std::vector<FusedSolver>& GetFusedSolvers()
{
    static const std::vector<FusedSolver> solvers = {
        {132, "BnFwdInferActivationFused", BnFwdInferActivationFusedApplicable},
        {133, "BnFwdTrgActivationFused", BnFwdTrgActivationFusedApplicable},
        {134, "BnBwdTrgActivationFused", BnBwdTrgActivationFusedApplicable},
        {4, "ConvBiasActivAsm1x1U", ConvBiasActivAsm1x1UApplicable},
        {12, "ConvOclDirectFwdFused", ConvOclDirectFwdFusedApplicable},
    };
    return solvers;
}

const FusedSolver* FindFusedSolver(std::uint64_t id)
{
    for(const auto& s : GetFusedSolvers())
        if(s.id == id)
            return &s;
    return nullptr;
}

} // namespace miopen
