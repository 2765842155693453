// Descriptors changed between forwarded calls (issue 24): every setter the
// forwarding handlers' reads depend on is called on descriptors a forwarded
// call has already used, and the next call must compute with the new
// values. One `call` record per call on stdout (its step, status and the
// sum of y: consumer_util.hpp's report_call), a `property` per address reuse;
// test/forwarding/check_forwarding.py (descriptor_changes) compares the
// enabled run with the disabled one and reads the routing trace.
//
//   descriptor_changes_consumer           through libMIOpen.so's setters
//   descriptor_changes_consumer bypass    the "dims" step calls MIOpen
//       Private's miopenSet4dTensorDescriptor_impl directly, past the
//       wrapper: the change the wrapper cannot see (docs/forwarding.md,
//       "Descriptor generations"); the comparison must catch it
#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// A survivor: exported by MIOpen, declared by no public header.
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc, int findMode);

namespace {

using consumer::must;

constexpr size_t kMaxElements = 2 * 8 * 10 * 10; // the largest tensor of any step

// fp16 bits of a value k/8 (|k| <= 8: normal or zero, exact in fp16).
uint16_t half_bits(float v)
{
    uint32_t f;
    std::memcpy(&f, &v, 4);
    if((f & 0x7fffffffu) == 0)
        return uint16_t(f >> 16);
    const uint32_t sign = (f >> 16) & 0x8000u, exp = ((f >> 23) & 0xffu) - 127 + 15, mant = (f >> 13) & 0x3ffu;
    return uint16_t(sign | (exp << 10) | mant);
}

float half_value(uint16_t h)
{
    const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    const float m = exp == 0 ? float(mant) / 1024.0f * std::ldexp(1.0f, -14)
                             : (1.0f + float(mant) / 1024.0f) * std::ldexp(1.0f, exp - 15);
    return (h & 0x8000) ? -m : m;
}

struct Problem
{
    miopenHandle_t h;
    miopenTensorDescriptor_t x, w, y, bias;
    miopenConvolutionDescriptor_t c;
    miopenActivationDescriptor_t act;
    std::vector<float> xv, wv, yv, bv;
    std::vector<uint16_t> xh, wh, yh;
    bool half = false;

    Problem()
    {
        must(miopenCreate(&h), "create");
        for(auto* d : {&x, &w, &y, &bias})
            must(miopenCreateTensorDescriptor(d), "create tensor");
        must(miopenCreateConvolutionDescriptor(&c), "create conv");
        must(miopenCreateActivationDescriptor(&act), "create activation");
        std::uint32_t seed = 7;
        for(auto* v : {&xv, &wv, &yv, &bv})
        {
            v->resize(kMaxElements);
            for(auto& e : *v)
                e = consumer::next_eighth(seed);
        }
        for(auto [f, hv] : {std::pair{&xv, &xh}, {&wv, &wh}, {&yv, &yh}})
            for(float e : *f)
                hv->push_back(half_bits(e));
    }

    // y's element count, kept here: a getter call between two steps would
    // take a descriptor by non-const value and so count as a change
    // (docs/forwarding.md, "Descriptor generations"), which the bypass run
    // must not have.
    size_t y_elements = 0;

    void tensor(miopenTensorDescriptor_t d, int n, int ch, int hh, int ww)
    {
        must(miopenSet4dTensorDescriptor(d, half ? miopenHalf : miopenFloat, n, ch, hh, ww), "set 4-D tensor");
        if(d == y)
            y_elements = size_t(n) * size_t(ch) * size_t(hh) * size_t(ww);
    }

    // y as MIOpen computes it for the current x, w and convolution.
    void output()
    {
        int n, k, hh, ww;
        must(miopenGetConvolutionForwardOutputDim(c, x, w, &n, &k, &hh, &ww), "output dims");
        tensor(y, n, k, hh, ww);
    }

    void* xp() { return half ? static_cast<void*>(xh.data()) : xv.data(); }
    void* wp() { return half ? static_cast<void*>(wh.data()) : wv.data(); }
    void* yp() { return half ? static_cast<void*>(yh.data()) : yv.data(); }

    double ysum()
    {
        double s = 0;
        for(size_t i = 0; i < y_elements; ++i)
            s += half ? half_value(yh[i]) : yv[i];
        return s;
    }

    // What the call needs (none when MIOpen rejects the problem: the call
    // that follows then gets MIOpen's status, which is what is compared).
    std::vector<char> workspace()
    {
        size_t n = 0;
        if(miopenConvolutionForwardGetWorkSpaceSize(h, w, x, c, y, &n) != miopenStatusSuccess)
            n = 0;
        return std::vector<char>(n);
    }

    void forward(const char* step)
    {
        auto ws              = workspace();
        const float one = 1, zero = 0;
        const auto s = miopenConvolutionForward(h, &one, x, xp(), w, wp(), c, miopenConvolutionFwdAlgoDirect, &zero,
                                                y, yp(), ws.data(), ws.size());
        consumer::report_call(step, s, ysum());
    }

    void find(const char* step)
    {
        auto ws = workspace();
        miopenConvAlgoPerf_t perf{};
        int found = 0;
        const auto s =
            miopenFindConvolutionForwardAlgorithm(h, x, xp(), w, wp(), c, y, yp(), 1, &found, &perf, ws.data(),
                                                  ws.size(), false);
        // Only the routing and the status: a Find answered from MIOpen's
        // find-db runs nothing, so y is not compared.
        consumer::report_call(step, s);
    }

    // MIOpen's own one-call form has no fused solver here (it builds a plan
    // with a z addition, which only Composable Kernel's solver takes):
    // miopenStatusUnsupportedOp, and the consumer falls back to separate
    // calls, as a framework does. Forwarded, the call itself succeeds.
    void fused(const char* step)
    {
        auto ws              = workspace();
        const float one = 1, zero = 0;
        auto s = miopenConvolutionBiasActivationForward(h, &one, x, xp(), w, wp(), c, miopenConvolutionFwdAlgoDirect,
                                                        ws.data(), ws.size(), &one, y, nullptr, bias, bv.data(), act,
                                                        y, yp());
        if(s == miopenStatusUnsupportedOp)
        {
            s = miopenConvolutionForward(h, &one, x, xp(), w, wp(), c, miopenConvolutionFwdAlgoDirect, &zero, y, yp(),
                                         ws.data(), ws.size());
            if(s == miopenStatusSuccess)
                s = miopenConvolutionForwardBias(h, &one, bias, bv.data(), &zero, y, yp());
            if(s == miopenStatusSuccess)
                s = miopenActivationForward(h, act, &one, y, yp(), &zero, y, yp());
        }
        consumer::report_call(step, s, ysum());
    }
};

// A fusion plan conv -> bias -> activation on the problem's x, w, bias,
// executed with miopenExecuteFusionPlan_v2: the wrapper remembers what an
// execute derived from the plan and its descriptors, so a change of either
// must reach the next execute.
/// Create an object with `create` until the allocator hands back `at`, the
/// address of one just destroyed (or once, when `at` is null), keeping the
/// others alive meanwhile so each try gets another chunk, then destroy them.
/// The allocator usually returns the freed chunk first, but an allocation in
/// between (MIOpen's own, the find-db's strings) can take it; the checker
/// fails the run when no try got the address.
template <class T, class Create, class Destroy>
void reuse_address(T* out, T at, Create create, Destroy destroy, const char* what)
{
    std::vector<T> spare;
    for(int i = 0; i < 64; ++i)
    {
        must(create(out), what);
        if(at == nullptr || *out == at)
            break;
        spare.push_back(*out);
    }
    for(T d : spare)
        if(d != *out)
            destroy(d);
}

struct FusionPlan
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;

    // `at`: the address of a destroyed plan to create this one at (see reuse_address).
    FusionPlan(Problem& p, miopenActivationMode_t mode, miopenFusionPlanDescriptor_t at = nullptr)
    {
        miopenFusionOpDescriptor_t conv_op, bias_op, act_op;
        reuse_address(&plan, at, [&](miopenFusionPlanDescriptor_t* d) {
            return miopenCreateFusionPlan(d, miopenVerticalFusion, p.x);
        }, miopenDestroyFusionPlan, "create plan");
        must(miopenCreateOpConvForward(plan, &conv_op, p.c, p.w), "conv op");
        must(miopenCreateOpBiasForward(plan, &bias_op, p.bias), "bias op");
        must(miopenCreateOpActivationForward(plan, &act_op, mode), "activation op");
        must(miopenCompileFusionPlan(p.h, plan), "compile plan");
        const float one = 1, zero = 0;
        must(miopenCreateOperatorArgs(&args), "create args");
        must(miopenSetOpArgsConvForward(args, conv_op, &one, &zero, p.wp()), "conv args");
        must(miopenSetOpArgsBiasForward(args, bias_op, &one, &zero, p.bv.data()), "bias args");
        must(miopenSetOpArgsActivForward(args, act_op, &one, &zero, 0, 0, 0), "activation args");
    }
    ~FusionPlan()
    {
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }

    void execute(Problem& p, const char* step)
    {
        size_t n = 0;
        if(miopenFusionPlanGetWorkSpaceSize(p.h, plan, &n, miopenConvolutionFwdAlgoDirect) != miopenStatusSuccess)
            n = 0;
        std::vector<char> ws(n);
        const auto s = miopenExecuteFusionPlan_v2(p.h, plan, p.x, p.xp(), p.y, p.yp(), args, ws.data(), ws.size());
        consumer::report_call(step, s, p.ysum());
    }
};

using Set4d = miopenStatus_t (*)(miopenTensorDescriptor_t, miopenDataType_t, int, int, int, int);

// MIOpen Private's setter itself, past the wrapper.
Set4d private_set4d()
{
    auto f = reinterpret_cast<Set4d>(dlsym(RTLD_DEFAULT, "miopenSet4dTensorDescriptor_impl"));
    if(f == nullptr)
    {
        std::fprintf(stderr, "descriptor_changes_consumer: miopenSet4dTensorDescriptor_impl not found\n");
        std::exit(3);
    }
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    const bool bypass = argc > 1 && std::strcmp(argv[1], "bypass") == 0;
    Problem p;
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 1, 1, 1, 1, 1, 1), "init conv");
    p.tensor(p.x, 1, 4, 8, 8);
    p.tensor(p.w, 4, 4, 3, 3);
    p.output();
    p.forward("base");
    p.forward("base again");

    // Tensors: dims, strides, type.
    if(bypass)
    {
        const Set4d set = private_set4d();
        must(set(p.x, miopenFloat, 2, 4, 8, 8), "x dims (Private)");
        must(set(p.y, miopenFloat, 2, 4, 8, 8), "y dims (Private)");
        p.y_elements = 2 * 4 * 8 * 8;
    }
    else
    {
        p.tensor(p.x, 2, 4, 8, 8);
        p.output();
    }
    p.forward("dims");
    const int dims[] = {2, 4, 8, 8}, nhwc[] = {256, 1, 32, 4};
    must(miopenSetTensorDescriptor(p.x, miopenFloat, 4, dims, nhwc), "x strides");
    p.forward("strides");
    p.half = true;
    p.tensor(p.x, 2, 4, 8, 8);
    p.tensor(p.w, 4, 4, 3, 3);
    p.output();
    p.forward("type");
    p.half = false;
    p.tensor(p.x, 2, 4, 8, 8);
    p.tensor(p.w, 4, 4, 3, 3);

    // The convolution: padding, stride, dilation, groups, mode.
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 0, 0, 1, 1, 1, 1), "pad 0");
    p.output();
    p.forward("padding");
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 1, 1, 2, 2, 1, 1), "stride 2");
    p.output();
    p.forward("stride");
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 2, 2, 1, 1, 2, 2), "dilation 2");
    p.output();
    p.forward("dilation");
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 1, 1, 1, 1, 1, 1), "back to pad 1");
    must(miopenSetConvolutionGroupCount(p.c, 2), "groups 2");
    p.tensor(p.w, 4, 2, 3, 3);
    p.output();
    p.forward("groups");
    must(miopenSetConvolutionGroupCount(p.c, 1), "groups 1");
    p.tensor(p.w, 4, 4, 3, 3);
    // The test bed, like the MIOpen it models here, rejects a transposed
    // convolution (miopenStatusNotImplemented); forwarded, it is declined
    // and gets the same status.
    must(miopenInitConvolutionDescriptor(p.c, miopenTranspose, 1, 1, 1, 1, 1, 1), "transpose");
    p.forward("mode transpose");
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 1, 1, 1, 1, 1, 1), "convolution again");
    p.output();

    // The Find mode set on the descriptor (a survivor: no routed body).
    must(miopenHiddenSetConvolutionFindMode(p.c, 1), "find mode normal");
    p.find("find mode normal");
    must(miopenHiddenSetConvolutionFindMode(p.c, 2), "find mode fast");
    p.find("find mode fast");

    // The activation of a fused call: RELU is forwarded; changed to
    // CLIPPEDRELU, which MIOpen's one-call form refuses (NotImplemented),
    // the call must see the change and leave it to MIOpen.
    p.tensor(p.bias, 1, 4, 1, 1);
    must(miopenSetActivationDescriptor(p.act, miopenActivationRELU, 0, 0, 0), "activation relu");
    p.fused("activation relu");
    must(miopenSetActivationDescriptor(p.act, miopenActivationCLIPPEDRELU, 0.25, 0, 0), "activation clippedrelu");
    p.fused("activation clippedrelu");

    // A descriptor destroyed and created again at the same address.
    const miopenTensorDescriptor_t old = p.x;
    must(miopenDestroyTensorDescriptor(p.x), "destroy x");
    reuse_address(&p.x, old, miopenCreateTensorDescriptor, miopenDestroyTensorDescriptor, "create x");
    consumer::report_property("recreated at the same address", p.x == old);
    p.tensor(p.x, 1, 4, 10, 10);
    p.output();
    p.forward("recreated");
    p.forward("recreated again");

    // A fusion plan: its execute again, its input descriptor changed in
    // place (MIOpen: BadParm, the plan's input differs), and a plan created
    // at the address of a destroyed one with another activation (CLAMP(0, 0):
    // all zero) but the same descriptors and arguments.
    p.tensor(p.x, 1, 4, 8, 8);
    must(miopenInitConvolutionDescriptor(p.c, miopenConvolution, 1, 1, 1, 1, 1, 1), "fusion conv");
    p.output();
    miopenFusionPlanDescriptor_t old_plan = nullptr;
    {
        FusionPlan f(p, miopenActivationRELU);
        old_plan = f.plan;
        f.execute(p, "fusion plan");
        f.execute(p, "fusion plan again");
        p.tensor(p.x, 2, 4, 8, 8);
        f.execute(p, "fusion input changed");
        p.tensor(p.x, 1, 4, 8, 8);
    }
    {
        FusionPlan f(p, miopenActivationCLAMP, old_plan);
        consumer::report_property("plan recreated at the same address", f.plan == old_plan);
        f.execute(p, "fusion plan recreated");
    }

    for(auto d : {p.x, p.w, p.y, p.bias})
        miopenDestroyTensorDescriptor(d);
    miopenDestroyConvolutionDescriptor(p.c);
    miopenDestroyActivationDescriptor(p.act);
    miopenDestroy(p.h);
    return 0;
}
