// The reference part of dtx-d(7), written from the tables the compiler and
// the session use: every subroutine, action and aggregating function with
// its signature, every built-in variable with its type, every option and
// every provider. The page holds it between two markers;
// scripts/regen-man-reference rewrites it there and a unit test checks that
// it is what the tables say now.
#pragma once

#include <string>
#include <string_view>

namespace dtx::session {

inline constexpr std::string_view kReferenceBegin =
    ".\\\" Generated from dtx's tables by scripts/regen-man-reference: do not edit.\n";
inline constexpr std::string_view kReferenceEnd = ".\\\" End of the generated reference.\n";

// The roff text between the markers.
std::string d_reference_roff();

} // namespace dtx::session
