// Independent double-precision convolution references for the kernel tests:
// forward as explicit im2col + GEMM, backward-data as GEMM + col2im, backward-weights
// as GEMM with the transposed im2col matrix. Every result comes with the matching sum
// of absolute products (for rounding-error bounds).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace kt {

struct ConvShape
{
    int sd = 2; // spatial dims
    std::int64_t N = 1, C = 1, K = 1, G = 1;
    std::int64_t in[3]  = {1, 1, 1};
    std::int64_t f[3]   = {1, 1, 1};
    std::int64_t pad[3] = {0, 0, 0};
    std::int64_t str[3] = {1, 1, 1};
    std::int64_t dil[3] = {1, 1, 1};

    std::int64_t out(int i) const
    {
        return (in[i] + 2 * pad[i] - dil[i] * (f[i] - 1) - 1) / str[i] + 1;
    }
    std::int64_t in_total() const { return prod(in); }
    std::int64_t f_total() const { return prod(f); }
    std::int64_t out_total() const
    {
        std::int64_t p = 1;
        for(int i = 0; i < sd; ++i)
            p *= out(i);
        return p;
    }
    std::int64_t Cg() const { return C / G; }
    std::int64_t Kg() const { return K / G; }

    std::vector<std::int64_t> x_lens() const { return lens(N, C, in); }
    std::vector<std::int64_t> w_lens() const { return lens(K, Cg(), f); }
    std::vector<std::int64_t> y_lens() const
    {
        std::int64_t o[3] = {out(0), out(1), out(2)};
        return lens(N, K, o);
    }

    private:
    std::int64_t prod(const std::int64_t* a) const
    {
        std::int64_t p = 1;
        for(int i = 0; i < sd; ++i)
            p *= a[i];
        return p;
    }
    std::vector<std::int64_t> lens(std::int64_t a, std::int64_t b, const std::int64_t* s) const
    {
        std::vector<std::int64_t> l{a, b};
        for(int i = 0; i < sd; ++i)
            l.push_back(s[i]);
        return l;
    }
};

// The im2col matrix of one group: rows (c, filter tap), columns (n, output position).
// Entry = flat index into x (row-major N, C, spatial) or -1 for padding.
inline std::vector<std::int64_t> im2col_index(const ConvShape& s, std::int64_t g)
{
    const std::int64_t F = s.f_total(), O = s.out_total(), I = s.in_total();
    const std::int64_t rows = s.Cg() * F, cols = s.N * O;
    std::vector<std::int64_t> m(rows * cols, -1);
    for(std::int64_t c = 0; c < s.Cg(); ++c)
        for(std::int64_t fi = 0; fi < F; ++fi)
        {
            // unflatten the filter tap
            std::int64_t ft[3] = {0, 0, 0}, rem = fi;
            for(int d = s.sd - 1; d >= 0; --d)
            {
                ft[d] = rem % s.f[d];
                rem /= s.f[d];
            }
            for(std::int64_t n = 0; n < s.N; ++n)
                for(std::int64_t oi = 0; oi < O; ++oi)
                {
                    std::int64_t op[3] = {0, 0, 0}, r2 = oi;
                    for(int d = s.sd - 1; d >= 0; --d)
                    {
                        op[d] = r2 % s.out(d);
                        r2 /= s.out(d);
                    }
                    std::int64_t flat = 0;
                    bool inside       = true;
                    for(int d = 0; d < s.sd; ++d)
                    {
                        const std::int64_t p = op[d] * s.str[d] - s.pad[d] + ft[d] * s.dil[d];
                        if(p < 0 || p >= s.in[d])
                            inside = false;
                        flat = flat * s.in[d] + p;
                    }
                    if(inside)
                        m[(c * F + fi) * cols + n * O + oi] =
                            (n * s.C + g * s.Cg() + c) * I + flat;
                }
        }
    return m;
}

struct RefResult
{
    std::vector<double> value;  // exact-ish (double) result
    std::vector<double> absval; // sum of |products|
};

// y[n][k][o] = sum_r W[k][r] * col[r][n, o]
inline RefResult ref_forward(const ConvShape& s, const std::vector<double>& x,
                             const std::vector<double>& w)
{
    const std::int64_t F = s.f_total(), O = s.out_total();
    const std::int64_t rows = s.Cg() * F, cols = s.N * O;
    RefResult r{std::vector<double>(s.N * s.K * O, 0.0), std::vector<double>(s.N * s.K * O, 0.0)};
    for(std::int64_t g = 0; g < s.G; ++g)
    {
        const auto col = im2col_index(s, g);
        for(std::int64_t k = 0; k < s.Kg(); ++k)
        {
            const std::int64_t kk = g * s.Kg() + k;
            for(std::int64_t j = 0; j < cols; ++j)
            {
                double acc = 0.0, aacc = 0.0;
                for(std::int64_t rr = 0; rr < rows; ++rr)
                {
                    const std::int64_t xi = col[rr * cols + j];
                    if(xi < 0)
                        continue;
                    const double p = w[kk * rows + rr] * x[xi];
                    acc += p;
                    aacc += std::abs(p);
                }
                const std::int64_t n = j / O, o = j % O;
                r.value[(n * s.K + kk) * O + o]  = acc;
                r.absval[(n * s.K + kk) * O + o] = aacc;
            }
        }
    }
    return r;
}

// dcol = W^T * dy, then col2im scatter-add into dx.
inline RefResult ref_backward_data(const ConvShape& s, const std::vector<double>& dy,
                                   const std::vector<double>& w)
{
    const std::int64_t F = s.f_total(), O = s.out_total(), I = s.in_total();
    const std::int64_t rows = s.Cg() * F, cols = s.N * O;
    RefResult r{std::vector<double>(s.N * s.C * I, 0.0), std::vector<double>(s.N * s.C * I, 0.0)};
    for(std::int64_t g = 0; g < s.G; ++g)
    {
        const auto col = im2col_index(s, g);
        for(std::int64_t rr = 0; rr < rows; ++rr)
            for(std::int64_t j = 0; j < cols; ++j)
            {
                const std::int64_t xi = col[rr * cols + j];
                if(xi < 0)
                    continue;
                const std::int64_t n = j / O, o = j % O;
                double acc = 0.0, aacc = 0.0;
                for(std::int64_t k = 0; k < s.Kg(); ++k)
                {
                    const std::int64_t kk = g * s.Kg() + k;
                    const double p        = w[kk * rows + rr] * dy[(n * s.K + kk) * O + o];
                    acc += p;
                    aacc += std::abs(p);
                }
                r.value[xi] += acc;
                r.absval[xi] += aacc;
            }
    }
    return r;
}

// dW[k][r] = sum_j dy[k][j] * col[r][j]
inline RefResult ref_backward_weights(const ConvShape& s, const std::vector<double>& dy,
                                      const std::vector<double>& x)
{
    const std::int64_t F = s.f_total(), O = s.out_total();
    const std::int64_t rows = s.Cg() * F, cols = s.N * O;
    RefResult r{std::vector<double>(s.K * rows, 0.0), std::vector<double>(s.K * rows, 0.0)};
    for(std::int64_t g = 0; g < s.G; ++g)
    {
        const auto col = im2col_index(s, g);
        for(std::int64_t k = 0; k < s.Kg(); ++k)
        {
            const std::int64_t kk = g * s.Kg() + k;
            for(std::int64_t rr = 0; rr < rows; ++rr)
            {
                double acc = 0.0, aacc = 0.0;
                for(std::int64_t j = 0; j < cols; ++j)
                {
                    const std::int64_t xi = col[rr * cols + j];
                    if(xi < 0)
                        continue;
                    const std::int64_t n = j / O, o = j % O;
                    const double p       = dy[(n * s.K + kk) * O + o] * x[xi];
                    acc += p;
                    aacc += std::abs(p);
                }
                r.value[kk * rows + rr]  = acc;
                r.absval[kk * rows + rr] = aacc;
            }
        }
    }
    return r;
}

} // namespace kt
