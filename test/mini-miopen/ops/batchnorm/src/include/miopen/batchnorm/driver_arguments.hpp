// The MIOpenDriver line of a batchnorm call (MIOpen's BnormArgsForMIOpenDriver
// and LogCmdBNorm, src/driver_arguments.cpp @2d1fd997).
#pragma once

#include <miopen/driver_arguments.hpp>

namespace miopen {
namespace debug {

// MIOpen's BatchNormDirection_t: MIOpenDriver's --forw 2 (inference), 1
// (training), --forw 0 -b 1 (backward).
enum BatchNormDirection_t
{
    ForwardInference,
    ForwardTraining,
    Backward
};

// The arguments after "./bin/MIOpenDriver " of a batchnorm call, e.g.
//   bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 --layout NCHW
// The sub-command is named after x's type and the statistics' (sMean) type;
// -s 1 when `running` (both running statistics given), -r 1 when `saved`.
std::string BnormArgsForMIOpenDriver(const TensorDescriptor& x,
                                     const TensorDescriptor& sMean,
                                     miopenBatchNormMode_t bn_mode,
                                     BatchNormDirection_t dir,
                                     bool running,
                                     bool saved);

// Log the line as [LogCmdBNorm] when MIOPEN_ENABLE_LOGGING_CMD is on. MIOpen
// logs before it checks anything; a null descriptor or x of fewer than four
// dimensions logs nothing here (MIOpen dereferences it unchecked: no line
// to copy), and the entry point reports the call.
void LogCmdBNorm(miopenTensorDescriptor_t xDesc,
                 miopenTensorDescriptor_t sMeanDesc,
                 miopenBatchNormMode_t bn_mode,
                 const void* runningMean,
                 const void* runningVariance,
                 const void* saveMean,
                 const void* saveInvVariance,
                 BatchNormDirection_t dir);

} // namespace debug
} // namespace miopen
