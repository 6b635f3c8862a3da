// The profile provider's probe names: profile-N and tick-N with each of
// DTrace's unit suffixes, N in hertz when there is none, and names that are
// not profile probes.
#include "providers/profile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace dtx::providers {
namespace {

constexpr uint64_t kSecond = 1000000000;

// The period of a name that must parse, or 0 (with a failure) if it does not.
uint64_t period_of(const std::string &name) {
    std::optional<ProfileRate> rate = parse_profile_name(name);
    if (!rate) {
        ADD_FAILURE() << "'" << name << "' did not parse";
        return 0;
    }
    return rate->period_ns;
}

TEST(ProfileName, ProfileFiresOnEveryCpu) {
    std::optional<ProfileRate> rate = parse_profile_name("profile-97");
    ASSERT_TRUE(rate);
    EXPECT_FALSE(rate->tick);
}

TEST(ProfileName, TickFiresOnOneCpu) {
    std::optional<ProfileRate> rate = parse_profile_name("tick-1s");
    ASSERT_TRUE(rate);
    EXPECT_TRUE(rate->tick);
}

TEST(ProfileName, NoSuffixIsHertz) {
    EXPECT_EQ(period_of("tick-1"), kSecond);
    EXPECT_EQ(period_of("tick-1000"), 1000000u);
    EXPECT_EQ(period_of("profile-97"), kSecond / 97);
    EXPECT_EQ(period_of("profile-997"), 1003009u); // rounded down
}

TEST(ProfileName, HzSuffixIsHertz) {
    EXPECT_EQ(period_of("profile-997hz"), period_of("profile-997"));
    EXPECT_EQ(period_of("tick-4hz"), kSecond / 4);
}

TEST(ProfileName, EveryTimeSuffix) {
    struct Case {
        const char *suffix;
        uint64_t ns;
    };
    const Case cases[] = {
        {"ns", 1},
        {"nsec", 1},
        {"us", 1000},
        {"usec", 1000},
        {"ms", 1000000},
        {"msec", 1000000},
        {"s", kSecond},
        {"sec", kSecond},
        {"m", 60 * kSecond},
        {"min", 60 * kSecond},
        {"h", 3600 * kSecond},
        {"hour", 3600 * kSecond},
        {"d", 86400 * kSecond},
        {"day", 86400 * kSecond},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(period_of(std::string("tick-3") + c.suffix), 3 * c.ns) << c.suffix;
        EXPECT_EQ(period_of(std::string("profile-3") + c.suffix), 3 * c.ns) << c.suffix;
    }
}

TEST(ProfileName, OtherNamesAreNotProfileProbes) {
    for (const char *name : {"", "BEGIN", "profile", "tick", "profile97", "tick1s", "timer-10ms",
                             "Profile-97", "xprofile-97"})
        EXPECT_FALSE(parse_profile_name(name)) << "'" << name << "'";
}

TEST(ProfileName, MalformedCountsAreRejected) {
    for (const char *name :
         {"profile-", "tick-", "profile-0", "tick-0s", "profile--5", "profile-+5", "profile-abc",
          "tick-s", "tick-1.5s", "tick- 1s", "tick-1 s", "profile-0x10"})
        EXPECT_FALSE(parse_profile_name(name)) << "'" << name << "'";
}

TEST(ProfileName, UnknownSuffixesAreRejected) {
    for (const char *name : {"tick-10xs", "tick-10S", "tick-10MS", "tick-10seconds", "tick-10mss",
                             "tick-10hzz", "tick-10Hz", "profile-10s ", "tick-1sec1"})
        EXPECT_FALSE(parse_profile_name(name)) << "'" << name << "'";
}

TEST(ProfileName, RatesAboveOneGigahertzAreRejected) {
    // One firing per nanosecond is the limit: a faster rate has no period.
    EXPECT_EQ(period_of("profile-1000000000"), 1u);
    EXPECT_FALSE(parse_profile_name("profile-1000000001"));
    EXPECT_FALSE(parse_profile_name("profile-4000000000hz"));
}

TEST(ProfileName, CountsOutOfRangeAreRejected) {
    EXPECT_FALSE(parse_profile_name("tick-18446744073709551616ns")); // 2^64
    EXPECT_FALSE(parse_profile_name("tick-99999999999999999999999"));
}

TEST(ProfileName, PeriodsThatOverflowAreRejected) {
    // 2^64 ns is about 213,504 days: a longer period must not wrap around to a
    // short one.
    EXPECT_EQ(period_of("tick-213503d"), uint64_t{213503} * 86400 * kSecond);
    EXPECT_FALSE(parse_profile_name("tick-213504d"));
    EXPECT_FALSE(parse_profile_name("tick-18446744073709551615h"));
}

} // namespace
} // namespace dtx::providers
