// CPU reference kernels of the mini MIOpen test bed.
//
// "Device" memory in the test bed is host memory, so every kernel reads and
// writes plain pointers. Tensors are described in *logical* order
// (N, C, [D,] H, W) with an explicit stride per logical dimension, so NCHW,
// NHWC, NCDHW, NDHWC and any padded/strided layout are the same code path.
// Arithmetic is done in float (fp32 accumulation) for every storage type.
#pragma once

#include <cstddef>
#include <cstdint>

namespace miopen {
namespace cpu {

enum class DataType
{
    Float, // fp32
    Half,  // IEEE binary16
    BFloat16,
};

// Storage conversion helpers (round-to-nearest-even on the way down).
float load(DataType type, const void* base, std::int64_t index);
void store(DataType type, void* base, std::int64_t index, float value);

constexpr int max_dims = 5; // N, C and up to 3 spatial dims

struct TensorView
{
    DataType type;
    int nd;                          // 4 or 5
    std::int64_t lens[max_dims];     // logical N, C, [D,] H, W
    std::int64_t strides[max_dims];  // element strides, same order as lens
    void* data;                      // may be null only when the element count is 0
};

struct ConvParams
{
    int spatial_dims;                // 2 or 3
    std::int64_t pads[3];            // per spatial dim, symmetric
    std::int64_t strides[3];
    std::int64_t dilations[3];
    int group_count;                 // >= 1; C and K must be divisible by it
};

// y = alpha * conv(x, w) + beta * y          (cross-correlation)
void conv_forward(const ConvParams& p, const TensorView& x, const TensorView& w,
                  const TensorView& y, float alpha, float beta);
// dx = alpha * conv_bwd_data(dy, w) + beta * dx
void conv_backward_data(const ConvParams& p, const TensorView& dy, const TensorView& w,
                        const TensorView& dx, float alpha, float beta);
// dw = alpha * conv_bwd_weights(dy, x) + beta * dw
void conv_backward_weights(const ConvParams& p, const TensorView& dy, const TensorView& x,
                           const TensorView& dw, float alpha, float beta);

// y = alpha * b + beta * y, where b has lens (1, C, 1, 1[, 1]) and broadcasts over y.
void bias_forward(const TensorView& b, const TensorView& y, float alpha, float beta);

enum class ActivationMode
{
    PassThru,
    Logistic,
    Tanh,
    Relu,
    SoftRelu,
    Abs,
    Power,
    ClippedRelu,
    LeakyRelu,
    Elu,
    Clamp,
};

// Parameters follow MIOpen's activation descriptor (alpha, beta, gamma).
struct ActivationParams
{
    ActivationMode mode;
    double alpha;
    double beta;
    double gamma;
};

float activation_apply(const ActivationParams& a, float x);
// y = alpha * act(x) + beta * y
void activation_forward(const ActivationParams& a, const TensorView& x, const TensorView& y,
                        float alpha, float beta);
// dx = alpha * (dy * act'(x, y)) + beta * dx
void activation_backward(const ActivationParams& a, const TensorView& y, const TensorView& dy,
                         const TensorView& x, const TensorView& dx, float alpha, float beta);

} // namespace cpu
} // namespace miopen
