// Subroutines of no other family: rand(), progenyof(), getmajor(), getminor().
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

Value lower_rand(FunctionBuilder &l, const ast::Call &call, ClauseState &, bool) {
    llvm::Value *bits = l.call_helper(BPF_FUNC_get_prandom_u32, l.i32(), {});
    return {l.normalize(l.ir().CreateZExt(bits, l.i64()), call.type), call.type};
}

// How many ancestors progenyof() looks through: deeper process trees than
// this are not seen as descendants.
constexpr unsigned kAncestorLimit = 64;

// progenyof(pid): 1 when the current process is `pid` or descends from it,
// following each task's real_parent up to init.
Value lower_progenyof(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *wanted = l.lower_scalar(*call.arguments.at(0), state);
    std::optional<uint64_t> parent = l.kernel_member_offset(call, "task_struct", "real_parent");
    std::optional<uint64_t> tgid = l.kernel_member_offset(call, "task_struct", "tgid");
    if (!parent || !tgid)
        return {l.const64(0), call.type};
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    llvm::LLVMContext &context = ir.getContext();
    llvm::Value *slot = l.scratch(state, 8);
    llvm::BasicBlock *start = ir.GetInsertBlock();
    auto *loop = llvm::BasicBlock::Create(context, "progeny_loop", function);
    auto *next = llvm::BasicBlock::Create(context, "progeny_next", function);
    auto *done = llvm::BasicBlock::Create(context, "progeny_done", function);
    llvm::Value *current = l.current_task(state);
    ir.CreateBr(loop);

    ir.SetInsertPoint(loop);
    llvm::PHINode *task = ir.CreatePHI(l.i64(), 2);
    llvm::PHINode *depth = ir.CreatePHI(l.i64(), 2);
    task->addIncoming(current, start);
    depth->addIncoming(l.const64(0), start);
    auto read = [&](uint64_t offset, unsigned size) {
        l.store64(l.const64(0), slot);
        l.call_helper(BPF_FUNC_probe_read_kernel, l.i64(),
                      {slot, ir.getInt32(size), ir.CreateAdd(task, l.const64(offset))});
        return size == 8
                   ? l.load64(slot)
                   : ir.CreateZExt(ir.CreateAlignedLoad(l.i32(), slot, llvm::Align(4)), l.i64());
    };
    llvm::Value *task_pid = read(*tgid, 4);
    llvm::Value *found = ir.CreateICmpEQ(task_pid, ir.CreateAnd(wanted, l.const64(0xffffffff)));
    llvm::BasicBlock *loop_end = ir.GetInsertBlock();
    ir.CreateCondBr(found, done, next);

    ir.SetInsertPoint(next);
    llvm::Value *up = read(*parent, 8);
    llvm::Value *deeper = ir.CreateAdd(depth, l.const64(1));
    llvm::Value *more =
        ir.CreateAnd(ir.CreateAnd(ir.CreateICmpNE(up, l.const64(0)), ir.CreateICmpNE(up, task)),
                     ir.CreateICmpULT(deeper, l.const64(kAncestorLimit)));
    llvm::BasicBlock *next_end = ir.GetInsertBlock();
    ir.CreateCondBr(more, loop, done);
    task->addIncoming(up, next_end);
    depth->addIncoming(deeper, next_end);

    ir.SetInsertPoint(done);
    llvm::PHINode *result = ir.CreatePHI(l.i64(), 2);
    result->addIncoming(l.const64(1), loop_end);
    result->addIncoming(l.const64(0), next_end);
    return {result, call.type};
}

// getmajor(dev), getminor(dev): the parts of a device number as the kernel
// encodes it in its own dev_t (a 32-bit MKDEV(major, minor), which struct
// inode's i_rdev, struct super_block's s_dev and psinfo_t's pr_ttydev hold):
// major = dev >> 20 (12 bits), minor = dev & 0xfffff (20 bits). The dev_t of
// user space (stat(2)'s st_dev) encodes them otherwise.
Value lower_device_part(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *dev =
        ir.CreateAnd(l.lower_scalar(*call.arguments.at(0), state), l.const64(0xffffffff));
    llvm::Value *part = call.function == "getmajor" ? ir.CreateLShr(dev, l.const64(20))
                                                    : ir.CreateAnd(dev, l.const64(0xfffff));
    return {part, call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kSubroutines[] = {
    describe("getmajor", S, "uint32_t", {integer("dev_t")}, lower_device_part),
    describe("getminor", S, "uint32_t", {integer("dev_t")}, lower_device_part),
    describe("progenyof", S, "int", {integer("pid_t")}, lower_progenyof),
    describe("rand", S, "int", {}, lower_rand),
};

} // namespace

std::span<const FunctionDescriptor> other_subroutines() {
    return kSubroutines;
}

} // namespace dtx::sema
