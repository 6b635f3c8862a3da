// What tracing needs of dtx's own process, checked before anything is read
// or started, so that a user without it reads one line saying what is
// missing instead of libbpf's "Operation not permitted" (with its misleading
// RLIMIT_MEMLOCK hint) or a tracefs directory's "Permission denied".
#pragma once

#include "libtrace/error.h"

namespace dtx::trace {

// Root, or CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN stands for both, as on
// kernels before 5.8), and read access to tracefs' events where tracefs is
// mounted.
Status check_tracing_privileges();

} // namespace dtx::trace
