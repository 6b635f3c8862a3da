// Setting an option: -x on the command line (and the flags that stand for
// options), `#pragma D option` in the program and setopt() while tracing all
// go through apply_option(), which checks where and when the option may be
// set, reads its value, checks its range and calls its row's setter
// (option_table.h).
#pragma once

#include "libtrace/error.h"
#include "parser/ast.h"
#include "session/option_table.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dtx::session {

// Where an option is set.
enum class OptionSource {
    CommandLine, // -x, and -q -w -Z -F -C -D -I -U
    Program,     // #pragma D option
    Setopt,      // setopt() while tracing: only dynamic options take effect
};

// Sets `name` to `value` (none: the name alone) as `source` sets it, in
// `targets`. The result is a notice to give (an option dtx accepts without
// acting on it, once per name in `noticed`), else empty. An error's message
// says what is wrong in dtx's words; for setopt() it is dtrace's own reason
// for refusing, which its warning repeats.
Result<std::string> apply_option(const OptionTargets &targets, std::set<std::string> &noticed,
                                 OptionSource source, const std::string &name,
                                 const std::optional<std::string> &value);

// One `#pragma D option name[=value]` line of a program.
struct ProgramOption {
    std::string name;
    std::optional<std::string> value;
    SourceRange range;
};

// The program's option pragmas, in order.
std::vector<ProgramOption> program_options(const ast::Program &program);

} // namespace dtx::session
