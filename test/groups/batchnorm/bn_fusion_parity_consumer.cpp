// Argument parity of the batchnorm fusion plans (inference -> RELU, backward
// -> RELU backward) at the fusion-plan entry points the wrapper forwards them
// through (miopenCompileFusionPlan, miopenExecuteFusionPlan_v2,
// miopenExecuteFusionPlan): calls MIOpen rejects, each next to a valid twin,
// in the output format of test/consumers/parity_consumer.cpp, run by
// test/forwarding/check_parity.py (same status and the same bytes in every
// output with forwarding disabled and enabled; every `valid` case forwarded,
// every other left to MIOpen Private). The convolution plan's cases, and the
// null handle / null plan ones every plan shares, are fusion_parity_consumer's.
//
// Each case builds its plan (fp32 NCHW 2x3x4x4, spatial, RELU) after a
// `begin` marker of case `setup`, then runs the one call it is about after
// its own (consumer_util.hpp's ParityCase).
#include "consumer_util.hpp"
#include "fusion_parity.hpp"

#include <miopen/miopen.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using consumer::must;
using fusion_parity::fnv;

constexpr int N = 2, C = 3, H = 4, W = 4, ELEMS = N * C * H * W;

// The two plans' buffers: x (the inference's input, the backward's x), dy
// (the backward's input), out (y or dx), the per-channel parameters and the
// backward's parameter gradients.
struct Fixture
{
    miopenHandle_t h;
    consumer::Tensor x, p, other;
    std::vector<float> xb, dyb, out, scale, bias, mean, var, inv, dscale, dbias;
    std::vector<unsigned char> ws;
    std::size_t need = 0; // the case plan's workspace, asked before the case's marker
    Fixture()
        : x(consumer::packed_tensor(miopenFloat, {N, C, H, W})), p(consumer::packed_tensor(miopenFloat, {1, C, 1, 1})),
          other(consumer::packed_tensor(miopenFloat, {N, C, H + 1, W})), xb(ELEMS), dyb(ELEMS), out(ELEMS),
          scale(C, 1.5f), bias(C, 0.25f), mean(C, 0.125f), var(C, 2.0f), inv(C, 0.75f), dscale(C), dbias(C)
    {
        must(miopenCreate(&h), "create handle");
        std::uint32_t seed = 11;
        for(auto* v : {&xb, &dyb})
            for(auto& e : *v)
                e = consumer::next_eighth(seed);
        ws.resize(1 << 16);
    }
    void reset()
    {
        std::fill(out.begin(), out.end(), -3.0f);
        std::fill(dscale.begin(), dscale.end(), -3.0f);
        std::fill(dbias.begin(), dbias.end(), -3.0f);
    }
    std::uint64_t hash() const
    {
        const std::uint64_t h = fnv(out.data(), out.size() * sizeof(float));
        return fnv(dbias.data(), dbias.size() * sizeof(float), fnv(dscale.data(), dscale.size() * sizeof(float), h));
    }
};

struct Plan
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    miopenFusionOpDescriptor_t bn = nullptr, act = nullptr;
};

enum class Kind
{
    Inference,
    Backward
};

// The plan of `kind`, compiled or not, with its batchnorm operator's
// arguments set or not (the activation's always).
Plan build(Fixture& f, Kind kind, bool compile, bool bn_args = true)
{
    Plan p;
    must(miopenCreateFusionPlan(&p.plan, miopenVerticalFusion, f.x), "create plan");
    if(kind == Kind::Inference)
    {
        must(miopenCreateOpBatchNormInference(p.plan, &p.bn, miopenBNSpatial, f.p), "batchnorm op");
        must(miopenCreateOpActivationForward(p.plan, &p.act, miopenActivationRELU), "activation op");
    }
    else
    {
        must(miopenCreateOpBatchNormBackward(p.plan, &p.bn, miopenBNSpatial), "batchnorm op");
        must(miopenCreateOpActivationBackward(p.plan, &p.act, miopenActivationRELU), "activation op");
    }
    if(compile)
        must(miopenCompileFusionPlan(f.h, p.plan), "compile");
    const float one = 1, zero = 0;
    must(miopenCreateOperatorArgs(&p.args), "args");
    if(kind == Kind::Inference)
    {
        if(bn_args)
            must(miopenSetOpArgsBatchNormInference(p.args, p.bn, &one, &zero, f.scale.data(), f.bias.data(),
                                                   f.mean.data(), f.var.data(), 1e-5),
                 "batchnorm args");
        must(miopenSetOpArgsActivForward(p.args, p.act, &one, &zero, 0.0, 0.0, 0.0), "activation args");
    }
    else
    {
        if(bn_args)
            must(miopenSetOpArgsBatchNormBackward(p.args, p.bn, &one, &zero, f.xb.data(), f.scale.data(),
                                                  f.bias.data(), f.dscale.data(), f.dbias.data(), f.mean.data(),
                                                  f.inv.data()),
                 "batchnorm args");
        must(miopenSetOpArgsActivBackward(p.args, p.act, &one, &zero, nullptr, nullptr, 0.0, 0.0, 1.0),
             "activation args");
    }
    return p;
}

using Case = fusion_parity::Case<Fixture, Plan>;

// The plan's input buffer: x for inference, dy for backward.
const float* input_of(const Fixture& f, Kind kind) { return kind == Kind::Inference ? f.xb.data() : f.dyb.data(); }

int cases_of(Fixture& f, Kind kind)
{
    const char* dir = kind == Kind::Inference ? "bnfusion" : "bnfusionbwd";
    auto compiled   = [kind](Fixture& fx) { return build(fx, kind, true); };
    auto uncompiled = [kind](Fixture& fx) { return build(fx, kind, false); };
    auto no_bn_args = [kind](Fixture& fx) { return build(fx, kind, true, false); };
    int bad         = 0;

    bad += fusion_parity::run<Fixture, Plan>(f, dir, "Compile",
               {{"valid", uncompiled, [](Fixture& fx, Plan& p) { return miopenCompileFusionPlan(fx.h, p.plan); }}});

    // in / out: another descriptor in place of the plan's; null_*: that buffer null.
    auto v2 = [kind](miopenTensorDescriptor_t in, miopenTensorDescriptor_t out, bool null_input, bool null_ws) {
        return [=](Fixture& fx, Plan& p) {
            void* ws          = null_ws ? nullptr : fx.ws.data();
            const std::size_t size = null_ws ? fx.need + 1 : fx.need;
            return miopenExecuteFusionPlan_v2(fx.h, p.plan, in ? in : fx.x.get(),
                                              null_input ? nullptr : input_of(fx, kind), out ? out : fx.x.get(),
                                              fx.out.data(), p.args, ws, size);
        };
    };
    const miopenTensorDescriptor_t plan_desc = nullptr;
    bad += fusion_parity::run<Fixture, Plan>(f, dir, "ExecuteFusionPlan_v2",
               {
                   {"valid", compiled, v2(plan_desc, plan_desc, false, false)},
                   {"inputDesc of another shape", compiled, v2(f.other, plan_desc, false, false)},
                   {"outputDesc of another shape", compiled, v2(plan_desc, f.other, false, false)},
                   {"null workspace of a non-zero size", compiled, v2(plan_desc, plan_desc, false, true)},
                   {"plan not compiled", uncompiled, v2(plan_desc, plan_desc, false, false)},
                   {"no batchnorm arguments set", no_bn_args, v2(plan_desc, plan_desc, false, false)},
                   {"null input buffer", compiled, v2(plan_desc, plan_desc, true, false)},
                   {"null args", compiled,
                    [kind](Fixture& fx, Plan& p) {
                        return miopenExecuteFusionPlan_v2(fx.h, p.plan, fx.x, input_of(fx, kind), fx.x,
                                                          fx.out.data(), nullptr, fx.ws.data(), fx.need);
                    }},
               });

    auto v1 = [kind](bool null_output) {
        return [=](Fixture& fx, Plan& p) {
            return miopenExecuteFusionPlan(fx.h, p.plan, fx.x, input_of(fx, kind), fx.x,
                                           null_output ? nullptr : fx.out.data(), p.args);
        };
    };
    bad += fusion_parity::run<Fixture, Plan>(f, dir, "ExecuteFusionPlan",
               {
                   {"valid", compiled, v1(false)},
                   {"null output buffer", compiled, v1(true)},
                   {"plan not compiled", uncompiled, v1(false)},
                   {"no batchnorm arguments set", no_bn_args, v1(false)},
               });
    return bad;
}

} // namespace

int main()
{
    Fixture f;
    const int bad = cases_of(f, Kind::Inference) + cases_of(f, Kind::Backward);
    miopenDestroy(f.h);
    if(bad > 0)
        std::fprintf(stderr, "bn_fusion_parity_consumer: %d case(s) meant to be invalid succeeded\n", bad);
    return bad > 0 ? 1 : 0;
}
