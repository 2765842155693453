// Version reporting in hipDNN's form, and the knob that reports another one.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace
{

// hipDNN's form: MAJOR.MINOR.PATCH (decimal) and a fourth field of text.
bool hasRealForm(const std::string& v, std::string* release, std::string* tweak)
{
    size_t dots = 0, third = std::string::npos;
    for(size_t i = 0; i < v.size() && third == std::string::npos; ++i)
    {
        if(v[i] == '.')
        {
            if(++dots == 3)
                third = i;
        }
        else if(v[i] < '0' || v[i] > '9')
        {
            return false;
        }
    }
    if(third == std::string::npos || third + 1 == v.size())
        return false;
    *release = v.substr(0, third);
    *tweak = v.substr(third + 1);
    return true;
}

TEST(Version, StringIsTheReleaseAndAGitHash)
{
    const char* v = hipdnnVersionString_ext();
    ASSERT_NE(v, nullptr);
    EXPECT_STREQ(v, MINI_HIPDNN_EXPECTED_VERSION);
    std::string release, tweak;
    ASSERT_TRUE(hasRealForm(v, &release, &tweak)) << v;
    EXPECT_EQ(release, MINI_HIPDNN_EXPECTED_RELEASE);
    // A git short hash, or "unknown" when the tree is not a git checkout.
    EXPECT_TRUE(tweak == "unknown" || tweak.find_first_not_of("0123456789abcdef") == std::string::npos) << tweak;
    EXPECT_EQ(hipdnnVersionString_ext(), v) << "static lifetime, same pointer";
}

TEST(Version, DeprecatedGetVersion)
{
    const char* v = nullptr;
    ASSERT_EQ(hipdnnGetVersion_ext(&v), HIPDNN_STATUS_SUCCESS);
    EXPECT_STREQ(v, hipdnnVersionString_ext());
    EXPECT_EQ(hipdnnGetVersion_ext(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
}

TEST(Version, KnobReportsAnyOtherString)
{
    for(const char* other : {"0.0.1", "1.2.3.unknown", "2.0.0.9f3e2a1", "garbage"})
    {
        setenv("MINI_HIPDNN_TEST_VERSION_STRING", other, 1);
        EXPECT_STREQ(hipdnnVersionString_ext(), other);
        const char* v = nullptr;
        ASSERT_EQ(hipdnnGetVersion_ext(&v), HIPDNN_STATUS_SUCCESS);
        EXPECT_STREQ(v, other);
    }
    setenv("MINI_HIPDNN_TEST_VERSION_STRING", "", 1);
    EXPECT_STREQ(hipdnnVersionString_ext(), MINI_HIPDNN_EXPECTED_VERSION) << "empty means unset";
    unsetenv("MINI_HIPDNN_TEST_VERSION_STRING");
    EXPECT_STREQ(hipdnnVersionString_ext(), MINI_HIPDNN_EXPECTED_VERSION);
}

} // namespace
