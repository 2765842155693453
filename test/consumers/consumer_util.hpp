// What the consumers of the installed MIOpen share (test/consumers and
// test/real-miopen; they build against an installed tree only, so this
// header needs nothing but <miopen/miopen.h>): a status check that ends the
// program, test values, and tensor descriptors.
#pragma once

#include <miopen/miopen.h>

#include <cerrno> // program_invocation_short_name
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "test_protocol.hpp"

namespace consumer {

// A call the consumer cannot go on without: on failure, name it and end the
// program with exit status 3 (what a check reads as "the consumer broke",
// not as a result).
inline void must(miopenStatus_t s, const char* what)
{
    if(s != miopenStatusSuccess)
    {
        std::fprintf(stderr, "%s: %s -> %d\n", program_invocation_short_name, what, int(s));
        std::exit(3);
    }
}

#define CHECK(call) ::consumer::must((call), #call)

// The next of a fixed-seed sequence of values k/8, k in -8..8: exact in fp16
// and fp32, so a result does not depend on the storage type's rounding.
inline float next_eighth(std::uint32_t& seed)
{
    seed = seed * 1664525u + 1013904223u;
    return float(int((seed >> 9) % 17) - 8) / 8.0f;
}

// Row-major (NCHW, NCDHW) element strides of `dims`.
inline std::vector<int> packed_strides(const std::vector<int>& dims)
{
    std::vector<int> strides(dims.size(), 1);
    for(int i = int(dims.size()) - 2; i >= 0; --i)
        strides[size_t(i)] = strides[size_t(i) + 1] * dims[size_t(i) + 1];
    return strides;
}

// Owns one MIOpen descriptor and destroys it with the owner: a consumer
// leaves nothing behind, so the sanitizer runs' leak checker (ASan's
// LeakSanitizer, scripts/sanitize.sh address) reports only what MIOpen or
// the wrapper would leak. It reads as the raw descriptor; `out()` is the
// address a miopenCreate* call fills.
template <typename Descriptor, miopenStatus_t (*destroy)(Descriptor)>
class Owned
{
public:
    Owned(Descriptor d = nullptr) : d_(d) {}
    Owned(Owned&& o) noexcept : d_(std::exchange(o.d_, nullptr)) {}
    Owned& operator=(Owned&& o) noexcept
    {
        if(this != &o)
        {
            reset();
            d_ = std::exchange(o.d_, nullptr);
        }
        return *this;
    }
    Owned(const Owned&)            = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }
    operator Descriptor() const { return d_; }
    Descriptor get() const { return d_; }
    Descriptor* out()
    {
        reset();
        return &d_;
    }
    void reset()
    {
        if(d_ != nullptr)
            destroy(d_);
        d_ = nullptr;
    }

private:
    Descriptor d_;
};

using Tensor         = Owned<miopenTensorDescriptor_t, miopenDestroyTensorDescriptor>;
using ConvDescriptor = Owned<miopenConvolutionDescriptor_t, miopenDestroyConvolutionDescriptor>;

// A packed tensor of `type` through miopenSetTensorDescriptor.
inline miopenTensorDescriptor_t packed_tensor(miopenDataType_t type, const std::vector<int>& dims)
{
    miopenTensorDescriptor_t d;
    CHECK(miopenCreateTensorDescriptor(&d));
    const std::vector<int> strides = packed_strides(dims);
    CHECK(miopenSetTensorDescriptor(d, type, int(dims.size()), dims.data(), strides.data()));
    return d;
}

// An fp32 NCHW tensor through miopenSet4dTensorDescriptor.
inline miopenTensorDescriptor_t tensor4d(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    CHECK(miopenCreateTensorDescriptor(&d));
    CHECK(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w));
    return d;
}

// Random numbers for the differential tests: splitmix64, one independent
// stream per (seed, case), so a case is reproducible alone and a
// --corrupt-case changes nothing else.
struct Rng
{
    std::uint64_t s;
    std::uint64_t next()
    {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform integer in [lo, hi].
    int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
    // A float in [-1, 1) with 24 significant bits: fp16/bf16 conversion has to round.
    float value() { return static_cast<float>(static_cast<double>(next() >> 40) * 0x1.0p-23 - 1.0); }
    template <class T>
    const T& pick(const std::vector<T>& v)
    {
        return v[next() % v.size()];
    }
};


// A call's `call` record (test/consumers/test_protocol.hpp): its label and
// status, and the sum of the output it computed when given.
inline void report_call(const std::string& label, miopenStatus_t s)
{
    protocol::Record("call").field("call", label).field("status", static_cast<int>(s)).emit();
}

inline void report_call(const std::string& label, miopenStatus_t s, double sum)
{
    protocol::Record("call").field("call", label).field("status", static_cast<int>(s)).field("sum", sum).emit();
}

// A `property` record: something the scenario needs to hold for its check
// to mean anything (e.g. an address reused), and whether it held.
inline void report_property(const std::string& name, bool holds)
{
    protocol::Record("property").field("name", name).field("holds", holds).emit();
}

// MIOpen's name of a status (what the checkers compare across runs).
inline const char* status_name(miopenStatus_t s)
{
    switch(s)
    {
    case miopenStatusSuccess: return "miopenStatusSuccess";
    case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
    case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
    case miopenStatusBadParm: return "miopenStatusBadParm";
    case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
    case miopenStatusInternalError: return "miopenStatusInternalError";
    case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
    case miopenStatusUnknownError: return "miopenStatusUnknownError";
    case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
    case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
    case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "miopenStatusUnknownValue";
}

// One case of the parity consumers (test/forwarding/check_parity.py): made
// before the call, it writes the case's `begin` marker on stderr (the checker
// splits the routing trace there); report() writes its `case` record:
// direction, entry point, label, status, and `out`, the FNV-1a hash of every
// output, null for a case labelled `valid` (hipDNN computes its outputs:
// equal within tolerance, not bit for bit). report() returns whether a case
// meant to be invalid (neither `valid` nor `declined`) succeeded.
struct ParityCase
{
    std::string dir, entry, label;

    ParityCase(std::string d, std::string e, std::string l)
        : dir(std::move(d)), entry(std::move(e)), label(std::move(l))
    {
        protocol::begin(id());
    }
    std::string id() const { return dir + " " + entry + " " + label; }

    bool report(miopenStatus_t s, std::uint64_t hash) const
    {
        const bool valid = label.compare(0, 5, "valid") == 0;
        protocol::Record r("case");
        r.field("case", id()).field("dir", dir).field("entry", entry).field("label", label).field("status", int(s));
        if(valid)
            r.field("out", static_cast<const char*>(nullptr));
        else
            r.hash("out", hash);
        r.emit();
        return !valid && s == miopenStatusSuccess && label.compare(0, 8, "declined") != 0;
    }
};

} // namespace consumer
