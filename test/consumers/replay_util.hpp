// What the framework replays share (test/consumers/replay_<framework>.cpp):
// the small network every replay runs, its host-memory "device" buffers and
// descriptors, and the records (test/consumers/test_protocol.hpp) that
// test/consumers/check_replay.py compares between runs: a `result` per
// computed tensor, a `status` per call whose status the framework does not
// check, and `done` at the end.
//
// A replay issues the MIOpen calls its framework issues for each
// convolution, in the framework's order (each replay cites the source it
// follows); what the framework computes outside MIOpen (PyTorch's bias add)
// it leaves out, since only the MIOpen calls are replayed.
#pragma once

#include "consumer_util.hpp"
#include "test_protocol.hpp"

#include <miopen/miopen.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace replay {

// One convolution layer of the network, fp32 NCHW.
struct Layer
{
    const char* name;
    int n, c, h, w, k, r, s, pad, stride, groups;
    bool bias_relu; // followed by bias + ReLU (the frameworks' fusion candidates)
    int out_h() const { return (h + 2 * pad - r) / stride + 1; }
    int out_w() const { return (w + 2 * pad - s) / stride + 1; }
};

// A ResNet-like stem: 3x3 convolutions with bias + ReLU, a strided one, a
// pointwise projection and a grouped convolution.
inline const std::vector<Layer>& network()
{
    static const std::vector<Layer> layers{
        {"stem", 2, 3, 16, 16, 8, 3, 3, 1, 1, 1, true},
        {"down", 2, 8, 16, 16, 8, 3, 3, 1, 2, 1, true},
        {"project", 2, 8, 8, 8, 16, 1, 1, 0, 1, 1, false},
        {"grouped", 2, 16, 8, 8, 16, 3, 3, 1, 1, 4, true},
    };
    return layers;
}

// A buffer of floats standing in for device memory (the test beds compute on
// the host), filled with exact eighths.
struct Buffer
{
    std::vector<float> v;
    explicit Buffer(std::size_t n, std::uint32_t seed = 0) : v(n, 0.0f)
    {
        if(seed != 0)
            for(auto& x : v)
                x = consumer::next_eighth(seed);
    }
    void* ptr() { return v.data(); }
};

// A workspace of the size a query reported (null when 0).
struct Workspace
{
    std::vector<unsigned char> bytes;
    explicit Workspace(std::size_t n) : bytes(n) {}
    void* ptr() { return bytes.empty() ? nullptr : bytes.data(); }
    std::size_t size() const { return bytes.size(); }
};

// The descriptors and buffers of one layer.
struct Conv
{
    const Layer& l;
    miopenTensorDescriptor_t x, w, y, b;
    miopenConvolutionDescriptor_t conv;
    Buffer xb, wb, yb, bb, dxb, dwb;
    explicit Conv(const Layer& layer, std::uint32_t seed)
        : l(layer),
          x(consumer::packed_tensor(miopenFloat, {l.n, l.c, l.h, l.w})),
          w(consumer::packed_tensor(miopenFloat, {l.k, l.c / l.groups, l.r, l.s})),
          y(consumer::packed_tensor(miopenFloat, {l.n, l.k, l.out_h(), l.out_w()})),
          b(consumer::packed_tensor(miopenFloat, {1, l.k, 1, 1})),
          xb(std::size_t(l.n * l.c * l.h * l.w), seed),
          wb(std::size_t(l.k * (l.c / l.groups) * l.r * l.s), seed + 1),
          yb(std::size_t(l.n * l.k * l.out_h() * l.out_w()), seed + 2),
          bb(std::size_t(l.k), seed + 3),
          dxb(xb.v.size()),
          dwb(wb.v.size())
    {
        CHECK(miopenCreateConvolutionDescriptor(&conv));
        const int pads[2] = {l.pad, l.pad}, strides[2] = {l.stride, l.stride}, dils[2] = {1, 1};
        CHECK(miopenInitConvolutionNdDescriptor(conv, 2, pads, strides, dils, miopenConvolution));
        CHECK(miopenSetConvolutionGroupCount(conv, l.groups));
    }
    ~Conv()
    {
        miopenDestroyConvolutionDescriptor(conv);
        for(auto d : {x, w, y, b})
            miopenDestroyTensorDescriptor(d);
    }
    Conv(const Conv&) = delete;
    Conv& operator=(const Conv&) = delete;
};

// One record per computed tensor (its sum and sum of magnitudes): what
// check_replay.py compares across runs.
inline void report(const char* step, const Layer& l, const char* what, const Buffer& b)
{
    double sum = 0, abs_sum = 0;
    for(float x : b.v)
    {
        sum += x;
        abs_sum += std::fabs(x);
    }
    protocol::Record("result")
        .field("step", step)
        .field("layer", l.name)
        .field("tensor", what)
        .field("sum", sum)
        .field("abs", abs_sum)
        .emit();
}

// A status the framework checks is CHECK'ed (a failure ends the replay, as
// the framework's MIOPEN_CHECK throws). A status the framework does not check
// is written so that the checker compares it.
inline miopenStatus_t unchecked(const char* what, miopenStatus_t s)
{
    protocol::Record("status").field("call", what).field("status", consumer::status_name(s)).emit();
    return s;
}

// The end of the replay (a run that stops early has no `done`).
inline void done() { protocol::Record("done").emit(); }

} // namespace replay
