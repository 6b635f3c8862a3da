// Destructive actions, allowed only with -w or `#pragma D option destructive`
// (the checker refuses them otherwise with D_ACT_DESTRUCTIVE): system() runs
// a command from the consumer, in order with the trace output, and freopen()
// sends the output to another file; raise() and
// stop() signal the current thread or process from the probe; chill() spins
// in the probe. copyout() and copyoutstr() are in memory.cpp.
#include "codegen/checker.h"
#include "codegen/functions/function.h"
#include "codegen/lowering.h"
#include "libtrace/consumer.h"

#include <linux/bpf.h>

#include <csignal>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::Lowering;
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

Value lower_system(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
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

Value lower_freopen(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
    return l.finish_action(state, l.formatted_action(call, state, consume_freopen), call);
}

// What raise(), stop() and chill() do happens in the probe; their record only
// marks the firing (its probe line without -q), as dtrace's does.
void consume_nothing(Consumer &, const ActionDescription &, std::span<const std::byte>) {}

// raise(signal): to the current thread; an invalid signal is an illegal operation.
Value lower_raise(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *signal = l.lower_scalar(*call.arguments.at(0), state);
    l.fault_if(state,
               ir.CreateOr(ir.CreateICmpSLT(signal, l.const64(1)),
                           ir.CreateICmpSGT(signal, l.const64(SIGRTMAX))),
               trace::FaultKind::IllegalOperation, nullptr);
    l.call_helper(BPF_FUNC_send_signal_thread, l.i64(), {ir.CreateTrunc(signal, l.i32())});
    return l.finish_action(state, l.action(call, consume_nothing), call);
}

// stop(): the current process stops, as if by SIGSTOP, for a debugger to take over.
Value lower_stop(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
    l.call_helper(BPF_FUNC_send_signal, l.i64(), {l.ir().getInt32(SIGSTOP)});
    return l.finish_action(state, l.action(call, consume_nothing), call);
}

// One dtx_rt_chill() spins at most as long as bpf_loop's 2^23 clock reads
// take (about 300 ms on our machines); chill() calls it this many times, each
// for what is left until the deadline, so that half a second is reached on
// machines where a clock read takes 8 ns or more.
constexpr int kChillRounds = 8;

// chill(nanoseconds): at most half a second, else an illegal operation.
Value lower_chill(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
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

constexpr auto A = FunctionClass::Action;

constexpr FunctionDescriptor kDestructive[] = {
    describe("chill", A, "void", {integer("int")}, lower_chill, {.destructive = true}),
    describe("freopen", A, "void", {format()}, lower_freopen,
             {.variadic = true, .destructive = true, .check = check_freopen}),
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
