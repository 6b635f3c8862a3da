// The syscall provider's argument typing, exposed for tests.
#pragma once

#include "libtrace/probe.h"
#include "libtrace/tracefs_format.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::providers {

// The D spelling of a system call parameter's type as a tracefs format file
// gives it ("const char *", "umode_t", "struct stat *"): C's integer types and
// POSIX's size_t, pid_t... as they are, kernel typedefs as the fixed-width type
// of their definition (umode_t -> uint16_t), pointers to those as pointers,
// char pointers as char pointers and every other pointer as void *. A name
// this does not know gets the fixed-width type of the field's `size` and
// `is_signed`, as the format file states them.
std::string syscall_argument_type(std::string_view kernel_type, uint32_t size, bool is_signed);

// The arguments of a syscalls/sys_enter_NAME or sys_exit_NAME event: its
// fields after __syscall_nr, typed by syscall_argument_type().
std::vector<trace::ProbeArgument> syscall_event_arguments(const trace::TracepointFormat &format);

} // namespace dtx::providers
