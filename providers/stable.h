// The stable providers (proc, sched, io, tcp, lockstat) as DTrace names them, built on the
// kernel's tracepoints so they work without kprobes. Each stable probe is a
// raw tracepoint, a filter the trampoline evaluates before any clause runs
// (exit fires only when the whole process exits), and its arguments as D
// expressions over the tracepoint's own (arg0 .. argN): translators from the
// D library give args[0] its psinfo_t or bufinfo_t type.
#pragma once

#include "providers/provider.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::providers {

// What a filter may read: the raw tracepoint's arguments, kernel memory and
// the current task's IDs. Values are u64.
class TracepointFilter {
public:
    TracepointFilter(codegen::TrampolineBuilder &builder, llvm::Value *arguments);

    llvm::IRBuilder<> &ir() { return builder_.ir(); }
    llvm::Value *argument(unsigned index);
    // `size` bytes (1, 2, 4 or 8) of the kernel's `struct type` member at
    // `pointer`, zero-extended; 0 if the read faults. The member must be one
    // the probe lists in StableProbe::members.
    llvm::Value *member(llvm::Value *pointer, std::string_view type, std::string_view member,
                        unsigned size);
    // `size` bytes of kernel memory at `address`, zero-extended; 0 if the
    // read faults.
    llvm::Value *read(llvm::Value *address, unsigned size);
    // bpf_get_current_pid_tgid(): tgid << 32 | pid.
    llvm::Value *current_pid_tgid();
    // bpf_get_current_task(): the running task_struct's address.
    llvm::Value *current_task();
    llvm::Value *constant(uint64_t value) { return ir().getInt64(value); }

private:
    codegen::TrampolineBuilder &builder_;
    llvm::Value *arguments_;
    llvm::Value *slot_ = nullptr; // a u64 on the BPF stack for reads
};

// An i1: whether the probe fires for this tracepoint event.
using StableFilter = std::function<llvm::Value *(TracepointFilter &)>;

struct StableArgument {
    std::string type;       // as dtrace declares it: "psinfo_t *"
    std::string expression; // D over arg0..argN, the tracepoint's arguments
};

struct StableProbe {
    std::string name;
    // The raw tracepoint it is built on; empty: the probe needs a mechanism
    // Linux's tracepoints do not give, and `reason` says which.
    std::string tracepoint;
    std::string reason;
    std::vector<StableArgument> arguments;
    StableFilter filter = nullptr; // null: every event
    // "struct.member" the filter reads; without them in BTF the probe is
    // unavailable.
    std::vector<std::string> members = {};
    // The task the probe is about when it is not the running one (on-cpu
    // fires in the thread leaving the CPU for the one coming on): pid, tid,
    // execname, curthread, curpsinfo and self-> then name it.
    StableFilter current_task = nullptr;
    // Where the tracepoint's arguments themselves are (its u64 array, kernel
    // memory while the probe fires) is stored in argN for this N, so that a
    // translator can read several of them through one pointer; -1: none.
    int arguments_address = -1;
    // arg0, arg1 ... computed by the trampoline instead of the tracepoint's
    // own, where probes built on different tracepoints must give their
    // clauses the same native arguments (ip:::send and ip:::receive share
    // one clause and one args[] only if their expressions agree).
    std::vector<StableFilter> native = {};
};

// The stability dtrace-utils declares for its stable providers: names and
// arguments Evolving/Evolving/ISA, modules and functions Private.
ProviderAttributes stable_provider_attributes();

// How many arguments the raw tracepoint passes (its btf_trace_ prototype less
// the private pointer, at most arg0..arg9), or nullopt when the kernel's BTF
// has no such tracepoint.
std::optional<unsigned> btf_tracepoint_arguments(std::string_view tracepoint);

std::unique_ptr<Provider> make_stable_provider(std::string name, std::vector<StableProbe> probes);

} // namespace dtx::providers
