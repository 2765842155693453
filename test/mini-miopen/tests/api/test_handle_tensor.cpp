// Handle and tensor descriptor entry points.
#include "common.hpp"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace mmt {

namespace {
// The directories MakeTempDir made, removed when the test program exits (a
// test may hand one to a handle or an environment variable that outlives it).
// Only by the process that made them: a death test's child exits too.
struct TempDirs
{
    std::vector<std::string> made;
    pid_t owner = getpid();
    void remove()
    {
        if(getpid() != owner)
            return;
        for(const auto& d : made)
        {
            std::error_code ignored;
            std::filesystem::remove_all(d, ignored);
        }
        made.clear();
    }
    ~TempDirs() { remove(); }
};
TempDirs& temp_dirs()
{
    static TempDirs dirs;
    return dirs;
}
} // namespace

void RemoveTempDirs() { temp_dirs().remove(); }

std::string MakeTempDir(const char* tag)
{
    std::string templ = std::string("/tmp/mini-miopen-") + tag + "-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    const char* d = mkdtemp(buf.data());
    EXPECT_NE(d, nullptr);
    if(d == nullptr)
        return std::string();
    temp_dirs().made.emplace_back(d);
    return std::string(d);
}

} // namespace mmt

TEST(Handle, VersionComesFromGeneratedHeader)
{
    size_t major = 0, minor = 0, patch = 99;
    ASSERT_EQ(miopenGetVersion(&major, &minor, &patch), miopenStatusSuccess);
    EXPECT_EQ(major, 3u);
    EXPECT_EQ(minor, 3u);
    EXPECT_EQ(patch, 0u);
    EXPECT_EQ(miopenGetVersion(nullptr, &minor, &patch), miopenStatusBadParm);
}

TEST(Handle, CreateWithStreamAndSwapStreams)
{
    auto* s1 = reinterpret_cast<hipStream_t>(0x1000);
    auto* s2 = reinterpret_cast<hipStream_t>(0x2000);
    miopenHandle_t h = nullptr;
    ASSERT_EQ(miopenCreateWithStream(&h, s1), miopenStatusSuccess);
    miopenAcceleratorQueue_t got = nullptr;
    ASSERT_EQ(miopenGetStream(h, &got), miopenStatusSuccess);
    EXPECT_EQ(got, s1);
    ASSERT_EQ(miopenSetStream(h, s2), miopenStatusSuccess);
    ASSERT_EQ(miopenGetStream(h, &got), miopenStatusSuccess);
    EXPECT_EQ(got, s2);
    EXPECT_EQ(miopenGetStream(h, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenDestroy(h), miopenStatusSuccess);
}

TEST(Handle, NullHandleIsBadParm)
{
    EXPECT_EQ(miopenCreate(nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenCreateWithStream(nullptr, nullptr), miopenStatusBadParm);
    // MIOpen deletes a null handle as a no-op.
    EXPECT_EQ(miopenDestroy(nullptr), miopenStatusSuccess);
    EXPECT_EQ(miopenSetStream(nullptr, nullptr), miopenStatusBadParm);
    miopenAcceleratorQueue_t q;
    EXPECT_EQ(miopenGetStream(nullptr, &q), miopenStatusBadParm);
    float t;
    EXPECT_EQ(miopenGetKernelTime(nullptr, &t), miopenStatusBadParm);
    EXPECT_EQ(miopenEnableProfiling(nullptr, true), miopenStatusBadParm);
}

TEST(Handle, ErrorStrings)
{
    EXPECT_STREQ(miopenGetErrorString(miopenStatusSuccess), "miopenStatusSuccess");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusBadParm), "miopenStatusBadParm");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusNotImplemented), "miopenStatusNotImplemented");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusUnsupportedOp), "miopenStatusUnsupportedOp");
    EXPECT_STREQ(miopenGetErrorString(static_cast<miopenStatus_t>(1234)), "Unknown error status");
}

TEST(Tensor, Set4dGet4dPacked)
{
    mmt::Tensor t;
    ASSERT_EQ(miopenSet4dTensorDescriptor(t, miopenHalf, 2, 3, 4, 5), miopenStatusSuccess);
    miopenDataType_t dt;
    int n, c, h, w, ns, cs, hs, ws;
    ASSERT_EQ(miopenGet4dTensorDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws),
              miopenStatusSuccess);
    EXPECT_EQ(dt, miopenHalf);
    EXPECT_EQ((std::vector<int>{n, c, h, w}), (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ((std::vector<int>{ns, cs, hs, ws}), (std::vector<int>{60, 20, 5, 1}));
    size_t bytes = 0;
    ASSERT_EQ(miopenGetTensorNumBytes(t, &bytes), miopenStatusSuccess);
    EXPECT_EQ(bytes, 2u * 3 * 4 * 5 * 2);
    int size = 0;
    ASSERT_EQ(miopenGetTensorDescriptorSize(t, &size), miopenStatusSuccess);
    EXPECT_EQ(size, 4);
}

TEST(Tensor, ExStridesAndNumBytesSpanPadding)
{
    mmt::Tensor t;
    // Rows padded to 8 elements: the byte size covers the padded span.
    ASSERT_EQ(miopenSet4dTensorDescriptorEx(t, miopenFloat, 1, 2, 3, 4, 48, 24, 8, 1),
              miopenStatusSuccess);
    size_t bytes = 0;
    ASSERT_EQ(miopenGetTensorNumBytes(t, &bytes), miopenStatusSuccess);
    // last element offset: 1*24 + 2*8 + 3*1 = 43 -> 44 elements.
    EXPECT_EQ(bytes, 44u * 4);
}

TEST(Tensor, NdWithStridesAndV2)
{
    mmt::Tensor t;
    const int dims[]    = {1, 2, 3, 4, 5};
    const int strides[] = {120, 1, 40, 10, 2};
    ASSERT_EQ(miopenSetTensorDescriptor(t, miopenBFloat16, 5, dims, strides), miopenStatusSuccess);
    int size = 0;
    ASSERT_EQ(miopenGetTensorDescriptorSize(t, &size), miopenStatusSuccess);
    ASSERT_EQ(size, 5);
    miopenDataType_t dt;
    int d[5], s[5];
    ASSERT_EQ(miopenGetTensorDescriptor(t, &dt, d, s), miopenStatusSuccess);
    EXPECT_EQ(dt, miopenBFloat16);
    EXPECT_EQ(std::vector<int>(d, d + 5), std::vector<int>(dims, dims + 5));
    EXPECT_EQ(std::vector<int>(s, s + 5), std::vector<int>(strides, strides + 5));

    const size_t dims2[] = {2, 3, 4, 5};
    ASSERT_EQ(miopenSetTensorDescriptorV2(t, miopenFloat, 4, dims2, nullptr), miopenStatusSuccess);
    ASSERT_EQ(miopenGetTensorDescriptor(t, &dt, d, s), miopenStatusSuccess);
    EXPECT_EQ((std::vector<int>(s, s + 4)), (std::vector<int>{60, 20, 5, 1}));
    EXPECT_EQ(miopenSetTensorCastType(t, miopenHalf), miopenStatusSuccess);
}

TEST(Tensor, LayoutNhwcGivesChannelFastestStrides)
{
    mmt::Tensor t;
    const int lens[] = {2, 3, 4, 5};
    ASSERT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens, 4),
              miopenStatusSuccess);
    int d[4], s[4];
    miopenDataType_t dt;
    ASSERT_EQ(miopenGetTensorDescriptor(t, &dt, d, s), miopenStatusSuccess);
    EXPECT_EQ((std::vector<int>(s, s + 4)), (std::vector<int>{60, 1, 15, 3}));

    const int lens5[] = {1, 2, 3, 4, 5};
    ASSERT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNDHWC, lens5, 5),
              miopenStatusSuccess);
    int d5[5], s5[5];
    ASSERT_EQ(miopenGetTensorDescriptor(t, &dt, d5, s5), miopenStatusSuccess);
    EXPECT_EQ((std::vector<int>(s5, s5 + 5)), (std::vector<int>{120, 1, 40, 10, 2}));
    // Layout and rank disagree.
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens5, 5),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNCHWc4, lens, 4),
              miopenStatusNotImplemented);
}

TEST(Tensor, InvalidArguments)
{
    EXPECT_EQ(miopenCreateTensorDescriptor(nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenSet4dTensorDescriptor(nullptr, miopenFloat, 1, 1, 1, 1), miopenStatusBadParm);
    EXPECT_EQ(miopenDestroyTensorDescriptor(nullptr), miopenStatusSuccess);
    int size;
    EXPECT_EQ(miopenGetTensorDescriptorSize(nullptr, &size), miopenStatusBadParm);
    size_t bytes;
    EXPECT_EQ(miopenGetTensorNumBytes(nullptr, &bytes), miopenStatusBadParm);

    mmt::Tensor t;
    EXPECT_EQ(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 0, 2, 2), miopenStatusBadParm);
    EXPECT_EQ(miopenSet4dTensorDescriptor(t, miopenFloat, 1, -3, 2, 2), miopenStatusBadParm);
    EXPECT_EQ(miopenSet4dTensorDescriptor(t, static_cast<miopenDataType_t>(4), 1, 1, 2, 2),
              miopenStatusBadParm);
    const int dims[] = {1, 2};
    EXPECT_EQ(miopenSetTensorDescriptor(t, miopenFloat, 0, dims, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenSetTensorDescriptor(t, miopenFloat, 2, nullptr, nullptr), miopenStatusBadParm);
    const int zero_strides[] = {0, 1};
    EXPECT_EQ(miopenSetTensorDescriptor(t, miopenFloat, 2, dims, zero_strides), miopenStatusBadParm);
    EXPECT_EQ(miopenSetTensorCastType(t, static_cast<miopenDataType_t>(77)), miopenStatusBadParm);

    // Get4d on a descriptor that is not 4-D.
    const int dims5[] = {1, 1, 1, 1, 1};
    ASSERT_EQ(miopenSetTensorDescriptor(t, miopenFloat, 5, dims5, nullptr), miopenStatusSuccess);
    miopenDataType_t dt;
    int n, c, h, w, ns, cs, hs, ws;
    EXPECT_EQ(miopenGet4dTensorDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws),
              miopenStatusBadParm);
    // Never-set descriptor.
    mmt::Tensor unset;
    EXPECT_EQ(miopenGetTensorDescriptor(unset, &dt, nullptr, nullptr), miopenStatusBadParm);
}
