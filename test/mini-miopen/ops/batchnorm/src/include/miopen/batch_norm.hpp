// Batch normalization: the parameter shape and the argument checks, in
// MIOpen's order (src/ocl/batchnormocl.cpp and
// src/include/miopen/batchnorm/problem_description.hpp @2d1fd997), then the
// test bed's own (what its CPU kernels can compute).
#pragma once

#include <miopen/cpu/batchnorm.hpp>
#include <miopen/miopen.h>
#include <miopen/tensor.hpp>

#include <initializer_list>
#include <vector>

namespace miopen {

// The kernels' mode: spatial, else per-activation (MIOpen's kernels, and its
// DeriveBNTensorDescriptor, take any other value as per-activation).
cpu::BatchNormMode KernelMode(miopenBatchNormMode_t mode);

// Shape of the parameter tensors of x: (1, C, 1, 1[, 1]) spatial,
// (1, C, [D,] H, W) per-activation; fp32.
TensorDescriptor DeriveBNTensorDescriptor(const TensorDescriptor& x, miopenBatchNormMode_t mode);

// The descriptors of one call: x, its same-shaped companions (y; dy and dx)
// and the four parameter descriptors (scale, bias, mean, variance).
struct BatchNormTensors
{
    const TensorDescriptor& x;
    std::vector<const TensorDescriptor*> io;
    std::vector<const TensorDescriptor*> params;
};

// BatchNormForwardTraining, and BatchNormForwardInference with both
// estimates (with one or none inference is a training pass).
enum class ForwardPass
{
    Training,
    Inference,
};

// x, y, scale and bias given; every descriptor of x's rank; y of x's type;
// training: x packed; at least 3 dimensions (all BadParm); alpha 1 and beta 0
// (training: a message-only throw, UnknownError; inference: BadParm); 4-D or
// 5-D (UnknownError).
void CheckForward(ForwardPass pass,
                  const BatchNormTensors& t,
                  std::initializer_list<const void*> buffers,
                  const void* alpha,
                  const void* beta);
// BatchNormBackward: x, dy, scale and dx given; every descriptor but dx of
// x's rank; dx of dy's type; at least 3 dimensions; both scale pairs 1/0
// (all BadParm); 4-D or 5-D (UnknownError); a mode neither spatial nor
// per-activation has no solver (NotImplemented).
void CheckBackward(miopenBatchNormMode_t mode,
                   const BatchNormTensors& t,
                   std::initializer_list<const void*> buffers,
                   const void* alpha_data,
                   const void* beta_data,
                   const void* alpha_param,
                   const void* beta_param);

// The test bed's own, after MIOpen's: every io tensor of x's lengths and the
// parameters of the mode's shape (BadParm; MIOpen's kernels would read
// outside them).
void CheckComputable(miopenBatchNormMode_t mode, const BatchNormTensors& t);

// Parameter view; a null data pointer stays null ("not requested").
cpu::TensorView ParamView(const TensorDescriptor& d, const void* data);

} // namespace miopen
