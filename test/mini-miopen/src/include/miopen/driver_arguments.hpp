// The MIOpenDriver command line MIOpen logs for a convolution call (an op's
// own line: its folder, ops/<op>/src/include/miopen/<op>/driver_arguments.hpp)
// when MIOPEN_ENABLE_LOGGING_CMD is on, in MIOpen's format:
//   MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n 1 -c 3 -H 8 -W 8 -k 4
//       -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -F 1 -t 1
// (one line). The wrapper writes the same line for a call it forwards, and
// the forwarding tests compare the two byte for byte.
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

// MIOpen's layout name of a 4-D / 5-D tensor ("NCHW", "NHWC", "NCDHW", ...;
// "UNKNOWN" for another rank), by stride.
std::string LayoutByStrides(const TensorDescriptor& t);

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

// A fusion plan's operator sequence as MIOpenDriver's fusion mode (cbna = 0,
// cna = 1, na = 2, cn = 3, cba = 4, ca = 5, cb = 6), -1 (logged as an error)
// for any other.
int GetFusionMode(const FusionPlanDescriptor& plan);
// The line of a fusion plan's execution (src/fusion_logging.cpp), when
// MIOPEN_ENABLE_LOGGING_CMD is on.
void LogCmdFusion(const FusionPlanDescriptor& plan);

} // namespace debug
} // namespace miopen
