// The driver's own CPU reference: direct convolution in double precision
// over the element values the library was given, in any layout (strides),
// 2-D as 3-D with depth 1. Independent of the MIOpen under test: it shares
// no code with the test bed's kernels or with hipDNN's engines.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace driver {

// Logical dims always in N, C, D, H, W order; strides in the same order.
struct Shape
{
    std::array<long, 5> len{};
    std::array<long, 5> stride{};
    size_t offset(long n, long c, long d, long h, long w) const
    {
        return size_t(n * stride[0] + c * stride[1] + d * stride[2] + h * stride[3] + w * stride[4]);
    }
    size_t elements() const
    {
        size_t e = 1;
        for(long l : len)
            e *= size_t(l);
        return e;
    }
};

struct ConvGeometry
{
    std::array<long, 3> pad{}, stride{1, 1, 1}, dilation{1, 1, 1};
    long groups = 1;
};

// Visits every (x element, w element, y element) triple that one
// multiply-accumulate of the convolution touches, as buffer offsets.
template <class F>
void for_each_mac(const Shape& x, const Shape& w, const Shape& y, const ConvGeometry& g, F&& mac)
{
    const long cg = x.len[1] / g.groups; // input channels per group
    const long kg = y.len[1] / g.groups; // output channels per group
    for(long n = 0; n < y.len[0]; ++n)
        for(long k = 0; k < y.len[1]; ++k)
        {
            const long grp = k / kg;
            for(long od = 0; od < y.len[2]; ++od)
                for(long oh = 0; oh < y.len[3]; ++oh)
                    for(long ow = 0; ow < y.len[4]; ++ow)
                    {
                        const size_t yo = y.offset(n, k, od, oh, ow);
                        for(long c = 0; c < cg; ++c)
                            for(long fd = 0; fd < w.len[2]; ++fd)
                            {
                                const long id = od * g.stride[0] - g.pad[0] + fd * g.dilation[0];
                                if(id < 0 || id >= x.len[2])
                                    continue;
                                for(long fh = 0; fh < w.len[3]; ++fh)
                                {
                                    const long ih = oh * g.stride[1] - g.pad[1] + fh * g.dilation[1];
                                    if(ih < 0 || ih >= x.len[3])
                                        continue;
                                    for(long fw = 0; fw < w.len[4]; ++fw)
                                    {
                                        const long iw = ow * g.stride[2] - g.pad[2] + fw * g.dilation[2];
                                        if(iw < 0 || iw >= x.len[4])
                                            continue;
                                        mac(x.offset(n, grp * cg + c, id, ih, iw), w.offset(k, c, fd, fh, fw), yo);
                                    }
                                }
                            }
                    }
        }
}

// y = conv(x, w)
inline std::vector<double> reference_forward(const Shape& xs, const std::vector<double>& x, const Shape& ws,
                                             const std::vector<double>& w, const Shape& ys, const ConvGeometry& g,
                                             size_t y_size)
{
    std::vector<double> y(y_size, 0.0);
    for_each_mac(xs, ws, ys, g, [&](size_t xi, size_t wi, size_t yi) { y[yi] += x[xi] * w[wi]; });
    return y;
}

// dx = conv_backward_data(dy, w)
inline std::vector<double> reference_backward_data(const Shape& xs, const Shape& ws, const std::vector<double>& w,
                                                   const Shape& ys, const std::vector<double>& dy,
                                                   const ConvGeometry& g, size_t x_size)
{
    std::vector<double> dx(x_size, 0.0);
    for_each_mac(xs, ws, ys, g, [&](size_t xi, size_t wi, size_t yi) { dx[xi] += dy[yi] * w[wi]; });
    return dx;
}

// dw = conv_backward_weights(x, dy)
inline std::vector<double> reference_backward_weights(const Shape& xs, const std::vector<double>& x, const Shape& ws,
                                                      const Shape& ys, const std::vector<double>& dy,
                                                      const ConvGeometry& g, size_t w_size)
{
    std::vector<double> dw(w_size, 0.0);
    for_each_mac(xs, ws, ys, g, [&](size_t xi, size_t wi, size_t yi) { dw[wi] += x[xi] * dy[yi]; });
    return dw;
}

// MIOpen's verification metric (rms_range): the root mean square of the
// difference relative to the largest magnitude of either side.
inline double rms_range(const std::vector<double>& ref, const std::vector<double>& got)
{
    if(ref.size() != got.size())
        return 1e300;
    if(ref.empty())
        return 0.0;
    double sq = 0, mag = 1e-300;
    for(size_t i = 0; i < ref.size(); ++i)
    {
        const double d = ref[i] - got[i];
        sq += d * d;
        mag = std::max({mag, ref[i] < 0 ? -ref[i] : ref[i], got[i] < 0 ? -got[i] : got[i]});
    }
    return std::sqrt(sq / double(ref.size())) / mag;
}

} // namespace driver
