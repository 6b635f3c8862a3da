// The profile provider's probe names, exposed for tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtx::providers {

struct ProfileRate {
    bool tick = false;      // tick-N: one CPU; profile-N: every CPU
    uint64_t period_ns = 0; // between firings
};

// "profile-997", "tick-10ms", "profile-5us" -> the rate; nullopt if the name
// is not a profile probe name.
std::optional<ProfileRate> parse_profile_name(std::string_view name);

} // namespace dtx::providers
