// The hand-written reference of bench/per-event-uprobe: what a careful
// programmer writes to count the calls of a user function and the firings of
// a USDT probe with libbpf. One counter per CPU in a per-CPU array (no
// hashing, no atomics), summed by the loader at the end:
//   count_uprobe  on the entry of dtx_bench_target (SEC("uprobe"))
//   count_usdt    on dtxbench:tick, through libbpf's USDT support; it reads
//                 no argument, so it never looks up the site's argument spec
// linux/bpf.h first: bpf_helpers.h uses its types; asm/ptrace.h has the
// struct pt_regs that bpf_tracing.h and usdt.bpf.h take, and usdt.bpf.h
// uses bool without including stdbool.h.
#include <linux/bpf.h>
#include <stdbool.h>

#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} events SEC(".maps");

static __always_inline void count(void) {
    __u32 key = 0;
    __u64 *n = bpf_map_lookup_elem(&events, &key);
    if (n)
        *n += 1;
}

SEC("uprobe")
int count_uprobe(struct pt_regs *context) {
    (void)context;
    count();
    return 0;
}

SEC("usdt")
int BPF_USDT(count_usdt) {
    (void)ctx;
    count();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
