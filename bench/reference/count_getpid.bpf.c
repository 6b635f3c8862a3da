// The hand-written reference of bench/per-event: what a careful programmer
// writes to count getpid calls with libbpf. One counter per CPU in a per-CPU
// array (no hashing, no atomics), summed by the loader at the end. Two ways
// to reach it:
//   count_getpid_tracepoint  on syscalls:sys_enter_getpid (runs for getpid only)
//   count_getpid_raw_tp      on raw_syscalls sys_enter, filtering on the
//                            syscall number: the attachment dtx uses, which
//                            runs for every system call of the machine
// linux/bpf.h first: bpf_helpers.h uses its types.
#include <linux/bpf.h>

#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} getpid_calls SEC(".maps");

static __always_inline void count(void) {
    __u32 key = 0;
    __u64 *calls = bpf_map_lookup_elem(&getpid_calls, &key);
    if (calls)
        *calls += 1;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int count_getpid_tracepoint(void *context) {
    (void)context;
    count();
    return 0;
}

// sys_enter's arguments: the task's pt_regs, then the syscall number.
SEC("raw_tracepoint/sys_enter")
int count_getpid_raw_tp(struct bpf_raw_tracepoint_args *context) {
    if (context->args[1] == __NR_getpid)
        count();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
