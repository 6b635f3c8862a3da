// The rawtp provider's discovery and argument typing, exposed for tests.
#pragma once

#include "codegen/trampoline.h"
#include "libtrace/probe.h"
#include "libtrace/tracefs.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct btf;

namespace dtx::providers {

// The category of raw tracepoints that have no tracefs event (the bare
// DECLARE_TRACE ones such as sched_util_est_cfs_tp).
inline constexpr std::string_view kRawtpBareCategory = "vmlinux";

struct RawTracepoint {
    std::string category, event;
    // The FUNC_PROTO that vmlinux BTF's btf_trace_EVENT points to (its first
    // parameter is the tracepoint's private void *), 0 without BTF.
    uint32_t prototype = 0;
    // A FUNC_PROTO of the same parameters with their names (that of
    // __traceiter_EVENT or __probestub_EVENT), 0 if BTF has none.
    uint32_t named_prototype = 0;
};

// The raw tracepoints of the running kernel: with vmlinux BTF (`vmlinux` not
// null), every btf_trace_EVENT typedef, in the category of the tracefs event
// of that name, or kRawtpBareCategory; without, every tracefs event outside
// the syscalls group (built on raw_syscalls) and the kprobes and uprobes
// groups (not tracepoints), untyped. In `events` order, then the bare ones.
std::vector<RawTracepoint> find_raw_tracepoints(const btf *vmlinux,
                                                std::span<const trace::TracefsEvent> events);

// args[] of a BTF-typed raw tracepoint: each parameter after the private
// pointer (at most arg0..arg9), with its C spelling, BTF type id and (if
// known) name.
std::vector<trace::ProbeArgument> rawtp_arguments(const btf &vmlinux,
                                                  const RawTracepoint &tracepoint);

// Copies a raw tracepoint program's first `count` arguments (its context is
// their u64 array) to arg0..arg(count - 1).
void store_raw_tracepoint_arguments(codegen::TrampolineBuilder &builder, llvm::Value *dctx,
                                    unsigned count);

// The number of arguments raw tracepoints pass, for kernels without BTF,
// found as the kernel checks it: attaching a program that reads args[N-1]
// fails when the tracepoint has fewer than N arguments. Keeps its probing
// programs loaded between calls.
class RawTracepointArgumentCounter {
public:
    // At most `most` (<= 12); nullopt when even a program that reads no
    // argument does not attach (no such raw tracepoint).
    std::optional<unsigned> count(std::string_view event, unsigned most);

private:
    // Whether a program reading args[0..n) attaches to `event`.
    bool attaches(std::string_view event, unsigned n);

    std::vector<trace::UniqueFd> programs_; // [n]: reads args[n-1]; [0] reads none
};

} // namespace dtx::providers
