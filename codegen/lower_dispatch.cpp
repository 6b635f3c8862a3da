// Trampolines and what they share: each runs the clauses enabled on the
// firing probe through a dispatch on its ID, and a clause that faults goes to
// the ERROR path.
//
// A trampoline that calls each of its few clauses from one place has them
// inlined (kInlinedClauses), and tells stack() that their frame is gone.
//
// The kernel verifies at most 256 functions in one BPF program
// (BPF_MAX_SUBPROGS), and every clause a trampoline calls is a function of
// its program. A trampoline that runs more clauses than kDirectClauseCalls
// calls functions of several consecutive clauses each instead (blocks, of
// about kBlockSize of code: a BPF jump must cross no more than 32767
// instructions), into which the clauses are inlined, so that any number of
// clauses can run on one probe; so does the ERROR path past
// kDirectErrorClauses.
#include "codegen/lowering.h"

#include <linux/bpf.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>
#include <map>

namespace dtx::codegen {

namespace {

// Budgets of the 256 functions a BPF program may have: the run-time library
// takes up to 28 of the rest, a provider a few, and clauses too large for one
// function their parts.
constexpr size_t kDirectClauseCalls = 96;
constexpr size_t kDirectErrorClauses = 32;
// The code of a block of clauses (function_size()), and what calling one
// clause adds to it: about 8,000 IR instructions make 10,000 BPF ones or
// fewer, well within a jump's reach.
constexpr size_t kBlockSize = 8000;
constexpr size_t kClauseCallSize = 16;
static_assert(kMaxProbeClauses == kDirectClauseCalls * kBlockSize / kClauseCallSize,
              "kMaxProbeClauses is what blocks of kBlockSize hold");
// The code of consecutive inlined clauses the dispatch lets run without a
// branch between them: LLVM's instruction scheduling takes time growing
// faster than a basic block's size (7,000 clauses without branches, in
// blocks of 500: 13 s, against 1 s).
constexpr size_t kStraightClauses = 1000;
// A dispatch on few probes is a switch with a case per probe; past that,
// probes that run the same clauses share a block reading the probe's dense
// index and EPIDs from tables, unless their IDs are too far apart.
constexpr size_t kSwitchedProbes = 8;
constexpr uint32_t kMaxTableRange = 1u << 16;
// The largest clause context a thread's task storage holds: the kernel
// allows values of up to 65535 bytes less its element's header
// (BPF_LOCAL_STORAGE_MAX_VALUE_SIZE), whose size differs between versions.
constexpr uint32_t kThreadClauseContextLimit = 60 * 1024;
// A trampoline that calls each of its clauses from one place, and at most
// this many, this small together, has them inlined: a BPF call and return
// cost ~18 ns a firing where the kernel mitigates returns (AMD's SRSO safe
// RET), a fifth of a raw tracepoint's whole cost. Larger clauses keep their
// functions: inlined, their stack slots would add up in the trampoline's
// frame (512 bytes at most) and their code lengthen its jumps (32767
// instructions at most).
constexpr size_t kInlinedClauses = 8;
constexpr size_t kInlinedInstructions = 2000; // LLVM IR, before optimization
constexpr uint64_t kInlinedStackBytes = 256;

} // namespace

class TrampolineBuilderImpl final : public TrampolineBuilder {
public:
    TrampolineBuilderImpl(Lowering &lowering, const TrampolineSpec &spec, llvm::Function &entry)
        : lowering_(lowering), spec_(spec), entry_(entry) {}

    llvm::IRBuilder<> &ir() override { return lowering_.ir(); }
    llvm::Module &module() override { return lowering_.module(); }
    BpfDebugInfo &debug_info() override { return lowering_.debug_info(); }
    llvm::Function &entry() override { return entry_; }
    llvm::Value *clause_context() override {
        llvm::Function &current = *ir().GetInsertBlock()->getParent();
        return lowering_.clause_context_lookup(spec_, current,
                                               spec_.has_stack_context && &current == &entry_);
    }
    void store_probe_id(llvm::Value *dctx, llvm::Value *probe_id) override {
        lowering_.store64(ir().CreateZExtOrTrunc(probe_id, lowering_.i64()),
                          lowering_.at(dctx, ClauseContextLayout::probe_id));
        if (lowering_.task_overridden()) // until this firing's trampoline says otherwise
            lowering_.store64(lowering_.const64(0),
                              lowering_.at(dctx, ClauseContextLayout::current_task));
    }
    void store_current_task(llvm::Value *dctx, llvm::Value *task) override {
        lowering_.store64(ir().CreateZExtOrTrunc(task, lowering_.i64()),
                          lowering_.at(dctx, ClauseContextLayout::current_task));
    }
    // A program none of whose clauses reads argN, args[] or errno stores
    // none of them: the per-event work of filling them (and the loads that
    // feed them, which LLVM then drops) is left out of every trampoline.
    void store_argument(llvm::Value *dctx, unsigned index, llvm::Value *value) override {
        if (!lowering_.reads_builtin(sema::ProbeData::Arguments))
            return;
        lowering_.store64(ir().CreateSExtOrTrunc(value, lowering_.i64()),
                          lowering_.at(dctx, ClauseContextLayout::args + 8 * index));
    }
    void store_errno(llvm::Value *dctx, llvm::Value *value) override {
        if (!lowering_.reads_builtin(sema::ProbeData::Errno))
            return;
        lowering_.store64(ir().CreateSExtOrTrunc(value, lowering_.i64()),
                          lowering_.at(dctx, ClauseContextLayout::errno_value));
    }
    bool stores_arguments() const override {
        return lowering_.reads_builtin(sema::ProbeData::Arguments);
    }
    void clear_arguments(llvm::Value *dctx) override {
        for (unsigned i = 0; i < ClauseContextLayout::arg_count; i++)
            store_argument(dctx, i, lowering_.const64(0));
        store_errno(dctx, lowering_.const64(0));
    }
    void run_clauses(llvm::Value *dctx, ClauseGate gate) override {
        llvm::Function *current = ir().GetInsertBlock()->getParent();
        llvm::Value *ctx =
            spec_.has_stack_context && current == &entry_ ? entry_.getArg(0) : nullptr;
        lowering_.emit_dispatch(spec_, dctx, ctx, gate);
    }
    llvm::Value *read_user(llvm::Value *to, uint32_t size, llvm::Value *address,
                           UserMemory memory) override {
        if (memory == UserMemory::MayBeAbsent)
            lowering_.note_user_memory_read(spec_);
        return lowering_.read_user(lowering_.sleepable(spec_), to, ir().getInt32(size), address);
    }
    llvm::Value *call_helper(unsigned helper, llvm::Type *result,
                             std::vector<llvm::Value *> args) override {
        return lowering_.call_helper(helper, result, std::move(args));
    }
    llvm::Function *define_function(std::string_view name, llvm::FunctionType *type) override {
        return lowering_.new_function(name, type, 0);
    }

private:
    Lowering &lowering_;
    const TrampolineSpec &spec_;
    llvm::Function &entry_;
};

// How a trampoline finds the clauses of the firing probe: for each of its
// probes the clauses enabled on it, and with many probes the tables of the
// table dispatch.
struct Lowering::DispatchTables {
    std::vector<std::vector<uint32_t>> probe_clauses; // by index in spec.probes
    bool switched = true;
    uint32_t lowest = 0;
    size_t slot_count = 0;                         // by probe ID - lowest
    uint32_t stride = 0;                           // of a row: dense index, group, EPIDs
    std::vector<std::vector<uint32_t>> groups;     // each group's clauses
    llvm::GlobalVariable *slot_of_probe = nullptr; // u32 by ID - lowest: row + 1, or 0
    llvm::GlobalVariable *slots = nullptr;         // u32 rows
    bool inlines_clauses = false;                  // kInlinedClauses
};

namespace {

// The kernel frames stack() leaves out (ClauseContextLayout::stack_skip):
// TrampolineSpec::kernel_stack_skip counts a clause's own frame and its
// trampoline's, and a clause inlined into a function has none of its own.
// 0 stays 0: a perf event's stack starts at the registers it interrupted.
uint64_t clause_stack_skip(const TrampolineSpec &spec, bool inlined_into_trampoline) {
    return spec.kernel_stack_skip && inlined_into_trampoline ? spec.kernel_stack_skip - 1
                                                             : spec.kernel_stack_skip;
}

// "probe 'P'", or "probes 'P', 'Q' and N more".
std::string probe_names(const TrampolineSpec &spec) {
    constexpr size_t kNamed = 2;
    std::string text = spec.probes.size() == 1 ? "probe " : "probes ";
    for (size_t i = 0; i < spec.probes.size() && i < kNamed; i++)
        text += (i ? ", '" : "'") + spec.probes[i]->name.full() + "'";
    if (spec.probes.size() > kNamed)
        text += " and " + std::to_string(spec.probes.size() - kNamed) + " more";
    return text;
}

// ERROR's clauses run below dtx_error's frame, and below the block function
// that called it if any.
uint64_t error_stack_skip(const TrampolineSpec &spec, bool in_block) {
    return spec.kernel_stack_skip ? spec.kernel_stack_skip + 1 + (in_block ? 1 : 0) : 0;
}

} // namespace

std::pair<size_t, uint64_t> function_size(const llvm::Function &function) {
    size_t instructions = 0;
    uint64_t stack = 0;
    const llvm::DataLayout &layout = function.getParent()->getDataLayout();
    for (const llvm::BasicBlock &block : function)
        for (const llvm::Instruction &instruction : block) {
            instructions++;
            if (const auto *slot = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
                if (std::optional<llvm::TypeSize> size = slot->getAllocationSize(layout))
                    stack += size->getFixedValue();
            // The BPF back end stores memset's words one by one, and loads
            // and stores memcpy's.
            if (const auto *memory = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction))
                if (const auto *length = llvm::dyn_cast<llvm::ConstantInt>(memory->getLength()))
                    instructions +=
                        length->getZExtValue() / 8 * (llvm::isa<llvm::MemSetInst>(memory) ? 1 : 2);
        }
    return {instructions, stack};
}

void Lowering::call_clause_blocks(
    const std::string &name, const std::vector<uint32_t> &clauses, size_t direct_limit,
    bool sleepable, std::string_view runs_on, llvm::Value *dctx, llvm::Value *ctx,
    const std::function<void(size_t, size_t, llvm::Value *, llvm::Value *, bool)> &emit) {
    const size_t count = clauses.size();
    if (count <= direct_limit) {
        emit(0, count, dctx, ctx, false);
        return;
    }
    // Blocks of consecutive clauses of at most kBlockSize each, where that
    // makes no more than direct_limit of them, so that their jumps stay
    // within a BPF jump's reach; else of what it takes.
    std::vector<size_t> sizes;
    size_t total = 0;
    for (uint32_t c : clauses) {
        sizes.push_back(function_size(*clause_function(c, ctx != nullptr, sleepable)).first +
                        kClauseCallSize);
        total += sizes.back();
    }
    std::vector<size_t> starts;
    for (size_t budget = std::max(kBlockSize, total / direct_limit);; budget *= 2) {
        starts = {0};
        size_t filled = 0;
        for (size_t i = 0; i < count; i++) {
            if (filled && filled + sizes[i] > budget) {
                starts.push_back(i);
                filled = 0;
            }
            filled += sizes[i];
        }
        if (starts.size() <= direct_limit)
            break;
    }
    starts.push_back(count);

    auto *type = llvm::FunctionType::get(i32(), {ptr(), ptr()}, false);
    llvm::Value *null = llvm::ConstantPointerNull::get(ir_.getPtrTy());
    for (size_t b = 0; b + 1 < starts.size(); b++) {
        const size_t first = starts[b], last = starts[b + 1];
        llvm::Function *block;
        {
            llvm::IRBuilder<>::InsertPointGuard guard(ir_);
            block = new_function(name + "_" + std::to_string(b), type, 0);
            emit(first, last, block->getArg(0), ctx ? block->getArg(1) : nullptr, true);
            ir_.CreateRet(ir_.getInt32(0));
        }
        const SourceRange &to = input_.program.clauses[clauses[last - 1]]->range;
        function_origins_[block->getName().str()] = {
            input_.program.clauses[clauses[first]]->range,
            "the " + std::to_string(last - first) + " clauses from here to " + to.file_name() +
                ":" + std::to_string(to.begin.line) + ":" + std::to_string(to.begin.column) +
                " on " + std::string(runs_on)};
        ir_.CreateCall(block, {dctx, ctx ? ctx : null});
    }
}

llvm::Value *Lowering::call_clause(uint32_t clause, llvm::Value *dctx, llvm::Value *ctx,
                                   bool inlined, bool sleepable) {
    llvm::Function *function = clause_function(clause, ctx != nullptr, sleepable);
    llvm::Value *null = llvm::ConstantPointerNull::get(ir_.getPtrTy());
    // Not handing over a context the clause leaves alone lets one on the
    // trampoline's stack (runs_without_context) fold away, inlined or not.
    llvm::CallInst *call = ir_.CreateCall(
        function, {clause_facts_.at(function).uses_context ? dctx : null, ctx ? ctx : null});
    if (inlined)
        inlined_calls_.emplace_back(call);
    return call;
}

// --- the ERROR path --------------------------------------------------------------

// Sends the consumer the fault recorded in dctx (a trace::FaultRecord);
// returns the faulting EPID.
llvm::Value *Lowering::report_fault(llvm::Value *dctx) {
    auto *record_type = llvm::ArrayType::get(i64(), sizeof(trace::FaultRecord) / 8);
    llvm::Value *record;
    {
        // On the stack, in the function's entry block (BPF has no dynamic allocas).
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        llvm::BasicBlock &entry = ir_.GetInsertBlock()->getParent()->getEntryBlock();
        ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        record = ir_.CreateAlloca(record_type);
    }
    llvm::Value *epid = load64(at(dctx, ClauseContextLayout::epid));
    ir_.CreateAlignedStore(ir_.getInt32(0), record, llvm::Align(4));
    ir_.CreateAlignedStore(firing_cpu(dctx), at(record, offsetof(trace::RecordHeader, cpu)),
                           llvm::Align(4)); // the cpu, and no speculation
    ir_.CreateAlignedStore(ir_.CreateTrunc(epid, i32()),
                           at(record, offsetof(trace::FaultRecord, faulting_epid)), llvm::Align(4));
    ir_.CreateAlignedStore(
        ir_.CreateTrunc(load64(at(dctx, ClauseContextLayout::fault_action)), i32()),
        at(record, offsetof(trace::FaultRecord, action)), llvm::Align(4));
    store64(load64(at(dctx, ClauseContextLayout::fault_kind)),
            at(record, offsetof(trace::FaultRecord, kind)));
    store64(load64(at(dctx, ClauseContextLayout::fault_address)),
            at(record, offsetof(trace::FaultRecord, address)));
    ir_.CreateAlignedStore(
        ir_.CreateTrunc(ir_.CreateLShr(load64(at(dctx, ClauseContextLayout::fault_action)), 32),
                        i32()),
        at(record, offsetof(trace::FaultRecord, site)), llvm::Align(4));
    ir_.CreateAlignedStore(ir_.getInt32(0), at(record, offsetof(trace::FaultRecord, reserved)),
                           llvm::Align(4));
    call_helper(BPF_FUNC_ringbuf_output, i64(),
                {output_map_, record, const64(sizeof(trace::FaultRecord)), const64(0)});
    return epid;
}

// void dtx_error(dctx, ctx): reports the fault recorded in dctx to the
// consumer, then runs the ERROR clauses with DTrace's ERROR arguments (arg1
// the faulting EPID, arg2 the action, arg3 -1, arg4 the fault kind, arg5 the
// address), saving and restoring the firing probe's arguments around them.
llvm::Function *Lowering::error_function(bool with_stack_context, bool sleepable) {
    auto [it, inserted] = error_functions_.try_emplace({with_stack_context, sleepable}, nullptr);
    if (!inserted)
        return it->second;
    llvm::IRBuilder<>::InsertPointGuard guard(ir_);
    auto *type = llvm::FunctionType::get(i32(), {ptr(), ptr()}, false);
    llvm::Function *function =
        new_function(std::string(with_stack_context ? "dtx_error" : "dtx_error_nctx") +
                         (sleepable ? "_sleepable" : ""),
                     type, 0);
    it->second = function;
    llvm::Value *dctx = function->getArg(0);
    llvm::Value *ctx = function->getArg(1);
    llvm::Value *epid = report_fault(dctx);

    std::vector<uint32_t> error_clauses;
    for (uint32_t c = 0; c < input_.clause_probes.size(); c++)
        for (const trace::Probe *probe : input_.clause_probes[c])
            if (probe->id == kErrorProbeId)
                error_clauses.push_back(c);
    if (!error_clauses.empty()) {
        for (unsigned i = 0; i < ClauseContextLayout::arg_count; i++)
            store64(load64(at(dctx, ClauseContextLayout::args + 8 * i)),
                    at(dctx, ClauseContextLayout::error_args + 8 * i));
        llvm::Value *probe_id = load64(at(dctx, ClauseContextLayout::probe_id));
        store64(probe_id, at(dctx, ClauseContextLayout::error_probe_id));
        llvm::Value *saved_index = load64(at(dctx, probe_index_offset()));
        llvm::Value *error_args[6] = {
            const64(0),
            epid,
            ir_.CreateAnd(load64(at(dctx, ClauseContextLayout::fault_action)), 0xffffffff),
            const64(uint64_t(-1)),
            load64(at(dctx, ClauseContextLayout::fault_kind)),
            load64(at(dctx, ClauseContextLayout::fault_address)),
        };
        for (unsigned i = 0; i < ClauseContextLayout::arg_count; i++)
            store64(i < 6 ? error_args[i] : const64(0),
                    at(dctx, ClauseContextLayout::args + 8 * i));
        store64(const64(kErrorProbeId), at(dctx, ClauseContextLayout::probe_id));
        auto dense = dense_index_.find(kErrorProbeId);
        store64(const64(dense == dense_index_.end() ? 0 : dense->second),
                at(dctx, probe_index_offset()));
        // A fault in an ERROR clause is reported, and ends that clause only:
        // it does not fire ERROR again.
        call_clause_blocks(
            function->getName().str() + "_clauses", error_clauses, kDirectErrorClauses, sleepable,
            "probe 'dtrace:::ERROR'", dctx, with_stack_context ? ctx : nullptr,
            [&](size_t first, size_t last, llvm::Value *dctx, llvm::Value *ctx, bool inlined) {
                for (size_t i = first; i < last; i++) {
                    uint32_t c = error_clauses[i];
                    store64(const64(epids_.at({c, kErrorProbeId})),
                            at(dctx, ClauseContextLayout::epid));
                    llvm::Value *result = call_clause(c, dctx, ctx, inlined, sleepable);
                    if (!clause_facts_.at(clause_function(c, ctx != nullptr, sleepable)).can_fault)
                        continue;
                    llvm::Function *caller = ir_.GetInsertBlock()->getParent();
                    auto *faulted = llvm::BasicBlock::Create(context_, "error_faulted", caller);
                    auto *next = llvm::BasicBlock::Create(context_, "error_next", caller);
                    ir_.CreateCondBr(ir_.CreateICmpNE(result, ir_.getInt32(0)), faulted, next);
                    ir_.SetInsertPoint(faulted);
                    report_fault(dctx);
                    ir_.CreateBr(next);
                    ir_.SetInsertPoint(next);
                }
            });
        for (unsigned i = 0; i < ClauseContextLayout::arg_count; i++)
            store64(load64(at(dctx, ClauseContextLayout::error_args + 8 * i)),
                    at(dctx, ClauseContextLayout::args + 8 * i));
        store64(probe_id, at(dctx, ClauseContextLayout::probe_id));
        store64(saved_index, at(dctx, probe_index_offset()));
    }
    ir_.CreateRet(ir_.getInt32(0));
    return function;
}

// --- trampolines -------------------------------------------------------------------

bool Lowering::runs_without_context(const TrampolineSpec &spec, bool with_stack_context) {
    std::set<uint32_t> clauses;
    for (const trace::Probe *probe : spec.probes)
        if (auto enabled = clauses_of_probe_.find(probe->id); enabled != clauses_of_probe_.end())
            clauses.insert(enabled->second.begin(), enabled->second.end());
    // More clauses are called in blocks, functions taking the context.
    if (clauses.size() > kDirectClauseCalls)
        return false;
    return std::none_of(clauses.begin(), clauses.end(), [&](uint32_t c) {
        return clause_facts_.at(clause_function(c, with_stack_context, sleepable(spec)))
            .uses_context;
    });
}

void Lowering::emit_dispatch(const TrampolineSpec &spec, llvm::Value *dctx, llvm::Value *ctx,
                             ClauseGate gate) {
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *end = llvm::BasicBlock::Create(context_, "dispatched", function);
    if (gate == ClauseGate::Active) {
        auto *active = llvm::BasicBlock::Create(context_, "active", function);
        llvm::LoadInst *activity = ir_.CreateLoad(i32(), activity_);
        activity->setVolatile(true);
        llvm::Value *runs =
            ir_.CreateICmpEQ(activity, ir_.getInt32(uint32_t(trace::Activity::Active)));
        if (options_.cpu) // -x cpu: on that CPU only, as dtrace-utils' trampolines
            runs =
                ir_.CreateAnd(runs, ir_.CreateICmpEQ(current_cpu(), ir_.getInt32(*options_.cpu)));
        ir_.CreateCondBr(runs, active, end);
        ir_.SetInsertPoint(active);
    }
    store64(const64(0), at(dctx, ClauseContextLayout::timestamp));
    if (strtok_state_offset_) // a firing starts with no string for strtok(NULL, ...)
        store64(const64(0), at(dctx, *strtok_state_offset_));

    DispatchTables tables;
    std::set<uint32_t> distinct;
    for (const trace::Probe *probe : spec.probes) {
        auto enabled = clauses_of_probe_.find(probe->id);
        tables.probe_clauses.push_back(enabled == clauses_of_probe_.end() ? std::vector<uint32_t>{}
                                                                          : enabled->second);
        distinct.insert(tables.probe_clauses.back().begin(), tables.probe_clauses.back().end());
    }
    plan_dispatch_tables(spec, tables);
    const std::vector<uint32_t> clauses(distinct.begin(), distinct.end());
    // Where each clause is called from: a case of each probe (switched), or
    // of each group of probes that run the same clauses.
    std::map<uint32_t, size_t> call_sites;
    for (const std::vector<uint32_t> &called :
         tables.switched ? tables.probe_clauses : tables.groups)
        for (uint32_t c : called)
            call_sites[c]++;
    tables.inlines_clauses = clauses.size() <= kInlinedClauses &&
                             std::all_of(call_sites.begin(), call_sites.end(),
                                         [](auto &site) { return site.second == 1; });
    if (tables.inlines_clauses) {
        size_t instructions = 0;
        uint64_t stack = 0;
        for (uint32_t c : clauses) {
            auto [clause_instructions, clause_stack] =
                function_size(*clause_function(c, ctx != nullptr, sleepable(spec)));
            instructions += clause_instructions;
            stack += clause_stack;
        }
        tables.inlines_clauses =
            instructions <= kInlinedInstructions && stack <= kInlinedStackBytes;
    }
    if (ctx)
        store64(const64(clause_stack_skip(spec, tables.inlines_clauses)),
                at(dctx, ClauseContextLayout::stack_skip));
    call_clause_blocks(
        spec.program_name + "_clauses", clauses, kDirectClauseCalls, sleepable(spec),
        probe_names(spec), dctx, ctx,
        [&](size_t first, size_t last, llvm::Value *dctx, llvm::Value *ctx, bool inlined) {
            std::set<uint32_t> block(clauses.begin() + std::ptrdiff_t(first),
                                     clauses.begin() + std::ptrdiff_t(last));
            dispatch_clauses(spec, tables, block, dctx, ctx, gate, inlined,
                             gate == ClauseGate::Active && first == 0);
        });
    ir_.CreateBr(end);
    ir_.SetInsertPoint(end);
}

void Lowering::plan_dispatch_tables(const TrampolineSpec &spec, DispatchTables &tables) {
    uint32_t lowest = UINT32_MAX, highest = 0;
    for (const trace::Probe *probe : spec.probes) {
        lowest = std::min(lowest, probe->id);
        highest = std::max(highest, probe->id);
    }
    if (spec.probes.size() <= kSwitchedProbes || highest - lowest >= kMaxTableRange)
        return;
    // Many probes (syscall:::entry): probes that run the same clauses share
    // one group, so the code grows with the kinds of probes, not their number.
    tables.switched = false;
    tables.lowest = lowest;
    std::map<std::vector<uint32_t>, uint32_t> groups;
    size_t widest = 0;
    for (const std::vector<uint32_t> &clauses : tables.probe_clauses) {
        if (groups.try_emplace(clauses, uint32_t(groups.size())).second)
            tables.groups.push_back(clauses);
        widest = std::max(widest, clauses.size());
    }
    tables.stride = uint32_t(2 + widest);
    tables.slot_count = highest - lowest + 1;
    std::vector<uint32_t> slot_of(tables.slot_count, 0); // by ID - lowest: slot + 1
    std::vector<uint32_t> slots(spec.probes.size() * tables.stride, 0);
    for (uint32_t slot = 0; slot < spec.probes.size(); slot++) {
        const trace::Probe *probe = spec.probes[slot];
        const std::vector<uint32_t> &clauses = tables.probe_clauses[slot];
        slot_of[probe->id - lowest] = slot + 1;
        uint32_t *row = &slots[slot * tables.stride];
        row[0] = dense_index_.at(probe->id);
        row[1] = groups.at(clauses);
        for (size_t j = 0; j < clauses.size(); j++)
            row[2 + j] = epids_.at({clauses[j], probe->id});
    }
    auto table = [&](std::string_view suffix, const std::vector<uint32_t> &words) {
        return debug_->define_global_variable(
            spec.program_name + std::string(suffix),
            debug_->array_type(debug_->integer_type(4, false), words.size()),
            llvm::ConstantDataArray::get(context_, words), GlobalDataSection::ReadOnly);
    };
    tables.slot_of_probe = table("_slot_of_probe", slot_of);
    tables.slots = table("_slots", slots);
}

void Lowering::dispatch_clauses(const TrampolineSpec &spec, const DispatchTables &tables,
                                const std::set<uint32_t> &block, llvm::Value *dctx,
                                llvm::Value *ctx, ClauseGate gate, bool inlined,
                                bool found_active) {
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *end = llvm::BasicBlock::Create(context_, "dispatched", function);
    llvm::Value *probe_id = load64(at(dctx, ClauseContextLayout::probe_id));

    // Runs clause c as enabled probe `epid`; a fault goes to the ERROR probe.
    // exit() in one clause stops the clauses after it, as in DTrace: the
    // clause after one that may call it, or the first of a case or group
    // (in a block of clauses an earlier block may have called it), checks
    // the activity first (`check`). Past kStraightClauses of code
    // without a branch (`straight`), a branch LLVM cannot remove (on a
    // value it cannot see) ends the basic block.
    bool check = false;
    size_t straight = 0;
    auto run_clause = [&](uint32_t c, llvm::Value *epid) {
        llvm::Function *clause = clause_function(c, ctx != nullptr, sleepable(spec));
        const ClauseFacts &facts = clause_facts_.at(clause);
        if (check || straight > kStraightClauses) {
            auto *run = llvm::BasicBlock::Create(context_, "run_clause", function);
            llvm::Value *stop;
            if (check) {
                llvm::LoadInst *activity = ir_.CreateLoad(i32(), activity_);
                activity->setVolatile(true);
                stop =
                    ir_.CreateICmpEQ(activity, ir_.getInt32(uint32_t(trace::Activity::Draining)));
            } else {
                stop = ir_.CreateICmpNE(opaque(const64(0)), const64(0));
            }
            ir_.CreateCondBr(stop, end, run);
            ir_.SetInsertPoint(run);
            straight = 0;
        }
        straight += facts.size;
        check = gate != ClauseGate::None &&
                (clause_exits_[c] || (facts.can_fault && error_clauses_exit_));
        if (facts.reads_epid)
            store64(epid, at(dctx, ClauseContextLayout::epid));
        llvm::Value *result =
            call_clause(c, dctx, ctx, inlined || tables.inlines_clauses, sleepable(spec));
        if (!facts.can_fault)
            return;
        auto *faulted = llvm::BasicBlock::Create(context_, "faulted", function);
        auto *next = llvm::BasicBlock::Create(context_, "next", function);
        ir_.CreateCondBr(ir_.CreateICmpNE(result, ir_.getInt32(0)), faulted, next);
        ir_.SetInsertPoint(faulted);
        const bool skips_frames = ctx && spec.kernel_stack_skip;
        if (skips_frames)
            store64(const64(error_stack_skip(spec, inlined)),
                    at(dctx, ClauseContextLayout::stack_skip));
        ir_.CreateCall(error_function(ctx != nullptr, sleepable(spec)),
                       {dctx, ctx ? ctx : llvm::ConstantPointerNull::get(ir_.getPtrTy())});
        if (skips_frames) // for the clauses after this one
            store64(const64(clause_stack_skip(spec, tables.inlines_clauses)),
                    at(dctx, ClauseContextLayout::stack_skip));
        ir_.CreateBr(next);
        ir_.SetInsertPoint(next);
    };

    if (tables.switched) {
        // A few probes: a case each, with their constants in the code.
        llvm::SwitchInst *dispatch = ir_.CreateSwitch(probe_id, end);
        for (size_t p = 0; p < spec.probes.size(); p++) {
            const trace::Probe *probe = spec.probes[p];
            auto *case_block =
                llvm::BasicBlock::Create(context_, "probe_" + std::to_string(probe->id), function);
            dispatch->addCase(ir_.getInt64(probe->id), case_block);
            ir_.SetInsertPoint(case_block);
            store64(const64(dense_index_.at(probe->id)), at(dctx, probe_index_offset()));
            check = gate != ClauseGate::None && !found_active;
            straight = 0;
            for (uint32_t c : tables.probe_clauses[p])
                if (block.contains(c))
                    run_clause(c, const64(epids_.at({c, probe->id})));
            ir_.CreateBr(end);
        }
        ir_.SetInsertPoint(end);
        return;
    }

    auto word = [&](llvm::GlobalVariable *words, llvm::Value *index) {
        llvm::Value *address =
            ir_.CreateInBoundsGEP(words->getValueType(), words, {ir_.getInt64(0), index});
        return ir_.CreateZExt(ir_.CreateLoad(i32(), address), i64());
    };
    auto end_unless = [&](llvm::Value *condition, const char *name) {
        auto *next = llvm::BasicBlock::Create(context_, name, function);
        ir_.CreateCondBr(condition, next, end);
        ir_.SetInsertPoint(next);
    };
    llvm::Value *offset = opaque(ir_.CreateSub(probe_id, const64(tables.lowest)));
    end_unless(ir_.CreateICmpULT(offset, const64(tables.slot_count)), "in_range");
    llvm::Value *slot = opaque(ir_.CreateSub(word(tables.slot_of_probe, offset), const64(1)));
    end_unless(ir_.CreateICmpULT(slot, const64(spec.probes.size())), "enabled");
    llvm::Value *row = ir_.CreateMul(slot, const64(tables.stride));
    store64(word(tables.slots, row), at(dctx, probe_index_offset()));
    llvm::Value *group = word(tables.slots, ir_.CreateAdd(row, const64(1)));
    llvm::SwitchInst *dispatch = ir_.CreateSwitch(group, end);
    for (uint32_t g = 0; g < tables.groups.size(); g++) {
        const std::vector<uint32_t> &clauses = tables.groups[g];
        if (std::none_of(clauses.begin(), clauses.end(),
                         [&](uint32_t c) { return block.contains(c); }))
            continue;
        auto *group_block =
            llvm::BasicBlock::Create(context_, "group_" + std::to_string(g), function);
        dispatch->addCase(ir_.getInt64(g), group_block);
        ir_.SetInsertPoint(group_block);
        check = gate != ClauseGate::None && !found_active;
        straight = 0;
        for (size_t j = 0; j < clauses.size(); j++)
            if (block.contains(clauses[j]))
                run_clause(clauses[j], word(tables.slots, ir_.CreateAdd(row, const64(2 + j))));
        ir_.CreateBr(end);
    }
    ir_.SetInsertPoint(end);
}

void Lowering::emit_trampoline(const TrampolineSpec &spec) {
    auto *type = llvm::FunctionType::get(i32(), {ptr()}, false);
    auto *function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                            spec.program_name, *module_);
    function->getArg(0)->setName("ctx");
    function_origins_[spec.program_name] = {{}, "the program of " + probe_names(spec)};
    debug_->define_program(*function, sleepable(spec) ? spec.sleepable_section : spec.section, 0);
    ir_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", function));
    ir_.SetCurrentDebugLocation(debug_->location(*function, 0));
    TrampolineBuilderImpl builder(*this, spec, *function);
    spec.emit(builder);
    if (!ir_.GetInsertBlock()->getTerminator())
        ir_.CreateRet(ir_.getInt32(0));
    release_nesting_levels();
}

// Only a program whose prologue or clauses read user memory gains from being
// sleepable, and each event of a sleepable one pays for its thread's clause
// context (bpf_task_storage_get), which must fit task storage.
std::map<std::string, std::string> Lowering::sleepable_choices() const {
    std::map<std::string, std::string> choices;
    for (const TrampolineSpec &spec : input_.trampolines) {
        if (spec.sleepable_section.empty())
            continue;
        bool reads = prologues_reading_user_memory_.contains(spec.program_name);
        std::set<uint32_t> probes;
        for (const trace::Probe *probe : spec.probes)
            probes.insert(probe->id);
        // The ERROR clauses run in any program with clauses, on a fault.
        if (!probes.empty())
            probes.insert(kErrorProbeId);
        for (uint32_t probe : probes) {
            auto enabled = clauses_of_probe_.find(probe);
            if (enabled != clauses_of_probe_.end())
                for (uint32_t c : enabled->second)
                    reads = reads || clauses_reading_user_memory_.contains(c);
        }
        std::string &why_not = choices[spec.program_name];
        if (!reads)
            why_not = "its clauses and arguments read no user memory";
        else if (clause_context_size() > kThreadClauseContextLimit)
            why_not = "its clause context is larger than a thread's task storage holds; user "
                      "memory not resident yet reads as an invalid address";
    }
    return choices;
}

} // namespace dtx::codegen
