// Bias and activation kernels of the mini MIOpen CPU test bed.
// Activation formulas follow MIOpen's neuron definitions (miopenActivationMode_t):
//   PassThru     x
//   Logistic     1 / (1 + e^-x)
//   Tanh         beta * tanh(alpha * x)
//   Relu         max(0, x)
//   SoftRelu     log(1 + e^x)
//   Abs          |x|
//   Power        (alpha + beta * x)^gamma, 0 when the base is <= a small epsilon
//   ClippedRelu  min(alpha, max(0, x))
//   LeakyRelu    x > 0 ? x : alpha * x
//   Elu          x > 0 ? x : alpha * (e^x - 1)
//   Clamp        min(max(x, alpha), beta)
#include <miopen/cpu/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace miopen {
namespace cpu {
namespace {

// Calls f(offsets...) for every logical index of `shape`, with one element offset per tensor.
template <std::size_t K, typename F>
void for_each_index(const TensorView& shape, const TensorView* const (&ts)[K], F f)
{
    const int nd = shape.nd;
    if(nd < 1 || nd > max_dims)
        throw std::invalid_argument("elementwise: bad rank");
    for(std::size_t t = 0; t < K; ++t)
    {
        if(ts[t]->nd != nd)
            throw std::invalid_argument("elementwise: rank mismatch");
        for(int i = 0; i < nd; ++i)
            if(ts[t]->lens[i] != shape.lens[i])
                throw std::invalid_argument("elementwise: lengths mismatch");
    }
    std::int64_t total = 1;
    for(int i = 0; i < nd; ++i)
        total *= shape.lens[i];
    if(total == 0)
        return;
    std::int64_t idx[max_dims] = {0, 0, 0, 0, 0};
    std::int64_t off[K];
    for(std::size_t t = 0; t < K; ++t)
        off[t] = 0;
    for(std::int64_t e = 0; e < total; ++e)
    {
        f(off);
        // increment the multi-index, innermost (last) dimension fastest
        for(int d = nd - 1; d >= 0; --d)
        {
            ++idx[d];
            for(std::size_t t = 0; t < K; ++t)
                off[t] += ts[t]->strides[d];
            if(idx[d] < shape.lens[d])
                break;
            for(std::size_t t = 0; t < K; ++t)
                off[t] -= ts[t]->strides[d] * idx[d];
            idx[d] = 0;
        }
    }
}

// MIOpen's neuron kernels use a type-dependent epsilon for the Power base and Tanh beta.
double act_epsilon(DataType t) { return t == DataType::Half ? 1e-4 : 1e-6; }

double act_value(const ActivationParams& a, double x, double eps)
{
    switch(a.mode)
    {
    case ActivationMode::PassThru: return x;
    case ActivationMode::Logistic: return 1.0 / (1.0 + std::exp(-x));
    case ActivationMode::Tanh: return a.beta * std::tanh(a.alpha * x);
    case ActivationMode::Relu: return x > 0.0 ? x : 0.0;
    case ActivationMode::SoftRelu:
        return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    case ActivationMode::Abs: return std::fabs(x);
    case ActivationMode::Power:
    {
        const double base = a.alpha + a.beta * x;
        return base <= eps ? 0.0 : std::pow(base, a.gamma);
    }
    case ActivationMode::ClippedRelu: return std::min(a.alpha, std::max(0.0, x));
    case ActivationMode::LeakyRelu: return x > 0.0 ? x : a.alpha * x;
    case ActivationMode::Elu: return x > 0.0 ? x : a.alpha * std::expm1(x);
    case ActivationMode::Clamp: return std::min(std::max(x, a.alpha), a.beta);
    }
    throw std::invalid_argument("activation: unknown mode");
}

// d act / d x expressed the way MIOpen does (some modes use y = act(x)), times dy.
double act_grad(const ActivationParams& a, double dy, double x, double y, double eps)
{
    switch(a.mode)
    {
    case ActivationMode::PassThru: return dy;
    case ActivationMode::Logistic: return dy * y * (1.0 - y);
    case ActivationMode::Tanh:
        // d/dx beta*tanh(alpha*x) = alpha * (beta - y^2 / beta)
        return std::fabs(a.beta) <= eps ? 0.0 : dy * a.alpha * (a.beta - y * y / a.beta);
    case ActivationMode::Relu: return x > 0.0 ? dy : 0.0;
    case ActivationMode::SoftRelu:
    {
        const double e = std::exp(std::min(x, 50.0));
        return dy * e / (e + 1.0);
    }
    case ActivationMode::Abs: return x > 0.0 ? dy : -dy;
    case ActivationMode::Power:
    {
        // d/dx (alpha + beta*x)^gamma = gamma * beta * y / (alpha + beta*x)
        const double base = a.alpha + a.beta * x;
        return base <= eps ? 0.0 : dy * a.gamma * a.beta * y / base;
    }
    case ActivationMode::ClippedRelu: return (x > 0.0 && x <= a.alpha) ? dy : 0.0;
    case ActivationMode::LeakyRelu: return x > 0.0 ? dy : dy * a.alpha;
    case ActivationMode::Elu: return x > 0.0 ? dy : dy * (y + a.alpha);
    case ActivationMode::Clamp: return (x >= a.alpha && x <= a.beta) ? dy : 0.0;
    }
    throw std::invalid_argument("activation: unknown mode");
}

} // namespace

void bias_forward(const TensorView& b, const TensorView& y, float alpha, float beta)
{
    if(b.nd != y.nd || b.nd < 2)
        throw std::invalid_argument("bias_forward: rank mismatch");
    if(b.lens[1] != y.lens[1])
        throw std::invalid_argument("bias_forward: channel mismatch");
    for(int i = 0; i < b.nd; ++i)
        if(i != 1 && b.lens[i] != 1)
            throw std::invalid_argument("bias_forward: bias must be 1,C,1,1[,1]");
    // A stride-only view that turns the running multi-index into the channel number.
    TensorView chan = y;
    for(int i = 0; i < y.nd; ++i)
        chan.strides[i] = 0;
    chan.strides[1]                = 1;
    const TensorView* const ts2[2] = {&y, &chan};
    for_each_index(y, ts2, [&](const std::int64_t* off) {
        const float bv = load(b.type, b.data, off[1] * b.strides[1]);
        float v        = alpha * bv;
        if(beta != 0.0f)
            v += beta * load(y.type, y.data, off[0]);
        store(y.type, y.data, off[0], v);
    });
}

float activation_apply(const ActivationParams& a, float x)
{
    return static_cast<float>(act_value(a, x, 1e-6));
}

void activation_forward(const ActivationParams& a, const TensorView& x, const TensorView& y,
                        float alpha, float beta)
{
    const double eps              = act_epsilon(x.type);
    const TensorView* const ts[2] = {&x, &y};
    for_each_index(y, ts, [&](const std::int64_t* off) {
        const float xv = load(x.type, x.data, off[0]);
        float v        = alpha * static_cast<float>(act_value(a, xv, eps));
        if(beta != 0.0f)
            v += beta * load(y.type, y.data, off[1]);
        store(y.type, y.data, off[1], v);
    });
}

void activation_backward(const ActivationParams& a, const TensorView& y, const TensorView& dy,
                         const TensorView& x, const TensorView& dx, float alpha, float beta)
{
    const double eps              = act_epsilon(x.type);
    const TensorView* const ts[4] = {&y, &dy, &x, &dx};
    for_each_index(dx, ts, [&](const std::int64_t* off) {
        const float yv  = load(y.type, y.data, off[0]);
        const float dyv = load(dy.type, dy.data, off[1]);
        const float xv  = load(x.type, x.data, off[2]);
        float v         = alpha * static_cast<float>(act_grad(a, dyv, xv, yv, eps));
        if(beta != 0.0f)
            v += beta * load(dx.type, dx.data, off[3]);
        store(dx.type, dx.data, off[3], v);
    });
}

} // namespace cpu
} // namespace miopen
