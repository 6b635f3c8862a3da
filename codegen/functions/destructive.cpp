// Destructive actions, allowed only with -w or `#pragma D option destructive`
// (the checker refuses them otherwise with D_ACT_DESTRUCTIVE): system() runs
// a command from the consumer, in order with the trace output, and freopen()
// sends the output to another file; raise() and stop() signal the current
// thread or process from the probe, never dtx's own (the consumer warns
// where they did not, and the session lists at exit the processes stop()
// left stopped); chill() spins in the probe. copyout() and copyoutstr() are in memory.cpp.
#include "codegen/checker.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

#include <linux/bpf.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;
using trace::ActionDescription;
using trace::Consumer;

// The longest chill() dtrace allows in one call.
constexpr uint64_t kChillLimitNanoseconds = 500'000'000;

void consume_system(Consumer &consumer, const ActionDescription &action,
                    std::span<const std::byte> record) {
    std::vector<trace::FormatArgument> arguments;
    if (std::optional<std::string> command = consumer.formatted(action, record, arguments))
        consumer.run_command(*command);
}

Value lower_system(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return l.finish_action(state, l.formatted_action(call, state, consume_system), call);
}

// freopen(format, ...): the output goes to the formatted file from now on;
// freopen("") sends it back where it went first.
void consume_freopen(Consumer &consumer, const ActionDescription &action,
                     std::span<const std::byte> record) {
    const uint32_t epid = consumer.read<trace::RecordHeader>(record, 0).epid;
    if (!action.format || action.format->empty()) {
        consumer.reopen_output(epid, std::nullopt);
        return;
    }
    std::vector<trace::FormatArgument> arguments;
    if (std::optional<std::string> path = consumer.formatted(action, record, arguments))
        consumer.reopen_output(epid, *path);
}

// printf()'s rule, but "" is freopen()'s own: back to the first output. "."
// is refused as dtrace refuses it (its sentinel for "").
bool check_freopen(CallCheck &check) {
    ast::Call &call = check.call;
    const auto *literal =
        call.arguments.empty() ? nullptr : call.arguments[0]->as<ast::StringLiteral>();
    if (literal && literal->value == ".") {
        check.checker.error("D_FREOPEN_INVALID", literal->range,
                            "freopen() argument #1 cannot be \".\"");
        return false;
    }
    if (literal && literal->value.empty() && call.arguments.size() == 1)
        return check.checker.check(*call.arguments[0]) != nullptr;
    return printf_rule(check);
}

Value lower_freopen(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return l.finish_action(state, l.formatted_action(call, state, consume_freopen), call);
}

// What chill() does happens in the probe; its record only marks the firing
// (its probe line without -q), as dtrace's does.
void consume_nothing(Consumer &, const ActionDescription &, std::span<const std::byte>) {}

// What raise() and stop() record besides marking the firing: the signal's
// outcome, then the current process's pid.
enum SignalOutcome : int64_t {
    kSignalSent = 0,
    kSignalOwnProcess = 1, // not sent: the current process is dtx's own
    // < 0: the helper's -errno
};

// The outcome of raise() or stop(), said once per call site where the
// signal was not sent; the pid it was sent to, else nullopt.
std::optional<uint32_t> signal_outcome(Consumer &consumer, const ActionDescription &action,
                                       std::span<const std::byte> record) {
    const auto outcome = consumer.read<int64_t>(record, action.values.at(0).offset);
    const auto pid = uint32_t(consumer.read<int64_t>(record, action.values.at(1).offset));
    if (outcome == kSignalSent)
        return pid;
    const std::string call = std::string(action.function) + "()";
    const std::string where = action.location.file_name() + ":" +
                              std::to_string(action.location.begin.line) + ":" +
                              std::to_string(action.location.begin.column) + ": ";
    if (outcome == kSignalOwnProcess)
        consumer.warn_once(action, "own",
                           "warning: " + where + call +
                               " fired in dtx's own process (BEGIN, END and dtx's own system "
                               "calls run there) and was not delivered: dtx never " +
                               (action.function == "stop" ? "stops" : "signals") + " itself");
    else
        consumer.warn_once(action, "failed",
                           "warning: " + where + call + " could not signal pid " +
                               std::to_string(pid) + ": " + std::strerror(int(-outcome)) +
                               (outcome == -EPERM ? " (BPF may not signal a kernel thread, a "
                                                    "process that is exiting, or init)"
                                                  : ""));
    return std::nullopt;
}

void consume_raise(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte> record) {
    signal_outcome(consumer, action, record);
}

// The processes stop() stopped are listed at the end, those still stopped.
void consume_stop(Consumer &consumer, const ActionDescription &action,
                  std::span<const std::byte> record) {
    if (std::optional<uint32_t> pid = signal_outcome(consumer, action, record))
        consumer.note_stopped(*pid);
}

// Sends `signal` with `helper` (to the current thread or process) unless the
// current process is dtx's own: BEGIN and END run in it, and so do probes of
// its system calls, where a SIGKILL or SIGSTOP would end or hang dtx with no
// word said. Records the outcome and the pid for the consumer.
Value lower_signal(FunctionBuilder &l, const ast::Call &call, ClauseState &state, unsigned helper,
                   llvm::Value *signal, trace::ActionConsumer consume) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *pid = ir.CreateLShr(l.current_pid_tgid(state), 32);
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    auto *send = llvm::BasicBlock::Create(ir.getContext(), "signal_send", function);
    auto *done = llvm::BasicBlock::Create(ir.getContext(), "signal_done", function);
    llvm::BasicBlock *own = ir.GetInsertBlock();
    ir.CreateCondBr(ir.CreateICmpEQ(pid, l.dtx_pid()), done, send);
    ir.SetInsertPoint(send);
    llvm::Value *sent = l.call_helper(helper, l.i64(), {signal});
    ir.CreateBr(done);
    ir.SetInsertPoint(done);
    llvm::PHINode *outcome = ir.CreatePHI(l.i64(), 2);
    outcome->addIncoming(l.const64(uint64_t(kSignalOwnProcess)), own);
    outcome->addIncoming(sent, send);

    ActionDescription action = l.action(call, consume);
    for (llvm::Value *value : {static_cast<llvm::Value *>(outcome), pid}) {
        trace::ValueLayout layout;
        layout.offset = l.reserve_record(state, layout.size);
        if (llvm::Value *to = l.record_space(state, layout))
            l.store64(value, to);
        action.values.push_back(layout);
    }
    return l.finish_action(state, std::move(action), call);
}

// raise(signal): to the current thread; an invalid signal is an illegal operation.
Value lower_raise(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *signal = l.lower_scalar(*call.arguments.at(0), state);
    l.fault_if(state,
               ir.CreateOr(ir.CreateICmpSLT(signal, l.const64(1)),
                           ir.CreateICmpSGT(signal, l.const64(SIGRTMAX))),
               trace::FaultKind::IllegalOperation, nullptr);
    return lower_signal(l, call, state, BPF_FUNC_send_signal_thread,
                        ir.CreateTrunc(signal, l.i32()), consume_raise);
}

// stop(): the current process stops, as if by SIGSTOP, for a debugger to
// take over; it stays stopped when dtx exits, which says so.
Value lower_stop(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return lower_signal(l, call, state, BPF_FUNC_send_signal, l.ir().getInt32(SIGSTOP),
                        consume_stop);
}

// One dtx_rt_chill() spins at most as long as bpf_loop's 2^23 clock reads
// take (about 300 ms on our machines); chill() calls it this many times, each
// for what is left until the deadline, so that half a second is reached on
// machines where a clock read takes 8 ns or more.
constexpr int kChillRounds = 8;

// chill(nanoseconds): at most half a second, else an illegal operation.
Value lower_chill(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *nanoseconds = l.lower_scalar(*call.arguments.at(0), state);
    l.fault_if(state, ir.CreateICmpUGT(nanoseconds, l.const64(kChillLimitNanoseconds)),
               trace::FaultKind::IllegalOperation, nullptr);
    llvm::Value *deadline =
        ir.CreateAdd(l.call_helper(BPF_FUNC_ktime_get_ns, l.i64(), {}), nanoseconds);
    for (int round = 0; round < kChillRounds; round++) {
        llvm::Value *now = l.call_helper(BPF_FUNC_ktime_get_ns, l.i64(), {});
        llvm::Value *left = ir.CreateSelect(ir.CreateICmpULT(now, deadline),
                                            ir.CreateSub(deadline, now), l.const64(0));
        l.runtime_call("dtx_rt_chill", {left});
    }
    return l.finish_action(state, l.action(call, consume_nothing), call);
}

// panic() and breakpoint(): dtrace's arity, permission and speculation
// checks apply; then they are refused, as nothing on Linux does them.
Value lower_panic(FunctionBuilder &l, const ast::Call &call, ClauseState &, bool) {
    l.refuse(call, "D_ACT_UNSUPPORTED",
             "panic() is not available on Linux: no BPF helper panics the kernel");
    return {l.const64(0), call.type};
}

Value lower_breakpoint(FunctionBuilder &l, const ast::Call &call, ClauseState &, bool) {
    l.refuse(call, "D_ACT_UNSUPPORTED",
             "breakpoint() is not available on Linux: no BPF helper stops the kernel in a "
             "debugger");
    return {l.const64(0), call.type};
}

constexpr auto A = FunctionClass::Action;

constexpr FunctionDescriptor kDestructive[] = {
    describe("breakpoint", A, "void", {}, lower_breakpoint,
             {.role = ClauseRole::None, .destructive = true}),
    describe("chill", A, "void", {integer("int")}, lower_chill,
             {.role = ClauseRole::None, .destructive = true}),
    describe("freopen", A, "void", {format()}, lower_freopen,
             {.variadic = true, .destructive = true, .check = check_freopen}),
    describe("panic", A, "void", {}, lower_panic, {.role = ClauseRole::None, .destructive = true}),
    describe("raise", A, "void", {integer("int")}, lower_raise, {.destructive = true}),
    describe("stop", A, "void", {}, lower_stop, {.destructive = true}),
    describe("system", A, "void", {format()}, lower_system,
             {.variadic = true, .destructive = true, .check = printf_rule}),
};

} // namespace

std::span<const FunctionDescriptor> destructive_functions() {
    return kDestructive;
}

} // namespace dtx::sema
