// The convolution problem and run options a command line describes.
#pragma once

#include "flags.hpp"
#include "numeric.hpp"

#include <miopen/miopen.h>

#include <string>
#include <vector>

namespace driver {

struct Problem
{
    Type type = Type::fp32;
    int spatial = 2;
    miopenConvolutionMode_t mode = miopenConvolution;
    // Lengths in MIOpen's logical order (N, C, [D,] H, W), strides in the same order.
    std::vector<int> x_len, x_stride, w_len, w_stride;
    std::string y_layout;
    std::vector<int> pads, strides, dilations;
    int groups = 1;

    bool fwd = true, bwd = true, wrw = true;
    int iterations = 10;
    bool verify = true, time = false, wall = false, warmup = false, search = false, printconv = true;
    bool host_init = true; // --gpualloc 0
    long solution = -1;    // < 0: Find API; >= 0: immediate mode
};

// Checks the flags' combination and fills `p`; false with `error` naming the
// flag when the command line asks for something this driver cannot do.
bool make_problem(const Flags& flags, Type type, Problem& p, std::string& error);

// Packed strides for `lengths` (N, C, [D,] H, W) in `layout` ("NHWC", ...).
bool layout_strides(const std::string& layout, const std::vector<int>& lengths, std::vector<int>& strides,
                    std::string& error);

} // namespace driver
