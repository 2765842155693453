// The op folders' tables (include/mini_hipdnn_registry.hpp): an entry is
// found by its predicate, in registration order; a second entry on one key
// stops the program at load instead of shadowing the first.
#include "mini_hipdnn_registry.hpp"

#include <gtest/gtest.h>

namespace
{

struct Kind
{
    int key;
    const char* name;
};

const Kind kFirst{21, "first"}, kSecond{27, "second"}, kClash{21, "clash"};

bool sameKey(const Kind& a, const Kind& b) { return a.key == b.key; }

TEST(Registry, FindsEachEntryByItsKeyAndNothingElse)
{
    mini_hipdnn::addEntry(kFirst, [](const Kind& e) { return sameKey(e, kFirst); }, "kind 21");
    mini_hipdnn::addEntry(kSecond, [](const Kind& e) { return sameKey(e, kSecond); }, "kind 27");
    EXPECT_EQ(mini_hipdnn::findEntry<Kind>([](const Kind& e) { return e.key == 27; }), &kSecond);
    EXPECT_EQ(mini_hipdnn::findEntry<Kind>([](const Kind& e) { return e.key == 21; }), &kFirst);
    EXPECT_EQ(mini_hipdnn::findEntry<Kind>([](const Kind& e) { return e.key == 20; }), nullptr);
}

TEST(RegistryDeathTest, ASecondEntryOnOneKeyAborts)
{
    EXPECT_DEATH(
        {
            mini_hipdnn::addEntry(kFirst, [](const Kind& e) { return sameKey(e, kFirst); }, "kind 21");
            mini_hipdnn::addEntry(kClash, [](const Kind& e) { return sameKey(e, kClash); }, "kind 21");
        },
        "mini-hipdnn: kind 21 registered twice");
}

} // namespace
