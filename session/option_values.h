// How dtrace reads an option's value (libdtrace/dt_options.c): the kinds of
// value (sizes, rates, toggles ...), the words it refuses them with, and the
// D versions it knows. The options themselves are rows of option_table.h.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtx::session {

// dtrace's three option tables.
enum class OptionTime : uint8_t {
    Compile, // read by the compiler; setopt() cannot change what they did
    Runtime, // fixed once tracing starts (buffer sizes, frame counts ...)
    Dynamic, // setopt() changes them while tracing
};

// How a value is read.
enum class OptionSyntax : uint8_t {
    Flag,     // no value: the option is set (a value, even "", is an error)
    Toggle,   // none: set (0); "": unset; yes/no, on/off ...; or a number
    Size,     // bytes, with an optional k, m, g or t suffix; none: 0
    Rate,     // a number with a time unit (ns us ms s m h d) or hz; none: 0
    Text,     // any text, required
    Choice,   // one of the option's choices
    Number,   // a non-negative integer, required
    Positive, // an integer from 1, required
    Version,  // a D language version dtrace defines
    Ignored,  // anything or nothing (droptags, lazyload, linknommap)
};

// The D language versions dtrace-utils defines, oldest first ("1.0" ...).
std::span<const std::string_view> d_versions();

// A value as read.
struct OptionValue {
    bool set = true;     // Toggle: false for "", no, off ... (dtrace's UNSET)
    uint64_t number = 0; // Toggle, Size (bytes), Rate (nanoseconds), Number
};

// dtrace's words for setopt() of a name it does not define, of a value it
// refuses, and of an option that cannot change while tracing.
// Nanoseconds in a day, the largest unit a rate is written in.
inline constexpr uint64_t kNanosecondsPerDay = 86400'000'000'000;

inline constexpr std::string_view kInvalidOptionName = "Invalid option name";
inline constexpr std::string_view kInvalidOptionValue = "Invalid value for specified option";
inline constexpr std::string_view kOptionWhileTracing = "Operation illegal when tracing is active";
inline constexpr std::string_view kOptionInProgram =
    "Option cannot be used from within a D program";

// An option value refused: `message` says what was given and what is
// expected ("option 'bufsize' needs a size ..., not 'x'"); the one detail is
// dtrace's own words for the failure (`dtrace_reason`), which setopt()'s
// warning repeats.
Error option_error(std::string message, std::string_view dtrace_reason);
// The dtrace words of an option_error().
std::string_view dtrace_reason(const Error &option_error);

// Reads `value` (none: the name alone, "-x quiet") of the option `name` as
// `syntax` has it (`choices`: a Choice's words, space-separated): its form,
// not its range (the option's row has that). A number too large for 64 bits,
// given or once scaled by its suffix or unit, reads as UINT64_MAX, above
// every range.
Result<OptionValue> read_option_value(std::string_view name, OptionSyntax syntax,
                                      std::string_view choices,
                                      const std::optional<std::string> &value);

// The one-line notice for an option dtx accepts but does not act on.
std::string no_effect_notice(std::string_view name);

} // namespace dtx::session
