#include <gtest/gtest.h>
TEST(Placeholder, Todo) { GTEST_SKIP(); }
