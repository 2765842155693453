// Argument parity of the fusion-plan entry points of the forwarding set
// (miopenCompileFusionPlan, miopenFusionPlanGetWorkSpaceSize,
// miopenExecuteFusionPlan, miopenExecuteFusionPlan_v2): calls MIOpen
// rejects, each next to a valid twin, in the output format of
// parity_consumer.cpp, run by test/forwarding/check_parity.py (same status
// and the same bytes in every output with forwarding disabled and enabled;
// every `valid` case forwarded, every other left to MIOpen Private).
//
// Each case builds its plan (conv 3x3 -> bias -> ReLU, fp32 NCHW: one MIOpen
// has a fused kernel for) after a `begin` marker of case `setup`, then runs
// the one call it is about after its own (consumer_util.hpp's ParityCase).
#include "consumer_util.hpp"
#include "fusion_parity.hpp"

#include <miopen/miopen.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using consumer::must;
using fusion_parity::fnv;

constexpr int N = 2, C = 4, H = 6, W = 6, K = 4;

struct Fixture
{
    miopenHandle_t h;
    consumer::Tensor x, w, y, b, other;
    consumer::ConvDescriptor c;
    std::vector<float> xb, wb, bb, yb;
    std::vector<unsigned char> ws;
    std::size_t out_size = 0;
    std::size_t need     = 0; // the case plan's workspace, asked before the case's marker
    Fixture()
        : x(consumer::packed_tensor(miopenFloat, {N, C, H, W})),
          w(consumer::packed_tensor(miopenFloat, {K, C, 3, 3})),
          y(consumer::packed_tensor(miopenFloat, {N, K, H, W})),
          b(consumer::packed_tensor(miopenFloat, {1, K, 1, 1})),
          other(consumer::packed_tensor(miopenFloat, {N, C, H + 1, W})),
          xb(N * C * H * W), wb(K * C * 9), bb(K), yb(N * K * H * W)
    {
        must(miopenCreate(&h), "create handle");
        must(miopenCreateConvolutionDescriptor(c.out()), "create conv");
        must(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1), "init conv");
        std::uint32_t seed = 5;
        for(auto* v : {&xb, &wb, &bb})
            for(auto& e : *v)
                e = consumer::next_eighth(seed);
        ws.resize(1 << 16);
    }
    void reset()
    {
        std::fill(yb.begin(), yb.end(), -3.0f);
        out_size = 0xA5A5;
    }
    std::uint64_t hash() const
    {
        return fnv(&out_size, sizeof out_size, fnv(yb.data(), yb.size() * sizeof(float)));
    }
};

// One case's plan and arguments.
struct Plan
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    miopenFusionOpDescriptor_t conv = nullptr, bias = nullptr, act = nullptr;
};

using Case = fusion_parity::Case<Fixture, Plan>;

Plan build(Fixture& f, bool compile, bool bias_args = true)
{
    Plan p;
    must(miopenCreateFusionPlan(&p.plan, miopenVerticalFusion, f.x), "create plan");
    must(miopenCreateOpConvForward(p.plan, &p.conv, f.c, f.w), "conv op");
    must(miopenCreateOpBiasForward(p.plan, &p.bias, f.b), "bias op");
    must(miopenCreateOpActivationForward(p.plan, &p.act, miopenActivationRELU), "activation op");
    if(compile)
        must(miopenCompileFusionPlan(f.h, p.plan), "compile");
    const float one = 1, zero = 0;
    must(miopenCreateOperatorArgs(&p.args), "args");
    must(miopenSetOpArgsConvForward(p.args, p.conv, &one, &zero, f.wb.data()), "conv args");
    if(bias_args)
        must(miopenSetOpArgsBiasForward(p.args, p.bias, &one, &zero, f.bb.data()), "bias args");
    must(miopenSetOpArgsActivForward(p.args, p.act, &one, &zero, 0.0, 0.0, 0.0), "activation args");
    return p;
}

} // namespace

int main()
{
    Fixture f;
    auto compiled   = [](Fixture& fx) { return build(fx, true); };
    auto uncompiled = [](Fixture& fx) { return build(fx, false); };
    int bad         = 0;

    bad += fusion_parity::run<Fixture, Plan>(f, "fusion", "Compile",
               {
                   {"valid", uncompiled, [](Fixture& fx, Plan& p) { return miopenCompileFusionPlan(fx.h, p.plan); }},
                   {"null handle", uncompiled,
                    [](Fixture&, Plan& p) { return miopenCompileFusionPlan(nullptr, p.plan); }},
                   {"null plan", uncompiled, [](Fixture& fx, Plan&) { return miopenCompileFusionPlan(fx.h, nullptr); }},
                   {"a plan without operators",
                    [](Fixture& fx) {
                        Plan p;
                        must(miopenCreateFusionPlan(&p.plan, miopenVerticalFusion, fx.x), "create plan");
                        must(miopenCreateOperatorArgs(&p.args), "args");
                        return p;
                    },
                    [](Fixture& fx, Plan& p) { return miopenCompileFusionPlan(fx.h, p.plan); }},
               });

    auto size_of = [](miopenHandle_t h, miopenFusionPlanDescriptor_t plan, std::size_t* out) {
        return miopenFusionPlanGetWorkSpaceSize(h, plan, out, miopenConvolutionFwdAlgoDirect);
    };
    bad += fusion_parity::run<Fixture, Plan>(f, "fusion", "GetWorkSpaceSize",
               {
                   {"valid", compiled, [=](Fixture& fx, Plan& p) { return size_of(fx.h, p.plan, &fx.out_size); }},
                   {"declined: null out (MIOpen reports success: its own status is set before the write)", compiled,
                    [=](Fixture& fx, Plan& p) { return size_of(fx.h, p.plan, nullptr); }},
                   {"null handle", compiled,
                    [=](Fixture& fx, Plan& p) { return size_of(nullptr, p.plan, &fx.out_size); }},
                   {"null plan", compiled, [=](Fixture& fx, Plan&) { return size_of(fx.h, nullptr, &fx.out_size); }},
               });

    // The workspace the plan reports (with forwarding enabled, the hipDNN plan's).
    auto v2 = [](miopenTensorDescriptor_t in, const void* x, miopenTensorDescriptor_t out, void* y, bool short_ws,
                  bool null_ws) {
        return [=](Fixture& fx, Plan& p) {
            const std::size_t need = fx.need;
            std::size_t size = short_ws && need > 0 ? need - 1 : need;
            void* ws         = null_ws ? nullptr : fx.ws.data();
            if(null_ws)
                size = need + 1;
            return miopenExecuteFusionPlan_v2(fx.h, p.plan, in ? in : fx.x.get(), x ? x : fx.xb.data(), out ? out : fx.y.get(),
                                              y ? y : fx.yb.data(), p.args, ws, size);
        };
    };
    const void* none_in = nullptr;
    void* none_out      = nullptr;
    bad += fusion_parity::run<Fixture, Plan>(f, "fusion", "ExecuteFusionPlan_v2",
               {
                   {"valid", compiled, v2(nullptr, none_in, nullptr, none_out, false, false)},
                   {"inputDesc of another shape", compiled, v2(f.other, none_in, nullptr, none_out, false, false)},
                   {"outputDesc of another shape", compiled, v2(nullptr, none_in, f.other, none_out, false, false)},
                   {"null workspace of a non-zero size", compiled, v2(nullptr, none_in, nullptr, none_out, false, true)},
                   {"declined: workspace 1 byte short of the hipDNN plan's (MIOpen needs none)", compiled,
                    v2(nullptr, none_in, nullptr, none_out, true, false)},
                   {"plan not compiled", uncompiled, v2(nullptr, none_in, nullptr, none_out, false, false)},
                   {"no bias arguments set", [](Fixture& fx) { return build(fx, true, false); },
                    v2(nullptr, none_in, nullptr, none_out, false, false)},
                   {"null handle", compiled,
                    [](Fixture& fx, Plan& p) {
                        return miopenExecuteFusionPlan_v2(nullptr, p.plan, fx.x, fx.xb.data(), fx.y, fx.yb.data(),
                                                          p.args, fx.ws.data(), fx.ws.size());
                    }},
                   {"null input buffer", compiled,
                    [](Fixture& fx, Plan& p) {
                        return miopenExecuteFusionPlan_v2(fx.h, p.plan, fx.x, nullptr, fx.y, fx.yb.data(), p.args,
                                                          fx.ws.data(), fx.ws.size());
                    }},
                   {"null args", compiled,
                    [](Fixture& fx, Plan& p) {
                        return miopenExecuteFusionPlan_v2(fx.h, p.plan, fx.x, fx.xb.data(), fx.y, fx.yb.data(),
                                                          nullptr, fx.ws.data(), fx.ws.size());
                    }},
               });

    auto v1 = [](bool null_output) {
        return [=](Fixture& fx, Plan& p) {
            return miopenExecuteFusionPlan(fx.h, p.plan, fx.x, fx.xb.data(), fx.y,
                                           null_output ? nullptr : fx.yb.data(), p.args);
        };
    };
    bad += fusion_parity::run<Fixture, Plan>(f, "fusion", "ExecuteFusionPlan",
               {
                   {"valid: no workspace argument (the hipDNN plan runs on the handle's own)", compiled, v1(false)},
                   {"null output buffer", compiled, v1(true)},
                   {"plan not compiled", uncompiled, v1(false)},
               });

    miopenDestroy(f.h);
    if(bad > 0)
        std::fprintf(stderr, "fusion_parity_consumer: %d case(s) meant to be invalid succeeded\n", bad);
    return bad > 0 ? 1 : 0;
}
