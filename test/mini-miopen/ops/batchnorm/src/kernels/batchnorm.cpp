// Batch normalisation kernels of the mini MIOpen CPU test bed, spatial and
// per-activation. A statistics group is one channel (spatial: reduced over
// N, D, H, W) or one (c, d, h, w) element (per-activation: reduced over N);
// its statistics are accumulated in double (two passes: mean, then centred
// sum of squares), the element math is done in double and stored in the
// tensor's storage type.
#include <miopen/cpu/batchnorm.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

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

// One statistics group: the index range of each of N, C, D, H, W.
struct Group
{
    std::int64_t lo[5], hi[5];
    std::int64_t members() const
    {
        std::int64_t m = 1;
        for(int i = 0; i < 5; ++i)
            m *= hi[i] - lo[i];
        return m;
    }
};

// Calls f(group) for every group of x in the mode.
template <typename F>
void for_each_group(BatchNormMode mode, const V5& x, F f)
{
    const bool per_activation = mode == BatchNormMode::PerActivation;
    Group g{};
    g.lo[0] = 0;
    g.hi[0] = x.len[0];
    for(std::int64_t c = 0; c < x.len[1]; ++c)
        for(std::int64_t d = 0; d < (per_activation ? x.len[2] : 1); ++d)
            for(std::int64_t h = 0; h < (per_activation ? x.len[3] : 1); ++h)
                for(std::int64_t w = 0; w < (per_activation ? x.len[4] : 1); ++w)
                {
                    const std::int64_t at[5] = {0, c, d, h, w};
                    for(int i = 1; i < 5; ++i)
                    {
                        const bool kept = i == 1 || per_activation;
                        g.lo[i]         = kept ? at[i] : 0;
                        g.hi[i]         = kept ? at[i] + 1 : x.len[i];
                    }
                    f(g);
                }
}

// Calls f(offsets...) over the elements of one group, one offset per view.
template <std::size_t K, typename F>
void for_members(const V5 (&vs)[K], const Group& g, F f)
{
    std::int64_t off[K];
    for(std::int64_t n = g.lo[0]; n < g.hi[0]; ++n)
        for(std::int64_t c = g.lo[1]; c < g.hi[1]; ++c)
            for(std::int64_t d = g.lo[2]; d < g.hi[2]; ++d)
                for(std::int64_t h = g.lo[3]; h < g.hi[3]; ++h)
                    for(std::int64_t w = g.lo[4]; w < g.hi[4]; ++w)
                    {
                        for(std::size_t k = 0; k < K; ++k)
                            off[k] = n * vs[k].str[0] + c * vs[k].str[1] + d * vs[k].str[2] +
                                     h * vs[k].str[3] + w * vs[k].str[4];
                        f(off);
                    }
}

// A parameter tensor: one element per group.
struct Param
{
    const TensorView* t;
    V5 v;
    // Element offset of a group's parameter (the group's first C, D, H, W
    // indices; a spatial group's D, H, W start at 0).
    std::int64_t offset(const Group& g) const
    {
        std::int64_t o = 0;
        for(int i = 1; i < 5; ++i)
            o += g.lo[i] * v.str[i];
        return o;
    }
    bool given() const { return t->data != nullptr; }
    double get(const Group& g) const { return load(t->type, t->data, offset(g)); }
    void put(const Group& g, double value) const
    {
        store(t->type, t->data, offset(g), static_cast<float>(value));
    }
};

// The parameter view, checked against x's group shape in the mode
// (not read when its data is null).
Param param(BatchNormMode mode, const TensorView& p, const V5& x, const char* what)
{
    Param r{&p, {}};
    if(p.data == nullptr)
        return r;
    r.v = as5(p);
    bool ok = r.v.len[0] == 1 && r.v.len[1] == x.len[1];
    for(int i = 2; i < 5; ++i)
        ok = ok && r.v.len[i] == (mode == BatchNormMode::PerActivation ? x.len[i] : 1);
    if(!ok)
        throw std::invalid_argument(std::string("batchnorm: parameter tensor ") + what +
                                    " does not match x in this mode");
    return r;
}

void group_stats(const V5& x, const Group& g, double& mean, double& var)
{
    const V5 vs[1]    = {x};
    const DataType ty = x.t->type;
    const void* data  = x.t->data;
    double sum        = 0.0;
    for_members(vs, g, [&](const std::int64_t* o) { sum += load(ty, data, o[0]); });
    const double m = static_cast<double>(g.members());
    mean           = sum / m;
    double sq      = 0.0;
    for_members(vs, g, [&](const std::int64_t* o) {
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

void batchnorm_inference(BatchNormMode mode, const TensorView& xt, const TensorView& yt,
                         const TensorView& scale_t, const TensorView& bias_t,
                         const TensorView& mean_t, const TensorView& var_t, double epsilon,
                         float alpha, float beta)
{
    const V5 x = as5(xt), y = as5(yt);
    same_shape(x, y);
    const Param scale = param(mode, scale_t, x, "scale"), bias = param(mode, bias_t, x, "bias");
    const Param mean = param(mode, mean_t, x, "mean"), var = param(mode, var_t, x, "variance");
    const V5 vs[2] = {x, y};
    for_each_group(mode, x, [&](const Group& g) {
        const double m   = mean.get(g);
        const double inv = 1.0 / std::sqrt(var.get(g) + epsilon);
        const double s   = scale.get(g);
        const double b   = bias.get(g);
        for_members(vs, g, [&](const std::int64_t* o) {
            const double xv = load(xt.type, xt.data, o[0]);
            blend_store(yt, o[1], s * (xv - m) * inv + b, alpha, beta);
        });
    });
}

void batchnorm_training(BatchNormMode mode, const TensorView& xt, const TensorView& yt,
                        const TensorView& scale_t, const TensorView& bias_t, double exp_avg_factor,
                        double epsilon, const TensorView& running_mean_t,
                        const TensorView& running_var_t, const TensorView& save_mean_t,
                        const TensorView& save_inv_var_t, float alpha, float beta)
{
    const V5 x = as5(xt), y = as5(yt);
    same_shape(x, y);
    const Param scale = param(mode, scale_t, x, "scale"), bias = param(mode, bias_t, x, "bias");
    const Param running_mean = param(mode, running_mean_t, x, "running mean");
    const Param running_var  = param(mode, running_var_t, x, "running variance");
    const Param save_mean    = param(mode, save_mean_t, x, "saved mean");
    const Param save_inv_var = param(mode, save_inv_var_t, x, "saved inverse variance");
    const V5 vs[2]           = {x, y};
    for_each_group(mode, x, [&](const Group& g) {
        const std::int64_t m = g.members();
        if(m == 0)
            return;
        double mean, var;
        group_stats(x, g, mean, var);
        const double inv = 1.0 / std::sqrt(var + epsilon);
        const double s   = scale.get(g);
        const double b   = bias.get(g);
        for_members(vs, g, [&](const std::int64_t* o) {
            const double xv = load(xt.type, xt.data, o[0]);
            blend_store(yt, o[1], s * (xv - mean) * inv + b, alpha, beta);
        });
        if(running_mean.given())
            running_mean.put(g, (1.0 - exp_avg_factor) * running_mean.get(g) + exp_avg_factor * mean);
        if(running_var.given())
        {
            const double unbiased = m > 1 ? var * static_cast<double>(m) / (m - 1) : var;
            running_var.put(g, (1.0 - exp_avg_factor) * running_var.get(g) + exp_avg_factor * unbiased);
        }
        if(save_mean.given())
            save_mean.put(g, mean);
        if(save_inv_var.given())
            save_inv_var.put(g, inv);
    });
}

void batchnorm_backward(BatchNormMode mode, const TensorView& xt, const TensorView& dyt,
                        const TensorView& dxt, const TensorView& scale_t,
                        const TensorView& dscale_t, const TensorView& dbias_t, double epsilon,
                        const TensorView& saved_mean_t, const TensorView& saved_inv_var_t,
                        float alpha_data, float beta_data, float alpha_param, float beta_param)
{
    const V5 x = as5(xt), dy = as5(dyt), dx = as5(dxt);
    same_shape(x, dy);
    same_shape(x, dx);
    const Param scale = param(mode, scale_t, x, "scale");
    const Param dscale = param(mode, dscale_t, x, "dscale"), dbias = param(mode, dbias_t, x, "dbias");
    const Param saved_mean    = param(mode, saved_mean_t, x, "saved mean");
    const Param saved_inv_var = param(mode, saved_inv_var_t, x, "saved inverse variance");
    const bool use_saved      = saved_mean.given() && saved_inv_var.given();
    const V5 vs[3]            = {x, dy, dx};
    for_each_group(mode, x, [&](const Group& g) {
        const std::int64_t m = g.members();
        if(m == 0)
            return;
        double mean, inv;
        if(use_saved)
        {
            mean = saved_mean.get(g);
            inv  = saved_inv_var.get(g);
        }
        else
        {
            double var;
            group_stats(x, g, mean, var);
            inv = 1.0 / std::sqrt(var + epsilon);
        }
        // dbias = sum(dy), dscale = sum(dy * xhat)
        double sum_dy = 0.0, sum_dy_xhat = 0.0;
        for_members(vs, g, [&](const std::int64_t* o) {
            const double xhat = (load(xt.type, xt.data, o[0]) - mean) * inv;
            const double gy   = load(dyt.type, dyt.data, o[1]);
            sum_dy += gy;
            sum_dy_xhat += gy * xhat;
        });
        // dx = scale * inv / m * (m * dy - dbias - xhat * dscale)
        const double k = scale.get(g) * inv / static_cast<double>(m);
        for_members(vs, g, [&](const std::int64_t* o) {
            const double xhat = (load(xt.type, xt.data, o[0]) - mean) * inv;
            const double gy   = load(dyt.type, dyt.data, o[1]);
            blend_store(dxt, o[2], k * (static_cast<double>(m) * gy - sum_dy - xhat * sum_dy_xhat),
                        alpha_data, beta_data);
        });
        if(dscale.given())
            blend_store(dscale_t, dscale.offset(g), sum_dy_xhat, alpha_param, beta_param);
        if(dbias.given())
            blend_store(dbias_t, dbias.offset(g), sum_dy, alpha_param, beta_param);
    });
}

} // namespace cpu
} // namespace miopen
