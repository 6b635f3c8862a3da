// Macro variables in probe descriptions: `syscall::$1:entry`, `pid$target:::`.
//
// dtrace substitutes their text as it is, whatever it looks like (a clause's
// $1 is typed by its text instead: codegen/sema_names.cpp). $$N is the same
// as $N here. A $N the command line does not give is an error even with
// -x defaultargs, as in dtrace; $target is 0 without -c or -p, so that
// `pid$target` matches nothing.
#pragma once

#include "libtrace/error.h"

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

struct MacroValues {
    std::vector<std::string> arguments; // $1 is arguments[0]
    std::optional<pid_t> target_pid;    // $target
    // dtx's own process: $pid, $ppid, $uid, $gid, $pgid, $sid.
    long pid = 0, ppid = 0, uid = 0, gid = 0, pgid = 0, sid = 0;

    // The values of this process, with the command line's arguments and target.
    static MacroValues of_this_process(std::vector<std::string> arguments,
                                       std::optional<pid_t> target_pid);
};

// The field with its macro variables replaced; an error names the one
// that is not defined ("macro argument $2 is not defined").
Result<std::string> expand_probe_macros(std::string_view field, const MacroValues &values);

} // namespace dtx::trace
