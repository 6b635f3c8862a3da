// Kernel locks: mutex_owned(), mutex_owner(), mutex_type_adaptive(),
// mutex_type_spin() of a struct mutex, and rw_read_held(), rw_write_held(),
// rw_iswriter() of an rwlock_t, read from the lock's words as Linux lays them
// out. A lock that cannot be read (a bad pointer) reads as free: these are
// predicates for scripts, like dtrace-utils', not a fault.
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

// The low bits of struct mutex's owner word are flags (waiters, handoff,
// pickup): the rest is the owning task.
constexpr uint64_t kMutexFlags = 0x07;
// A qrwlock's cnts: the low byte is the writer's lock, the next bit a waiting
// writer, and the readers count from bit 9.
constexpr uint64_t kWriterLocked = 0x0ff;
constexpr uint64_t kWriterMask = 0x1ff;

// The task owning the mutex the call's argument points to, 0 when free.
llvm::Value *mutex_owner_task(FunctionBuilder &l, const ast::Call &call, ClauseState &state) {
    llvm::Value *mutex = l.lower_scalar(*call.arguments.at(0), state);
    std::optional<uint64_t> owner = l.kernel_member_offset(call, "mutex", "owner");
    if (!owner)
        return l.const64(0);
    llvm::Value *word = l.read_kernel_quietly(state, l.ir().CreateAdd(mutex, l.const64(*owner)));
    return l.ir().CreateAnd(word, l.const64(~kMutexFlags));
}

Value lower_mutex_owned(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *owner = mutex_owner_task(l, call, state);
    llvm::Value *owned = l.ir().CreateAnd(l.ir().CreateICmpNE(owner, l.const64(0)),
                                          l.ir().CreateICmpEQ(owner, l.current_task(state)));
    return {l.ir().CreateZExt(owned, l.i64()), call.type};
}

Value lower_mutex_owner(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return {mutex_owner_task(l, call, state), call.type};
}

// Linux's mutexes spin while their owner runs, then sleep: adaptive, never
// spin locks. The argument is still evaluated.
template <bool kAdaptive>
Value lower_mutex_type(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    l.lower_scalar(*call.arguments.at(0), state);
    return {l.const64(kAdaptive ? 1 : 0), call.type};
}

// rwlock_t begins with its arch_rwlock_t, a struct qrwlock.
template <uint64_t kMask, bool kAbove>
Value lower_rwlock_state(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *lock = l.lower_scalar(*call.arguments.at(0), state);
    std::optional<uint64_t> cnts = l.kernel_member_offset(call, "qrwlock", "cnts");
    if (!cnts)
        return {l.const64(0), call.type};
    llvm::Value *counts = l.read_kernel_quietly(state, l.ir().CreateAdd(lock, l.const64(*cnts)), 4);
    llvm::Value *bits = l.ir().CreateAnd(counts, l.const64(kAbove ? ~kMask & 0xffffffff : kMask));
    return {l.ir().CreateZExt(l.ir().CreateICmpNE(bits, l.const64(0)), l.i64()), call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kLocks[] = {
    describe("mutex_owned", S, "int", {pointer("struct mutex *")}, lower_mutex_owned),
    describe("mutex_owner", S, "struct task_struct *", {pointer("struct mutex *")},
             lower_mutex_owner),
    describe("mutex_type_adaptive", S, "int", {pointer("struct mutex *")}, lower_mutex_type<true>),
    describe("mutex_type_spin", S, "int", {pointer("struct mutex *")}, lower_mutex_type<false>),
    // Readers hold it: a count above the writer's bits.
    describe("rw_read_held", S, "int", {pointer("rwlock_t *")},
             lower_rwlock_state<kWriterMask, true>),
    // A writer holds it.
    describe("rw_write_held", S, "int", {pointer("rwlock_t *")},
             lower_rwlock_state<kWriterLocked, false>),
    // A writer holds it or waits for it.
    describe("rw_iswriter", S, "int", {pointer("rwlock_t *")},
             lower_rwlock_state<kWriterMask, false>),
};

} // namespace

std::span<const FunctionDescriptor> lock_functions() {
    return kLocks;
}

} // namespace dtx::sema
