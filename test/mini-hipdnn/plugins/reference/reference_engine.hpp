// What the mini hipDNN reference engine's operations share (test bed;
// written for this project): fp16/bf16 storage, tensor views, index
// iteration, and the table of the op folders' operations
// (test/mini-hipdnn/ops/<op>/reference.cpp registers each kind with a static
// OperationRegistration), so no shared file names an op folder's operation.
#pragma once

#include "HipdnnDataType.h"
#include "mini_hipdnn_engine_plugin.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ref
{

// ---- storage formats --------------------------------------------------------
inline float halfBitsToFloat(uint16_t h)
{
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t bits;
    if(exp == 0)
    {
        if(man == 0)
        {
            bits = sign;
        }
        else
        {
            // subnormal half: value = man * 2^-24
            float v = static_cast<float>(man) * std::ldexp(1.0f, -24);
            return (h & 0x8000u) ? -v : v;
        }
    }
    else if(exp == 31)
    {
        bits = sign | 0x7F800000u | (man << 13);
    }
    else
    {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

inline uint16_t floatToHalfBits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, sizeof(x));
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t absx = x & 0x7FFFFFFFu;
    if(absx >= 0x7F800000u) // inf or nan
    {
        return static_cast<uint16_t>(sign | 0x7C00u | (absx > 0x7F800000u ? 0x200u : 0u));
    }
    if(absx >= 0x477FF000u) // rounds to >= 65520 -> inf
    {
        return static_cast<uint16_t>(sign | 0x7C00u);
    }
    if(absx < 0x38800000u) // below the smallest normal half: subnormal or zero
    {
        float a;
        std::memcpy(&a, &absx, sizeof(a));
        float scaled = a * 16777216.0f; // 2^24: units of the smallest subnormal
        auto m = static_cast<uint32_t>(std::nearbyint(scaled)); // ties to even
        return static_cast<uint16_t>(sign | m);
    }
    uint32_t exp = (absx >> 23) - 112u;
    uint32_t man = absx & 0x7FFFFFu;
    uint32_t half = (exp << 10) | (man >> 13);
    uint32_t rest = man & 0x1FFFu;
    if(rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    {
        ++half;
    }
    return static_cast<uint16_t>(sign | half);
}

inline float bf16BitsToFloat(uint16_t b)
{
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

inline uint16_t floatToBf16Bits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, sizeof(x));
    if((x & 0x7FFFFFFFu) > 0x7F800000u)
    {
        return static_cast<uint16_t>((x >> 16) | 0x40u); // quiet nan
    }
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7FFFu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

inline bool storable(int32_t dt)
{
    return dt == HIPDNN_DATA_FLOAT || dt == HIPDNN_DATA_HALF || dt == HIPDNN_DATA_BFLOAT16;
}

// ---- tensor views -------------------------------------------------------------
struct View
{
    char* base = nullptr;
    int32_t dt = HIPDNN_DATA_FLOAT;
    int nb = 0;
    int64_t dims[MINI_HIPDNN_MAX_DIMS] = {};
    int64_t strides[MINI_HIPDNN_MAX_DIMS] = {};

    float load(int64_t off) const
    {
        switch(dt)
        {
        case HIPDNN_DATA_HALF:
        {
            uint16_t b;
            std::memcpy(&b, base + off * 2, 2);
            return halfBitsToFloat(b);
        }
        case HIPDNN_DATA_BFLOAT16:
        {
            uint16_t b;
            std::memcpy(&b, base + off * 2, 2);
            return bf16BitsToFloat(b);
        }
        default:
        {
            float v;
            std::memcpy(&v, base + off * 4, 4);
            return v;
        }
        }
    }

    void store(int64_t off, float v) const
    {
        switch(dt)
        {
        case HIPDNN_DATA_HALF:
        {
            uint16_t b = floatToHalfBits(v);
            std::memcpy(base + off * 2, &b, 2);
            break;
        }
        case HIPDNN_DATA_BFLOAT16:
        {
            uint16_t b = floatToBf16Bits(v);
            std::memcpy(base + off * 2, &b, 2);
            break;
        }
        default: std::memcpy(base + off * 4, &v, 4); break;
        }
    }

    // offset of [a, b, spatial...]
    int64_t at(int64_t a, int64_t b, const int64_t* sp) const
    {
        int64_t off = a * strides[0] + b * strides[1];
        for(int i = 2; i < nb; ++i)
        {
            off += sp[i - 2] * strides[i];
        }
        return off;
    }
};

// Iterates a multi-index over `dims` (n entries).
inline bool nextIndex(int64_t* idx, const int64_t* dims, int n)
{
    for(int i = n - 1; i >= 0; --i)
    {
        if(++idx[i] < dims[i])
        {
            return true;
        }
        idx[i] = 0;
    }
    return false;
}


// The element offset of `idx` in `v`.
inline int64_t offsetIn(const View& v, const int64_t* idx)
{
    int64_t o = 0;
    for(int d = 0; d < v.nb; ++d)
        o += idx[d] * v.strides[d];
    return o;
}

// One operation kind of an op folder: whether the engine runs it in this
// graph, its inputs and output (for the schedule), and its kernel over the
// graph's tensor views.
struct Operation
{
    int32_t kind;
    bool (*valid)(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op);
    // the tensors it reads and the one a later operation may read (-1: none)
    void (*io)(const miniHipdnnOp_t& op, std::vector<int32_t>& in, int32_t& out);
    void (*run)(const miniHipdnnOp_t& op, const std::vector<View>& views);
};

// Registers `o` (static storage) at load; a kind registered twice aborts.
struct OperationRegistration
{
    explicit OperationRegistration(const Operation& o);
};

// The registered operation of a kind, or null.
const Operation* findOperation(int32_t kind);

} // namespace ref
