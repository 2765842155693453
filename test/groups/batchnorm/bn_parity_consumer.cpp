// Argument parity of the batchnorm inference entry points (legacy and _V2):
// calls MIOpen rejects (null handle, descriptors and buffers, alpha/beta
// other than 1/0, bad modes, wrong shapes, mixed types), each next to a valid
// twin, plus valid calls the wrapper declines, and a descriptor set again
// between two calls. test/forwarding/check_parity.py
// runs it disabled and enabled and requires the same status and the same
// bytes in y (which starts from one pattern) case by case, every `valid` case
// forwarded and every other case left to MIOpen Private.
//
// One `case` record per case, as parity_consumer's (consumer_util.hpp's
// ParityCase; direction `inf`, `out` the FNV-1a hash of y), each after its
// `begin` marker on stderr. Built in the tree of a forwarding set with batchnorm.
#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using consumer::packed_tensor;

// One call's arguments in _V2 naming; a case changes some.
struct Args
{
    miopenHandle_t h;
    miopenBatchNormMode_t mode = miopenBNSpatial;
    const float* alpha;
    const float* beta;
    miopenTensorDescriptor_t x, y, scale, bias, mean, variance;
    const void* xb;
    void* yb;
    void *scaleb, *biasb, *meanb, *varianceb;
    double epsilon = 1e-5;
};

struct Fixture
{
    miopenHandle_t h;
    std::vector<float> x, y, scale, bias, mean, variance;
    const float one = 1.0f, zero = 0.0f, two = 2.0f;
    miopenTensorDescriptor_t x4 = packed_tensor(miopenFloat, {2, 3, 4, 5});
    miopenTensorDescriptor_t p4 = packed_tensor(miopenFloat, {1, 3, 1, 1});

    // x and y hold the padded case too (element space 124).
    Fixture() : x(128), y(128), scale(8), bias(8), mean(8), variance(8)
    {
        consumer::must(miopenCreate(&h), "miopenCreate");
        std::uint32_t seed = 7;
        for(auto* v : {&x, &scale, &bias, &mean})
            for(auto& e : *v)
                e = consumer::next_eighth(seed);
        for(auto& e : variance)
            e = 0.5f + consumer::next_eighth(seed) * consumer::next_eighth(seed);
    }

    Args valid()
    {
        return Args{h, miopenBNSpatial, &one, &zero, x4, x4, p4, p4, p4, p4, x.data(), y.data(),
                    scale.data(), bias.data(), mean.data(), variance.data()};
    }

    void reset()
    {
        for(size_t i = 0; i < y.size(); ++i)
            y[i] = float(int((i * 7919u) % 17) - 8) / 8.0f;
    }

    std::uint64_t hash() const
    {
        std::uint64_t hv = 1469598103934665603ull;
        const auto* p    = reinterpret_cast<const unsigned char*>(y.data());
        for(size_t i = 0; i < y.size() * sizeof(float); ++i)
            hv = (hv ^ p[i]) * 1099511628211ull;
        return hv;
    }
};

using Call = std::function<miopenStatus_t(const Args&)>;

miopenStatus_t legacy(const Args& a)
{
    return miopenBatchNormalizationForwardInference(a.h, a.mode, const_cast<float*>(a.alpha),
                                                    const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale,
                                                    a.scaleb, a.biasb, a.meanb, a.varianceb, a.epsilon);
}

miopenStatus_t v2(const Args& a)
{
    return miopenBatchNormalizationForwardInference_V2(a.h, a.mode, const_cast<float*>(a.alpha),
                                                       const_cast<float*>(a.beta), a.x, a.xb, a.y, a.yb, a.scale,
                                                       a.bias, a.mean, a.variance, a.scaleb, a.biasb, a.meanb,
                                                       a.varianceb, a.epsilon);
}

struct Case
{
    std::string label;
    std::function<void(Args&)> change;
};

int run(Fixture& f, const char* entry, const Call& call, const std::vector<Case>& cases)
{
    int invalid_succeeded = 0;
    for(const auto& c : cases)
    {
        Args a = f.valid();
        c.change(a);
        f.reset();
        const consumer::ParityCase pc("inf", entry, c.label);
        const miopenStatus_t s = call(a);
        invalid_succeeded += pc.report(s, f.hash()) ? 1 : 0;
    }
    return invalid_succeeded;
}

} // namespace

int main()
{
    Fixture f;
    auto y_other  = packed_tensor(miopenFloat, {2, 3, 4, 6});
    auto y_half   = packed_tensor(miopenHalf, {2, 3, 4, 5});
    auto p_wrong  = packed_tensor(miopenFloat, {1, 4, 1, 1});
    auto x3       = packed_tensor(miopenFloat, {2, 3, 20});
    auto p3       = packed_tensor(miopenFloat, {1, 3, 1});
    auto x_padded = consumer::packed_tensor(miopenFloat, {2, 3, 4, 5});
    {
        const int dims[] = {2, 3, 4, 5}, strides[] = {64, 20, 5, 1};
        consumer::must(miopenSetTensorDescriptor(x_padded, miopenFloat, 4, dims, strides), "padded x");
    }
    // One descriptor set again between two calls: the second call must see
    // the change (the wrapper remembers what unchanged descriptors translated to).
    auto x_reused = packed_tensor(miopenFloat, {2, 3, 4, 5});
    const auto set_x_reused = [x_reused](int channels) {
        const int dims[] = {2, channels, 4, 5}, strides[] = {20 * channels, 20, 5, 1};
        consumer::must(miopenSetTensorDescriptor(x_reused, miopenFloat, 4, dims, strides), "reused x");
    };
    const std::vector<Case> cases = {
        {"valid", [](Args&) {}},
        {"null handle", [](Args& a) { a.h = nullptr; }},
        {"null xDesc", [](Args& a) { a.x = nullptr; }},
        {"null yDesc", [](Args& a) { a.y = nullptr; }},
        {"null per-channel descriptor", [](Args& a) { a.scale = a.bias = a.mean = a.variance = nullptr; }},
        {"null x", [](Args& a) { a.xb = nullptr; }},
        {"null y", [](Args& a) { a.yb = nullptr; }},
        {"null bnScale", [](Args& a) { a.scaleb = nullptr; }},
        {"null bnBias", [](Args& a) { a.biasb = nullptr; }},
        {"null alpha", [](Args& a) { a.alpha = nullptr; }},
        {"alpha 2", [&f](Args& a) { a.alpha = &f.two; }},
        {"beta 1", [&f](Args& a) { a.beta = &f.one; }},
        {"per-activation mode", [](Args& a) { a.mode = miopenBNPerActivation; }},
        {"mode 7", [](Args& a) { a.mode = static_cast<miopenBatchNormMode_t>(7); }},
        {"y lengths differ", [&](Args& a) { a.y = y_other; }},
        {"y fp16 x fp32", [&](Args& a) { a.y = y_half; }},
        {"per-channel C differs", [&](Args& a) { a.scale = a.bias = a.mean = a.variance = p_wrong; }},
        {"x 3-D", [&](Args& a) {
             a.x = a.y = x3;
             a.scale = a.bias = a.mean = a.variance = p3;
         }},
        {"valid: x and y one reused descriptor", [&](Args& a) {
             set_x_reused(3);
             a.x = a.y = x_reused;
         }},
        {"the reused descriptor set to 2 channels (per-channel C differs)", [&](Args& a) {
             set_x_reused(2);
             a.x = a.y = x_reused;
         }},
        {"declined: null estimates (MIOpen computes the batch's statistics)",
         [](Args& a) { a.meanb = a.varianceb = nullptr; }},
        {"declined: padded x and y (hipDNN's provider takes packed only)", [&](Args& a) { a.x = a.y = x_padded; }},
    };
    int bad = run(f, "miopenBatchNormalizationForwardInference", legacy, cases);
    bad += run(f, "miopenBatchNormalizationForwardInference_V2", v2, cases);
    miopenDestroy(f.h);
    if(bad > 0)
        std::fprintf(stderr, "bn_parity_consumer: %d case(s) meant to be invalid succeeded\n", bad);
    return bad > 0 ? 1 : 0;
}
