// The MIOpenDriver command line MIOpen logs for a convolution (and, below, a
// batchnorm) call when
// MIOPEN_ENABLE_LOGGING_CMD is on, in MIOpen's format:
//   MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n 1 -c 3 -H 8 -W 8 -k 4
//       -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -F 1 -t 1
// (one line). The wrapper writes the same line for a convolution it forwards
// (rust/forwarding-core/src/conv/driver_cmd.rs; batchnorm:
// rust/forwarding-core/src/batchnorm/driver_cmd.rs);
// test/forwarding/check_environment.py and check_bn_driver_line.py compare the
// two byte for byte.
#pragma once

#include <miopen/miopen.h>

#include <cstdint>
#include <optional>
#include <string>

namespace miopen {

struct TensorDescriptor;
struct ConvolutionDescriptor;
struct FusionPlanDescriptor;
enum class ConvDirection;

namespace debug {

// MIOpenDriver's -F values.
enum class DriverConvDirection
{
    Fwd = 1,
    Bwd = 2,
    WrW = 4,
};

DriverConvDirection ToDriverDirection(ConvDirection d);

// The arguments after "./bin/MIOpenDriver ": x, w, y in forward naming (x is
// dx for backward data, w is dw for backward weights). A solver id adds
// " -S <id>": MIOpen gives 0 for every immediate-mode call and for
// miopenFindSolutions, the solution's solver for miopenRunSolution.
// Without print_for_conv_driver (a fusion plan's line) the driver name,
// -m, -F and -t are left out: the shape, layouts and -g remain.
std::string ConvArgsForMIOpenDriver(const TensorDescriptor& x,
                                    const TensorDescriptor& w,
                                    const ConvolutionDescriptor& conv,
                                    const TensorDescriptor& y,
                                    DriverConvDirection dir,
                                    std::optional<std::uint64_t> solver_id,
                                    bool print_for_conv_driver);

// Log the line (named after these functions, as MIOpen's are) when
// MIOPEN_ENABLE_LOGGING_CMD is on. A null descriptor logs nothing: the entry
// point reports it. `immediate` is solver id 0.
void LogCmdConvolution(miopenTensorDescriptor_t x,
                       miopenTensorDescriptor_t w,
                       miopenConvolutionDescriptor_t conv,
                       miopenTensorDescriptor_t y,
                       DriverConvDirection dir,
                       bool immediate);
void LogCmdFindConvolution(miopenTensorDescriptor_t x,
                           miopenTensorDescriptor_t w,
                           miopenConvolutionDescriptor_t conv,
                           miopenTensorDescriptor_t y,
                           DriverConvDirection dir);
// The same for the descriptors a Find 2.0 problem holds.
void LogCmdConvolution(const TensorDescriptor& x,
                       const TensorDescriptor& w,
                       const ConvolutionDescriptor& conv,
                       const TensorDescriptor& y,
                       DriverConvDirection dir,
                       std::optional<std::uint64_t> solver_id);
void LogCmdFindConvolution(const TensorDescriptor& x,
                           const TensorDescriptor& w,
                           const ConvolutionDescriptor& conv,
                           const TensorDescriptor& y,
                           DriverConvDirection dir,
                           std::optional<std::uint64_t> solver_id);

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

// A fusion plan's operator sequence as MIOpenDriver's fusion mode (cbna = 0,
// cna = 1, na = 2, cn = 3, cba = 4, ca = 5, cb = 6), -1 (logged as an error)
// for any other.
int GetFusionMode(const FusionPlanDescriptor& plan);
// The line of a fusion plan's execution (src/fusion_logging.cpp), when
// MIOPEN_ENABLE_LOGGING_CMD is on.
void LogCmdFusion(const FusionPlanDescriptor& plan);

} // namespace debug
} // namespace miopen
