// The programs on the raw sys_enter and sys_exit tracepoints that serve system
// call probes, for the syscall provider and for the sdt provider's syscalls
// group: one program per direction for any number of calls, a table in
// .rodata from the call's number to its probe ID, so one kernel attachment
// serves every probe and detaching costs one link close instead of an RCU
// grace period per tracepoint. An untraced call costs a bounds check and a
// load (plus reading orig_ax on return) and returns before the clause
// context is looked up. Calls of 32-bit (ia32) processes are skipped: their
// numbers are another table's, and tracefs's syscalls events skip them too.
#pragma once

#include "providers/provider.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtx::providers {

struct SyscallProbe {
    const trace::Probe *probe;
    uint32_t number; // x86-64's
};

// What the clauses find in arg0..arg9.
enum class SyscallArguments {
    // syscall::NAME:entry: the call's arguments; :return: its return value
    // in arg0 and arg1.
    Call,
    // sdt:syscalls::sys_enter_NAME and sys_exit_NAME, as their format files
    // lay the fields out: the call's number, then its arguments (entry) or
    // its return value (exit).
    NumberFirst,
};

// The program for `probes` on sys_enter (sys_exit when `is_return`); errno
// is set on return. `program_name` must be unique in the object.
Trampoline syscall_tracepoint_program(std::string program_name, std::vector<SyscallProbe> probes,
                                      bool is_return, SyscallArguments arguments);

// The program of `probe`, sdt:raw_syscalls::sys_enter (sys_exit when
// `is_return`), on the raw tracepoint itself, with args[] as the event's
// format file lays out its record. sys_enter: `long id` and `unsigned long
// args[6]`, the call's arguments as the kernel's syscall_get_arguments()
// reads them (i386's registers while the thread makes a 32-bit call),
// gathered in the clause context (ClauseContextLayout::argument_array),
// whose address arg1 holds. sys_exit: `long id` (regs->orig_ax) and `long
// ret`, with errno. Every call of every process, 32-bit ones too, as the
// event has them. nullopt without kernel BTF, which the program needs to
// read struct pt_regs and the thread's status: the caller keeps the tracefs
// event's program then.
std::optional<Trampoline> raw_syscalls_program(std::string program_name, const trace::Probe &probe,
                                               bool is_return);

} // namespace dtx::providers
