// The trampolines of probes on user-space instructions, shared by the pid and
// usdt providers.
//
// Uprobes are placed on a file (inode) and offset, whatever process runs it;
// pid and usdt probes belong to one process. So many probes map to one site:
// pid12:libc.so.6:malloc:entry and pid34:libc.so.6:malloc:entry are both
// libc.so.6's malloc. Each site gets an index in its trampoline, carried as
// the bpf cookie of the attachment; the trampoline compares the firing
// process with each traced pid in turn (DTrace's PID dispatch chain) and
// looks the probe up in that pid's table, by site. Attachments are made per
// (file, process) with the kernel's process filter, so the breakpoint is only
// installed in traced processes: a process that runs the same library
// without being traced pays nothing. Each (file, process) is one uprobe_multi
// link where the kernel has them (Linux 6.6), else one perf event per site.
//
// Probes for every process (the usdt provider's path form) get trampolines
// of their own, attached without a process filter.
//
// Where the kernel has sleepable uprobe programs, a trampoline whose clauses
// or USDT arguments read user memory (copyin(), copyinstr(), copyinto(),
// execargs, arguments in memory) is sleepable: those reads fault in pages
// that are not resident yet (a string literal on a page the process has not
// touched) instead of failing, as do its reads of a function's arguments
// beyond the sixth and ustack()'s walk of the user stack (the kernel's
// sleepable bpf_get_stack). One that reads none stays non-sleepable, which
// costs less per event (codegen/trampoline.h). -v says which each is.
#pragma once

#include "libtrace/usdt_note.h"
#include "providers/provider.h"

#include <sys/types.h>

#include <compare>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::providers {

// One instruction of one file.
struct UprobeSite {
    std::string path;            // the file, as dtx opens it
    uint64_t offset = 0;         // file offset of the instruction
    uint64_t ref_ctr_offset = 0; // file offset of a USDT semaphore; 0: none
    auto operator<=>(const UprobeSite &) const = default;
};

// How a probe's trampoline fills arg0..arg9.
enum class UprobeArguments : uint8_t {
    Entry,  // a function's entry (or an instruction in it): the ABI's argument registers
    Return, // a uretprobe: arg0 = the address returned to, arg1 = the return value
    Usdt,   // per site, the note's argument specifications
};

struct UprobeProbeData : trace::ProbeData {
    struct Site {
        UprobeSite place;
        std::vector<trace::UsdtArgument> usdt_arguments; // UprobeArguments::Usdt
    };
    UprobeArguments arguments = UprobeArguments::Entry;
    pid_t pid = -1; // the one process it fires in; -1: every process
    std::vector<Site> sites;
};

// The trampolines for `enabled`, whose probes all carry UprobeProbeData;
// programs are named PREFIX_0, PREFIX_1...
std::vector<Trampoline> uprobe_trampolines(std::string_view program_prefix,
                                           std::span<const trace::Probe *const> enabled);

} // namespace dtx::providers
