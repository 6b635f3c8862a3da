// The one place that knows what every option does: -x on the command line,
// `#pragma D option` in the program and setopt() while tracing all set
// options through apply_option(). libtrace/options.h has dtrace's table of
// names, when each may be set and how its value reads; this file has what
// setting one changes, in the part of dtx that acts on it.
#pragma once

#include "codegen/compile.h"
#include "libtrace/consumer.h"
#include "libtrace/error.h"
#include "parser/ast.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dtx::session {

// Where an option is set.
enum class OptionSource {
    CommandLine, // -x
    Program,     // #pragma D option
    Setopt,      // setopt() while tracing: only dynamic options take effect
};

// What the session itself does with options.
struct SessionFlags {
    bool zero_matches_allowed = false; // -Z, zdefs
    bool defaultargs = false;
    bool destructive = false; // -w, destructive
    bool errtags = false;     // errors in dtrace's one-line form
    uint64_t unwindsize = 16 << 20; // room for ustack()'s unwind tables, in bytes
};

// What an option may change; compile and flags are null for setopt(), which
// comes once the program runs.
struct OptionTargets {
    codegen::CompileOptions *compile = nullptr;
    SessionFlags *flags = nullptr;
    trace::ConsumerOptions *consumer = nullptr;
    // Names whose "has no effect" notice was given: each is given once.
    std::set<std::string> *noticed = nullptr;
};

// Sets `name` to `value` (none: the name alone) as `source` sets it. The
// result is a notice to give (an option dtx accepts without acting on it),
// else empty. An error's message says what is wrong in dtx's words; for
// setopt() it is dtrace's own reason for refusing, which its warning repeats.
Result<std::string> apply_option(const OptionTargets &targets, OptionSource source,
                                 const std::string &name, const std::optional<std::string> &value);

// One `#pragma D option name[=value]` line of a program.
struct ProgramOption {
    std::string name;
    std::optional<std::string> value;
    SourceRange range;
};

// The program's option pragmas, in order.
std::vector<ProgramOption> program_options(const ast::Program &program);

} // namespace dtx::session
