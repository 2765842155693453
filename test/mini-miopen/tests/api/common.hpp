// Helpers shared by the mini MIOpen API tests: RAII owners for the opaque
// objects, fp16/bf16 conversions, and a scoped environment variable.
#pragma once

#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace mmt {

struct Handle
{
    miopenHandle_t h = nullptr;
    Handle() { EXPECT_EQ(miopenCreate(&h), miopenStatusSuccess); }
    ~Handle() { miopenDestroy(h); }
    operator miopenHandle_t() const { return h; }
};

struct Tensor
{
    miopenTensorDescriptor_t d = nullptr;
    Tensor() { EXPECT_EQ(miopenCreateTensorDescriptor(&d), miopenStatusSuccess); }
    Tensor(miopenDataType_t t, std::vector<int> lens) : Tensor()
    {
        EXPECT_EQ(miopenSetTensorDescriptor(d, t, static_cast<int>(lens.size()), lens.data(), nullptr),
                  miopenStatusSuccess);
    }
    Tensor(miopenDataType_t t, std::vector<int> lens, std::vector<int> strides) : Tensor()
    {
        EXPECT_EQ(miopenSetTensorDescriptor(
                      d, t, static_cast<int>(lens.size()), lens.data(), strides.data()),
                  miopenStatusSuccess);
    }
    ~Tensor() { miopenDestroyTensorDescriptor(d); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
    operator miopenTensorDescriptor_t() const { return d; }
};

struct Conv
{
    miopenConvolutionDescriptor_t d = nullptr;
    Conv(int pad = 0, int stride = 1, int dil = 1)
    {
        EXPECT_EQ(miopenCreateConvolutionDescriptor(&d), miopenStatusSuccess);
        EXPECT_EQ(miopenInitConvolutionDescriptor(d, miopenConvolution, pad, pad, stride, stride, dil, dil),
                  miopenStatusSuccess);
    }
    ~Conv() { miopenDestroyConvolutionDescriptor(d); }
    Conv(const Conv&) = delete;
    Conv& operator=(const Conv&) = delete;
    operator miopenConvolutionDescriptor_t() const { return d; }
};

struct Activ
{
    miopenActivationDescriptor_t d = nullptr;
    Activ(miopenActivationMode_t m, double a = 0, double b = 0, double g = 0)
    {
        EXPECT_EQ(miopenCreateActivationDescriptor(&d), miopenStatusSuccess);
        EXPECT_EQ(miopenSetActivationDescriptor(d, m, a, b, g), miopenStatusSuccess);
    }
    ~Activ() { miopenDestroyActivationDescriptor(d); }
    Activ(const Activ&) = delete;
    Activ& operator=(const Activ&) = delete;
    operator miopenActivationDescriptor_t() const { return d; }
};

// IEEE binary16 conversion (round to nearest even; no NaN handling needed here).
inline std::uint16_t to_half(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    int exp                  = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
    std::uint32_t mant       = x & 0x7fffffu;
    if(exp <= 0)
    {
        if(exp < -10)
            return static_cast<std::uint16_t>(sign);
        mant |= 0x800000u;
        const int shift          = 14 - exp;
        std::uint32_t h          = mant >> shift;
        const std::uint32_t rest = mant & ((1u << shift) - 1);
        const std::uint32_t half = 1u << (shift - 1);
        if(rest > half || (rest == half && (h & 1u)))
            ++h;
        return static_cast<std::uint16_t>(sign | h);
    }
    if(exp >= 31)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    std::uint32_t h          = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
    const std::uint32_t rest = mant & 0x1fffu;
    if(rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h;
    return static_cast<std::uint16_t>(sign | h);
}

inline float from_half(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    const int exp            = (h >> 10) & 0x1f;
    std::uint32_t mant       = h & 0x3ffu;
    float out;
    if(exp == 0)
    {
        out = static_cast<float>(mant) * (1.0f / 16777216.0f); // 2^-24
        return sign ? -out : out;
    }
    std::uint32_t x = sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
    if(exp == 31)
        x = sign | 0x7f800000u | (mant << 13);
    std::memcpy(&out, &x, 4);
    return out;
}

inline std::uint16_t to_bf16(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return static_cast<std::uint16_t>(x >> 16);
}

inline float from_bf16(std::uint16_t b)
{
    const std::uint32_t x = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// Sets (or unsets) an environment variable for the lifetime of the object.
class ScopedEnv
{
public:
    ScopedEnv(const char* name, const char* value) : n(name)
    {
        if(const char* old = std::getenv(name))
            previous = old;
        if(value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv()
    {
        if(previous)
            setenv(n.c_str(), previous->c_str(), 1);
        else
            unsetenv(n.c_str());
    }

private:
    std::string n;
    std::optional<std::string> previous;
};

// Removes the directories MakeTempDir made in this process (at exit too).
void RemoveTempDirs();

// Like MIOpen, the test bed reads its logging variables once per process, at
// the first logging call. Each configuration therefore runs in a fresh process
// (a threadsafe-style death test re-executes the test) with `var` set to
// `value` (unset for null) before the first MIOpen call. `calls` makes the
// calls and `check` inspects what they wrote to stderr; each returns "" when
// all is well.
template <class Calls, class Check>
void ExpectStderrInFreshProcess(const char* var, const char* value, Calls calls, Check check)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            if(value)
                setenv(var, value, 1);
            else
                unsetenv(var);
            testing::internal::CaptureStderr();
            const std::string call_problem = calls();
            const std::string err          = testing::internal::GetCapturedStderr();
            const std::string problem      = call_problem.empty() ? check(err) : call_problem;
            if(!problem.empty())
            {
                std::fprintf(stderr, "%s\n-- stderr was:\n%s\n", problem.c_str(), err.c_str());
                RemoveTempDirs();
                std::_Exit(1);
            }
            RemoveTempDirs(); // the child re-ran the test body: its own dirs
            std::_Exit(0);
        },
        testing::ExitedWithCode(0),
        "");
}

// A fresh, empty directory under /tmp, removed when the test program exits.
std::string MakeTempDir(const char* tag);

} // namespace mmt

// Declared here, not in <miopen/miopen.h>: the exported-but-hidden find-mode pair.
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int findMode);
extern "C" miopenStatus_t miopenHiddenGetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int* findMode);
