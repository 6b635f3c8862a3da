// dtrace's options (libdtrace/dt_options.c), one row each: when it may be
// set, how its value reads, the values it may take, its default, and the
// setter that writes the field it controls. -x, the flags that stand for
// options (-q -w -Z -F -C -D -I -U), #pragma D option and setopt() all set
// options through these rows (apply_option() in option_settings.h); the man
// page and the shell completion list them.
#pragma once

#include "codegen/compile.h"
#include "libtrace/consumer.h"
#include "session/option_values.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::session {

// What the session itself does with options.
struct SessionFlags {
    bool zero_matches_allowed = false; // -Z, zdefs
    bool defaultargs = false;
    bool destructive = false;       // -w, destructive
    bool errtags = false;           // errors in dtrace's one-line form
    bool noresolve = false;         // user addresses print unnamed
    uint64_t unwindsize = 16 << 20; // room for ustack()'s unwind tables, in bytes
    // Script files go through cpp (-C, cpp) with these arguments, in the
    // order given (-D -U -I, define, undef, incdir, cppargs, cpphdrs).
    bool preprocess = false;
    std::vector<std::string> cpp_args;
};

// The fields options write. compile and flags are null for setopt(), which
// comes once the program runs: it sets only the consumer's (dynamic) options.
struct OptionTargets {
    codegen::CompileOptions *compile = nullptr;
    SessionFlags *flags = nullptr;
    trace::ConsumerOptions *consumer = nullptr;
};

// An option's value as given and as read.
struct OptionSetting {
    // Its number: a toggle that unsets (-x stackframes=no) has its row's
    // default here, with `value.set` false.
    OptionValue value;
    const std::optional<std::string> &text; // as given; none: the name alone
};

// The numbers an option's value may be: sizes in bytes, rates in nanoseconds.
struct OptionRange {
    uint64_t least = 0;
    uint64_t most = 0;
    bool most_is_last_cpu = false; // `most` is this machine's last CPU
};

struct OptionSpec {
    std::string_view name;
    OptionTime time;
    OptionSyntax syntax;
    // What dtx does with it: Acts (the row's setter writes what it
    // controls), Moot (nothing needs doing: dtx's consumer meets any rate,
    // never resizes buffers; dtx has the newest D), or Ignored (dtx has no
    // such feature: accepted with a notice).
    enum class Effect : uint8_t { Acts, Moot, Ignored } effect;
    // cpp and linker settings, which dtrace refuses inside a D program.
    bool outside_program = false;
    std::string_view choices = {}; // Choice: the words, space-separated
    // Sizes, rates and numbers: what the value may be; none: any its syntax
    // reads (range_of() below fills in the syntax's own bounds).
    std::optional<OptionRange> range = std::nullopt;
    // As the value would be written ("4m", "text"); empty: none (unset).
    std::string_view default_value = {};
    // Writes the option's field; set for Acts only. A failure's message
    // names the option and the value refused.
    Status (*set)(const OptionTargets &, const OptionSetting &) = nullptr;
    // Its own words for a value refused (not read, or out of range), where
    // the general ones would not say what it wants.
    Error (*refusal)(const std::optional<std::string> &value) = nullptr;
};

// Null for a name dtrace does not define.
const OptionSpec *find_option(std::string_view name);
// Every option, sorted by name.
std::span<const OptionSpec> all_options();

// The values `spec` may be set to: its row's range, else its syntax's
// (sizes and rates to the most dtrace holds, toggles and numbers from 0 or 1);
// none for options without numbers.
std::optional<OptionRange> range_of(const OptionSpec &spec);

// Reads `value` as `spec` takes it: its syntax, not its range.
Result<OptionValue> parse_option(const OptionSpec &spec, const std::optional<std::string> &value);

} // namespace dtx::session
