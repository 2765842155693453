// One convolution (+ bias, + batchnorm, + activation) case shared by the
// fusion tests, and the same computation through separate API calls, which a
// fused execution must reproduce bit for bit (the test bed runs the same CPU
// kernels in the same order).
#pragma once

#include "common.hpp"

#include <cstdint>
#include <vector>

namespace mmt {

inline const float kOne = 1.0f, kZero = 0.0f;

// The activations frameworks fuse, with parameters that clip this data.
struct ActivationCase
{
    miopenActivationMode_t mode;
    double alpha, beta;
};
inline const ActivationCase kFusedActivations[] = {{miopenActivationRELU, 0, 0},
                                                   {miopenActivationCLIPPEDRELU, 6.0, 0},
                                                   {miopenActivationCLAMP, -3.0, 5.0},
                                                   {miopenActivationLEAKYRELU, 0.25, 0}};

struct ConvShape
{
    int n, c, h, w, k, r, s, pad, stride;
};

// Tensors of the case and their values (as floats; Enc() gives fp16/bf16 bits).
struct FusionCase
{
    miopenDataType_t type;
    ConvShape shape;
    Tensor x, w, y, b, bn;
    Conv conv;
    std::vector<float> xf, wf, bf, scale, shift, mean, var;

    FusionCase(miopenDataType_t t, ConvShape sh)
        : type(t),
          shape(sh),
          x(t, {sh.n, sh.c, sh.h, sh.w}),
          w(t, {sh.k, sh.c, sh.r, sh.s}),
          y(t, {sh.n, sh.k, OutDim(sh.h, sh.r, sh), OutDim(sh.w, sh.s, sh)}),
          b(t, {1, sh.k, 1, 1}),
          bn(miopenFloat, {1, sh.k, 1, 1}),
          conv(sh.pad, sh.stride, 1)
    {
        for(int i = 0; i < sh.n * sh.c * sh.h * sh.w; ++i)
            xf.push_back(static_cast<float>((i * 7) % 11) - 5.0f);
        for(int i = 0; i < sh.k * sh.c * sh.r * sh.s; ++i)
            wf.push_back(static_cast<float>((i * 5) % 7) - 3.0f);
        for(int i = 0; i < sh.k; ++i)
        {
            bf.push_back(static_cast<float>((i * 3) % 5) * 2.0f - 5.0f);
            scale.push_back(0.5f + 0.25f * static_cast<float>(i % 3));
            shift.push_back(static_cast<float>(i % 4) - 1.5f);
            mean.push_back(static_cast<float>(i % 5) - 2.0f);
            var.push_back(1.0f + static_cast<float>(i % 2));
        }
    }

    static int OutDim(int in, int filter, const ConvShape& sh)
    {
        return (in + 2 * sh.pad - filter) / sh.stride + 1;
    }
    std::size_t OutSize() const
    {
        return static_cast<std::size_t>(shape.n) * shape.k * OutDim(shape.h, shape.r, shape) *
               OutDim(shape.w, shape.s, shape);
    }
    std::vector<std::uint16_t> Enc(const std::vector<float>& v) const
    {
        std::vector<std::uint16_t> out;
        for(float f : v)
            out.push_back(type == miopenHalf ? to_half(f) : to_bf16(f));
        return out;
    }
};

// conv -> [bias] -> [batchnorm inference] -> activation through separate calls.
template <class T>
std::vector<T> RunSeparate(miopenHandle_t h,
                           FusionCase& c,
                           const std::vector<T>& x,
                           const std::vector<T>& w,
                           const std::vector<T>* bias,
                           bool batchnorm,
                           miopenActivationDescriptor_t act)
{
    std::vector<T> y(c.OutSize()), z(c.OutSize());
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, c.x, x.data(), c.w, w.data(), c.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, c.y, y.data(),
                                       nullptr, 0),
              miopenStatusSuccess);
    if(bias != nullptr)
    {
        EXPECT_EQ(miopenConvolutionForwardBias(h, &kOne, c.b, bias->data(), &kZero, c.y, y.data()),
                  miopenStatusSuccess);
    }
    if(batchnorm)
    {
        std::vector<T> t(c.OutSize());
        EXPECT_EQ(miopenBatchNormalizationForwardInference(
                      h, miopenBNSpatial, const_cast<float*>(&kOne), const_cast<float*>(&kZero),
                      c.y, y.data(), c.y, t.data(), c.bn, c.scale.data(), c.shift.data(),
                      c.mean.data(), c.var.data(), 1e-5),
                  miopenStatusSuccess);
        y = t;
    }
    EXPECT_EQ(miopenActivationForward(h, act, &kOne, c.y, y.data(), &kZero, c.y, z.data()),
              miopenStatusSuccess);
    return z;
}

} // namespace mmt
