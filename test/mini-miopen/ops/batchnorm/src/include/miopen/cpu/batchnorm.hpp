// The batchnorm CPU reference kernels of the mini MIOpen test bed (the
// tensor views and data types: <miopen/cpu/kernels.hpp>).
#pragma once

#include <miopen/cpu/kernels.hpp>

namespace miopen {
namespace cpu {

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
