// Direct (loop over outputs) convolution kernels of the mini MIOpen CPU test bed.
// 2-D problems are handled as 3-D problems with a unit depth dimension.
#include <miopen/cpu/kernels.hpp>

#include <stdexcept>
#include <string>

namespace miopen {
namespace cpu {
namespace {

// A tensor normalised to 5 logical dims: N, C, D, H, W.
struct View5
{
    DataType type;
    std::int64_t len[5];
    std::int64_t str[5];
    void* data;

    std::int64_t count() const { return len[0] * len[1] * len[2] * len[3] * len[4]; }
    std::int64_t off(std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h,
                     std::int64_t w) const
    {
        return n * str[0] + c * str[1] + d * str[2] + h * str[3] + w * str[4];
    }
    float get(std::int64_t o) const { return load(type, data, o); }
    void put(std::int64_t o, float v) const { store(type, data, o, v); }
};

View5 normalise(const TensorView& t, int spatial_dims, const char* what)
{
    if(t.nd != spatial_dims + 2)
        throw std::invalid_argument(std::string("conv: tensor ") + what +
                                    " rank does not match the convolution spatial dims");
    View5 v{};
    v.type = t.type;
    v.data = t.data;
    if(t.nd == 4)
    {
        v.len[0] = t.lens[0];
        v.len[1] = t.lens[1];
        v.len[2] = 1;
        v.len[3] = t.lens[2];
        v.len[4] = t.lens[3];
        v.str[0] = t.strides[0];
        v.str[1] = t.strides[1];
        v.str[2] = 0;
        v.str[3] = t.strides[2];
        v.str[4] = t.strides[3];
    }
    else
    {
        for(int i = 0; i < 5; ++i)
        {
            v.len[i] = t.lens[i];
            v.str[i] = t.strides[i];
        }
    }
    return v;
}

struct Geom
{
    std::int64_t pad[3], stride[3], dil[3];
    std::int64_t groups;
};

Geom geometry(const ConvParams& p)
{
    if(p.spatial_dims != 2 && p.spatial_dims != 3)
        throw std::invalid_argument("conv: spatial_dims must be 2 or 3");
    if(p.group_count < 1)
        throw std::invalid_argument("conv: group_count must be >= 1");
    Geom g{};
    g.groups = p.group_count;
    // slot 0 is depth; a 2-D problem has unit depth
    const int off = 3 - p.spatial_dims;
    for(int i = 0; i < 3; ++i)
    {
        g.pad[i]    = 0;
        g.stride[i] = 1;
        g.dil[i]    = 1;
    }
    for(int i = 0; i < p.spatial_dims; ++i)
    {
        g.pad[off + i]    = p.pads[i];
        g.stride[off + i] = p.strides[i];
        g.dil[off + i]    = p.dilations[i];
        if(g.stride[off + i] < 1 || g.dil[off + i] < 1 || g.pad[off + i] < 0)
            throw std::invalid_argument("conv: strides/dilations must be >= 1, pads >= 0");
    }
    return g;
}

// x: N,C,in ; w: K,C/G,f ; y: N,K,out
void check_shapes(const Geom& g, const View5& x, const View5& w, const View5& y)
{
    if(x.len[0] != y.len[0])
        throw std::invalid_argument("conv: batch size mismatch");
    if(x.len[1] % g.groups != 0 || w.len[0] % g.groups != 0)
        throw std::invalid_argument("conv: channels not divisible by group_count");
    if(w.len[1] * g.groups != x.len[1])
        throw std::invalid_argument("conv: weight channels * groups != input channels");
    if(w.len[0] != y.len[1])
        throw std::invalid_argument("conv: weight K != output channels");
    for(int i = 0; i < 3; ++i)
    {
        const std::int64_t eff = g.dil[i] * (w.len[2 + i] - 1) + 1;
        const std::int64_t o   = (x.len[2 + i] + 2 * g.pad[i] - eff);
        const std::int64_t out = o < 0 ? 0 : o / g.stride[i] + 1;
        if(out != y.len[2 + i])
            throw std::invalid_argument("conv: output spatial size mismatch");
    }
}

inline void blend(const View5& t, std::int64_t o, float acc, float alpha, float beta)
{
    float v = alpha * acc;
    if(beta != 0.0f)
        v += beta * t.get(o);
    t.put(o, v);
}

} // namespace

void conv_forward(const ConvParams& p, const TensorView& xt, const TensorView& wt,
                  const TensorView& yt, float alpha, float beta)
{
    const Geom g  = geometry(p);
    const View5 x = normalise(xt, p.spatial_dims, "x");
    const View5 w = normalise(wt, p.spatial_dims, "w");
    const View5 y = normalise(yt, p.spatial_dims, "y");
    check_shapes(g, x, w, y);
    if(y.count() == 0)
        return;
    const std::int64_t cpg = w.len[1];
    const std::int64_t kpg = w.len[0] / g.groups;

    for(std::int64_t n = 0; n < y.len[0]; ++n)
        for(std::int64_t k = 0; k < y.len[1]; ++k)
        {
            const std::int64_t c0 = (k / kpg) * cpg;
            for(std::int64_t od = 0; od < y.len[2]; ++od)
                for(std::int64_t oh = 0; oh < y.len[3]; ++oh)
                    for(std::int64_t ow = 0; ow < y.len[4]; ++ow)
                    {
                        float acc = 0.0f;
                        for(std::int64_t c = 0; c < cpg; ++c)
                            for(std::int64_t fz = 0; fz < w.len[2]; ++fz)
                            {
                                const std::int64_t id = od * g.stride[0] - g.pad[0] + fz * g.dil[0];
                                if(id < 0 || id >= x.len[2])
                                    continue;
                                for(std::int64_t fy = 0; fy < w.len[3]; ++fy)
                                {
                                    const std::int64_t ih =
                                        oh * g.stride[1] - g.pad[1] + fy * g.dil[1];
                                    if(ih < 0 || ih >= x.len[3])
                                        continue;
                                    for(std::int64_t fx = 0; fx < w.len[4]; ++fx)
                                    {
                                        const std::int64_t iw =
                                            ow * g.stride[2] - g.pad[2] + fx * g.dil[2];
                                        if(iw < 0 || iw >= x.len[4])
                                            continue;
                                        acc += x.get(x.off(n, c0 + c, id, ih, iw)) *
                                               w.get(w.off(k, c, fz, fy, fx));
                                    }
                                }
                            }
                        blend(y, y.off(n, k, od, oh, ow), acc, alpha, beta);
                    }
        }
}

void conv_backward_data(const ConvParams& p, const TensorView& dyt, const TensorView& wt,
                        const TensorView& dxt, float alpha, float beta)
{
    const Geom g   = geometry(p);
    const View5 dy = normalise(dyt, p.spatial_dims, "dy");
    const View5 w  = normalise(wt, p.spatial_dims, "w");
    const View5 dx = normalise(dxt, p.spatial_dims, "dx");
    check_shapes(g, dx, w, dy);
    if(dx.count() == 0)
        return;
    const std::int64_t cpg = w.len[1];
    const std::int64_t kpg = w.len[0] / g.groups;

    // For an input position i and filter tap f the output position is
    // o = (i + pad - f*dil) / stride, valid only when the division is exact.
    auto out_pos = [&](int dim, std::int64_t i, std::int64_t f, std::int64_t olen) {
        const std::int64_t t = i + g.pad[dim] - f * g.dil[dim];
        if(t < 0 || t % g.stride[dim] != 0)
            return std::int64_t(-1);
        const std::int64_t o = t / g.stride[dim];
        return o < olen ? o : std::int64_t(-1);
    };

    for(std::int64_t n = 0; n < dx.len[0]; ++n)
        for(std::int64_t c = 0; c < dx.len[1]; ++c)
        {
            const std::int64_t grp = c / cpg;
            const std::int64_t cw  = c % cpg;
            for(std::int64_t id = 0; id < dx.len[2]; ++id)
                for(std::int64_t ih = 0; ih < dx.len[3]; ++ih)
                    for(std::int64_t iw = 0; iw < dx.len[4]; ++iw)
                    {
                        float acc = 0.0f;
                        for(std::int64_t kk = 0; kk < kpg; ++kk)
                        {
                            const std::int64_t k = grp * kpg + kk;
                            for(std::int64_t fz = 0; fz < w.len[2]; ++fz)
                            {
                                const std::int64_t od = out_pos(0, id, fz, dy.len[2]);
                                if(od < 0)
                                    continue;
                                for(std::int64_t fy = 0; fy < w.len[3]; ++fy)
                                {
                                    const std::int64_t oh = out_pos(1, ih, fy, dy.len[3]);
                                    if(oh < 0)
                                        continue;
                                    for(std::int64_t fx = 0; fx < w.len[4]; ++fx)
                                    {
                                        const std::int64_t ow = out_pos(2, iw, fx, dy.len[4]);
                                        if(ow < 0)
                                            continue;
                                        acc += dy.get(dy.off(n, k, od, oh, ow)) *
                                               w.get(w.off(k, cw, fz, fy, fx));
                                    }
                                }
                            }
                        }
                        blend(dx, dx.off(n, c, id, ih, iw), acc, alpha, beta);
                    }
        }
}

void conv_backward_weights(const ConvParams& p, const TensorView& dyt, const TensorView& xt,
                           const TensorView& dwt, float alpha, float beta)
{
    const Geom g   = geometry(p);
    const View5 dy = normalise(dyt, p.spatial_dims, "dy");
    const View5 x  = normalise(xt, p.spatial_dims, "x");
    const View5 dw = normalise(dwt, p.spatial_dims, "dw");
    check_shapes(g, x, dw, dy);
    if(dw.count() == 0)
        return;
    const std::int64_t cpg = dw.len[1];
    const std::int64_t kpg = dw.len[0] / g.groups;

    for(std::int64_t k = 0; k < dw.len[0]; ++k)
    {
        const std::int64_t c0 = (k / kpg) * cpg;
        for(std::int64_t c = 0; c < cpg; ++c)
            for(std::int64_t fz = 0; fz < dw.len[2]; ++fz)
                for(std::int64_t fy = 0; fy < dw.len[3]; ++fy)
                    for(std::int64_t fx = 0; fx < dw.len[4]; ++fx)
                    {
                        float acc = 0.0f;
                        for(std::int64_t n = 0; n < dy.len[0]; ++n)
                            for(std::int64_t od = 0; od < dy.len[2]; ++od)
                            {
                                const std::int64_t id = od * g.stride[0] - g.pad[0] + fz * g.dil[0];
                                if(id < 0 || id >= x.len[2])
                                    continue;
                                for(std::int64_t oh = 0; oh < dy.len[3]; ++oh)
                                {
                                    const std::int64_t ih =
                                        oh * g.stride[1] - g.pad[1] + fy * g.dil[1];
                                    if(ih < 0 || ih >= x.len[3])
                                        continue;
                                    for(std::int64_t ow = 0; ow < dy.len[4]; ++ow)
                                    {
                                        const std::int64_t iw =
                                            ow * g.stride[2] - g.pad[2] + fx * g.dil[2];
                                        if(iw < 0 || iw >= x.len[4])
                                            continue;
                                        acc += dy.get(dy.off(n, k, od, oh, ow)) *
                                               x.get(x.off(n, c0 + c, id, ih, iw));
                                    }
                                }
                            }
                        blend(dw, dw.off(k, c, fz, fy, fx), acc, alpha, beta);
                    }
    }
}

} // namespace cpu
} // namespace miopen
