// Storage conversion tests: fp16 / bf16 decoding of every bit pattern, round trips,
// and round-to-nearest-even checked against a brute-force nearest-value search.
#include "test_util.hpp"

#include <cstring>
#include <map>

namespace {

using miopen::cpu::DataType;
using miopen::cpu::load;
using miopen::cpu::store;

std::uint16_t to_bits(DataType t, float v)
{
    std::uint16_t h = 0;
    store(t, &h, 0, v);
    return h;
}
float from_bits(DataType t, std::uint16_t h) { return load(t, &h, 0); }

float f_from_u32(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
std::uint32_t u32_from_f(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// Independent binary16 decoder: sign * 2^(e-15) * (1 + m/1024), subnormal 2^-14 * m/1024.
double decode_half(std::uint16_t h)
{
    const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if(e == 31)
        v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if(e == 0)
        v = std::ldexp(m, -24);
    else
        v = std::ldexp(1024 + m, e - 25);
    return s ? -v : v;
}

// Independent bfloat16 decoder: sign * 2^(e-127) * (1 + m/128), subnormal 2^-126 * m/128.
double decode_bf16(std::uint16_t b)
{
    const int s = b >> 15, e = (b >> 7) & 255, m = b & 127;
    double v;
    if(e == 255)
        v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if(e == 0)
        v = std::ldexp(m, -133);
    else
        v = std::ldexp(128 + m, e - 134);
    return s ? -v : v;
}

// Brute-force round-to-nearest-even: the finite non-negative encodings sorted by value,
// nearest by distance in double, ties to the even bit pattern, overflow past
// max + half ulp (or a tie there: max's pattern is odd) to infinity.
struct Nearest
{
    std::vector<std::pair<double, std::uint16_t>> table; // value, bits (non-negative finite)
    double overflow_at;                                  // max finite + half ulp

    Nearest(double (*decode)(std::uint16_t), std::uint16_t inf_bits)
    {
        for(std::uint32_t b = 0; b < inf_bits; ++b)
            table.emplace_back(decode(static_cast<std::uint16_t>(b)), static_cast<std::uint16_t>(b));
        const double maxv = table.back().first;
        const double prev = table[table.size() - 2].first;
        overflow_at       = maxv + (maxv - prev) / 2;
        this->inf_bits    = inf_bits;
    }
    std::uint16_t operator()(double v) const
    {
        const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
        const double a           = std::fabs(v);
        if(a >= overflow_at)
            return sign | inf_bits;
        auto it = std::lower_bound(table.begin(), table.end(), std::make_pair(a, std::uint16_t(0)));
        if(it == table.end())
            return sign | inf_bits;
        if(it->first == a || it == table.begin())
            return sign | it->second;
        auto lo        = it - 1;
        const double d1 = a - lo->first, d2 = it->first - a;
        if(d1 < d2)
            return sign | lo->second;
        if(d2 < d1)
            return sign | it->second;
        return sign | ((lo->second & 1) == 0 ? lo->second : it->second);
    }
    std::uint16_t inf_bits;
};

TEST(Convert, HalfDecodesEveryBitPattern)
{
    for(std::uint32_t b = 0; b < 65536; ++b)
    {
        const double want = decode_half(static_cast<std::uint16_t>(b));
        const float got   = from_bits(DataType::Half, static_cast<std::uint16_t>(b));
        if(std::isnan(want))
            ASSERT_TRUE(std::isnan(got)) << std::hex << b;
        else
        {
            ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
            ASSERT_EQ(std::signbit(got), std::signbit(want)) << std::hex << b;
        }
    }
}

TEST(Convert, BFloat16DecodesEveryBitPattern)
{
    for(std::uint32_t b = 0; b < 65536; ++b)
    {
        const double want = decode_bf16(static_cast<std::uint16_t>(b));
        const float got   = from_bits(DataType::BFloat16, static_cast<std::uint16_t>(b));
        if(std::isnan(want))
            ASSERT_TRUE(std::isnan(got)) << std::hex << b;
        else
        {
            ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
            ASSERT_EQ(std::signbit(got), std::signbit(want)) << std::hex << b;
        }
    }
}

TEST(Convert, RoundTripEveryBitPattern)
{
    for(DataType t : {DataType::Half, DataType::BFloat16})
        for(std::uint32_t b = 0; b < 65536; ++b)
        {
            const std::uint16_t h = static_cast<std::uint16_t>(b);
            const float f         = from_bits(t, h);
            const std::uint16_t r = to_bits(t, f);
            if(std::isnan(f))
                ASSERT_TRUE(std::isnan(from_bits(t, r))) << kt::type_name(t) << std::hex << b;
            else
                ASSERT_EQ(r, h) << kt::type_name(t) << " " << std::hex << b;
        }
}

TEST(Convert, FloatRoundTripIsExact)
{
    std::mt19937 rng(7);
    for(int i = 0; i < 20000; ++i)
    {
        const float f = f_from_u32(static_cast<std::uint32_t>(rng()));
        float back    = 0;
        store(DataType::Float, &back, 0, f);
        const float got = load(DataType::Float, &back, 0);
        if(std::isnan(f))
            ASSERT_TRUE(std::isnan(got));
        else
            ASSERT_EQ(u32_from_f(got), u32_from_f(f));
    }
}

TEST(Convert, HalfRoundingEdgeCases)
{
    const DataType H = DataType::Half;
    EXPECT_EQ(to_bits(H, 0.0f), 0x0000);
    EXPECT_EQ(to_bits(H, -0.0f), 0x8000);
    EXPECT_EQ(to_bits(H, 1.0f), 0x3C00);
    EXPECT_EQ(to_bits(H, -2.0f), 0xC000);
    EXPECT_EQ(to_bits(H, 0.1f), 0x2E66); // 0.0999755859375
    EXPECT_EQ(to_bits(H, 65504.0f), 0x7BFF);
    EXPECT_EQ(to_bits(H, 65519.99f), 0x7BFF);
    EXPECT_EQ(to_bits(H, 65520.0f), 0x7C00); // tie with odd max -> rounds up to inf
    EXPECT_EQ(to_bits(H, 1e10f), 0x7C00);
    EXPECT_EQ(to_bits(H, -1e10f), 0xFC00);
    EXPECT_EQ(to_bits(H, std::numeric_limits<float>::infinity()), 0x7C00);
    EXPECT_EQ(to_bits(H, -std::numeric_limits<float>::infinity()), 0xFC00);
    // ties to even in the normal range
    EXPECT_EQ(to_bits(H, 1.0f + std::ldexp(1.0f, -11)), 0x3C00);     // 1 + half ulp -> 1
    EXPECT_EQ(to_bits(H, 1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02); // 1 + 1.5 ulp -> 1 + 2 ulp
    EXPECT_EQ(to_bits(H, 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);
    // subnormals
    EXPECT_EQ(to_bits(H, std::ldexp(1.0f, -24)), 0x0001);
    EXPECT_EQ(to_bits(H, std::ldexp(1.0f, -25)), 0x0000);       // tie to even (zero)
    EXPECT_EQ(to_bits(H, -std::ldexp(1.0f, -25)), 0x8000);      // keeps the sign
    EXPECT_EQ(to_bits(H, std::ldexp(1.5f, -25)), 0x0001);       // above the tie
    EXPECT_EQ(to_bits(H, std::ldexp(3.0f, -25)), 0x0002);       // 1.5 ulp tie -> 2
    EXPECT_EQ(to_bits(H, std::ldexp(5.0f, -25)), 0x0002);       // 2.5 ulp tie -> 2
    EXPECT_EQ(to_bits(H, std::ldexp(1.0f, -26)), 0x0000);
    EXPECT_EQ(to_bits(H, std::ldexp(1.0f, -14)), 0x0400);       // smallest normal
    EXPECT_EQ(to_bits(H, std::ldexp(2047.0f, -25)), 0x0400);    // 1023.5 ulp tie -> 1024 (normal)
    EXPECT_EQ(to_bits(H, std::ldexp(1023.0f, -24)), 0x03FF);    // largest subnormal
    EXPECT_EQ(to_bits(H, std::numeric_limits<float>::denorm_min()), 0x0000);
    // NaN stays NaN (never becomes infinity)
    const std::uint16_t n1 = to_bits(H, std::numeric_limits<float>::quiet_NaN());
    EXPECT_EQ(n1 & 0x7C00, 0x7C00);
    EXPECT_NE(n1 & 0x03FF, 0);
    const std::uint16_t n2 = to_bits(H, f_from_u32(0x7F800001u)); // payload only in low bits
    EXPECT_EQ(n2 & 0x7C00, 0x7C00);
    EXPECT_NE(n2 & 0x03FF, 0);
    // decoding edge cases
    EXPECT_EQ(from_bits(H, 0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(from_bits(H, 0x03FF), std::ldexp(1023.0f, -24));
    EXPECT_EQ(from_bits(H, 0x7BFF), 65504.0f);
    EXPECT_EQ(from_bits(H, 0xFC00), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(from_bits(H, 0x7E00)));
    EXPECT_TRUE(std::isnan(from_bits(H, 0xFC01)));
}

TEST(Convert, BFloat16RoundingEdgeCases)
{
    const DataType B = DataType::BFloat16;
    EXPECT_EQ(to_bits(B, 1.0f), 0x3F80);
    EXPECT_EQ(to_bits(B, -0.0f), 0x8000);
    EXPECT_EQ(to_bits(B, 1.0f + std::ldexp(1.0f, -8)), 0x3F80);     // tie -> even
    EXPECT_EQ(to_bits(B, 1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82); // tie -> even (up)
    EXPECT_EQ(to_bits(B, 1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3F81);
    EXPECT_EQ(to_bits(B, 3.14159265f), 0x4049);
    EXPECT_EQ(to_bits(B, std::numeric_limits<float>::max()), 0x7F80); // rounds past max -> inf
    EXPECT_EQ(to_bits(B, f_from_u32(0x7F7F7FFFu)), 0x7F7F);          // below the tie
    EXPECT_EQ(to_bits(B, std::numeric_limits<float>::infinity()), 0x7F80);
    EXPECT_EQ(to_bits(B, -std::numeric_limits<float>::infinity()), 0xFF80);
    EXPECT_EQ(to_bits(B, std::numeric_limits<float>::denorm_min()), 0x0000);
    EXPECT_EQ(to_bits(B, f_from_u32(0x00018000u)), 0x0002); // subnormal tie, odd -> up
    EXPECT_EQ(to_bits(B, f_from_u32(0x00008000u)), 0x0000); // subnormal tie, even -> down
    EXPECT_EQ(to_bits(B, f_from_u32(0x007FFFFFu)), 0x0080); // largest float subnormal -> min normal
    // NaN with payload only in the low 16 bits must not collapse to infinity
    const std::uint16_t n = to_bits(B, f_from_u32(0x7F800001u));
    EXPECT_EQ(n & 0x7F80, 0x7F80);
    EXPECT_NE(n & 0x007F, 0);
    EXPECT_TRUE(std::isnan(from_bits(B, n)));
    const std::uint16_t nn = to_bits(B, f_from_u32(0xFFC00000u));
    EXPECT_TRUE(std::isnan(from_bits(B, nn)));
}

// Random float bit patterns (every exponent range, incl. subnormals and values near the
// half range limits) against the brute-force nearest search.
TEST(Convert, RandomFloatsRoundToNearestEven)
{
    const Nearest half_ref(decode_half, 0x7C00);
    const Nearest bf16_ref(decode_bf16, 0x7F80);
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> exp_h(-30, 17); // around the half range
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    int checked = 0;
    for(int i = 0; i < 40000; ++i)
    {
        float f;
        switch(i % 4)
        {
        case 0: f = f_from_u32(static_cast<std::uint32_t>(rng())); break;
        case 1: f = static_cast<float>(std::ldexp(mant(rng), exp_h(rng))); break;
        case 2: // exact ties and near-ties of half: k/2 ulps +- tiny
        {
            const int e    = exp_h(rng) % 16;
            const double u = std::ldexp(1.0, std::max(e, -14) - 11);
            f = static_cast<float>((2048 + static_cast<int>(rng() % 2048)) * u +
                                   static_cast<int>(rng() % 3 - 1) * std::ldexp(u, -12));
            break;
        }
        default: // exact bf16 ties: low 16 bits == 0x8000
            f = f_from_u32((static_cast<std::uint32_t>(rng()) & 0xFFFF0000u) | 0x8000u);
        }
        if(rng() & 1)
            f = -f;
        if(std::isnan(f))
        {
            EXPECT_TRUE(std::isnan(from_bits(DataType::Half, to_bits(DataType::Half, f))));
            EXPECT_TRUE(std::isnan(from_bits(DataType::BFloat16, to_bits(DataType::BFloat16, f))));
            continue;
        }
        ASSERT_EQ(to_bits(DataType::Half, f), half_ref(f)) << "half of " << f;
        ASSERT_EQ(to_bits(DataType::BFloat16, f), bf16_ref(f)) << "bf16 of " << f;
        ++checked;
    }
    EXPECT_GT(checked, 30000);
}

} // namespace
