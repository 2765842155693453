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

// Batch normalization. Spatial: one set of statistics and parameters per
// channel, the parameter tensors (1, C, 1, 1[, 1]). Per-activation: one per
// (c, [d,] h, w) element, reduced over N only, the parameter tensors
// (1, C, [D,] H, W). Parameter types may differ from x (MIOpen's _V2 entry
// points allow that).
enum class BatchNormMode
{
    Spatial,
    PerActivation,
};

// Inference: y = scale * (x - mean) / sqrt(var + eps) + bias
void batchnorm_inference(BatchNormMode mode, const TensorView& x, const TensorView& y,
                         const TensorView& scale, const TensorView& bias,
                         const TensorView& est_mean, const TensorView& est_var, double epsilon,
                         float alpha, float beta);
// Training: batch statistics (variance biased); optionally updates running
// mean/variance with running = (1 - factor) * running + factor * batch (the
// variance unbiased, m / (m - 1) for m > 1 reduced elements), optionally
// saves mean and inverse std-dev. Null data pointers mean "not requested".
void batchnorm_training(BatchNormMode mode, const TensorView& x, const TensorView& y,
                        const TensorView& scale, const TensorView& bias, double exp_avg_factor,
                        double epsilon, const TensorView& running_mean,
                        const TensorView& running_var, const TensorView& save_mean,
                        const TensorView& save_inv_var, float alpha, float beta);
// Backward: dx, dscale, dbias. When saved mean/inv-var views have data they are used,
// otherwise statistics are recomputed from x.
void batchnorm_backward(BatchNormMode mode, const TensorView& x, const TensorView& dy,
                        const TensorView& dx, const TensorView& scale, const TensorView& dscale,
                        const TensorView& dbias, double epsilon, const TensorView& saved_mean,
                        const TensorView& saved_inv_var, float alpha_data, float beta_data,
                        float alpha_param, float beta_param);

} // namespace cpu
} // namespace miopen
