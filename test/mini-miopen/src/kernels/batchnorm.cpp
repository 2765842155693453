// Spatial batch normalisation kernels of the mini MIOpen CPU test bed.
// Per-channel statistics are accumulated in double (two passes: mean, then
// centred sum of squares); the element math is done in float/double and stored
// in the tensor's storage type.
#include <miopen/cpu/kernels.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace miopen {
namespace cpu {
namespace {

// N, C, D, H, W view of a 4-D or 5-D tensor.
struct V5
{
    const TensorView* t;
    std::int64_t len[5];
    std::int64_t str[5];
};

V5 as5(const TensorView& t)
{
    V5 v{};
    v.t = &t;
    if(t.nd == 4)
    {
        const int map[5] = {0, 1, -1, 2, 3};
        for(int i = 0; i < 5; ++i)
        {
            v.len[i] = map[i] < 0 ? 1 : t.lens[map[i]];
            v.str[i] = map[i] < 0 ? 0 : t.strides[map[i]];
        }
    }
    else if(t.nd == 5)
    {
        for(int i = 0; i < 5; ++i)
        {
            v.len[i] = t.lens[i];
            v.str[i] = t.strides[i];
        }
    }
    else
        throw std::invalid_argument("batchnorm: tensors must be 4-D or 5-D");
    return v;
}

void same_shape(const V5& a, const V5& b)
{
    for(int i = 0; i < 5; ++i)
        if(a.len[i] != b.len[i])
            throw std::invalid_argument("batchnorm: data tensor lengths mismatch");
}

// Calls f(offsets...) over all (n, d, h, w) of channel c.
template <std::size_t K, typename F>
void for_channel(const V5 (&vs)[K], std::int64_t c, F f)
{
    const V5& s = vs[0];
    std::int64_t off[K];
    for(std::int64_t n = 0; n < s.len[0]; ++n)
        for(std::int64_t d = 0; d < s.len[2]; ++d)
            for(std::int64_t h = 0; h < s.len[3]; ++h)
                for(std::int64_t w = 0; w < s.len[4]; ++w)
                {
                    for(std::size_t k = 0; k < K; ++k)
                        off[k] = n * vs[k].str[0] + c * vs[k].str[1] + d * vs[k].str[2] +
                                 h * vs[k].str[3] + w * vs[k].str[4];
                    f(off);
                }
}

// Per-channel parameter access: element c of a (1, C, 1, 1[, 1]) view.
double pget(const TensorView& p, std::int64_t c)
{
    return load(p.type, p.data, c * p.strides[1]);
}
void pput(const TensorView& p, std::int64_t c, double v)
{
    store(p.type, p.data, c * p.strides[1], static_cast<float>(v));
}
void check_param(const TensorView& p, std::int64_t C, const char* what)
{
    if(p.data == nullptr)
        return;
    if(p.nd < 2 || p.lens[1] != C)
        throw std::invalid_argument(std::string("batchnorm: parameter tensor ") + what +
                                    " must have C channels");
}

void channel_stats(const V5& x, std::int64_t c, double& mean, double& var)
{
    const V5 vs[1] = {x};
    const DataType ty = x.t->type;
    const void* data  = x.t->data;
    double sum        = 0.0;
    for_channel(vs, c, [&](const std::int64_t* o) { sum += load(ty, data, o[0]); });
    const double m = static_cast<double>(x.len[0] * x.len[2] * x.len[3] * x.len[4]);
    mean           = sum / m;
    double sq      = 0.0;
    for_channel(vs, c, [&](const std::int64_t* o) {
        const double d = load(ty, data, o[0]) - mean;
        sq += d * d;
    });
    var = sq / m;
}

inline void blend_store(const TensorView& t, std::int64_t o, double v, float alpha, float beta)
{
    double r = alpha * v;
    if(beta != 0.0f)
        r += static_cast<double>(beta) * load(t.type, t.data, o);
    store(t.type, t.data, o, static_cast<float>(r));
}

} // namespace

void batchnorm_spatial_inference(const TensorView& xt, const TensorView& yt,
                                 const TensorView& scale, const TensorView& bias,
                                 const TensorView& est_mean, const TensorView& est_var,
                                 double epsilon, float alpha, float beta)
{
    const V5 x = as5(xt), y = as5(yt);
    same_shape(x, y);
    const std::int64_t C = x.len[1];
    check_param(scale, C, "scale");
    check_param(bias, C, "bias");
    check_param(est_mean, C, "mean");
    check_param(est_var, C, "variance");
    const V5 vs[2] = {x, y};
    for(std::int64_t c = 0; c < C; ++c)
    {
        const double mean = pget(est_mean, c);
        const double inv  = 1.0 / std::sqrt(pget(est_var, c) + epsilon);
        const double s    = pget(scale, c);
        const double b    = pget(bias, c);
        for_channel(vs, c, [&](const std::int64_t* o) {
            const double xv = load(xt.type, xt.data, o[0]);
            blend_store(yt, o[1], s * (xv - mean) * inv + b, alpha, beta);
        });
    }
}

void batchnorm_spatial_training(const TensorView& xt, const TensorView& yt,
                                const TensorView& scale, const TensorView& bias,
                                double exp_avg_factor, double epsilon,
                                const TensorView& running_mean, const TensorView& running_var,
                                const TensorView& save_mean, const TensorView& save_inv_var,
                                float alpha, float beta)
{
    const V5 x = as5(xt), y = as5(yt);
    same_shape(x, y);
    const std::int64_t C = x.len[1];
    check_param(scale, C, "scale");
    check_param(bias, C, "bias");
    check_param(running_mean, C, "running mean");
    check_param(running_var, C, "running variance");
    check_param(save_mean, C, "saved mean");
    check_param(save_inv_var, C, "saved inverse variance");
    const std::int64_t m = x.len[0] * x.len[2] * x.len[3] * x.len[4];
    if(m == 0)
        return;
    const V5 vs[2] = {x, y};
    for(std::int64_t c = 0; c < C; ++c)
    {
        double mean, var;
        channel_stats(x, c, mean, var);
        const double inv = 1.0 / std::sqrt(var + epsilon);
        const double s   = pget(scale, c);
        const double b   = pget(bias, c);
        for_channel(vs, c, [&](const std::int64_t* o) {
            const double xv = load(xt.type, xt.data, o[0]);
            blend_store(yt, o[1], s * (xv - mean) * inv + b, alpha, beta);
        });
        if(running_mean.data != nullptr)
            pput(running_mean, c,
                 (1.0 - exp_avg_factor) * pget(running_mean, c) + exp_avg_factor * mean);
        if(running_var.data != nullptr)
        {
            const double unbiased = m > 1 ? var * static_cast<double>(m) / (m - 1) : var;
            pput(running_var, c,
                 (1.0 - exp_avg_factor) * pget(running_var, c) + exp_avg_factor * unbiased);
        }
        if(save_mean.data != nullptr)
            pput(save_mean, c, mean);
        if(save_inv_var.data != nullptr)
            pput(save_inv_var, c, inv);
    }
}

void batchnorm_spatial_backward(const TensorView& xt, const TensorView& dyt, const TensorView& dxt,
                                const TensorView& scale, const TensorView& dscale,
                                const TensorView& dbias, double epsilon,
                                const TensorView& saved_mean, const TensorView& saved_inv_var,
                                float alpha_data, float beta_data, float alpha_param,
                                float beta_param)
{
    const V5 x = as5(xt), dy = as5(dyt), dx = as5(dxt);
    same_shape(x, dy);
    same_shape(x, dx);
    const std::int64_t C = x.len[1];
    check_param(scale, C, "scale");
    check_param(dscale, C, "dscale");
    check_param(dbias, C, "dbias");
    check_param(saved_mean, C, "saved mean");
    check_param(saved_inv_var, C, "saved inverse variance");
    const std::int64_t m = x.len[0] * x.len[2] * x.len[3] * x.len[4];
    if(m == 0)
        return;
    const bool use_saved = saved_mean.data != nullptr && saved_inv_var.data != nullptr;
    const V5 vs[3]       = {x, dy, dx};
    for(std::int64_t c = 0; c < C; ++c)
    {
        double mean, inv;
        if(use_saved)
        {
            mean = pget(saved_mean, c);
            inv  = pget(saved_inv_var, c);
        }
        else
        {
            double var;
            channel_stats(x, c, mean, var);
            inv = 1.0 / std::sqrt(var + epsilon);
        }
        // dbias = sum(dy), dscale = sum(dy * xhat)
        double sum_dy = 0.0, sum_dy_xhat = 0.0;
        for_channel(vs, c, [&](const std::int64_t* o) {
            const double xhat = (load(xt.type, xt.data, o[0]) - mean) * inv;
            const double g    = load(dyt.type, dyt.data, o[1]);
            sum_dy += g;
            sum_dy_xhat += g * xhat;
        });
        // dx = scale * inv / m * (m * dy - dbias - xhat * dscale)
        const double k = pget(scale, c) * inv / static_cast<double>(m);
        for_channel(vs, c, [&](const std::int64_t* o) {
            const double xhat = (load(xt.type, xt.data, o[0]) - mean) * inv;
            const double g    = load(dyt.type, dyt.data, o[1]);
            blend_store(dxt, o[2], k * (static_cast<double>(m) * g - sum_dy - xhat * sum_dy_xhat),
                        alpha_data, beta_data);
        });
        if(dscale.data != nullptr)
            blend_store(dscale, c * dscale.strides[1], sum_dy_xhat, alpha_param, beta_param);
        if(dbias.data != nullptr)
            blend_store(dbias, c * dbias.strides[1], sum_dy, alpha_param, beta_param);
    }
}

} // namespace cpu
} // namespace miopen
