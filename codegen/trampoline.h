// What a provider sees of the code generator when it builds the entry program
// (the "trampoline") of one kind of attachment: the program's context, this
// CPU's clause context (dctx), and a way to run the clauses enabled on the
// firing probe. The provider's prologue fills dctx->args[] and dctx->probe_id
// from whatever the kernel hands its program (pt_regs, a tracepoint record,
// a bpf cookie) and then calls run_clauses().
//
// The clause context (one per CPU and nesting level, the value of the
// `dtx_dctx` array map; in a sleepable program one per thread, the value of
// the `dtx_thread_dctx` task storage map) is laid out as ClauseContextLayout
// says; clauses receive a pointer to it.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {
struct Probe;
}

namespace dtx::codegen {

class BpfDebugInfo;

// Byte offsets in the clause context. Everything after `locals` is sized per
// program (this-> variables, the record being built, scratch for strings and
// keys).
struct ClauseContextLayout {
    static constexpr uint32_t probe_id = 0; // u64: the firing probe's ID
    static constexpr uint32_t args = 8;     // u64[10]: arg0 .. arg9
    static constexpr uint32_t arg_count = 10;
    static constexpr uint32_t fault_kind = 88;    // u64: FaultKind of an aborted clause
    static constexpr uint32_t fault_address = 96; // u64
    static constexpr uint32_t fault_action = 104; // u64: statement index in the clause
    static constexpr uint32_t epid = 112;         // u64: the running clause's enabled probe
    static constexpr uint32_t error_args = 120;   // u64[10]: saved args while ERROR runs
    static constexpr uint32_t error_probe_id = 200;
    static constexpr uint32_t timestamp = 208;   // u64: cached per firing, 0 = unset
    static constexpr uint32_t errno_value = 216; // u64: `errno`, set by providers that know it
    static constexpr uint32_t stack_skip = 224;  // u64: TrampolineSpec::kernel_stack_skip
    // u64: the task the firing is about where that is not the current one
    // (TrampolineSpec::sets_current_task), 0 otherwise.
    static constexpr uint32_t current_task = 232;
    // u64[6]: an array argument that the kernel does not hand over in one
    // piece, gathered by the prologue so that argN can hold its address
    // (sdt:raw_syscalls::sys_enter's args[1], the call's six arguments, are
    // registers of its struct pt_regs).
    static constexpr uint32_t argument_array = 240;
    static constexpr uint32_t argument_array_size = 48;
    // u64: the CPU the firing runs on, stored with the clause context's
    // lookup (clause code reads it instead of calling the helper, which the
    // kernel rewrites at load time, in time growing with the program).
    static constexpr uint32_t cpu = 288;
    static constexpr uint32_t locals = 296; // this-> variables, then record and scratch
};

// When the clauses of a probe run, by the session's Activity.
enum class ClauseGate {
    Active,      // ordinary probes: only while tracing is active
    NotDraining, // BEGIN: before tracing starts, until a clause calls exit()
    None,        // END: always
};

// What a prologue knows of user memory it reads (TrampolineBuilder::read_user).
enum class UserMemory {
    MayBeAbsent, // perhaps not resident yet: a USDT argument in memory
    Resident,    // resident where the probe fires: the stack by the stack pointer
};

class TrampolineBuilder {
public:
    virtual ~TrampolineBuilder() = default;

    virtual llvm::IRBuilder<> &ir() = 0;
    virtual llvm::Module &module() = 0;
    virtual BpfDebugInfo &debug_info() = 0;
    // The program function; its only argument is the program's context.
    virtual llvm::Function &entry() = 0;

    // This firing's clause context: this CPU's at this nesting level, or in a
    // sleepable program this thread's. Emits the lookup and an early `return
    // 0` when it fails, so the result is never null.
    virtual llvm::Value *clause_context() = 0;
    virtual void store_probe_id(llvm::Value *dctx, llvm::Value *probe_id) = 0;
    // The thread the clauses see as current (sched:::on-cpu: the one coming
    // onto the CPU); only in a trampoline whose spec sets_current_task.
    virtual void store_current_task(llvm::Value *dctx, llvm::Value *task) = 0;
    virtual void store_argument(llvm::Value *dctx, unsigned index, llvm::Value *value) = 0;
    // `errno` as the clauses read it (syscall return probes).
    virtual void store_errno(llvm::Value *dctx, llvm::Value *value) = 0;
    // arg0 .. arg9 and errno to 0, before a prologue sets those it knows.
    virtual void clear_arguments(llvm::Value *dctx) = 0;
    // Whether any clause reads argN or args[]: when none does, store_argument()
    // stores nothing, and a prologue can skip work whose only use is an
    // argument (a helper call that reads user memory, which LLVM keeps).
    virtual bool stores_arguments() const = 0;

    // Calls, in program order, each clause enabled on the probe whose ID
    // dctx->probe_id holds (a dispatch over this trampoline's probes), each
    // fault going to the ERROR probe; `gate` says when they may run. A clause
    // that calls exit() stops the ones after it.
    virtual void run_clauses(llvm::Value *dctx, ClauseGate gate = ClauseGate::Active) = 0;

    // Reads `size` bytes of the current process's memory at `address` into
    // `to`; returns the helper's result (negative when the read failed). In a
    // sleepable program a page that is not resident yet is faulted in
    // (bpf_copy_from_user); elsewhere the read fails on it. A read of memory
    // that may be absent makes the program sleepable where the kernel allows
    // it; one of resident memory does not.
    virtual llvm::Value *read_user(llvm::Value *to, uint32_t size, llvm::Value *address,
                                   UserMemory memory) = 0;

    // A BPF helper call by number (linux/bpf.h's BPF_FUNC_*).
    virtual llvm::Value *call_helper(unsigned helper, llvm::Type *result,
                                     std::vector<llvm::Value *> args) = 0;
    // A new static BPF function (a bpf_timer callback...), with its debug info;
    // returns with the IR builder positioned in its entry block. Restore the
    // previous insertion point with ir().SetInsertPoint afterwards.
    virtual llvm::Function *define_function(std::string_view name, llvm::FunctionType *type) = 0;
};

// One entry program as a provider asks for it.
struct TrampolineSpec {
    std::string program_name; // a C identifier, unique in the object
    std::string section;      // libbpf's section name: "perf_event", "raw_tp", ...
    // The section of the program as a sleepable one ("uprobe.s"); empty:
    // never sleepable. A sleepable program may take page faults in its reads
    // of user memory, so that pages not resident yet are read instead of
    // failing; its firings may sleep there and interleave on one CPU, so each
    // thread has its own clause context, which costs a little on every
    // event. The code generator makes a program sleepable only where that
    // buys something: its prologue or clauses read user memory that may be
    // absent, and its clause context fits a thread's task storage.
    std::string sleepable_section;
    // Told, for a program with a sleepable_section, whether it was made
    // sleepable: an empty string, else why not (for -v).
    std::function<void(std::string_view why_not_sleepable)> sleepable_chosen;
    std::vector<const trace::Probe *> probes;
    // Whether the program's context can be given to bpf_get_stack() (false
    // for code run from a bpf_timer callback, where stack() records nothing).
    bool has_stack_context = true;
    // Kernel stack frames between a clause's stack() and the probe point, left
    // out of stack() and stackdepth: the clause's and the program's own frames
    // and the kernel's tracing glue (bpf_trace_run2, __bpf_trace_sys_exit...).
    // 0 for perf events, whose stacks start at the interrupted code.
    uint32_t kernel_stack_skip = 0;
    // Whether the program stores the task its clauses are about
    // (store_current_task): pid, tid, execname, curthread, self-> ... then
    // name that thread instead of the one running.
    bool sets_current_task = false;
    // Builds the program body: fill dctx, then run the clauses.
    std::function<void(TrampolineBuilder &)> emit;
};

} // namespace dtx::codegen
