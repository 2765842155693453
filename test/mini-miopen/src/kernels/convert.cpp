// Storage conversions of the mini MIOpen CPU kernels: fp32, IEEE binary16 and bfloat16.
// Narrowing conversions round to nearest, ties to even; NaN stays NaN (quiet),
// infinities and overflow become infinity, tiny values become (signed) subnormals/zero.
#include <miopen/cpu/kernels.hpp>

#include <cstring>
#include <stdexcept>

namespace miopen {
namespace cpu {
namespace {

std::uint32_t float_bits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float bits_float(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

float half_to_float(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp  = (h >> 10) & 0x1Fu;
    std::uint32_t mant       = h & 0x3FFu;
    if(exp == 0x1Fu) // inf / nan, keep the payload
        return bits_float(sign | 0x7F800000u | (mant << 13));
    if(exp != 0)
        return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
    if(mant == 0)
        return bits_float(sign);
    // subnormal half: value = mant * 2^-24; normalise it
    int e = -1;
    do
    {
        mant <<= 1;
        ++e;
    } while((mant & 0x400u) == 0);
    mant &= 0x3FFu;
    return bits_float(sign | static_cast<std::uint32_t>(112 - e) << 23 | (mant << 13));
}

std::uint16_t float_to_half(float f)
{
    const std::uint32_t u    = float_bits(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
    const std::uint32_t exp  = (u >> 23) & 0xFFu;
    const std::uint32_t mant = u & 0x7FFFFFu;
    if(exp == 0xFFu)
    {
        if(mant == 0)
            return sign | 0x7C00u;
        // quiet NaN, keep the top payload bits
        return static_cast<std::uint16_t>(sign | 0x7E00u | (mant >> 13));
    }
    const int e = static_cast<int>(exp) - 127; // unbiased exponent
    if(e > 15)
        return sign | 0x7C00u; // overflow
    if(e >= -14)
    {
        // normal half: keep 10 mantissa bits, round the 13 dropped bits
        std::uint32_t h    = (static_cast<std::uint32_t>(e + 15) << 10) | (mant >> 13);
        std::uint32_t rest = mant & 0x1FFFu;
        if(rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
            ++h; // may carry into the exponent, up to infinity: both correct
        return static_cast<std::uint16_t>(sign | h);
    }
    if(e < -25)
        return sign; // below half of the smallest subnormal: rounds to zero
    // subnormal half: value = m * 2^-24 with m = full_mant * 2^(e + 24 - 23)
    const std::uint32_t full  = mant | 0x800000u; // 24 significant bits
    const int shift           = -e - 1;           // e in [-25,-15] -> 24..14
    std::uint32_t h           = full >> shift;
    const std::uint32_t rest  = full & ((1u << shift) - 1u);
    const std::uint32_t halfw = 1u << (shift - 1);
    if(rest > halfw || (rest == halfw && (h & 1u)))
        ++h; // may become the smallest normal: correct encoding
    return static_cast<std::uint16_t>(sign | h);
}

float bf16_to_float(std::uint16_t b) { return bits_float(static_cast<std::uint32_t>(b) << 16); }

std::uint16_t float_to_bf16(float f)
{
    const std::uint32_t u = float_bits(f);
    if((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu) != 0)
        return static_cast<std::uint16_t>((u >> 16) | 0x0040u); // quiet NaN
    const std::uint32_t rounded = u + 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>(rounded >> 16);
}

} // namespace

float load(DataType type, const void* base, std::int64_t index)
{
    switch(type)
    {
    case DataType::Float: return static_cast<const float*>(base)[index];
    case DataType::Half: return half_to_float(static_cast<const std::uint16_t*>(base)[index]);
    case DataType::BFloat16: return bf16_to_float(static_cast<const std::uint16_t*>(base)[index]);
    }
    throw std::invalid_argument("miopen::cpu::load: unknown data type");
}

void store(DataType type, void* base, std::int64_t index, float value)
{
    switch(type)
    {
    case DataType::Float: static_cast<float*>(base)[index] = value; return;
    case DataType::Half:
        static_cast<std::uint16_t*>(base)[index] = float_to_half(value);
        return;
    case DataType::BFloat16:
        static_cast<std::uint16_t*>(base)[index] = float_to_bf16(value);
        return;
    }
    throw std::invalid_argument("miopen::cpu::store: unknown data type");
}

} // namespace cpu
} // namespace miopen
