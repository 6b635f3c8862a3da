// The hand-written reference of bench/per-event-ustack: what a careful
// programmer writes with libbpf for `@[ustack()] = count()` on the getpid
// calls of one process, with the kernel's frame-pointer walk. On raw_syscalls
// sys_enter, as dtx's syscall provider and count_getpid_raw_tp attach,
// filtering on the system call number and the loader's target process:
//   count_ustack  bpf_get_stack(BPF_F_USER_STACK) into a per-CPU scratch
//                 buffer of 127 frames (the kernel's most, perf_event_max_stack),
//                 counted in a hash map keyed by the whole buffer
//   count_base    the same filter, counted in a per-CPU array: what the event
//                 costs without the stack
// linux/bpf.h first: bpf_helpers.h uses its types.
#include <linux/bpf.h>

#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>

#define MAX_FRAMES 127

// The process whose calls count, set by the loader before load (the verifier
// then sees a constant).
const volatile __u32 target_tgid = 0;

struct user_stack {
    __u64 frames[MAX_FRAMES]; // innermost first, zero after the last frame
};

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct user_stack);
} scratch SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, struct user_stack);
    __type(value, __u64);
} stacks SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} events SEC(".maps");

// sys_enter's arguments: the task's pt_regs, then the syscall number.
static __always_inline int is_target_getpid(struct bpf_raw_tracepoint_args *context) {
    return context->args[1] == __NR_getpid && bpf_get_current_pid_tgid() >> 32 == target_tgid;
}

SEC("raw_tracepoint/sys_enter")
int count_ustack(struct bpf_raw_tracepoint_args *context) {
    if (!is_target_getpid(context))
        return 0;
    __u32 zero = 0;
    struct user_stack *stack = bpf_map_lookup_elem(&scratch, &zero);
    if (!stack)
        return 0;
    // Zero after the last frame, and all of it when there is no stack: such an
    // event is counted too, under the empty stack, as dtx counts it.
    bpf_get_stack(context, stack->frames, sizeof(stack->frames), BPF_F_USER_STACK);
    __u64 *count = bpf_map_lookup_elem(&stacks, stack);
    if (count) {
        __sync_fetch_and_add(count, 1);
        return 0;
    }
    __u64 one = 1;
    if (bpf_map_update_elem(&stacks, stack, &one, BPF_NOEXIST) != 0) {
        // Another CPU inserted it first.
        count = bpf_map_lookup_elem(&stacks, stack);
        if (count)
            __sync_fetch_and_add(count, 1);
    }
    return 0;
}

SEC("raw_tracepoint/sys_enter")
int count_base(struct bpf_raw_tracepoint_args *context) {
    if (!is_target_getpid(context))
        return 0;
    __u32 zero = 0;
    __u64 *n = bpf_map_lookup_elem(&events, &zero);
    if (n)
        *n += 1;
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
