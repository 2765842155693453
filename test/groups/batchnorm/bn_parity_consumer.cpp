// Argument parity of the batchnorm entry points: inference, training and
// backward, each legacy and _V2. Calls MIOpen rejects (null handle,
// descriptors and buffers, scaling factors other than 1/0, bad modes, wrong
// shapes, ranks and types, fewer than 3 or more than 5 dimensions, a
// non-packed x for training), each next to a valid twin; valid calls the
// wrapper forwards with arguments MIOpen takes as they are (epsilon 0,
// negative or NaN, an exponential-average factor outside [0, 1], one buffer
// of an optional pair, N = 1, 5-D); valid calls the wrapper declines; and a
// descriptor set again between two calls. test/forwarding/check_parity.py
// runs it disabled and enabled and requires the same record case by case,
// every `valid` case forwarded and every other case left to MIOpen Private.
//
// One `case` record per case, as consumer_util.hpp's ParityCase (directions
// `inf`, `trn`, `bwd`), each after its `begin` marker on stderr. Every buffer
// a call may read or write is set from one pattern before each case. `out`
// is the FNV-1a hash of all of them (null for a `valid` case: hipDNN
// computes its outputs, equal within tolerance, not bit for bit); `kept` is
// the hash of the buffers the call must leave alone (all of them but those
// MIOpen writes: y; training's saved statistics when both are given and its
// running ones when both are; backward's dx, dscale and dbias), in every case,
// so a forwarded call that writes where MIOpen does not is a difference too.
// Built in the tree of a forwarding set with batchnorm.
#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using consumer::packed_tensor;
using consumer::Tensor;

// Every buffer a case may pass: x, dy and the parameters hold the largest
// case (the padded x's element space 124; per-activation parameters 60).
struct Buffers
{
    std::vector<float> x, y, dy, dx, scale, bias, mean, variance, save_mean, save_inv, run_mean, run_var, dscale,
        dbias;

    Buffers()
        : x(128), y(128), dy(128), dx(128), scale(64), bias(64), mean(64), variance(64), save_mean(64),
          save_inv(64), run_mean(64), run_var(64), dscale(64), dbias(64)
    {
        reset();
    }

    std::vector<std::vector<float>*> all()
    {
        return {&x, &y, &dy, &dx, &scale, &bias, &mean, &variance, &save_mean, &save_inv, &run_mean, &run_var,
                &dscale, &dbias};
    }

    // Inputs from a fixed-seed sequence (variances positive), outputs from
    // one pattern: the same bytes before every case.
    void reset()
    {
        std::uint32_t seed = 7;
        for(auto* v : {&x, &dy, &scale, &bias, &mean, &save_mean, &run_mean})
            for(auto& e : *v)
                e = consumer::next_eighth(seed);
        for(auto* v : {&variance, &save_inv, &run_var})
            for(auto& e : *v)
                e = 0.5f + consumer::next_eighth(seed) * consumer::next_eighth(seed);
        for(auto* v : {&y, &dx, &dscale, &dbias})
            for(size_t i = 0; i < v->size(); ++i)
                (*v)[i] = float(int((i * 7919u) % 17) - 8) / 8.0f;
    }

    // FNV-1a over every buffer that holds none of `skip`.
    std::uint64_t hash(const std::vector<const void*>& skip = {})
    {
        std::uint64_t hv = 1469598103934665603ull;
        for(auto* v : all())
        {
            const auto* p   = reinterpret_cast<const unsigned char*>(v->data());
            const auto* end = p + v->size() * sizeof(float);
            bool skipped    = false;
            for(const void* s : skip)
                skipped |= s != nullptr && static_cast<const unsigned char*>(s) >= p &&
                           static_cast<const unsigned char*>(s) < end;
            if(skipped)
                continue;
            for(; p < end; ++p)
                hv = (hv ^ *p) * 1099511628211ull;
        }
        return hv;
    }
};

struct Scalars
{
    const float one = 1.0f, zero = 0.0f, two = 2.0f;
};

// One call's arguments in _V2 naming, per direction; a case changes some.
struct Inf
{
    miopenHandle_t h;
    miopenBatchNormMode_t mode;
    const float *alpha, *beta;
    miopenTensorDescriptor_t x, y, scale, bias, mean, variance;
    const void* xb;
    void* yb;
    void *scaleb, *biasb, *meanb, *varianceb;
    double epsilon;
};

struct Trn
{
    miopenHandle_t h;
    miopenBatchNormMode_t mode;
    const float *alpha, *beta;
    miopenTensorDescriptor_t x, y, scale, bias, save_mean, save_var;
    const void* xb;
    void* yb;
    void *scaleb, *biasb;
    double factor;
    void *run_meanb, *run_varb;
    double epsilon;
    void *save_meanb, *save_invb;
};

struct Bwd
{
    miopenHandle_t h;
    miopenBatchNormMode_t mode;
    const float *alpha_data, *beta_data, *alpha_param, *beta_param;
    miopenTensorDescriptor_t x, dy, dx, scale, bias, save_mean, save_var;
    const void *xb, *dyb;
    void* dxb;
    const void* scaleb;
    void *dscaleb, *dbiasb;
    double epsilon;
    const void *save_meanb, *save_invb;
};

// What MIOpen writes in a call with these arguments (the rest is `kept`).
std::vector<const void*> written(const Inf& a) { return {a.yb}; }

std::vector<const void*> written(const Trn& a)
{
    std::vector<const void*> w{a.yb};
    if(a.save_meanb != nullptr && a.save_invb != nullptr)
        w.insert(w.end(), {a.save_meanb, a.save_invb});
    if(a.run_meanb != nullptr && a.run_varb != nullptr)
        w.insert(w.end(), {a.run_meanb, a.run_varb});
    return w;
}

std::vector<const void*> written(const Bwd& a) { return {a.dxb, a.dscaleb, a.dbiasb}; }

miopenStatus_t inf_legacy(const Inf& a)
{
    return miopenBatchNormalizationForwardInference(a.h, a.mode, const_cast<float*>(a.alpha),
                                                    const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale,
                                                    a.scaleb, a.biasb, a.meanb, a.varianceb, a.epsilon);
}

miopenStatus_t inf_v2(const Inf& a)
{
    return miopenBatchNormalizationForwardInference_V2(a.h, a.mode, const_cast<float*>(a.alpha),
                                                       const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale,
                                                       a.bias, a.mean, a.variance, a.scaleb, a.biasb, a.meanb,
                                                       a.varianceb, a.epsilon);
}

// The legacy form has one per-channel descriptor: the scale's.
miopenStatus_t trn_legacy(const Trn& a)
{
    return miopenBatchNormalizationForwardTraining(a.h, a.mode, const_cast<float*>(a.alpha),
                                                   const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale,
                                                   a.scaleb, a.biasb, a.factor, a.run_meanb, a.run_varb, a.epsilon,
                                                   a.save_meanb, a.save_invb);
}

miopenStatus_t trn_v2(const Trn& a)
{
    return miopenBatchNormalizationForwardTraining_V2(
        a.h, a.mode, const_cast<float*>(a.alpha), const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale, a.bias,
        a.save_mean, a.save_var, a.scaleb, a.biasb, a.factor, a.run_meanb, a.run_varb, a.epsilon, a.save_meanb,
        a.save_invb);
}

miopenStatus_t bwd_legacy(const Bwd& a)
{
    return miopenBatchNormalizationBackward(a.h, a.mode, a.alpha_data, a.beta_data, a.alpha_param, a.beta_param,
                                            a.x, a.xb, a.dy, a.dyb, a.dx, a.dxb, a.scale, a.scaleb, a.dscaleb,
                                            a.dbiasb, a.epsilon, a.save_meanb, a.save_invb);
}

miopenStatus_t bwd_v2(const Bwd& a)
{
    return miopenBatchNormalizationBackward_V2(a.h, a.mode, a.alpha_data, a.beta_data, a.alpha_param, a.beta_param,
                                               a.x, a.xb, a.dy, a.dyb, a.dx, a.dxb, a.scale, a.bias, a.save_mean,
                                               a.save_var, a.scaleb, a.dscaleb, a.dbiasb, a.epsilon, a.save_meanb,
                                               a.save_invb);
}

template <class A>
struct Case
{
    std::string label;
    std::function<void(A&)> change;
};

// Runs each case from `valid` with its change; returns how many cases meant
// to be invalid succeeded.
template <class A>
int run(Buffers& b,
        const char* dir,
        const char* entry,
        miopenStatus_t (*call)(const A&),
        const A& valid,
        const std::vector<Case<A>>& cases)
{
    int invalid_succeeded = 0;
    for(const auto& c : cases)
    {
        A a = valid;
        c.change(a);
        b.reset();
        const consumer::ParityCase pc(dir, entry, c.label);
        const miopenStatus_t s = call(a);
        const bool ok_valid    = c.label.compare(0, 5, "valid") == 0;
        protocol::Record r("case");
        r.field("case", pc.id()).field("dir", pc.dir).field("entry", pc.entry).field("label", pc.label);
        r.field("status", int(s));
        if(ok_valid)
            r.field("out", static_cast<const char*>(nullptr));
        else
            r.hash("out", b.hash());
        r.hash("kept", b.hash(written(a)));
        r.emit();
        invalid_succeeded += !ok_valid && s == miopenStatusSuccess && c.label.compare(0, 8, "declined") != 0;
    }
    return invalid_succeeded;
}

} // namespace

int main()
{
    Buffers b;
    const Scalars k;
    miopenHandle_t h;
    consumer::must(miopenCreate(&h), "miopenCreate");
    const double nan = std::nan("");

    const Tensor x4 = packed_tensor(miopenFloat, {2, 3, 4, 5});
    const Tensor p4 = packed_tensor(miopenFloat, {1, 3, 1, 1});
    const Tensor y_other = packed_tensor(miopenFloat, {2, 3, 4, 6});
    const Tensor y_half  = packed_tensor(miopenHalf, {2, 3, 4, 5});
    const Tensor x_half  = packed_tensor(miopenHalf, {2, 3, 4, 5});
    const Tensor p_half  = packed_tensor(miopenHalf, {1, 3, 1, 1});
    const Tensor p_wrong = packed_tensor(miopenFloat, {1, 4, 1, 1});
    const Tensor p_act   = packed_tensor(miopenFloat, {1, 3, 4, 5});
    const Tensor x2      = packed_tensor(miopenFloat, {2, 3});
    const Tensor p2      = packed_tensor(miopenFloat, {1, 3});
    const Tensor x3      = packed_tensor(miopenFloat, {2, 3, 20});
    const Tensor p3      = packed_tensor(miopenFloat, {1, 3, 1});
    const Tensor x5      = packed_tensor(miopenFloat, {2, 3, 2, 2, 5});
    const Tensor p5      = packed_tensor(miopenFloat, {1, 3, 1, 1, 1});
    const Tensor x6      = packed_tensor(miopenFloat, {1, 3, 2, 2, 2, 2});
    const Tensor p6      = packed_tensor(miopenFloat, {1, 3, 1, 1, 1, 1});
    const Tensor x_n1    = packed_tensor(miopenFloat, {1, 3, 4, 5});
    const Tensor x_one   = packed_tensor(miopenFloat, {1, 3, 1, 1});
    Tensor x_padded      = packed_tensor(miopenFloat, {2, 3, 4, 5});
    {
        const int dims[] = {2, 3, 4, 5}, strides[] = {64, 20, 5, 1};
        consumer::must(miopenSetTensorDescriptor(x_padded, miopenFloat, 4, dims, strides), "padded x");
    }
    // One descriptor set again between two calls: the second call must see
    // the change (the wrapper remembers what unchanged descriptors translated to).
    Tensor x_reused = packed_tensor(miopenFloat, {2, 3, 4, 5});
    const auto set_x_reused = [&x_reused](int channels) {
        const int dims[] = {2, channels, 4, 5}, strides[] = {20 * channels, 20, 5, 1};
        consumer::must(miopenSetTensorDescriptor(x_reused, miopenFloat, 4, dims, strides), "reused x");
    };
    // x one float past a 16-byte boundary.
    const void* x_off = b.x.data() + 1;

    // ---- inference ----
    // The valid call of each direction, in _V2 argument order.
    const Inf inf{h, miopenBNSpatial, &k.one, &k.zero,
                  x4, x4, p4, p4, p4, p4,
                  b.x.data(), b.y.data(), b.scale.data(), b.bias.data(), b.mean.data(), b.variance.data(),
                  1e-5};
    const std::vector<Case<Inf>> inf_cases = {
        {"valid", [](Inf&) {}},
        {"null handle", [](Inf& a) { a.h = nullptr; }},
        {"null xDesc", [](Inf& a) { a.x = nullptr; }},
        {"null yDesc", [](Inf& a) { a.y = nullptr; }},
        {"null per-channel descriptor", [](Inf& a) { a.scale = a.bias = a.mean = a.variance = nullptr; }},
        {"null x", [](Inf& a) { a.xb = nullptr; }},
        {"null y", [](Inf& a) { a.yb = nullptr; }},
        {"null bnScale", [](Inf& a) { a.scaleb = nullptr; }},
        {"null bnBias", [](Inf& a) { a.biasb = nullptr; }},
        {"null alpha", [](Inf& a) { a.alpha = nullptr; }},
        {"alpha 2", [&](Inf& a) { a.alpha = &k.two; }},
        {"beta 1", [&](Inf& a) { a.beta = &k.one; }},
        {"per-activation mode", [](Inf& a) { a.mode = miopenBNPerActivation; }},
        {"mode 7", [](Inf& a) { a.mode = static_cast<miopenBatchNormMode_t>(7); }},
        {"y lengths differ", [&](Inf& a) { a.y = y_other; }},
        {"y fp16 x fp32", [&](Inf& a) { a.y = y_half; }},
        {"per-channel C differs", [&](Inf& a) { a.scale = a.bias = a.mean = a.variance = p_wrong; }},
        {"x 3-D", [&](Inf& a) {
             a.x = a.y = x3;
             a.scale = a.bias = a.mean = a.variance = p3;
         }},
        {"valid: x and y one reused descriptor", [&](Inf& a) {
             set_x_reused(3);
             a.x = a.y = x_reused;
         }},
        {"the reused descriptor set to 2 channels (per-channel C differs)", [&](Inf& a) {
             set_x_reused(2);
             a.x = a.y = x_reused;
         }},
        {"declined: null estimates (MIOpen computes the batch's statistics)",
         [](Inf& a) { a.meanb = a.varianceb = nullptr; }},
        {"declined: padded x and y (hipDNN's provider takes packed only)", [&](Inf& a) { a.x = a.y = x_padded; }},
    };

    // ---- training ----
    const Trn trn{h, miopenBNSpatial, &k.one, &k.zero,
                  x4, x4, p4, p4, p4, p4,
                  b.x.data(), b.y.data(), b.scale.data(), b.bias.data(),
                  0.1, nullptr, nullptr, 1e-5, b.save_mean.data(), b.save_inv.data()};
    const auto trn_all = [](Trn& a, miopenTensorDescriptor_t x, miopenTensorDescriptor_t p) {
        a.x = a.y = x;
        a.scale = a.bias = a.save_mean = a.save_var = p;
    };
    const auto running = [&b](Trn& a) {
        a.run_meanb = b.run_mean.data();
        a.run_varb  = b.run_var.data();
    };
    const std::vector<Case<Trn>> trn_cases = {
        {"valid", [](Trn&) {}},
        {"null handle", [](Trn& a) { a.h = nullptr; }},
        {"null xDesc", [](Trn& a) { a.x = nullptr; }},
        {"null yDesc", [](Trn& a) { a.y = nullptr; }},
        {"null per-channel descriptor", [](Trn& a) { a.scale = a.bias = a.save_mean = a.save_var = nullptr; }},
        {"null x", [](Trn& a) { a.xb = nullptr; }},
        {"null y", [](Trn& a) { a.yb = nullptr; }},
        {"null bnScale", [](Trn& a) { a.scaleb = nullptr; }},
        {"null bnBias", [](Trn& a) { a.biasb = nullptr; }},
        {"null alpha", [](Trn& a) { a.alpha = nullptr; }},
        {"alpha 2", [&](Trn& a) { a.alpha = &k.two; }},
        {"beta 1", [&](Trn& a) { a.beta = &k.one; }},
        {"per-activation mode (per-channel parameters)", [](Trn& a) { a.mode = miopenBNPerActivation; }},
        {"mode 7", [](Trn& a) { a.mode = static_cast<miopenBatchNormMode_t>(7); }},
        {"y lengths differ", [&](Trn& a) { a.y = y_other; }},
        {"y fp16 x fp32", [&](Trn& a) { a.y = y_half; }},
        {"per-channel C differs", [&](Trn& a) { a.scale = a.bias = a.save_mean = a.save_var = p_wrong; }},
        {"per-channel descriptors 5-D, x 4-D", [&](Trn& a) { a.scale = a.bias = a.save_mean = a.save_var = p5; }},
        {"x 2-D", [&](Trn& a) { trn_all(a, x2, p2); }},
        {"x 3-D", [&](Trn& a) { trn_all(a, x3, p3); }},
        {"x 6-D", [&](Trn& a) { trn_all(a, x6, p6); }},
        {"padded x and y (training takes packed only)", [&](Trn& a) { a.x = a.y = x_padded; }},
        {"valid: no saved statistics", [](Trn& a) { a.save_meanb = a.save_invb = nullptr; }},
        {"valid: only resultSaveMean (MIOpen saves neither)", [](Trn& a) { a.save_invb = nullptr; }},
        {"valid: only resultSaveInvVariance (MIOpen saves neither)", [](Trn& a) { a.save_meanb = nullptr; }},
        {"valid: epsilon 0", [](Trn& a) { a.epsilon = 0.0; }},
        {"valid: epsilon -1", [](Trn& a) { a.epsilon = -1.0; }},
        {"valid: epsilon NaN", [nan](Trn& a) { a.epsilon = nan; }},
        {"valid: expAvgFactor 2 without running statistics (unused)", [](Trn& a) { a.factor = 2.0; }},
        {"valid: expAvgFactor NaN without running statistics (unused)", [nan](Trn& a) { a.factor = nan; }},
        {"valid: 5-D", [&](Trn& a) { trn_all(a, x5, p5); }},
        {"valid: N = 1", [&](Trn& a) { a.x = a.y = x_n1; }},
        {"valid: x and y one reused descriptor", [&](Trn& a) {
             set_x_reused(3);
             a.x = a.y = x_reused;
         }},
        {"the reused descriptor set to 2 channels (per-channel C differs)", [&](Trn& a) {
             set_x_reused(2);
             a.x = a.y = x_reused;
         }},
        {"declined: running statistics (MIOpen updates them)", [&](Trn& a) { running(a); }},
        {"declined: running statistics, expAvgFactor 2", [&](Trn& a) {
             running(a);
             a.factor = 2.0;
         }},
        {"declined: running statistics, expAvgFactor -1", [&](Trn& a) {
             running(a);
             a.factor = -1.0;
         }},
        {"declined: running statistics, expAvgFactor NaN", [&](Trn& a) {
             running(a);
             a.factor = nan;
         }},
        {"declined: only resultRunningMean (MIOpen updates neither)",
         [&](Trn& a) { a.run_meanb = b.run_mean.data(); }},
        {"declined: one value per channel (N x spatial = 1)", [&](Trn& a) { a.x = a.y = x_one; }},
        {"declined: per-activation mode with its parameter shape", [&](Trn& a) {
             a.mode  = miopenBNPerActivation;
             a.scale = a.bias = a.save_mean = a.save_var = p_act;
         }},
        {"declined: fp16 per-channel descriptors", [&](Trn& a) {
             a.scale = a.bias = a.save_mean = a.save_var = p_half;
         }},
        {"declined: x off 16 bytes", [&](Trn& a) { a.xb = x_off; }},
    };

    // ---- backward ----
    const Bwd bwd{h, miopenBNSpatial, &k.one, &k.zero, &k.one, &k.zero,
                  x4, x4, x4, p4, p4, p4, p4,
                  b.x.data(), b.dy.data(), b.dx.data(), b.scale.data(), b.dscale.data(), b.dbias.data(),
                  1e-5, b.save_mean.data(), b.save_inv.data()};
    const auto bwd_all = [](Bwd& a, miopenTensorDescriptor_t x, miopenTensorDescriptor_t p) {
        a.x = a.dy = a.dx = x;
        a.scale = a.bias = a.save_mean = a.save_var = p;
    };
    const auto unsaved = [](Bwd& a, double epsilon) {
        a.save_meanb = a.save_invb = nullptr;
        a.epsilon                  = epsilon;
    };
    const std::vector<Case<Bwd>> bwd_cases = {
        {"valid", [](Bwd&) {}},
        {"null handle", [](Bwd& a) { a.h = nullptr; }},
        {"null xDesc", [](Bwd& a) { a.x = nullptr; }},
        {"null dyDesc", [](Bwd& a) { a.dy = nullptr; }},
        {"null dxDesc", [](Bwd& a) { a.dx = nullptr; }},
        {"null per-channel descriptor", [](Bwd& a) { a.scale = a.bias = a.save_mean = a.save_var = nullptr; }},
        {"null x", [](Bwd& a) { a.xb = nullptr; }},
        {"null dy", [](Bwd& a) { a.dyb = nullptr; }},
        {"null dx", [](Bwd& a) { a.dxb = nullptr; }},
        {"null bnScale", [](Bwd& a) { a.scaleb = nullptr; }},
        {"null alphaDataDiff", [](Bwd& a) { a.alpha_data = nullptr; }},
        {"alphaDataDiff 2", [&](Bwd& a) { a.alpha_data = &k.two; }},
        {"betaDataDiff 1", [&](Bwd& a) { a.beta_data = &k.one; }},
        {"alphaParamDiff 0", [&](Bwd& a) { a.alpha_param = &k.zero; }},
        {"betaParamDiff 1", [&](Bwd& a) { a.beta_param = &k.one; }},
        {"per-activation mode (per-channel parameters)", [](Bwd& a) { a.mode = miopenBNPerActivation; }},
        {"mode 7", [](Bwd& a) { a.mode = static_cast<miopenBatchNormMode_t>(7); }},
        {"dy lengths differ", [&](Bwd& a) { a.dy = y_other; }},
        {"dx lengths differ", [&](Bwd& a) { a.dx = y_other; }},
        {"dx fp16 dy fp32", [&](Bwd& a) { a.dx = y_half; }},
        {"dy 5-D, x 4-D", [&](Bwd& a) { a.dy = x5; }},
        {"per-channel C differs", [&](Bwd& a) { a.scale = a.bias = a.save_mean = a.save_var = p_wrong; }},
        {"x 2-D", [&](Bwd& a) { bwd_all(a, x2, p2); }},
        {"x 3-D", [&](Bwd& a) { bwd_all(a, x3, p3); }},
        {"x 6-D", [&](Bwd& a) { bwd_all(a, x6, p6); }},
        {"valid: epsilon NaN with saved statistics (MIOpen does not use it)", [nan](Bwd& a) { a.epsilon = nan; }},
        {"valid: no saved statistics, epsilon 1e-5", [&](Bwd& a) { unsaved(a, 1e-5); }},
        {"valid: only savedMean, epsilon 1e-5 (MIOpen recomputes both)", [](Bwd& a) { a.save_invb = nullptr; }},
        {"valid: 5-D", [&](Bwd& a) { bwd_all(a, x5, p5); }},
        {"valid: N = 1", [&](Bwd& a) { a.x = a.dy = a.dx = x_n1; }},
        {"valid: x, dy and dx one reused descriptor", [&](Bwd& a) {
             set_x_reused(3);
             a.x = a.dy = a.dx = x_reused;
         }},
        {"the reused descriptor set to 2 channels (per-channel C differs)", [&](Bwd& a) {
             set_x_reused(2);
             a.x = a.dy = a.dx = x_reused;
         }},
        {"declined: no saved statistics, epsilon 1e-3", [&](Bwd& a) { unsaved(a, 1e-3); }},
        {"declined: no saved statistics, epsilon 0", [&](Bwd& a) { unsaved(a, 0.0); }},
        {"declined: no saved statistics, epsilon -1", [&](Bwd& a) { unsaved(a, -1.0); }},
        {"declined: no saved statistics, epsilon NaN", [&](Bwd& a) { unsaved(a, nan); }},
        {"declined: null resultBnScaleDiff", [](Bwd& a) { a.dscaleb = nullptr; }},
        {"declined: null resultBnBiasDiff", [](Bwd& a) { a.dbiasb = nullptr; }},
        {"declined: x fp16, dy and dx fp32 (MIOpen compares dx with dy only)", [&](Bwd& a) { a.x = x_half; }},
        {"declined: padded x, dy and dx", [&](Bwd& a) { a.x = a.dy = a.dx = x_padded; }},
        {"declined: one value per channel (N x spatial = 1)", [&](Bwd& a) { a.x = a.dy = a.dx = x_one; }},
        {"declined: per-activation mode with its parameter shape", [&](Bwd& a) {
             a.mode  = miopenBNPerActivation;
             a.scale = a.bias = a.save_mean = a.save_var = p_act;
         }},
        {"declined: x off 16 bytes", [&](Bwd& a) { a.xb = x_off; }},
    };

    int bad = run(b, "inf", "miopenBatchNormalizationForwardInference", inf_legacy, inf, inf_cases);
    bad += run(b, "inf", "miopenBatchNormalizationForwardInference_V2", inf_v2, inf, inf_cases);
    bad += run(b, "trn", "miopenBatchNormalizationForwardTraining", trn_legacy, trn, trn_cases);
    bad += run(b, "trn", "miopenBatchNormalizationForwardTraining_V2", trn_v2, trn, trn_cases);
    bad += run(b, "bwd", "miopenBatchNormalizationBackward", bwd_legacy, bwd, bwd_cases);
    bad += run(b, "bwd", "miopenBatchNormalizationBackward_V2", bwd_v2, bwd, bwd_cases);
    protocol::end();
    miopenDestroy(h);
    if(bad > 0)
        std::fprintf(stderr, "bn_parity_consumer: %d case(s) meant to be invalid succeeded\n", bad);
    return bad > 0 ? 1 : 0;
}
