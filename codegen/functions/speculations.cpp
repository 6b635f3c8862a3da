// Speculations, as dtrace-utils has them: speculation() claims a free slot of
// the `dtx_speculations` map (trace::SpeculationSlot) and returns its ID (1
// .. nspec), or 0 when none is free; speculate(id) makes the clause's record
// belong to that speculation (the record header says which), and the
// consumer keeps such records; commit(id) and discard(id) mark the slot as
// draining and record the ID, and the consumer then prints or drops the
// speculation's records and frees the slot once it has them all.
//
// specsize, as dtrace-utils applies it: a record counts as dtrace would lay
// it out (ClauseDescription::speculative_size). A value that takes the
// record past specsize ends its clause there, in the kernel, as a
// speculative drop (FunctionBuilder::count_speculative_bytes); a record
// that fits alone but not with those its speculation holds already is
// dropped by the consumer. A clause whose only action is speculate()
// records the probe line, shown if the speculation is committed.
//
// Where these may stand in a clause (D_SPEC_SPEC ...) is checked with every
// call's ClauseRole (sema's clause rules).
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;
using trace::ActionDescription;
using trace::Consumer;
using trace::SpeculationSlot;

// speculation(): the first free slot, claimed with a compare-and-swap so that
// two CPUs never get the same one.
Value lower_speculation(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::LLVMContext &context = ir.getContext();
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    llvm::Value *map = l.speculations_map();
    const uint32_t count = l.speculation_count();
    llvm::Value *key = l.scratch(state, 8);

    llvm::BasicBlock *start = ir.GetInsertBlock();
    auto *loop = llvm::BasicBlock::Create(context, "spec_try", function);
    auto *found_slot = llvm::BasicBlock::Create(context, "spec_slot", function);
    auto *next = llvm::BasicBlock::Create(context, "spec_next", function);
    auto *failed = llvm::BasicBlock::Create(context, "spec_none", function);
    auto *done = llvm::BasicBlock::Create(context, "spec_done", function);
    ir.CreateBr(loop);

    ir.SetInsertPoint(loop);
    llvm::PHINode *id = ir.CreatePHI(l.i64(), 2);
    llvm::PHINode *busy = ir.CreatePHI(l.i64(), 2);
    id->addIncoming(l.const64(1), start);
    busy->addIncoming(l.const64(0), start);
    ir.CreateAlignedStore(ir.CreateTrunc(id, l.i32()), key, llvm::Align(4));
    llvm::Value *slot = l.call_helper(BPF_FUNC_map_lookup_elem, l.ptr(), {map, key});
    llvm::BasicBlock *loop_end = ir.GetInsertBlock();
    ir.CreateCondBr(ir.CreateIsNull(slot), next, found_slot);

    ir.SetInsertPoint(found_slot);
    llvm::Value *claim = ir.CreateAtomicCmpXchg(
        slot, l.const64(SpeculationSlot::Free), l.const64(SpeculationSlot::Active),
        llvm::MaybeAlign(8), llvm::AtomicOrdering::SequentiallyConsistent,
        llvm::AtomicOrdering::SequentiallyConsistent);
    llvm::Value *previous = ir.CreateExtractValue(claim, 0);
    llvm::Value *claimed = ir.CreateICmpEQ(previous, l.const64(SpeculationSlot::Free));
    llvm::Value *draining =
        ir.CreateZExt(ir.CreateICmpEQ(previous, l.const64(SpeculationSlot::Draining)), l.i64());
    llvm::Value *busy_after = ir.CreateOr(busy, draining);
    llvm::BasicBlock *slot_end = ir.GetInsertBlock();
    ir.CreateCondBr(claimed, done, next);

    ir.SetInsertPoint(next);
    llvm::PHINode *seen_busy = ir.CreatePHI(l.i64(), 2);
    seen_busy->addIncoming(busy, loop_end);
    seen_busy->addIncoming(busy_after, slot_end);
    llvm::Value *following = ir.CreateAdd(id, l.const64(1));
    id->addIncoming(following, next);
    busy->addIncoming(seen_busy, next);
    ir.CreateCondBr(ir.CreateICmpULE(following, l.const64(count)), loop, failed);

    ir.SetInsertPoint(failed);
    auto *count_busy = llvm::BasicBlock::Create(context, "spec_busy", function);
    auto *count_unavailable = llvm::BasicBlock::Create(context, "spec_unavailable", function);
    auto *counted = llvm::BasicBlock::Create(context, "spec_counted", function);
    ir.CreateCondBr(ir.CreateICmpNE(seen_busy, l.const64(0)), count_busy, count_unavailable);
    ir.SetInsertPoint(count_busy);
    l.count_drop(trace::DropCounter::SpeculationBusy, counted);
    ir.SetInsertPoint(count_unavailable);
    l.count_drop(trace::DropCounter::SpeculationUnavailable, counted);
    ir.SetInsertPoint(counted);
    ir.CreateBr(done);

    ir.SetInsertPoint(done);
    llvm::PHINode *result = ir.CreatePHI(l.i64(), 2);
    result->addIncoming(id, slot_end);
    result->addIncoming(l.const64(0), counted);
    return {result, call.type};
}

// speculate(id): the rest of the clause goes to speculation `id` if it is
// active; otherwise (0, out of range, committed, discarded) the clause ends
// here without a record, as in dtrace-utils.
Value lower_speculate(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::LLVMContext &context = ir.getContext();
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    llvm::Value *id = l.lower_scalar(*call.arguments.at(0), state);
    llvm::Value *in_range = ir.CreateAnd(ir.CreateICmpNE(id, l.const64(0)),
                                         ir.CreateICmpULE(id, l.const64(l.speculation_count())));
    auto *lookup = llvm::BasicBlock::Create(context, "speculate_lookup", function);
    ir.CreateCondBr(in_range, lookup, l.clause_end_without_record(state));

    ir.SetInsertPoint(lookup);
    llvm::Value *key = l.scratch(state, 8);
    ir.CreateAlignedStore(ir.CreateTrunc(id, l.i32()), key, llvm::Align(4));
    llvm::Value *slot =
        l.call_helper(BPF_FUNC_map_lookup_elem, l.ptr(), {l.speculations_map(), key});
    auto *check = llvm::BasicBlock::Create(context, "speculate_check", function);
    ir.CreateCondBr(ir.CreateIsNull(slot), l.clause_end_without_record(state), check);

    ir.SetInsertPoint(check);
    auto *active = llvm::BasicBlock::Create(context, "speculate_active", function);
    llvm::LoadInst *slot_state = ir.CreateAlignedLoad(l.i64(), slot, llvm::Align(8));
    slot_state->setVolatile(true);
    ir.CreateCondBr(ir.CreateICmpEQ(slot_state, l.const64(SpeculationSlot::Active)), active,
                    l.clause_end_without_record(state));

    ir.SetInsertPoint(active);
    ir.CreateAtomicRMW(llvm::AtomicRMWInst::Add, l.at(slot, offsetof(SpeculationSlot, written)),
                       l.const64(1), llvm::MaybeAlign(8),
                       llvm::AtomicOrdering::SequentiallyConsistent);
    l.set_record_speculation(state, id);
    return {l.const64(0), call.type};
}

void consume_commit(Consumer &consumer, const ActionDescription &action,
                    std::span<const std::byte> record) {
    consumer.end_speculation(uint32_t(consumer.read<int64_t>(record, action.values.at(0).offset)),
                             /*commit=*/true);
}

void consume_discard(Consumer &consumer, const ActionDescription &action,
                     std::span<const std::byte> record) {
    consumer.end_speculation(uint32_t(consumer.read<int64_t>(record, action.values.at(0).offset)),
                             /*commit=*/false);
}

// commit(id), discard(id): an ID beyond nspec is an illegal operation; 0 and
// inactive speculations have nothing to commit. The slot drains: speculate()
// takes no more records for it, and speculation() cannot reuse it until the
// consumer frees it.
template <trace::ActionConsumer consume>
Value lower_end(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::LLVMContext &context = ir.getContext();
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    ActionDescription action = l.action(call, consume);
    Value id_value = l.lower(*call.arguments.at(0), state);
    llvm::Value *id = l.normalize(id_value.value, id_value.type);
    l.record_lowered(state, action, {id, id_value.type});
    l.fault_if(state, ir.CreateICmpUGT(id, l.const64(l.speculation_count())),
               trace::FaultKind::IllegalOperation, nullptr);
    llvm::Value *key = l.scratch(state, 8);
    ir.CreateAlignedStore(ir.CreateTrunc(id, l.i32()), key, llvm::Align(4));
    llvm::Value *slot =
        l.call_helper(BPF_FUNC_map_lookup_elem, l.ptr(), {l.speculations_map(), key});
    auto *mark = llvm::BasicBlock::Create(context, "spec_mark", function);
    auto *marked = llvm::BasicBlock::Create(context, "spec_marked", function);
    ir.CreateCondBr(ir.CreateIsNull(slot), marked, mark);
    ir.SetInsertPoint(mark);
    ir.CreateAtomicCmpXchg(slot, l.const64(SpeculationSlot::Active),
                           l.const64(SpeculationSlot::Draining), llvm::MaybeAlign(8),
                           llvm::AtomicOrdering::SequentiallyConsistent,
                           llvm::AtomicOrdering::SequentiallyConsistent);
    ir.CreateBr(marked);
    ir.SetInsertPoint(marked);
    return l.finish_action(state, std::move(action), call);
}

constexpr auto A = FunctionClass::Action;
constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kSpeculations[] = {
    describe("commit", A, "void", {integer("int")}, lower_end<consume_commit>,
             {.role = ClauseRole::Commit}),
    describe("discard", A, "void", {integer("int")}, lower_end<consume_discard>,
             {.role = ClauseRole::Discard}),
    describe("speculate", A, "void", {integer("int")}, lower_speculate,
             {.role = ClauseRole::Speculate}),
    describe("speculation", S, "int", {}, lower_speculation),
};

} // namespace

std::span<const FunctionDescriptor> speculation_functions() {
    return kSpeculations;
}

} // namespace dtx::sema
