// Element types of conv / convfp16 / convbfp16: host buffers of raw bits
// and exact conversions to and from double (round to nearest even), written
// here so that the reference shares no code with the library under test.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace driver {

enum class Type
{
    fp32,
    fp16,
    bf16
};

inline size_t type_size(Type t) { return t == Type::fp32 ? 4 : 2; }

inline uint16_t float_to_bf16(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if(std::isnan(f))
        return uint16_t((u >> 16) | 0x40);
    u += 0x7fff + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}

inline float bf16_to_float(uint16_t h)
{
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline uint16_t float_to_half(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint32_t sign = (u >> 16) & 0x8000;
    const uint32_t absu = u & 0x7fffffff;
    if(absu > 0x7f800000)
        return uint16_t(sign | 0x7e00); // NaN
    if(absu >= 0x477ff000)               // rounds to >= 65520: infinity
        return uint16_t(sign | 0x7c00);
    if(absu < 0x38800000) // subnormal half (or zero): scale into integer units of 2^-24
    {
        const float a = std::fabs(f) * 16777216.0f; // exact: power of two
        return uint16_t(sign | uint32_t(std::nearbyint(a)));
    }
    const uint32_t exp  = ((absu >> 23) - 112) << 10;
    const uint32_t mant = absu & 0x7fffff;
    uint32_t h          = exp | (mant >> 13);
    const uint32_t rest = mant & 0x1fff;
    if(rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        ++h;
    return uint16_t(sign | h);
}

inline float half_to_float(uint16_t h)
{
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    const uint32_t exp  = (h >> 10) & 0x1f;
    const uint32_t mant = h & 0x3ff;
    if(exp == 0)
        return (sign ? -1.0f : 1.0f) * float(mant) / 16777216.0f;
    uint32_t u = exp == 31 ? (sign | 0x7f800000 | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// A host buffer of one element type ("device" memory is host memory here).
class Buffer
{
public:
    Buffer(Type t, size_t elements) : type_(t), bytes_(elements * type_size(t)), n_(elements) {}
    void* data() { return bytes_.data(); }
    size_t size() const { return n_; }
    size_t bytes() const { return bytes_.size(); }

    double get(size_t i) const
    {
        if(type_ == Type::fp32)
        {
            float f;
            std::memcpy(&f, &bytes_[i * 4], 4);
            return f;
        }
        uint16_t h;
        std::memcpy(&h, &bytes_[i * 2], 2);
        return type_ == Type::fp16 ? half_to_float(h) : bf16_to_float(h);
    }

    void set(size_t i, double v)
    {
        const float f = float(v);
        if(type_ == Type::fp32)
        {
            std::memcpy(&bytes_[i * 4], &f, 4);
            return;
        }
        const uint16_t h = type_ == Type::fp16 ? float_to_half(f) : float_to_bf16(f);
        std::memcpy(&bytes_[i * 2], &h, 2);
    }

    std::vector<double> values() const
    {
        std::vector<double> v(n_);
        for(size_t i = 0; i < n_; ++i)
            v[i] = get(i);
        return v;
    }

private:
    Type type_;
    std::vector<unsigned char> bytes_;
    size_t n_;
};

} // namespace driver
