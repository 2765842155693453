// What faults_consumer's call sequences share. Each group's sequence lives
// in its own folder (test/groups/<group>/faults.cpp, its expectations beside
// it in faults.json) and registers itself here; faults_consumer.cpp runs the
// one named on its command line.
#pragma once

#include "consumer_util.hpp"
#include "forwarded_error.hpp"

#include <miopen/miopen.h>

#include <vector>

namespace faults {

// A `call` record: the call's label and its attribution.
void report(const char* label, miopenStatus_t s);
// The `output` record: y's first element after a sequence (7 unless a call wrote y).
void output(float y0);
// A call no group forwards, after which the last record must be unchanged
// (made before a sequence's destroy calls, which are in its family).
void after_a_non_forwarded_call();

// A sequence: its calls on the handle, each reported, then output() and
// after_a_non_forwarded_call().
using Sequence = void (*)(miopenHandle_t);
struct Registration
{
    Registration(const char* name, Sequence run);
};

// The convolution problem of the convolution's, the fusion plan's and Find 2.0's sequences.
struct ConvCase
{
    consumer::Tensor x = consumer::tensor4d(1, 2, 5, 5), w = consumer::tensor4d(3, 2, 3, 3),
                     y = consumer::tensor4d(1, 3, 5, 5);
    consumer::ConvDescriptor c;
    std::vector<float> xv = std::vector<float>(50, 0.5f), wv = std::vector<float>(54, 0.25f),
                       yv = std::vector<float>(75, 7.0f);
    ConvCase()
    {
        miopenCreateConvolutionDescriptor(c.out());
        miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1);
    }
};

} // namespace faults
