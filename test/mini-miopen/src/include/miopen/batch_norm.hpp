// Batch normalization helpers (spatial mode only in the test bed).
#pragma once

#include <miopen/miopen.h>
#include <miopen/tensor.hpp>

namespace miopen {

// Shape of the per-channel parameter tensor of x: (1, C, 1, 1[, 1]).
TensorDescriptor DeriveBNTensorDescriptor(const TensorDescriptor& x, miopenBatchNormMode_t mode);

// Validates the mode (miopenBNPerActivation -> miopenStatusNotImplemented,
// other values -> miopenStatusBadParm), x/y agreement and parameter shapes.
void CheckBatchNormArgs(miopenBatchNormMode_t mode,
                        const TensorDescriptor& x,
                        const TensorDescriptor& y,
                        std::initializer_list<const TensorDescriptor*> params);

// Parameter view; a null data pointer stays null ("not requested").
cpu::TensorView ParamView(const TensorDescriptor& d, const void* data);

} // namespace miopen
