// Version reporting, and the wrong-major backend variant built for skew tests.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <string>
#include <vector>

namespace
{

std::vector<long> parseVersion(const std::string& s)
{
    std::vector<long> parts;
    size_t pos = 0;
    while(pos <= s.size())
    {
        size_t dot = s.find('.', pos);
        std::string tok = s.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        if(tok.empty() || tok.find_first_not_of("0123456789") != std::string::npos)
        {
            return {};
        }
        parts.push_back(std::stol(tok));
        if(dot == std::string::npos)
        {
            break;
        }
        pos = dot + 1;
    }
    return parts;
}

TEST(Version, StringIsMajorMinorPatchTweak)
{
    const char* v = hipdnnVersionString_ext();
    ASSERT_NE(v, nullptr);
    EXPECT_STREQ(v, MINI_HIPDNN_EXPECTED_VERSION);
    auto parts = parseVersion(v);
    ASSERT_EQ(parts.size(), 4u) << v;
    EXPECT_EQ(parts[0], MINI_HIPDNN_EXPECTED_MAJOR);
    EXPECT_EQ(hipdnnVersionString_ext(), v) << "static lifetime, same pointer";
}

TEST(Version, DeprecatedGetVersion)
{
    const char* v = nullptr;
    ASSERT_EQ(hipdnnGetVersion_ext(&v), HIPDNN_STATUS_SUCCESS);
    EXPECT_STREQ(v, hipdnnVersionString_ext());
    EXPECT_EQ(hipdnnGetVersion_ext(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
}

using VersionFn = const char* (*)();

std::string versionOf(const std::string& lib)
{
    void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if(h == nullptr)
    {
        return std::string("dlopen failed: ") + dlerror();
    }
    auto fn = reinterpret_cast<VersionFn>(dlsym(h, "hipdnnVersionString_ext"));
    std::string v = fn != nullptr ? fn() : "symbol missing";
    dlclose(h);
    return v;
}

TEST(Version, WrongMajorVariantReportsItsMajor)
{
    std::string v = versionOf(std::string(MINI_HIPDNN_WRONG_MAJOR_LIB_DIR) + "/libhipdnn_backend.so");
    auto parts = parseVersion(v);
    ASSERT_EQ(parts.size(), 4u) << v;
    EXPECT_EQ(parts[0], MINI_HIPDNN_EXPECTED_WRONG_MAJOR);
    EXPECT_NE(parts[0], MINI_HIPDNN_EXPECTED_MAJOR);
}

TEST(Version, BuildTreeBackendIsTheLinkedOne)
{
    std::string v = versionOf(std::string(MINI_HIPDNN_LIB_DIR) + "/libhipdnn_backend.so");
    EXPECT_EQ(v, MINI_HIPDNN_EXPECTED_VERSION);
}

} // namespace
