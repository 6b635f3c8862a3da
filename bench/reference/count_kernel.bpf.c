// The hand-written reference of bench/per-event-kernel: what a careful
// programmer writes to count the calls of a kernel function with libbpf. One
// counter per CPU in a per-CPU array (no hashing, no atomics), summed by the
// loader at the end:
//   count_fentry  a BPF trampoline on the function's entry (SEC("fentry"),
//                 the target set by the loader before load)
//   count_kprobe  a kprobe on the function's entry (SEC("kprobe"), attached
//                 by the loader to the function it is given)
// Neither reads an argument, so neither needs the kernel's types.
#include <linux/bpf.h>

#include <bpf/bpf_helpers.h>

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

SEC("fentry")
int count_fentry(void *context) {
    (void)context;
    count();
    return 0;
}

SEC("kprobe")
int count_kprobe(void *context) {
    (void)context;
    count();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
