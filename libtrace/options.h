// dtrace's options, as dtrace-utils defines them (libdtrace/dt_options.c):
// every name -x, #pragma D option and setopt() accept, when each may be set,
// how its value is read, and whether dtx acts on it. An option dtx does not
// act on is still accepted (with a notice that it has no effect), and its
// value is checked as dtrace checks it.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtx::trace {

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
    Choice,   // one of the spec's `choices`
    Number,   // a non-negative integer, required
    Positive, // an integer from 1, required
    Version,  // a D language version dtrace defines
    Ignored,  // anything or nothing (droptags, lazyload, linknommap)
};

struct OptionSpec {
    std::string_view name;
    OptionTime time;
    OptionSyntax syntax;
    // What dtx does with it: Acts (dtx implements it), Moot (nothing needs
    // doing: dtx's consumer meets any rate, never resizes buffers), or
    // Ignored (dtx has no such feature: accepted with a notice).
    enum class Effect : uint8_t { Acts, Moot, Ignored } effect;
    // cpp and linker settings, which dtrace refuses inside a D program.
    bool outside_program = false;
    std::string_view choices = {}; // Choice: the words, space-separated
};

// Null for a name dtrace does not define.
const OptionSpec *find_option(std::string_view name);
// Every option, sorted by name (shell completion lists them).
std::span<const OptionSpec> all_options();

// The D language versions dtrace-utils defines, oldest first ("1.0" ...).
std::span<const std::string_view> d_versions();

// A value as read.
struct OptionValue {
    bool set = true;     // Toggle: false for "", no, off ... (dtrace's UNSET)
    uint64_t number = 0; // Toggle, Size (bytes), Rate (nanoseconds), Number
};

// dtrace's words for setopt() of a name it does not define, of a value it
// refuses, and of an option that cannot change while tracing.
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

// Reads `value` (none: the name alone, "-x quiet") as `spec` takes it: its
// syntax, not its range (apply_option() in session knows each
// option's). A number too large for 64 bits, given or once scaled by its
// suffix or unit, reads as UINT64_MAX, above every range.
Result<OptionValue> parse_option(const OptionSpec &spec, const std::optional<std::string> &value);

// The one-line notice for an option dtx accepts but does not act on.
std::string no_effect_notice(const OptionSpec &spec);

} // namespace dtx::trace
