// End-to-end tests through the C ABI alone (no frontend):
// tensors -> convolution op -> operation graph -> heuristic -> engine config
// -> execution plan -> variant pack -> execute, checked against plain loops.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace
{

enum class Kind
{
    Fwd,
    BwdData,
    BwdFilter
};

struct Case
{
    Kind kind = Kind::Fwd;
    int sp = 2; // spatial dims: 1, 2 or 3
    int64_t N = 2, C = 4, K = 6, G = 1;
    int64_t in[3] = {1, 7, 6};  // logical d, h, w (unused leading entries must be 1)
    int64_t flt[3] = {1, 3, 3};
    int64_t pre[3] = {0, 1, 1}, post[3] = {0, 1, 1}, stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    bool channelsLast = false;
};

int64_t outSize(const Case& c, int d)
{
    return (c.in[d] + c.pre[d] + c.post[d] - c.dil[d] * (c.flt[d] - 1) - 1) / c.stride[d] + 1;
}

// A logical 5-D array [A][B][D][H][W] of doubles.
struct Arr
{
    int64_t A, B, D, H, W;
    std::vector<double> v;
    Arr(int64_t a, int64_t b, const int64_t* s) : A(a), B(b), D(s[0]), H(s[1]), W(s[2]), v(size_t(a * b * s[0] * s[1] * s[2]), 0.0) {}
    double& at(int64_t a, int64_t b, int64_t d, int64_t h, int64_t w) { return v[size_t((((a * B + b) * D + d) * H + h) * W + w)]; }
};

// Physical dims of a logical array for a graph with `sp` spatial dims.
std::vector<int64_t> physDims(const Arr& a, int sp)
{
    std::vector<int64_t> d = {a.A, a.B};
    int64_t s[3] = {a.D, a.H, a.W};
    for(int i = 3 - sp; i < 3; ++i)
    {
        d.push_back(s[i]);
    }
    return d;
}

struct Buffer
{
    std::vector<unsigned char> bytes;
    std::vector<int64_t> dims, strides;
};

size_t elemSize(hipdnnDataType_t dt) { return dt == HIPDNN_DATA_FLOAT ? 4 : 2; }

int64_t physOffset(const Buffer& b, int sp, int64_t a, int64_t c, int64_t d, int64_t h, int64_t w)
{
    int64_t s[3] = {d, h, w};
    int64_t off = a * b.strides[0] + c * b.strides[1];
    for(int i = 0; i < sp; ++i)
    {
        off += s[3 - sp + i] * b.strides[2 + i];
    }
    return off;
}

Buffer makeBuffer(const Arr& a, int sp, hipdnnDataType_t dt, bool channelsLast, bool fill)
{
    Buffer b;
    b.dims = physDims(a, sp);
    b.strides = channelsLast ? tu::channelsLastStrides(b.dims) : tu::packedStrides(b.dims);
    int64_t n = 1;
    for(auto d : b.dims)
    {
        n *= d;
    }
    b.bytes.assign(size_t(n) * elemSize(dt), 0xCD); // poison: every element must be written
    if(fill)
    {
        for(int64_t i0 = 0; i0 < a.A; ++i0)
            for(int64_t i1 = 0; i1 < a.B; ++i1)
                for(int64_t d = 0; d < a.D; ++d)
                    for(int64_t h = 0; h < a.H; ++h)
                        for(int64_t w = 0; w < a.W; ++w)
                        {
                            auto val = static_cast<float>(const_cast<Arr&>(a).at(i0, i1, d, h, w));
                            int64_t off = physOffset(b, sp, i0, i1, d, h, w);
                            if(dt == HIPDNN_DATA_FLOAT)
                                std::memcpy(&b.bytes[size_t(off) * 4], &val, 4);
                            else
                            {
                                uint16_t bits = dt == HIPDNN_DATA_HALF ? tu::toHalf(val) : tu::toBf16(val);
                                std::memcpy(&b.bytes[size_t(off) * 2], &bits, 2);
                            }
                        }
    }
    return b;
}

double readBack(const Buffer& b, int sp, hipdnnDataType_t dt, int64_t a, int64_t c, int64_t d, int64_t h, int64_t w)
{
    int64_t off = physOffset(b, sp, a, c, d, h, w);
    if(dt == HIPDNN_DATA_FLOAT)
    {
        float f;
        std::memcpy(&f, &b.bytes[size_t(off) * 4], 4);
        return f;
    }
    uint16_t bits;
    std::memcpy(&bits, &b.bytes[size_t(off) * 2], 2);
    return dt == HIPDNN_DATA_HALF ? tu::fromHalf(bits) : tu::fromBf16(bits);
}

// Deterministic small values that are exact in fp16 and bf16 (multiples of 1/8).
void fillPattern(Arr& a, int seed)
{
    for(size_t i = 0; i < a.v.size(); ++i)
    {
        a.v[i] = static_cast<double>(static_cast<int>((i * 7 + size_t(seed) * 13) % 17) - 8) / 8.0;
    }
}

double tolerance(hipdnnDataType_t dt, double ref)
{
    double scale = std::max(1.0, std::fabs(ref));
    switch(dt)
    {
    case HIPDNN_DATA_HALF: return 4e-3 * scale;
    case HIPDNN_DATA_BFLOAT16: return 2e-2 * scale;
    default: return 1e-4 * scale;
    }
}

// Straightforward reference: walk every (n, k, c, output pos, filter tap) of
// the forward relation and credit the product to the wanted result.
void reference(const Case& c, Arr& x, Arr& w, Arr& y)
{
    int64_t Cg = c.C / c.G, Kg = c.K / c.G;
    int64_t od = outSize(c, 0), oh = outSize(c, 1), ow = outSize(c, 2);
    for(int64_t n = 0; n < c.N; ++n)
        for(int64_t k = 0; k < c.K; ++k)
            for(int64_t cc = 0; cc < Cg; ++cc)
                for(int64_t a = 0; a < od; ++a)
                    for(int64_t b = 0; b < oh; ++b)
                        for(int64_t e = 0; e < ow; ++e)
                            for(int64_t r0 = 0; r0 < c.flt[0]; ++r0)
                                for(int64_t r1 = 0; r1 < c.flt[1]; ++r1)
                                    for(int64_t r2 = 0; r2 < c.flt[2]; ++r2)
                                    {
                                        int64_t i0 = a * c.stride[0] - c.pre[0] + r0 * c.dil[0];
                                        int64_t i1 = b * c.stride[1] - c.pre[1] + r1 * c.dil[1];
                                        int64_t i2 = e * c.stride[2] - c.pre[2] + r2 * c.dil[2];
                                        if(i0 < 0 || i0 >= c.in[0] || i1 < 0 || i1 >= c.in[1] || i2 < 0 || i2 >= c.in[2])
                                            continue;
                                        bool flip = c.mode == HIPDNN_CONVOLUTION;
                                        int64_t f0 = flip ? c.flt[0] - 1 - r0 : r0;
                                        int64_t f1 = flip ? c.flt[1] - 1 - r1 : r1;
                                        int64_t f2 = flip ? c.flt[2] - 1 - r2 : r2;
                                        int64_t ch = (k / Kg) * Cg + cc;
                                        switch(c.kind)
                                        {
                                        case Kind::Fwd:
                                            y.at(n, k, a, b, e) += x.at(n, ch, i0, i1, i2) * w.at(k, cc, f0, f1, f2);
                                            break;
                                        case Kind::BwdData:
                                            x.at(n, ch, i0, i1, i2) += y.at(n, k, a, b, e) * w.at(k, cc, f0, f1, f2);
                                            break;
                                        case Kind::BwdFilter:
                                            w.at(k, cc, f0, f1, f2) += y.at(n, k, a, b, e) * x.at(n, ch, i0, i1, i2);
                                            break;
                                        }
                                    }
}

class ConvGraph : public tu::BackendTest
{
protected:

    void run(const Case& c)
    {
        int64_t outS[3] = {outSize(c, 0), outSize(c, 1), outSize(c, 2)};
        int64_t fltS[3] = {c.flt[0], c.flt[1], c.flt[2]};
        Arr x(c.N, c.C, c.in), w(c.K, c.C / c.G, fltS), y(c.N, c.K, outS);
        Arr xr = x, wr = w, yr = y;
        if(c.kind != Kind::BwdData)
            fillPattern(x, 1), xr = x;
        if(c.kind != Kind::BwdFilter)
            fillPattern(w, 2), wr = w;
        if(c.kind != Kind::Fwd)
            fillPattern(y, 3), yr = y;
        reference(c, xr, wr, yr);

        Buffer bx = makeBuffer(x, c.sp, c.dt, c.channelsLast, c.kind != Kind::BwdData);
        Buffer bw = makeBuffer(w, c.sp, c.dt, c.channelsLast, c.kind != Kind::BwdFilter);
        Buffer by = makeBuffer(y, c.sp, c.dt, c.channelsLast, c.kind != Kind::Fwd);

        auto tx = keep(tu::tensor(1, c.dt, bx.dims, bx.strides));
        auto tw = keep(tu::tensor(2, c.dt, bw.dims, bw.strides));
        auto ty = keep(tu::tensor(3, c.dt, by.dims, by.strides));
        tu::ConvParams p;
        for(int i = 3 - c.sp; i < 3; ++i)
        {
            p.pre.push_back(c.pre[i]);
            p.post.push_back(c.post[i]);
            p.stride.push_back(c.stride[i]);
            p.dilation.push_back(c.dil[i]);
        }
        p.mode = c.mode;
        auto type = c.kind == Kind::Fwd       ? HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR
                    : c.kind == Kind::BwdData ? HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR
                                              : HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR;
        auto op = keep(tu::convOp(type, tx, tw, ty, p));
        auto g = keep(tu::graph(_h, {op}));
        auto pl = tu::plan(g);
        keep(pl.plan);
        EXPECT_EQ(pl.engineName, "MINI_REFERENCE_ENGINE");
        tu::execute(_h, pl, {1, 2, 3}, {bx.bytes.data(), bw.bytes.data(), by.bytes.data()});

        const Buffer& out = c.kind == Kind::Fwd ? by : c.kind == Kind::BwdData ? bx : bw;
        const Arr& ref = c.kind == Kind::Fwd ? yr : c.kind == Kind::BwdData ? xr : wr;
        int bad = 0;
        for(int64_t a = 0; a < ref.A; ++a)
            for(int64_t b = 0; b < ref.B; ++b)
                for(int64_t d = 0; d < ref.D; ++d)
                    for(int64_t h = 0; h < ref.H; ++h)
                        for(int64_t e = 0; e < ref.W; ++e)
                        {
                            double want = const_cast<Arr&>(ref).at(a, b, d, h, e);
                            double got = readBack(out, c.sp, c.dt, a, b, d, h, e);
                            if(!(std::fabs(got - want) <= tolerance(c.dt, want)) && ++bad <= 5)
                            {
                                ADD_FAILURE() << "mismatch at [" << a << "," << b << "," << d << "," << h << "," << e
                                              << "]: got " << got << " want " << want;
                            }
                        }
        EXPECT_EQ(bad, 0);
    }

};

TEST_F(ConvGraph, Fwd2dFp32Nchw) { run(Case{}); }

TEST_F(ConvGraph, Fwd2dFp32NhwcStrideDilationAsymmetricPad)
{
    Case c;
    c.channelsLast = true;
    c.in[1] = 9;
    c.in[2] = 8;
    c.stride[1] = 2;
    c.dil[2] = 2;
    c.pre[1] = 2;
    c.post[1] = 0;
    c.pre[2] = 0;
    c.post[2] = 3;
    run(c);
}

TEST_F(ConvGraph, Fwd2dGroupedConvolutionMode)
{
    Case c;
    c.G = 2;
    c.mode = HIPDNN_CONVOLUTION;
    c.flt[1] = 2; // asymmetric filter makes the mirroring visible
    run(c);
}

TEST_F(ConvGraph, Fwd2dDepthwise)
{
    Case c;
    c.C = 4;
    c.K = 8;
    c.G = 4;
    run(c);
}

TEST_F(ConvGraph, Fwd2dFp16) { Case c; c.dt = HIPDNN_DATA_HALF; run(c); }
TEST_F(ConvGraph, Fwd2dBf16Nhwc) { Case c; c.dt = HIPDNN_DATA_BFLOAT16; c.channelsLast = true; run(c); }

TEST_F(ConvGraph, Fwd1d)
{
    Case c;
    c.sp = 1;
    c.in[1] = 1;
    c.flt[1] = 1;
    c.pre[1] = c.post[1] = 0;
    c.in[2] = 11;
    c.flt[2] = 3;
    c.stride[2] = 2;
    run(c);
}

TEST_F(ConvGraph, Fwd3d)
{
    Case c;
    c.sp = 3;
    c.in[0] = 4;
    c.flt[0] = 2;
    c.pre[0] = 1;
    c.post[0] = 0;
    c.in[1] = 5;
    c.in[2] = 5;
    run(c);
}

TEST_F(ConvGraph, BwdData2dFp32) { Case c; c.kind = Kind::BwdData; c.stride[1] = 2; run(c); }
TEST_F(ConvGraph, BwdData2dGroupedNhwcFp16)
{
    Case c;
    c.kind = Kind::BwdData;
    c.G = 2;
    c.channelsLast = true;
    c.dt = HIPDNN_DATA_HALF;
    c.dil[1] = 2;
    run(c);
}
TEST_F(ConvGraph, BwdFilter2dFp32) { Case c; c.kind = Kind::BwdFilter; c.stride[2] = 2; c.pre[2] = 0; run(c); }
TEST_F(ConvGraph, BwdFilter2dGroupedConvModeBf16)
{
    Case c;
    c.kind = Kind::BwdFilter;
    c.G = 2;
    c.mode = HIPDNN_CONVOLUTION;
    c.dt = HIPDNN_DATA_BFLOAT16;
    c.flt[2] = 2;
    run(c);
}
TEST_F(ConvGraph, BwdData3dConvMode)
{
    Case c;
    c.kind = Kind::BwdData;
    c.sp = 3;
    c.in[0] = 3;
    c.flt[0] = 2;
    c.mode = HIPDNN_CONVOLUTION;
    run(c);
}

// conv -> add(bias broadcast over N,H,W) -> relu clamped to [lower, upper]
class FusedGraph : public ConvGraph
{
protected:
    void runFused(hipdnnDataType_t outType, bool withClip, bool residual)
    {
        const int64_t N = 2, C = 3, K = 4, H = 5, W = 5;
        std::vector<float> x(N * C * H * W), w(K * C * 3 * 3), b(residual ? N * K * H * W : K);
        for(size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 9) - 4) / 4.0f;
        for(size_t i = 0; i < w.size(); ++i) w[i] = float(int(i % 7) - 3) / 4.0f;
        for(size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 5) - 2);
        std::vector<int64_t> xd = {N, C, H, W}, wd = {K, C, 3, 3}, yd = {N, K, H, W};
        std::vector<int64_t> bd = residual ? yd : std::vector<int64_t>{1, K, 1, 1};
        auto tx = keep(tu::tensor(10, HIPDNN_DATA_FLOAT, xd, tu::packedStrides(xd)));
        auto tw = keep(tu::tensor(11, HIPDNN_DATA_FLOAT, wd, tu::packedStrides(wd)));
        auto tc = keep(tu::tensor(12, HIPDNN_DATA_FLOAT, yd, tu::packedStrides(yd), true));
        auto tb = keep(tu::tensor(13, HIPDNN_DATA_FLOAT, bd, tu::packedStrides(bd)));
        auto ta = keep(tu::tensor(14, HIPDNN_DATA_FLOAT, yd, tu::packedStrides(yd), true));
        auto ty = keep(tu::tensor(15, outType, yd, tu::channelsLastStrides(yd)));
        tu::ConvParams p{{1, 1}, {1, 1}, {1, 1}, {1, 1}};
        float lo = -0.5f, hi = 2.0f;
        // listed out of order on purpose: the engine must schedule by data flow
        auto relu = keep(tu::pointwiseOp(HIPDNN_POINTWISE_MODE_RELU_FWD, ta, nullptr, ty, withClip ? &lo : nullptr,
                                         withClip ? &hi : nullptr));
        auto add = keep(tu::pointwiseOp(HIPDNN_POINTWISE_MODE_ADD, tc, tb, ta));
        auto conv = keep(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, tx, tw, tc, p));
        auto g = keep(tu::graph(_h, {relu, add, conv}));
        auto pl = tu::plan(g);
        keep(pl.plan);
        EXPECT_GT(pl.workspace, 0) << "virtual tensors live in the workspace";
        std::vector<unsigned char> y(size_t(N * K * H * W) * (outType == HIPDNN_DATA_FLOAT ? 4 : 2));
        tu::execute(_h, pl, {10, 11, 13, 15}, {x.data(), w.data(), b.data(), y.data()});
        auto ys = tu::channelsLastStrides(yd);
        for(int64_t n = 0; n < N; ++n)
            for(int64_t k = 0; k < K; ++k)
                for(int64_t h = 0; h < H; ++h)
                    for(int64_t e = 0; e < W; ++e)
                    {
                        double acc = 0;
                        for(int64_t c = 0; c < C; ++c)
                            for(int64_t r = 0; r < 3; ++r)
                                for(int64_t s = 0; s < 3; ++s)
                                {
                                    int64_t ih = h - 1 + r, iw = e - 1 + s;
                                    if(ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                    acc += x[size_t(((n * C + c) * H + ih) * W + iw)] * w[size_t(((k * C + c) * 3 + r) * 3 + s)];
                                }
                        acc += residual ? b[size_t(((n * K + k) * H + h) * W + e)] : b[size_t(k)];
                        double want = withClip ? std::min(std::max(acc, double(lo)), double(hi)) : std::max(acc, 0.0);
                        int64_t off = n * ys[0] + k * ys[1] + h * ys[2] + e * ys[3];
                        double got;
                        if(outType == HIPDNN_DATA_FLOAT)
                        {
                            float f;
                            std::memcpy(&f, &y[size_t(off) * 4], 4);
                            got = f;
                        }
                        else
                        {
                            uint16_t bits;
                            std::memcpy(&bits, &y[size_t(off) * 2], 2);
                            got = tu::fromHalf(bits);
                        }
                        ASSERT_NEAR(got, want, tolerance(outType, want)) << n << "," << k << "," << h << "," << e;
                    }
    }
};

TEST_F(FusedGraph, ConvBiasReluFp32) { runFused(HIPDNN_DATA_FLOAT, false, false); }
TEST_F(FusedGraph, ConvBiasClampFp16Out) { runFused(HIPDNN_DATA_HALF, true, false); }
TEST_F(FusedGraph, ConvResidualAddClamp) { runFused(HIPDNN_DATA_FLOAT, true, true); }

} // namespace
