// Memory: copies from user space into the probe's scratch memory (copyin(),
// copyinstr(), copyinto()), scratch memory itself (alloca(), bcopy()), and
// the destructive copies into user space (copyout(), copyoutstr()).
//
// alloca() and copyin() take their memory from the clause's alloca region
// (FunctionBuilder::allocate(), at most scratchsize bytes a clause); a
// pointer into it is an integer like any D pointer. Code that writes through
// such a pointer turns it back into a pointer the kernel's verifier accepts
// with FunctionBuilder::scratch_pointer(), which checks that it lies in what
// the clause allocated (an invalid-address fault otherwise, as in DTrace).
//
// In a sleepable program (a uprobe's: ClauseState::sleepable) the copies from
// user space fault in pages that are not resident yet instead of failing on
// them: copyin() and copyinto() read with bpf_copy_from_user, and copyinstr()
// faults the string's pages in when its first read, which cannot, fails.
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

llvm::Value *integer_argument(FunctionBuilder &l, const ast::Call &call, size_t i,
                              ClauseState &state) {
    return l.lower_scalar(*call.arguments.at(i), state);
}

// copyin(address, size): a pointer to scratch holding `size` bytes of user memory.
Value lower_copyin(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *address = integer_argument(l, call, 0, state);
    llvm::Value *length = integer_argument(l, call, 1, state);
    llvm::Value *dst = l.allocate(state, length, nullptr);
    l.read_memory(state, dst, length, address, /*user=*/true);
    // A word of zeros after the copy, so that stringof() of it ends there
    // (the region has that room past scratchsize).
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *rounded =
        ir.CreateAnd(ir.CreateAdd(length, l.const64(7)), l.const64(~uint64_t{7}));
    l.store64(l.const64(0), l.at(dst, rounded));
    return {l.ir().CreatePtrToInt(dst, l.i64()), call.type};
}

// copyinstr(address [, size]): a user string, of at most size bytes and
// always shorter than strsize.
Value lower_copyinstr(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *address = integer_argument(l, call, 0, state);
    llvm::Value *dst = l.scratch(state, uint32_t(l.strsize()));
    l.store64(l.const64(0), dst);
    llvm::Value *limit = ir.getInt32(uint32_t(l.strsize()));
    if (call.arguments.size() > 1) {
        // At most n bytes, and never more than strsize - 1 plus the NUL.
        llvm::Value *n = ir.CreateAdd(integer_argument(l, call, 1, state), l.const64(1));
        n = ir.CreateSelect(ir.CreateICmpULT(n, l.const64(l.strsize())), n, l.const64(l.strsize()));
        limit = ir.CreateTrunc(n, l.i32());
    }
    l.note_user_memory_read(state);
    llvm::Value *result =
        l.call_helper(BPF_FUNC_probe_read_user_str, l.i64(), {dst, limit, address});
    if (l.in_sleepable_program(state)) {
        // The read fails on a page that is not resident yet: a sleepable
        // program faults the string's pages in and reads again.
        llvm::Function *function = ir.GetInsertBlock()->getParent();
        llvm::BasicBlock *read = ir.GetInsertBlock();
        auto *again = llvm::BasicBlock::Create(ir.getContext(), "copyinstr_fault_in", function);
        auto *done = llvm::BasicBlock::Create(ir.getContext(), "copyinstr_read", function);
        ir.CreateCondBr(ir.CreateICmpSLT(result, l.const64(0)), again, done);
        ir.SetInsertPoint(again);
        llvm::Value *reread =
            l.runtime_call("dtx_rt_copy_user_str", {dst, ir.CreateZExt(limit, l.i64()), address});
        llvm::BasicBlock *reread_end = ir.GetInsertBlock();
        ir.CreateBr(done);
        ir.SetInsertPoint(done);
        llvm::PHINode *merged = ir.CreatePHI(l.i64(), 2);
        merged->addIncoming(result, read);
        merged->addIncoming(reread, reread_end);
        result = merged;
    }
    l.fault_if(state, ir.CreateICmpSLT(result, l.const64(0)), trace::FaultKind::BadAddress,
               address);
    return {dst, call.type};
}

// copyinto(address, size, destination): user memory into scratch the program
// allocated (alloca()).
Value lower_copyinto(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *address = integer_argument(l, call, 0, state);
    llvm::Value *length = integer_argument(l, call, 1, state);
    llvm::Value *destination = integer_argument(l, call, 2, state);
    llvm::Value *to = l.scratch_pointer(state, destination, length);
    l.read_memory(state, to, length, address, /*user=*/true);
    return {l.const64(0), call.type};
}

// alloca(size): `size` bytes of scratch, for the clause.
Value lower_alloca(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *length = integer_argument(l, call, 0, state);
    llvm::Value *memory = l.allocate(state, length, call.arguments[0].get());
    return {l.ir().CreatePtrToInt(memory, l.i64()), call.type};
}

// bcopy(source, destination, size): kernel memory (or scratch) into scratch.
Value lower_bcopy(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *source = integer_argument(l, call, 0, state);
    llvm::Value *destination = integer_argument(l, call, 1, state);
    llvm::Value *length = integer_argument(l, call, 2, state);
    llvm::Value *to = l.scratch_pointer(state, destination, length);
    l.read_memory(state, to, length, source, /*user=*/false);
    return {l.const64(0), call.type};
}

// copyout(buffer, address, size): `size` bytes of the program's memory (a
// scratch pointer, a string or a struct) into the current process's memory.
Value lower_copyout(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    Value buffer = l.lower(*call.arguments.at(0), state);
    llvm::Value *address = integer_argument(l, call, 1, state);
    llvm::Value *length = integer_argument(l, call, 2, state);
    llvm::Value *from = buffer.value;
    if (from->getType()->isPointerTy()) {
        uint32_t room = l.stored_size(buffer.type);
        l.fault_if(state, ir.CreateICmpUGT(length, l.const64(room)), trace::FaultKind::BadAddress,
                   address);
    } else {
        from = l.scratch_pointer(state, from, length);
    }
    l.write_user(state, address, from, length);
    return {l.const64(0), call.type};
}

// copyoutstr(string, address, size): the string and its NUL, at most size bytes.
Value lower_copyoutstr(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *text = l.lower(*call.arguments.at(0), state).value;
    llvm::Value *address = integer_argument(l, call, 1, state);
    llvm::Value *limit = integer_argument(l, call, 2, state);
    llvm::Value *length =
        ir.CreateAdd(l.runtime_call("dtx_rt_strlen", {text, l.const64(l.strsize())}), l.const64(1));
    length = ir.CreateSelect(ir.CreateICmpULT(length, limit), length, limit);
    l.write_user(state, address, text, length);
    return {l.const64(0), call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kMemory[] = {
    describe("alloca", S, "void *", {integer("size_t")}, lower_alloca),
    describe("bcopy", S, "void", {pointer(), pointer(), integer("size_t")}, lower_bcopy),
    describe("copyin", S, "void *", {integer("uintptr_t"), integer("size_t")}, lower_copyin),
    describe("copyinstr", S, "string", {integer("uintptr_t"), integer("size_t", true)},
             lower_copyinstr),
    describe("copyinto", S, "void", {integer("uintptr_t"), integer("size_t"), alloca_pointer()},
             lower_copyinto),
    describe("copyout", S, "void", {pointer(), integer("uintptr_t"), integer("size_t")},
             lower_copyout, {.destructive = true}),
    describe("copyoutstr", S, "void", {text(), integer("uintptr_t"), integer("size_t")},
             lower_copyoutstr, {.destructive = true}),
};

} // namespace

std::span<const FunctionDescriptor> memory_functions() {
    return kMemory;
}

} // namespace dtx::sema
