// What the differential consumers share: a reproducible random stream per
// (seed, case) and host fp16/bf16 conversions written here (round to nearest
// even), so each program's reference sees exactly the values the library does.
#pragma once

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "consumer_util.hpp"
#include "test_protocol.hpp"

namespace differential {

// Random numbers: consumer::Rng (splitmix64, one independent stream per
// (seed, case), so a case is reproducible alone and --corrupt-case changes
// nothing else), shared with the fusion differential.
using consumer::Rng;

// Seeds the stream of one case from (seed, case index): the splitmix64 finalizer.
inline std::uint64_t mix64(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ---------------------------------------------------------------------------
// Host element conversions (round-to-nearest-even), written here.
// ---------------------------------------------------------------------------
inline std::uint32_t bits_of(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float float_of(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

inline std::uint16_t float_to_half(float f)
{
    std::uint32_t x          = bits_of(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    x &= 0x7FFFFFFFu;
    if(x >= 0x7F800000u) // inf / NaN
        return static_cast<std::uint16_t>(sign | (x > 0x7F800000u ? 0x7E00u : 0x7C00u));
    if(x >= 0x38800000u) // >= 2^-14: a normal half (or overflow)
    {
        std::uint32_t r = x + 0xFFFu + ((x >> 13) & 1u); // round at bit 13, ties to even
        r -= 112u << 23;                                 // rebias 127 -> 15
        if(r >= 0x0F800000u)
            return static_cast<std::uint16_t>(sign | 0x7C00u);
        return static_cast<std::uint16_t>(sign | (r >> 13));
    }
    if(x < 0x33000000u) // < 2^-25: rounds to zero (2^-25 itself ties to even zero)
        return static_cast<std::uint16_t>(sign);
    // Subnormal half: units of 2^-24.
    const std::uint32_t e     = x >> 23;
    const std::uint32_t m     = (x & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = 126u - e; // 14 .. 24
    std::uint32_t r           = m >> shift;
    const std::uint32_t rem   = m & ((1u << shift) - 1u);
    const std::uint32_t half  = 1u << (shift - 1u);
    if(rem > half || (rem == half && (r & 1u)))
        ++r;
    return static_cast<std::uint16_t>(sign | r);
}

inline float half_to_float(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e    = (h >> 10) & 0x1Fu;
    const std::uint32_t m    = h & 0x3FFu;
    if(e == 0x1F)
        return float_of(sign | 0x7F800000u | (m << 13));
    if(e == 0)
    {
        const float v = static_cast<float>(m) * 0x1.0p-24f;
        return sign ? -v : v;
    }
    return float_of(sign | ((e + 112u) << 23) | (m << 13));
}

inline std::uint16_t float_to_bf16(float f)
{
    const std::uint32_t x = bits_of(f);
    if((x & 0x7FFFFFFFu) > 0x7F800000u)
        return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    return static_cast<std::uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

inline float bf16_to_float(std::uint16_t b) { return float_of(static_cast<std::uint32_t>(b) << 16); }

inline size_t type_size(miopenDataType_t t) { return t == miopenFloat ? 4 : 2; }

// Element i of an fp32 / fp16 / bf16 buffer, as a float.
inline float load_elem(miopenDataType_t t, const void* base, size_t i)
{
    const auto* p = static_cast<const unsigned char*>(base) + i * type_size(t);
    if(t == miopenFloat)
    {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    return t == miopenHalf ? half_to_float(h) : bf16_to_float(h);
}

// Stores v, rounded to the buffer's type, as element i.
inline void store_elem(miopenDataType_t t, void* base, size_t i, float v)
{
    auto* p = static_cast<unsigned char*>(base) + i * type_size(t);
    if(t == miopenFloat)
    {
        std::memcpy(p, &v, 4);
        return;
    }
    const std::uint16_t h = t == miopenHalf ? float_to_half(v) : float_to_bf16(v);
    std::memcpy(p, &h, 2);
}

// ---------------------------------------------------------------------------
// What a differential consumer reports (test/consumers/check_differential.py
// reads it through test/lib/protocol.py): one `case` record per case, and a
// `summary` at the end; `begin` markers on stderr split the routing trace.
// ---------------------------------------------------------------------------
struct CaseReport
{
    long index = 0;
    // How the checker groups the case (the forwarded-by table) and the
    // compute call whose routing-trace line it looks for.
    std::string dir, api, type, layout, rank, entry;
    std::string problem;            // the whole problem: the same in every run of one --seed
    std::string detail;             // per-run details (the algorithm Find ranked first, workspace size)
    bool misaligned = false;        // a buffer off hipDNN's 16-byte tensor alignment
    std::vector<std::string> types; // the storage types whose tolerance applies (the largest)
    miopenStatus_t status = miopenStatusSuccess;
    std::string step      = "-"; // the first call that failed
    double maxerr = 0, tol = 0;
    std::vector<std::string> why; // what makes it a mismatch

    const char* result() const
    {
        return !why.empty() ? "mismatch" : status != miopenStatusSuccess ? "rejected" : "ok";
    }
};

struct Tally
{
    long ok = 0, rejected = 0, mismatch = 0;

    // Emits the case's record and counts it; returns whether it is not a mismatch.
    bool report(const CaseReport& c)
    {
        const std::string result = c.result();
        protocol::Record("case")
            .field("case", c.index)
            .field("dir", c.dir)
            .field("api", c.api)
            .field("type", c.type)
            .field("layout", c.layout)
            .field("rank", c.rank)
            .field("entry", c.entry)
            .field("problem", c.problem)
            .field("detail", c.detail)
            .field("misaligned", c.misaligned)
            .field("types", c.types)
            .field("status", consumer::status_name(c.status))
            .field("step", c.step)
            .field("maxerr", c.maxerr)
            .field("tol", c.tol)
            .field("result", result)
            .field("why", c.why)
            .emit();
        (result == "ok" ? ok : result == "rejected" ? rejected : mismatch)++;
        return result != "mismatch";
    }

    // The summary record; the exit status (1 when a case mismatched).
    int finish() const
    {
        protocol::Record("summary").field("ok", ok).field("rejected", rejected).field("mismatch", mismatch).emit();
        return mismatch == 0 ? 0 : 1;
    }
};

// Splits a reason list written as " a b" into its words.
inline std::vector<std::string> words(const std::string& s)
{
    std::vector<std::string> out;
    size_t i = 0;
    while(i < s.size())
    {
        const size_t j = s.find(' ', i);
        const size_t e = j == std::string::npos ? s.size() : j;
        if(e > i)
            out.push_back(s.substr(i, e - i));
        i = e + 1;
    }
    return out;
}

} // namespace differential
