// Processes: the announcement of a process whose user addresses are
// recorded (codegen/lower_program.cpp), and its arguments, which the D
// library reads (codegen/functions/process.cpp: psinfo_t's pr_psargs and
// pr_argc, execargs).

#include "dtx_runtime.h"

// ---- Processes ---------------------------------------------------------------

// Writes a trace::ProcessRecord (program_description.h) for the current
// process to the ring buffer `output`, waking the consumer at once, unless the
// LRU hash `processes` (u32 pid -> u8) says it was written before; `epid` is
// the record's marker. Returns 1 when it wrote one.
RUNTIME s64 dtx_rt_announce_process(void *processes, void *output, u64 epid) {
    u32 pid = (u32)(bpf_get_current_pid_tgid() >> 32);
    if (bpf_map_lookup_elem(processes, &pid))
        return 0;
    u8 announced = 1;
    bpf_map_update_elem(processes, &pid, &announced, 0);
    struct {
        u32 epid, cpu, pid, unused;
    } record = {(u32)epid, bpf_get_smp_processor_id(), pid, 0};
    return bpf_ringbuf_output(output, &record, sizeof(record), BPF_RB_FORCE_WAKEUP) == 0;
}

// ---- Processes' arguments ----------------------------------------------------

struct args_scan {
    char *text;
    u64 length;
    u64 count;
};

CALLBACK long dtx_rt_step_args(u32 index, struct args_scan *scan) {
    u64 i = unlinked(index);
    u64 length = scan->length;
    if (i >= length)
        return 1;
    barrier_var(i);
    if (i >= 4096) // never: length is below size
        return 1;
    if (scan->text[i] == 0) {
        scan->count += 1;
        if (i + 1 < length)
            scan->text[i] = ' ';
    }
    return 0;
}

// The current process's arguments, [start, end) of its memory (mm->arg_start
// and arg_end), as one line: the NULs between them made spaces, at most
// size - 1 bytes. Returns how many arguments ended within those bytes.
RUNTIME s64 dtx_rt_process_args(char *dst, u64 start, u64 end, u64 size) {
    u64 length = end > start ? end - start : 0;
    if (length > size - 1)
        length = size - 1;
    length = unlinked(length);
    barrier_var(length);
    dst[0] = 0;
    if (length == 0 || length >= size || length > 4095)
        return 0;
    if (bpf_probe_read_user(dst, (u32)length, (const void *)start) < 0) {
        dst[0] = 0;
        return 0;
    }
    dst[length] = 0;
    struct args_scan scan = {dst, length, 0};
    bpf_loop((u32)length, dtx_rt_step_args, &scan, 0);
    return (s64)scan.count;
}
