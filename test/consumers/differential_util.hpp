// What the differential consumers share: a reproducible random stream per
// (seed, case) and host fp16/bf16 conversions written here (round to nearest
// even), so each program's reference sees exactly the values the library does.
#pragma once

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "consumer_util.hpp"

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

} // namespace differential
