// The destructive action chill() (codegen/functions/destructive.cpp).

#include "dtx_runtime.h"

// ---- Time --------------------------------------------------------------------

struct chill_wait {
    u64 deadline;
};

CALLBACK long dtx_rt_step_chill(u32 index, struct chill_wait *wait) {
    (void)index;
    return bpf_ktime_get_ns() >= wait->deadline;
}

// Spins for `nanoseconds` (chill()), or as long as bpf_loop's 8,388,608
// iterations of a clock read take, if that is less. Returns 1.
RUNTIME s64 dtx_rt_chill(u64 nanoseconds) {
    struct chill_wait wait = {bpf_ktime_get_ns() + nanoseconds};
    bpf_loop(1u << 23, dtx_rt_step_chill, &wait, 0);
    return 1;
}
