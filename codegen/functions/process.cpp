// What the D library reads of a process that D itself cannot express: its
// arguments (psinfo_t's pr_psargs and pr_argc, and the built-in execargs),
// from its memory.
// The leading underscore marks them as the library's, not for scripts.
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "codegen/runtime_library.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

// The arguments of `task` as one line into a fresh string, and how many there
// are. Only the current process's memory can be read: another task's are
// the empty string, as are a kernel thread's.
std::pair<llvm::Value *, llvm::Value *> task_arguments(FunctionBuilder &l, llvm::Value *task,
                                                       const ast::Expr &at, ClauseState &state) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *dst = l.scratch(state, uint32_t(l.strsize()));
    std::optional<uint64_t> mm = l.kernel_member_offset(at, "task_struct", "mm");
    std::optional<uint64_t> start = l.kernel_member_offset(at, "mm_struct", "arg_start");
    std::optional<uint64_t> end = l.kernel_member_offset(at, "mm_struct", "arg_end");
    if (!mm || !start || !end) {
        l.store64(l.const64(0), dst);
        return {dst, l.const64(0)};
    }
    auto read = [&](llvm::Value *address) { return l.read_kernel_quietly(state, address); };
    llvm::Value *current = l.call_helper(BPF_FUNC_get_current_task, l.i64(), {});
    llvm::Value *memory = read(ir.CreateAdd(task, l.const64(*mm)));
    llvm::Value *readable =
        ir.CreateAnd(ir.CreateICmpEQ(task, current), ir.CreateICmpNE(memory, l.const64(0)));
    llvm::Value *first =
        ir.CreateSelect(readable, read(ir.CreateAdd(memory, l.const64(*start))), l.const64(0));
    llvm::Value *last =
        ir.CreateSelect(readable, read(ir.CreateAdd(memory, l.const64(*end))), l.const64(0));
    l.note_user_memory_read(state);
    if (l.in_sleepable_program(state)) {
        // The pages of the bytes dtx_rt_process_args reads may not be
        // resident: a sleepable program faults them in first.
        llvm::Value *length =
            ir.CreateSelect(ir.CreateICmpUGT(last, first), ir.CreateSub(last, first), l.const64(0));
        llvm::Value *most = l.const64(l.strsize() - 1);
        length = ir.CreateSelect(ir.CreateICmpULT(length, most), length, most);
        l.runtime_call("dtx_rt_fault_in_user", {first, length});
    }
    llvm::Value *count =
        l.runtime_call("dtx_rt_process_args", {dst, first, last, l.const64(l.strsize())});
    return {dst, count};
}

// _dtx_psargs(task): the task's arguments as ps(1) shows them.
Value lower_psargs(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *task = l.lower_scalar(*call.arguments.at(0), state);
    return {task_arguments(l, task, call, state).first, call.type};
}

// _dtx_argc(task): how many arguments the task's process was started with.
Value lower_argc(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *task = l.lower_scalar(*call.arguments.at(0), state);
    return {l.normalize(task_arguments(l, task, call, state).second, call.type), call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kProcess[] = {
    describe("_dtx_argc", S, "int", {pointer()}, lower_argc),
    describe("_dtx_psargs", S, "string", {pointer()}, lower_psargs),
};

} // namespace

codegen::Value lower_execargs(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    llvm::Value *task = l.current_task(state);
    return {task_arguments(l, task, expr, state).first, expr.type};
}

std::span<const FunctionDescriptor> process_functions() {
    return kProcess;
}

} // namespace dtx::sema
