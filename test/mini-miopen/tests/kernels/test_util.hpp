// Helpers shared by the mini MIOpen CPU kernel tests: owned strided tensors in any
// storage type and layout, fixed-seed random fill, and tolerance helpers.
#pragma once

#include <miopen/cpu/kernels.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace kt {

using miopen::cpu::DataType;
using miopen::cpu::TensorView;

inline const char* type_name(DataType t)
{
    switch(t)
    {
    case DataType::Float: return "fp32";
    case DataType::Half: return "fp16";
    case DataType::BFloat16: return "bf16";
    }
    return "?";
}

inline std::size_t type_size(DataType t) { return t == DataType::Float ? 4 : 2; }

// Unit roundoff of the storage type (half an ulp at 1.0).
inline double unit_roundoff(DataType t)
{
    switch(t)
    {
    case DataType::Float: return std::ldexp(1.0, -24);
    case DataType::Half: return std::ldexp(1.0, -11);
    case DataType::BFloat16: return std::ldexp(1.0, -8);
    }
    return 1.0;
}

// Largest error of rounding `v` to the storage type: half an ulp relative, or half the
// smallest subnormal in the gradual-underflow range.
inline double rounding_bound(DataType t, double v)
{
    double tiny = 0.0;
    switch(t)
    {
    case DataType::Float: tiny = std::ldexp(1.0, -150); break;
    case DataType::Half: tiny = std::ldexp(1.0, -25); break;
    case DataType::BFloat16: tiny = std::ldexp(1.0, -134); break;
    }
    return 1.001 * unit_roundoff(t) * std::fabs(v) + tiny;
}

enum class Layout
{
    Packed,       // NCHW / NCDHW
    ChannelsLast, // NHWC / NDHWC
    Padded,       // NCHW / NCDHW order with a gap after every dimension
};

inline const char* layout_name(Layout l)
{
    switch(l)
    {
    case Layout::Packed: return "packed";
    case Layout::ChannelsLast: return "channels_last";
    case Layout::Padded: return "padded";
    }
    return "?";
}

inline void make_strides(int nd, const std::int64_t* lens, Layout layout, std::int64_t* strides)
{
    // order[i] = logical dim that is the i-th innermost
    int order[5];
    int k = 0;
    if(layout == Layout::ChannelsLast)
    {
        order[k++] = 1;
        for(int d = nd - 1; d >= 2; --d)
            order[k++] = d;
        order[k++] = 0;
    }
    else
    {
        for(int d = nd - 1; d >= 0; --d)
            order[k++] = d;
    }
    std::int64_t s = 1;
    for(int i = 0; i < nd; ++i)
    {
        strides[order[i]] = s;
        s *= lens[order[i]];
        if(layout == Layout::Padded)
            s += 1 + i; // gap of 1, 2, 3, ... elements after each dimension
    }
}

// An owned tensor with logical (N, C, [D,] H, W) lengths and arbitrary strides.
class Tensor
{
    public:
    Tensor() = default;
    Tensor(DataType type, std::vector<std::int64_t> lens, Layout layout = Layout::Packed)
        : type_(type), lens_(std::move(lens))
    {
        std::int64_t s[5] = {0, 0, 0, 0, 0};
        make_strides(nd(), lens_.data(), layout, s);
        strides_.assign(s, s + nd());
        allocate();
    }
    Tensor(DataType type, std::vector<std::int64_t> lens, std::vector<std::int64_t> strides)
        : type_(type), lens_(std::move(lens)), strides_(std::move(strides))
    {
        allocate();
    }

    int nd() const { return static_cast<int>(lens_.size()); }
    DataType type() const { return type_; }
    const std::vector<std::int64_t>& lens() const { return lens_; }
    const std::vector<std::int64_t>& strides() const { return strides_; }
    std::int64_t count() const
    {
        std::int64_t c = 1;
        for(auto l : lens_)
            c *= l;
        return c;
    }
    std::int64_t offset(const std::vector<std::int64_t>& idx) const
    {
        std::int64_t o = 0;
        for(int i = 0; i < nd(); ++i)
            o += idx[i] * strides_[i];
        return o;
    }
    float at(const std::vector<std::int64_t>& idx) const
    {
        return miopen::cpu::load(type_, buf_.data(), offset(idx));
    }
    void set(const std::vector<std::int64_t>& idx, double v)
    {
        miopen::cpu::store(type_, buf_.data(), offset(idx), static_cast<float>(v));
    }
    // Logical element i in row-major (N, C, [D,] H, W) order.
    std::vector<std::int64_t> unravel(std::int64_t i) const
    {
        std::vector<std::int64_t> idx(nd());
        for(int d = nd() - 1; d >= 0; --d)
        {
            idx[d] = i % lens_[d];
            i /= lens_[d];
        }
        return idx;
    }
    float at_linear(std::int64_t i) const { return at(unravel(i)); }
    void set_linear(std::int64_t i, double v) { set(unravel(i), v); }

    // All logical values (row-major logical order) as doubles.
    std::vector<double> values() const
    {
        std::vector<double> v(count());
        for(std::int64_t i = 0; i < count(); ++i)
            v[i] = at_linear(i);
        return v;
    }
    void set_values(const std::vector<double>& v)
    {
        for(std::int64_t i = 0; i < count(); ++i)
            set_linear(i, v[i]);
    }

    // Fills the whole buffer (including layout gaps) with a recognisable pattern and the
    // logical elements with uniform random values in [lo, hi] rounded to storage.
    void fill_random(std::mt19937& rng, double lo = -1.0, double hi = 1.0)
    {
        fill_gaps();
        std::uniform_real_distribution<double> dist(lo, hi);
        for(std::int64_t i = 0; i < count(); ++i)
            set_linear(i, dist(rng));
    }
    void fill(double v)
    {
        fill_gaps();
        for(std::int64_t i = 0; i < count(); ++i)
            set_linear(i, v);
    }
    void fill_nan() { fill(std::numeric_limits<double>::quiet_NaN()); }

    // Raw bytes that are not logical elements: they must survive any kernel untouched.
    std::vector<unsigned char> gap_bytes() const
    {
        std::vector<unsigned char> mask(buf_.size() / type_size(type_), 0);
        for(std::int64_t i = 0; i < count(); ++i)
            mask[offset(unravel(i))] = 1;
        std::vector<unsigned char> out;
        for(std::size_t e = 0; e < mask.size(); ++e)
            if(!mask[e])
                for(std::size_t b = 0; b < type_size(type_); ++b)
                    out.push_back(buf_[e * type_size(type_) + b]);
        return out;
    }

    TensorView view()
    {
        TensorView v{};
        v.type = type_;
        v.nd   = nd();
        for(int i = 0; i < nd(); ++i)
        {
            v.lens[i]    = lens_[i];
            v.strides[i] = strides_[i];
        }
        v.data = buf_.data();
        return v;
    }
    // A view with a null data pointer ("not requested").
    TensorView null_view()
    {
        TensorView v = view();
        v.data       = nullptr;
        return v;
    }

    private:
    void allocate()
    {
        std::int64_t span = 1;
        for(int i = 0; i < nd(); ++i)
            span += (lens_[i] - 1) * strides_[i];
        buf_.assign(static_cast<std::size_t>(span) * type_size(type_), 0);
    }
    void fill_gaps()
    {
        // 0x5A5A... is a finite normal value in all three storage types
        std::fill(buf_.begin(), buf_.end(), static_cast<unsigned char>(0x5A));
    }

    DataType type_ = DataType::Float;
    std::vector<std::int64_t> lens_;
    std::vector<std::int64_t> strides_;
    std::vector<unsigned char> buf_;
};

// Rounds a double to the storage type and back (values the kernels can actually see).
inline double round_to(DataType t, double v)
{
    unsigned char tmp[4];
    miopen::cpu::store(t, tmp, 0, static_cast<float>(v));
    return miopen::cpu::load(t, tmp, 0);
}

// Compares got[i] with ref[i] within bound[i]; reports the first few failures.
inline ::testing::AssertionResult all_close(const std::vector<double>& got,
                                            const std::vector<double>& ref,
                                            const std::vector<double>& bound)
{
    if(got.size() != ref.size() || got.size() != bound.size())
        return ::testing::AssertionFailure() << "size mismatch";
    int bad = 0;
    std::string msg;
    double worst = 0.0;
    for(std::size_t i = 0; i < got.size(); ++i)
    {
        const double err = std::fabs(got[i] - ref[i]);
        if(!(err <= bound[i])) // also catches NaN
        {
            if(bad < 5)
                msg += "\n  [" + std::to_string(i) + "] got " + std::to_string(got[i]) +
                       " ref " + std::to_string(ref[i]) + " err " + std::to_string(err) +
                       " bound " + std::to_string(bound[i]);
            ++bad;
        }
        if(bound[i] > 0)
            worst = std::max(worst, err / bound[i]);
    }
    if(bad)
        return ::testing::AssertionFailure() << bad << " of " << got.size()
                                             << " elements out of tolerance" << msg;
    return ::testing::AssertionSuccess() << "worst err/bound " << worst;
}

} // namespace kt
