// The proc provider: processes and threads created, exec'd, exiting and
// signalled, as DTrace's proc provider names them, on the scheduler's and the
// system calls' tracepoints. arg0..argN are the tracepoint's arguments (but
// exit's arg0, the reason it exits, as in dtrace);
// args[] are DTrace's (psinfo_t *, lwpsinfo_t * through the D library's
// translators).
#include "providers/registry.h"
#include "providers/stable.h"

namespace dtx::providers {

namespace {

// CLD_EXITED (1), CLD_KILLED (2) or CLD_DUMPED (3) for the exiting task
// (sched_process_exit's arg0): its exit_code is the status << 8, or the
// signal, | 0x80 when it dumped core.
llvm::Value *exit_reason(TracepointFilter &f) {
    llvm::IRBuilder<> &ir = f.ir();
    llvm::Value *code = f.member(f.argument(0), "task_struct", "exit_code", 4);
    llvm::Value *signalled = ir.CreateICmpNE(ir.CreateAnd(code, 0x7f), f.constant(0));
    llvm::Value *dumped = ir.CreateICmpNE(ir.CreateAnd(code, 0x80), f.constant(0));
    return ir.CreateSelect(signalled, ir.CreateSelect(dumped, f.constant(3), f.constant(2)),
                           f.constant(1));
}

// The signal signal_deliver reports, but for a fatal one: the kernel turns
// it into SIGKILL for every thread of the process and keeps the signal in
// signal_struct's group_exit_code, where dtrace's args[0] comes from (a
// process killed by SIGUSR1 handles SIGUSR1, not SIGKILL).
llvm::Value *handled_signal(TracepointFilter &f) {
    llvm::IRBuilder<> &ir = f.ir();
    constexpr uint64_t kSigkill = 9;
    llvm::Value *reported = f.argument(0);
    llvm::Value *signal = f.member(f.current_task(), "task_struct", "signal", 8);
    llvm::Value *fatal =
        ir.CreateAnd(f.member(signal, "signal_struct", "group_exit_code", 4), 0x7f);
    llvm::Value *use_fatal = ir.CreateAnd(ir.CreateICmpEQ(reported, f.constant(kSigkill)),
                                          ir.CreateICmpNE(fatal, f.constant(0)));
    return ir.CreateSelect(use_fatal, fatal, reported);
}

// x86-64 system call numbers the filters test.
constexpr uint64_t kClone = 56, kFork = 57, kVfork = 58, kExecve = 59, kExecveat = 322,
                   kClone3 = 435;

const char *const kChildProcess = "xlate <psinfo_t *> ((struct task_struct *)arg1)";
const char *const kChildThread = "xlate <lwpsinfo_t *> ((struct task_struct *)arg1)";

llvm::Value *is_any(TracepointFilter &f, llvm::Value *value, std::initializer_list<uint64_t> of) {
    llvm::Value *any = f.ir().getFalse();
    for (uint64_t candidate : of)
        any = f.ir().CreateOr(any, f.ir().CreateICmpEQ(value, f.constant(candidate)));
    return any;
}

// sched_process_fork(parent, child): whether the child leads a new process.
llvm::Value *child_leads(TracepointFilter &f) {
    llvm::Value *child = f.argument(1);
    return f.ir().CreateICmpEQ(f.member(child, "task_struct", "pid", 4),
                               f.member(child, "task_struct", "tgid", 4));
}

// sys_exit(regs, ret) in a new task returning from fork, clone or clone3.
llvm::Value *fork_child_returns(TracepointFilter &f) {
    llvm::Value *number = f.member(f.argument(0), "pt_regs", "orig_ax", 8);
    return f.ir().CreateAnd(is_any(f, number, {kClone, kFork, kVfork, kClone3}),
                            f.ir().CreateICmpEQ(f.argument(1), f.constant(0)));
}

llvm::Value *current_leads(TracepointFilter &f) {
    llvm::Value *ids = f.current_pid_tgid();
    return f.ir().CreateICmpEQ(f.ir().CreateLShr(ids, 32),
                               f.ir().CreateAnd(ids, f.constant(0xffffffff)));
}

std::vector<StableProbe> proc_probes() {
    const std::vector<std::string> task_ids{"task_struct.pid", "task_struct.tgid"};
    const std::vector<std::string> syscall_number{"pt_regs.orig_ax"};
    return {
        {"create",
         "sched_process_fork",
         "",
         {{"psinfo_t *", kChildProcess}},
         child_leads,
         task_ids},
        {"lwp-create",
         "sched_process_fork",
         "",
         {{"lwpsinfo_t *", kChildThread}, {"psinfo_t *", kChildProcess}},
         [](TracepointFilter &f) { return f.ir().CreateNot(child_leads(f)); },
         task_ids},
        {"start",
         "sys_exit",
         "",
         {},
         [](TracepointFilter &f) {
             return f.ir().CreateAnd(fork_child_returns(f), current_leads(f));
         },
         syscall_number},
        {"lwp-start", "sys_exit", "", {}, fork_child_returns, syscall_number},
        {"exec",
         "sys_enter",
         "",
         {{"string", "copyinstr(arg1 == 59 ? ((struct pt_regs *)arg0)->di : "
                     "((struct pt_regs *)arg0)->si)"}},
         [](TracepointFilter &f) {
             return is_any(f, f.argument(1), {kExecve, kExecveat});
         }},
        {"exec-success", "sched_process_exec", "", {}},
        {"exec-failure",
         "sys_exit",
         "",
         // -errno, as in dtrace: the system call's return value.
         {{"int", "(int)arg1"}},
         [](TracepointFilter &f) {
             llvm::Value *number = f.member(f.argument(0), "pt_regs", "orig_ax", 8);
             return f.ir().CreateAnd(is_any(f, number, {kExecve, kExecveat}),
                                     f.ir().CreateICmpSLT(f.argument(1), f.constant(0)));
         },
         syscall_number},
        // arg0 and args[0]: CLD_EXITED, CLD_KILLED or CLD_DUMPED, from the
        // status the process exits with (exit_code: status << 8, or the
        // signal | 0x80 for a core), as in dtrace.
        {"exit",
         "sched_process_exit",
         "",
         {{"int", "(int)arg0"}},
         // The last thread out: its signal_struct's count of live threads
         // has reached 0 (group_dead).
         [](TracepointFilter &f) {
             llvm::Value *signal = f.member(f.argument(0), "task_struct", "signal", 8);
             return f.ir().CreateICmpEQ(f.member(signal, "signal_struct", "live", 4),
                                        f.constant(0));
         },
         {"task_struct.signal", "signal_struct.live", "task_struct.exit_code"},
         nullptr,
         -1,
         {exit_reason}},
        {"lwp-exit", "sched_process_exit", "", {}},
        {"signal-send",
         "signal_generate",
         "",
         {{"lwpsinfo_t *", "xlate <lwpsinfo_t *> ((struct task_struct *)arg2)"},
          {"psinfo_t *", "xlate <psinfo_t *> ((struct task_struct *)arg2)"},
          {"int", "(int)arg0"}}},
        {"signal-handle",
         "signal_deliver",
         "",
         {{"int", "(int)arg0"},
          {"siginfo_t *", "(siginfo_t *)arg1"},
          {"void (*)(void)", "(void (*)(void))((struct k_sigaction *)arg2)->sa.sa_handler"}},
         nullptr,
         {"task_struct.signal", "signal_struct.group_exit_code"},
         nullptr,
         -1,
         {handled_signal, [](TracepointFilter &f) { return f.argument(1); },
          [](TracepointFilter &f) { return f.argument(2); }}},
        {"signal-clear",
         "",
         "Linux has no tracepoint where a pending signal is taken by sigwait(2) or "
         "sigtimedwait(2) (it needs kprobes)",
         {{"int", "0"}}},
    };
}

} // namespace

std::unique_ptr<Provider> make_proc_provider() {
    return make_stable_provider("proc", proc_probes());
}

} // namespace dtx::providers
