// The system calls under AttachmentSet: perf_event_open, BPF_LINK_CREATE,
// BPF_RAW_TRACEPOINT_OPEN, the dynamic PMUs' sysfs descriptions, and feature
// probes. Each call takes `target`, the attachment's description, to name in
// its errors.
#pragma once

#include "libtrace/attach.h"

#include <linux/perf_event.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtx::trace {

// Constants newer than the linux/bpf.h we build against (Debian 12 ships the
// 6.1 headers): uprobe_multi links arrived in Linux 6.6. Ours have their own
// names so they never clash with the headers' enumerators; where the headers
// have them, they must agree.
inline constexpr uint32_t kBpfTraceUprobeMulti = 48;           // BPF_TRACE_UPROBE_MULTI
inline constexpr uint32_t kBpfUprobeMultiReturnFlag = 1u << 0; // BPF_F_UPROBE_MULTI_RETURN

// A dynamic PMU (uprobe, kprobe) as described in /sys/bus/event_source/devices/NAME.
struct ProbePmu {
    uint32_t type = 0;
    // perf_event_attr.config bit that makes a return probe.
    unsigned retprobe_bit = 0;
    // Where perf_event_attr.config carries a USDT semaphore's offset (uprobe
    // PMU since Linux 4.20).
    std::optional<unsigned> ref_ctr_offset_shift;
};

// Parses a sysfs PMU format field such as "config:0" or "config:32-63" into
// its first bit; nullopt unless the field lives in `config`.
std::optional<unsigned> parse_pmu_config_field(std::string_view format);

// Reads the PMU `name` ("uprobe" or "kprobe"). A missing PMU directory is
// reported with kind KernelLacksFeature.
Result<ProbePmu> read_probe_pmu(std::string_view name, std::string_view target);

// perf_event_open(2) with close-on-exec.
Result<UniqueFd> open_perf_event(const perf_event_attr &attr, int pid, int cpu,
                                 std::string_view target);

// Attaches a program to an open perf event with a BPF_PERF_EVENT link carrying
// `cookie`. Kernels before 5.15 have no perf links: then, for a zero cookie,
// the program is attached with PERF_EVENT_IOC_SET_BPF and the returned fd is
// not valid (the perf event itself holds the program).
Result<UniqueFd> link_perf_event(int prog_fd, int perf_fd, uint64_t cookie,
                                 std::string_view target);

// BPF_RAW_TRACEPOINT_OPEN; an empty name attaches a BTF-typed program to the
// tracepoint it was loaded for. Returns a bpf link fd.
Result<UniqueFd> open_raw_tracepoint(int prog_fd, std::string_view name, uint64_t cookie,
                                     std::string_view target);

struct UprobeMultiSpec {
    std::string path;
    std::span<const uint64_t> offsets;
    std::span<const uint64_t> ref_ctr_offsets; // empty or parallel to offsets
    std::span<const uint64_t> cookies;         // empty or parallel to offsets
    int pid = -1;                              // -1: every process
    bool retprobe = false;
};

// BPF_LINK_CREATE with attach type BPF_TRACE_UPROBE_MULTI. Errors do not say
// whether the kernel lacks uprobe_multi: ask kernel_supports_uprobe_multi().
Result<UniqueFd> create_uprobe_multi_link(int prog_fd, const UprobeMultiSpec &spec,
                                          std::string_view target);

// Whether BPF_TRACE_UPROBE_MULTI links exist here: creating one on "/" fails
// with EBADF (not a regular file) only on kernels that know the attach type.
bool kernel_supports_uprobe_multi();

// Whether uprobe programs (uprobe_multi ones with `multi`) can be sleepable
// here, calling what dtx's sleepable programs need: bpf_copy_from_user, and
// bpf_get_current_task_btf for their clause context in task storage.
bool kernel_supports_sleepable_uprobes(bool multi);

} // namespace dtx::trace
