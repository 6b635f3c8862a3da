// Calls: data-recording actions (their values go into the clause's record,
// described for the consumer), subroutines (string functions through the
// run-time library, copyin, rand, byte order...), and aggregating functions
// (per-CPU map updates with the state layouts of libtrace/aggregation.h).
#include "codegen/lowering.h"

#include "codegen/runtime_library.h"

#include <linux/bpf.h>
#include <llvm/IR/Intrinsics.h>

namespace dtx::codegen {

namespace {

const ast::Expr &argument(const ast::Call &call, size_t i) {
    return *call.arguments.at(i);
}

std::string aggregation_name(const ast::Expr &expr) {
    if (auto *agg = expr.as<ast::Aggregation>())
        return agg->name;
    return "";
}

// A value's bytes in a record as dtrace lays it out (its size and
// alignment), which is what specsize counts: an integer takes its type's
// size, a string strsize + 1 (`string_bytes`), memory its size at 2.
std::pair<uint32_t, uint32_t> dtrace_value_bytes(const trace::ValueLayout &layout,
                                                 const sema::Type *type, uint64_t string_bytes) {
    const sema::Type *t = sema::resolve(type);
    switch (layout.kind) {
    case trace::ValueKind::Integer:
    case trace::ValueKind::Float:
    case trace::ValueKind::KernelSymbol:
    case trace::ValueKind::KernelModule:
        return {layout.width, layout.width};
    case trace::ValueKind::String:
        if (t && sema::is_string(t))
            return {uint32_t(string_bytes), 1};
        return {layout.size, 2};
    case trace::ValueKind::Bytes:
    case trace::ValueKind::CharArray:
        return {layout.size, 2};
    default: // a pid with an address or with program counters
        return {layout.size, 8};
    }
}

} // namespace

llvm::Value *Lowering::runtime_call(std::string_view name, std::vector<llvm::Value *> args) {
    llvm::Function *function = runtime_function(*module_, name);
    llvm::FunctionType *type = function->getFunctionType();
    for (size_t i = 0; i < args.size() && i < type->getNumParams(); i++) {
        llvm::Type *want = type->getParamType(i);
        llvm::Value *&arg = args[i];
        if (want->isPointerTy() && !arg->getType()->isPointerTy())
            arg = ir_.CreateIntToPtr(arg, want);
        else if (want->isIntegerTy() && arg->getType()->isPointerTy())
            arg = ir_.CreatePtrToInt(arg, want);
        else if (want->isIntegerTy() && arg->getType() != want)
            arg = ir_.CreateSExtOrTrunc(arg, want);
    }
    llvm::Value *result = ir_.CreateCall(function, args);
    if (result->getType()->isIntegerTy() && result->getType() != i64())
        result = ir_.CreateSExt(result, i64());
    return result;
}

llvm::Value *Lowering::record_address(ClauseState &state, uint32_t offset) {
    return at(state.dctx, record_area_offset() + offset);
}

uint32_t Lowering::record_action(ClauseState &state, trace::ActionDescription action) {
    const uint32_t index = state.action_count++;
    std::vector<uint32_t> &masks = state.description->mask_offsets;
    if (index / 64 >= masks.size()) {
        // The mask word of the next 64 actions, cleared where the clause
        // starts: this action may be on one branch of an if/else.
        masks.push_back(reserve_record(state, 8));
        if (masks.back() + 8 <= record_area_limit_) {
            llvm::IRBuilder<>::InsertPointGuard guard(ir_);
            ir_.SetInsertPoint(state.masks_cleared->getNextNode());
            llvm::Value *word = at(state.masks_cleared->getPointerOperand(),
                                   masks.back() - masks[masks.size() - 2]);
            state.masks_cleared = ir_.CreateAlignedStore(const64(0), word, llvm::Align(8));
        }
    }
    if (llvm::Value *mask_address = record_space(state, {.offset = masks[index / 64]}))
        store64(ir_.CreateOr(load64(mask_address), const64(uint64_t{1} << (index % 64))),
                mask_address);
    state.description->actions.push_back(std::move(action));
    return index;
}

// bpf_get_stack's flags for the kernel stack: the probe's glue frames skipped.
llvm::Value *Lowering::kernel_stack_flags(ClauseState &state) {
    llvm::Value *skip = load64(at(state.dctx, ClauseContextLayout::stack_skip));
    return ir_.CreateAnd(skip, const64(BPF_F_SKIP_FIELD_MASK));
}

uint32_t Lowering::stack_depth(const ast::Call &call) {
    uint32_t frames = call.function == "ustack"   ? options_.ustackframes
                      : call.function == "jstack" ? options_.jstackframes
                                                  : options_.stackframes;
    if (!call.arguments.empty())
        if (auto n = sema::integer_constant(argument(call, 0), input_.checked))
            frames = uint32_t(std::clamp<int64_t>(*n, 1, 127));
    return std::min(frames, options_.maxframes);
}

// A user stack starts with its process's pid (trace::ValueKind::UserStack),
// which the consumer is told about while the process lives. Without a
// program context (BEGIN, END) there is no stack to take.
void Lowering::capture_stack(llvm::Value *buffer, uint32_t words, bool user, const ast::Expr &where,
                             ClauseState &state) {
    zero(buffer, (words + (user ? 1 : 0)) * 8);
    if (user) {
        announce_process();
        store64(current_process(), buffer);
        if (state.ctx)
            unwind_user_stack(at(buffer, 8), words - 1, where, state);
        return;
    }
    if (state.ctx)
        call_helper(BPF_FUNC_get_stack, i64(),
                    {state.ctx, buffer, ir_.getInt32((words - 1) * 8), kernel_stack_flags(state)});
}

llvm::Value *Lowering::unwind_user_stack(llvm::Value *buffer, uint32_t room, const ast::Expr &where,
                                         ClauseState &state) {
    if (!unwind_layout_) {
        // In the order of ustack.c's struct unwind_layout (codegen/runtime).
        static constexpr std::pair<std::string_view, std::string_view> kMembers[] = {
            {"vm_area_struct", "vm_start"},
            {"vm_area_struct", "vm_end"},
            {"vm_area_struct", "vm_flags"},
            {"vm_area_struct", "vm_pgoff"},
            {"vm_area_struct", "vm_file"},
            {"file", "f_inode"},
            {"inode", "i_ino"},
            {"inode", "i_sb"},
            {"super_block", "s_dev"}};
        std::vector<uint64_t> offsets;
        for (auto [type, member] : kMembers) {
            std::optional<uint64_t> offset = kernel_member_offset(where, type, member);
            if (!offset)
                return const64(0);
            offsets.push_back(*offset);
        }
        unwind_layout_ = debug_->define_global_variable(
            "dtx_unwind_layout", debug_->array_type(debug_->integer_type(8, false), offsets.size()),
            llvm::ConstantDataArray::get(context_, offsets), GlobalDataSection::ReadOnly);
        unwind_rows_map_ = debug_->define_map({.name = description_.unwind_rows_map,
                                               .type = BPF_MAP_TYPE_ARRAY,
                                               .max_entries = 1,
                                               .key = debug_->integer_type(4, false),
                                               .value = debug_->char_array_type(16),
                                               .map_flags = BPF_F_MMAPABLE});
        unwind_files_map_ =
            debug_->define_map({.name = description_.unwind_files_map,
                                .type = BPF_MAP_TYPE_HASH,
                                .max_entries = trace::kUnwindFiles,
                                .key = debug_->char_array_type(sizeof(trace::UnwindFileKey)),
                                .value = debug_->char_array_type(sizeof(trace::UnwindFile))});
        // ustack.c's struct recent_mappings, in each thread's storage;
        // the run-time library names the map.
        debug_->define_map({.name = "dtx_unwind_mappings",
                            .type = BPF_MAP_TYPE_TASK_STORAGE,
                            .max_entries = 0,
                            .key = debug_->integer_type(4, true),
                            .value = debug_->char_array_type(kRecentMappingsSize),
                            .map_flags = BPF_F_NO_PREALLOC});
        // The file mappings announced to user space (trace::MappingRecord).
        debug_->define_map({.name = "dtx_unwind_announced",
                            .type = BPF_MAP_TYPE_LRU_HASH,
                            .max_entries = kAnnouncedMappings,
                            .key = debug_->char_array_type(kAnnouncedMappingKeySize),
                            .value = debug_->integer_type(8, false)});
        description_.unwinds_user_stacks = true;
    }
    room = std::min(room, kUnwindFrames);
    if (room == 0)
        return const64(0);
    // One walk for all the clause's user stacks, taken once a firing (a
    // second would find the mappings the first looked up unavailable where
    // interrupts are off): each is copied from it. The walk's first word,
    // its room, is 0 until it is taken (set where the clause starts).
    if (!state.unwind_walk_offset) {
        state.unwind_walk_offset = lasting_scratch(state, kUnwindWalkSize);
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        llvm::BasicBlock &entry = state.function->getEntryBlock();
        ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        store64(const64(0), at(state.dctx, scratch_area_offset() + *state.unwind_walk_offset));
    }
    llvm::Value *walk = at(state.dctx, scratch_area_offset() + *state.unwind_walk_offset);
    llvm::Value *frames = at(walk, kUnwindFramesOffset);
    llvm::BasicBlock *before = ir_.GetInsertBlock();
    auto *take = llvm::BasicBlock::Create(context_, "take_user_stack", state.function);
    auto *taken = llvm::BasicBlock::Create(context_, "user_stack_taken", state.function);
    llvm::Value *walked_room = load64(walk);
    llvm::Value *walked_depth = load64(at(walk, kUnwindDepthOffset));
    // A walk with more room found the same frames, and maybe more.
    llvm::Value *reused = ir_.CreateSelect(ir_.CreateICmpULT(walked_depth, const64(room)),
                                           walked_depth, const64(room));
    ir_.CreateCondBr(ir_.CreateICmpUGE(walked_room, const64(room)), taken, take);
    ir_.SetInsertPoint(take);
    // What an earlier firing's walk left is not this stack's.
    zero(frames, room * 8);
    llvm::Value *depth = runtime_call("dtx_rt_unwind", {walk, const64(room)});
    llvm::BasicBlock *after_walk = ir_.GetInsertBlock();
    ir_.CreateBr(taken);
    ir_.SetInsertPoint(taken);
    llvm::PHINode *found = ir_.CreatePHI(i64(), 2, "user_stack_depth");
    found->addIncoming(reused, before);
    found->addIncoming(depth, after_walk);
    if (buffer)
        copy_bytes(buffer, frames, room * 8);
    return found;
}

void Lowering::emit_loader_watch() {
    // Only for the processes whose user addresses the program records.
    if (!processes_map_)
        return;
    llvm::IRBuilder<>::InsertPointGuard guard(ir_);
    const std::string name = "dtx_loader_watch";
    auto *function = llvm::Function::Create(llvm::FunctionType::get(i32(), {ptr()}, false),
                                            llvm::GlobalValue::ExternalLinkage, name, *module_);
    function->getArg(0)->setName("ctx");
    function_origins_[name] = {{}, "the program that watches the dynamic loader"};
    llvm::GlobalVariable *hold_map = debug_->define_map({.name = description_.loader_hold_map,
                                                         .type = BPF_MAP_TYPE_HASH,
                                                         .max_entries = 1,
                                                         .key = debug_->integer_type(4, false),
                                                         .value = debug_->integer_type(1, false)});
    debug_->define_program(*function, "uprobe", 0);
    auto *entry = llvm::BasicBlock::Create(context_, "entry", function);
    auto *stop = llvm::BasicBlock::Create(context_, "stop", function);
    auto *check = llvm::BasicBlock::Create(context_, "check", function);
    auto *tell = llvm::BasicBlock::Create(context_, "tell", function);
    auto *done = llvm::BasicBlock::Create(context_, "done", function);
    ir_.SetInsertPoint(entry);
    ir_.SetCurrentDebugLocation(debug_->location(*function, 0));
    llvm::Value *pid = ir_.CreateTrunc(current_process(), i32());
    llvm::Value *key = ir_.CreateAlloca(i32(), nullptr, "pid");
    llvm::Value *record = ir_.CreateAlloca(llvm::ArrayType::get(i64(), 2), nullptr, "record");
    ir_.CreateStore(pid, key);
    // A held process stops until its libraries' tables are built (no
    // record: dtx reads its mappings at the stop); one that could not be
    // stopped is told about as the others.
    llvm::Value *held = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {hold_map, key});
    ir_.CreateCondBr(ir_.CreateIsNull(held), check, stop);
    ir_.SetInsertPoint(stop);
    llvm::Value *sent =
        call_helper(BPF_FUNC_send_signal, i64(), {const64(uint64_t(trace::kLoaderHoldSignal))});
    ir_.CreateCondBr(ir_.CreateICmpEQ(sent, const64(0)), done, check);
    ir_.SetInsertPoint(check);
    llvm::Value *known = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {processes_map_, key});
    ir_.CreateCondBr(ir_.CreateIsNull(known), done, tell);
    ir_.SetInsertPoint(tell);
    // A trace::ProcessRecord.
    llvm::Value *cpu = call_helper(BPF_FUNC_get_smp_processor_id, i64(), {});
    ir_.CreateStore(ir_.CreateOr(const64(trace::kLoaderRecordEpid), ir_.CreateShl(cpu, 32)),
                    record);
    ir_.CreateStore(ir_.CreateZExt(pid, i64()), at(record, 8));
    call_helper(
        BPF_FUNC_ringbuf_output, i64(),
        {output_map_, record, const64(sizeof(trace::ProcessRecord)), const64(BPF_RB_FORCE_WAKEUP)});
    ir_.CreateBr(done);
    ir_.SetInsertPoint(done);
    ir_.CreateRet(ir_.getInt32(0));
    description_.loader_watch_program = name;
}

const sema::FunctionDescriptor *Lowering::function_of(const ast::Call &call) const {
    auto it = input_.checked.resolutions.find(&call);
    return it == input_.checked.resolutions.end() ? nullptr : it->second.function;
}

Value Lowering::lower_call(const ast::Call &call, bool statement, ClauseState &state) {
    const sema::FunctionDescriptor *function = function_of(call);
    if (!function || !function->lower) {
        error("D_CODEGEN", call.function_range,
              "internal error: '" + call.function + "' has no lowering");
        return {is_memory_value(call.type) ? string_literal("") : const64(0), call.type};
    }
    return function->lower(*this, call, state, statement);
}

trace::ActionDescription Lowering::action(const ast::Call &call, trace::ActionConsumer consume) {
    trace::ActionDescription action;
    const sema::FunctionDescriptor *function = function_of(call);
    action.function = function ? function->name : std::string_view();
    action.shows_firing = !function || (function->role != sema::ClauseRole::Commit &&
                                        function->role != sema::ClauseRole::Discard);
    action.consume = consume;
    action.location = call.range;
    return action;
}

Value Lowering::finish_action(ClauseState &state, trace::ActionDescription action,
                              const ast::Call &call) {
    record_action(state, std::move(action));
    return {const64(0), call.type};
}

uint32_t Lowering::reserve_record(ClauseState &state, uint32_t size) {
    uint32_t offset = state.record_offset;
    state.record_offset += align8(size);
    return offset;
}

llvm::Value *Lowering::record_space(ClauseState &state, const trace::ValueLayout &layout) {
    if (layout.offset + layout.size > record_area_limit_)
        return nullptr; // the clause is too large: reported once it is lowered
    return record_address(state, layout.offset);
}

void Lowering::record_value(ClauseState &state, trace::ActionDescription &action,
                            const ast::Expr &value) {
    record_lowered(state, action, lower(value, state));
}

void Lowering::record_lowered(ClauseState &state, trace::ActionDescription &action, Value v) {
    if (!v.value->getType()->isPointerTy())
        v.value = normalize(v.value, v.type);
    else if (sema::is_string(sema::resolve(v.type)))
        v.value = string_characters(state, v.value);
    trace::ValueLayout layout = layout_of(v.type, 0);
    layout.offset = reserve_record(state, layout.size);
    if (llvm::Value *to = record_space(state, layout))
        store_field(v, layout, to);
    action.values.push_back(layout);
    auto [size, align] = dtrace_value_bytes(layout, v.type, strsize());
    count_speculative_bytes(state, size, align);
}

trace::ActionDescription Lowering::formatted_action(const ast::Call &call, ClauseState &state,
                                                    trace::ActionConsumer consume) {
    trace::ActionDescription action = this->action(call, consume);
    const auto *format = call.arguments.at(0)->as<ast::StringLiteral>();
    action.format = format->value;
    action.parsed_format = trace::parse_format(format->value).format;
    for (size_t i = 1; i < call.arguments.size(); i++)
        record_value(state, action, *call.arguments[i]);
    return action;
}

uint32_t Lowering::aggregation_id(const ast::Expr &expr) {
    auto it = aggregations_.find(aggregation_name(expr));
    if (it == aggregations_.end()) {
        error("D_CODEGEN", expr.range, "internal error: unknown aggregation");
        return 0;
    }
    return it->second.description.id;
}

void Lowering::set_activity(trace::Activity activity) {
    llvm::StoreInst *store = ir_.CreateStore(ir_.getInt32(uint32_t(activity)), activity_);
    store->setVolatile(true);
}

std::optional<int64_t> Lowering::integer_constant(const ast::Expr &expr) const {
    return sema::integer_constant(expr, input_.checked);
}

llvm::Value *Lowering::path_offsets(const ast::Expr &at) {
    if (path_offsets_)
        return path_offsets_;
    // In the order of files.c's struct path_offsets (codegen/runtime).
    static constexpr std::pair<std::string_view, std::string_view> kMembers[] = {
        {"dentry", "d_parent"}, {"dentry", "d_name"},    {"vfsmount", "mnt_root"},
        {"mount", "mnt"},       {"mount", "mnt_parent"}, {"mount", "mnt_mountpoint"}};
    std::vector<uint64_t> offsets;
    for (auto [type, member] : kMembers) {
        std::optional<uint64_t> offset = kernel_member_offset(at, type, member);
        if (!offset)
            return nullptr;
        offsets.push_back(*offset);
    }
    // d_name is a struct qstr: the name is its member.
    std::optional<uint64_t> name = kernel_member_offset(at, "qstr", "name");
    if (!name)
        return nullptr;
    offsets[1] += *name;
    path_offsets_ = debug_->define_global_variable(
        "dtx_path_offsets", debug_->array_type(debug_->integer_type(8, false), kRuntimePathOffsets),
        llvm::ConstantDataArray::get(context_, offsets), GlobalDataSection::ReadOnly);
    return path_offsets_;
}

llvm::GlobalVariable *Lowering::speculations_map() {
    if (!speculations_map_) {
        // Slot 0 is never used: IDs start at 1.
        speculations_map_ =
            debug_->define_map({.name = description_.speculations_map,
                                .type = BPF_MAP_TYPE_ARRAY,
                                .max_entries = options_.nspec + 1,
                                .key = debug_->integer_type(4, false),
                                .value = debug_->char_array_type(sizeof(trace::SpeculationSlot))});
        description_.speculation_count = options_.nspec;
    }
    return speculations_map_;
}

void Lowering::undo_speculation(ClauseState &state) {
    llvm::Value *id = ir_.CreateAlignedLoad(
        ir_.getInt16Ty(), record_address(state, offsetof(trace::RecordHeader, speculation)),
        llvm::Align(2));
    llvm::Value *key = scratch(state, 8);
    ir_.CreateAlignedStore(ir_.CreateZExt(id, i32()), key, llvm::Align(4));
    llvm::Value *slot = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {speculations_map(), key});
    auto *undo = llvm::BasicBlock::Create(context_, "unspeculate", state.function);
    auto *done = llvm::BasicBlock::Create(context_, "unspeculated", state.function);
    ir_.CreateCondBr(
        ir_.CreateAnd(ir_.CreateICmpNE(id, ir_.getInt16(0)), ir_.CreateIsNotNull(slot)), undo,
        done);
    ir_.SetInsertPoint(undo);
    ir_.CreateAtomicRMW(llvm::AtomicRMWInst::Sub,
                        at(slot, offsetof(trace::SpeculationSlot, written)), const64(1),
                        llvm::MaybeAlign(8), llvm::AtomicOrdering::SequentiallyConsistent);
    ir_.CreateBr(done);
    ir_.SetInsertPoint(done);
}

void Lowering::set_record_speculation(ClauseState &state, llvm::Value *id) {
    state.speculates = true;
    ir_.CreateAlignedStore(ir_.CreateTrunc(id, ir_.getInt16Ty()),
                           record_address(state, offsetof(trace::RecordHeader, speculation)),
                           llvm::Align(2));
}

// The sizes are known here, so whether a value goes past specsize is too;
// only whether the record is speculative (speculate() found its
// speculation active) is left to the firing.
void Lowering::count_speculative_bytes(ClauseState &state, uint32_t size, uint32_t align) {
    align = std::max<uint32_t>(align, 1);
    state.speculative_size = (state.speculative_size + align - 1) / align * align + size;
    if (!state.speculates || state.past_specsize || state.speculative_size <= options_.specsize)
        return;
    state.past_specsize = true;
    llvm::Value *id = ir_.CreateAlignedLoad(
        ir_.getInt16Ty(), record_address(state, offsetof(trace::RecordHeader, speculation)),
        llvm::Align(2));
    auto *drop = llvm::BasicBlock::Create(context_, "speculative_drop", state.function);
    auto *rest = llvm::BasicBlock::Create(context_, "not_speculative", state.function);
    ir_.CreateCondBr(ir_.CreateICmpNE(id, ir_.getInt16(0)), drop, rest);
    ir_.SetInsertPoint(drop);
    undo_speculation(state); // its record will not come
    count_drop(trace::DropCounter::SpeculationSize, clause_end_without_record(state));
    ir_.SetInsertPoint(rest);
}

llvm::BasicBlock *Lowering::clause_end_without_record(ClauseState &state) {
    if (!state.end_without_record) {
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        state.end_without_record =
            llvm::BasicBlock::Create(context_, "end_without_record", state.function);
        ir_.SetInsertPoint(state.end_without_record);
        ir_.CreateRet(ir_.getInt32(state.part ? 2 : 0)); // a part tells the clause
    }
    return state.end_without_record;
}

bool Lowering::is_null_pointer(const ast::Expr &expr) const {
    std::optional<int64_t> value = integer_constant(expr);
    return value && *value == 0;
}

llvm::Value *Lowering::null_string() {
    if (!null_string_) {
        std::string zeros(align8(strsize()), '\0');
        null_string_ = debug_->define_global_variable(
            "dtx_null_string", debug_->char_array_type(zeros.size()),
            llvm::ConstantDataArray::getString(context_, zeros, false),
            GlobalDataSection::ReadOnly);
        null_string_->setAlignment(llvm::Align(8));
    }
    return null_string_;
}

llvm::Value *Lowering::lower_string(const ast::Expr &expr, ClauseState &state) {
    llvm::Value *string = lower(expr, state).value;
    if (!string->getType()->isPointerTy()) // a char *: the string it points to
        return string_at(state, string);
    return string_characters(state, string);
}

llvm::Value *Lowering::string_at(ClauseState &state, llvm::Value *address) {
    llvm::Value *buffer = scratch(state, uint32_t(strsize()));
    store64(const64(0), buffer);
    llvm::Value *result = call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                                      {buffer, ir_.getInt32(uint32_t(strsize())), address});
    fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, address);
    return buffer;
}

llvm::Value *Lowering::string_characters(ClauseState &state, llvm::Value *string) {
    if (string->getType()->isPointerTy())
        fault_if(state, ir_.CreateICmpEQ(string, null_string()), trace::FaultKind::BadAddress,
                 const64(0));
    return string;
}

Value Lowering::nullable_string(llvm::Value *buffer, llvm::Value *found, const sema::Type *type) {
    return {ir_.CreateSelect(ir_.CreateICmpNE(found, const64(0)), buffer, null_string()), type};
}

llvm::Value *Lowering::strtok_state(ClauseState &state) {
    if (!strtok_state_offset_) {
        error("D_CODEGEN", state.clause->range, "internal error: strtok() without its state");
        return scratch(state, 8);
    }
    return at(state.dctx, *strtok_state_offset_);
}

void Lowering::read_memory(ClauseState &state, llvm::Value *to, llvm::Value *length,
                           llvm::Value *address, bool user) {
    if (user)
        note_user_memory_read(state);
    else // bcopy() from scratch: within what the clause allocated
        check_scratch_read(state, address, length);
    llvm::Value *bounded = ir_.CreateTrunc(length, i32());
    llvm::Value *result =
        user ? read_user(state.sleepable, to, bounded, address)
             : call_helper(BPF_FUNC_probe_read_kernel, i64(), {to, bounded, address});
    fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, address);
}

llvm::Value *Lowering::read_user(bool sleepable, llvm::Value *to, llvm::Value *size,
                                 llvm::Value *address) {
    return call_helper(sleepable ? BPF_FUNC_copy_from_user : BPF_FUNC_probe_read_user, i64(),
                       {to, size, address});
}

llvm::Value *Lowering::address_number(ClauseState &state, llvm::Value *pointer) {
    // The verifier allows no arithmetic between two pointers, nor between a
    // pointer and an unknown number: stored and loaded back, a pointer is a
    // number. One word of the clause's scratch serves every conversion: each
    // is loaded back at once.
    if (!state.number_slot)
        state.number_slot = lasting_scratch(state, 8);
    llvm::Value *slot = at(state.dctx, scratch_area_offset() + *state.number_slot);
    if (pointer->getType()->isPointerTy())
        pointer = ir_.CreatePtrToInt(pointer, i64());
    llvm::StoreInst *stored = ir_.CreateAlignedStore(pointer, slot, llvm::Align(8));
    stored->setVolatile(true);
    llvm::LoadInst *number = ir_.CreateAlignedLoad(i64(), slot, llvm::Align(8));
    number->setVolatile(true);
    return number;
}

llvm::Value *Lowering::alloca_region(ClauseState &state) {
    if (!state.alloca_region) {
        state.alloca_region = lasting_scratch(state, 16 + 2 * options_.scratchsize);
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        llvm::Function *clause = state.clause_function;
        llvm::BasicBlock &entry = clause->getEntryBlock();
        ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        store64(const64(0), at(clause->getArg(0), scratch_area_offset() + *state.alloca_region));
    }
    return at(state.dctx, scratch_area_offset() + *state.alloca_region);
}

llvm::Value *Lowering::allocate(ClauseState &state, llvm::Value *&length, const ast::Expr *size) {
    const uint64_t most = options_.scratchsize;
    if (std::optional<int64_t> constant = size ? integer_constant(*size) : std::nullopt;
        constant && uint64_t(*constant) > most)
        error("D_ALLOCA_SIZE", size->range,
              "size " + std::to_string(*constant) + " is larger than the scratch space (" +
                  std::to_string(most) + " bytes, -x scratchsize)");
    llvm::Value *region = alloca_region(state);
    llvm::Value *top = opaque(load64(region));
    length = opaque(length);
    fault_if(state, ir_.CreateICmpUGT(length, const64(most)), trace::FaultKind::NoScratch, nullptr);
    fault_if(state, ir_.CreateICmpUGT(top, const64(most)), trace::FaultKind::NoScratch, nullptr);
    llvm::Value *end = ir_.CreateAdd(top, length);
    fault_if(state, ir_.CreateICmpUGT(end, const64(most)), trace::FaultKind::NoScratch, nullptr);
    llvm::Value *memory = at(at(region, 8), top);
    if (!zeros_) {
        std::string zeros(most, '\0');
        zeros_ = debug_->define_global_variable(
            "dtx_alloca_zeros", debug_->char_array_type(zeros.size()),
            llvm::ConstantDataArray::getString(context_, zeros, false),
            GlobalDataSection::ReadOnly);
        zeros_->setAlignment(llvm::Align(8));
    }
    call_helper(BPF_FUNC_probe_read_kernel, i64(),
                {memory, ir_.CreateTrunc(length, i32()), zeros_});
    store64(ir_.CreateAnd(ir_.CreateAdd(end, const64(7)), const64(~uint64_t{7})), region);
    return memory;
}

llvm::Value *Lowering::scratch_pointer(ClauseState &state, llvm::Value *address,
                                       llvm::Value *&length) {
    auto *constant_length = llvm::dyn_cast<llvm::ConstantInt>(length);
    if (!globals_ || !constant_length || constant_length->getZExtValue() > globals_size_)
        return alloca_pointer(state, address, length);
    // A store of a known size may also go into the program's global
    // variables (through &g.member), as in dtrace.
    const uint64_t size = constant_length->getZExtValue();
    llvm::Value *offset =
        ir_.CreateSub(address_number(state, address), address_number(state, globals_));
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *global = llvm::BasicBlock::Create(context_, "store_global", function);
    auto *scratch_store = llvm::BasicBlock::Create(context_, "store_scratch", function);
    auto *join = llvm::BasicBlock::Create(context_, "store_place", function);
    ir_.CreateCondBr(ir_.CreateICmpULE(offset, const64(globals_size_ - size)), global,
                     scratch_store);
    ir_.SetInsertPoint(global);
    llvm::Value *bounded = opaque(offset);
    fault_if(state, ir_.CreateICmpUGT(bounded, const64(globals_size_ - size)),
             trace::FaultKind::BadAddress, address);
    llvm::Value *in_globals = at(globals_, bounded);
    llvm::BasicBlock *global_end = ir_.GetInsertBlock();
    ir_.CreateBr(join);
    ir_.SetInsertPoint(scratch_store);
    llvm::Value *scratch_length = length;
    llvm::Value *in_scratch = alloca_pointer(state, address, scratch_length);
    llvm::BasicBlock *scratch_end = ir_.GetInsertBlock();
    ir_.CreateBr(join);
    ir_.SetInsertPoint(join);
    llvm::PHINode *place = ir_.CreatePHI(ptr(), 2);
    place->addIncoming(in_globals, global_end);
    place->addIncoming(in_scratch, scratch_end);
    llvm::PHINode *bound = ir_.CreatePHI(i64(), 2);
    bound->addIncoming(const64(size), global_end);
    bound->addIncoming(scratch_length, scratch_end);
    length = bound;
    return place;
}

llvm::Value *Lowering::alloca_pointer(ClauseState &state, llvm::Value *address,
                                      llvm::Value *&length) {
    // Each of offset and length is checked against scratchsize on its own,
    // which is what the verifier sees, then against what is allocated.
    const uint64_t most = options_.scratchsize;
    llvm::Value *region = alloca_region(state);
    llvm::Value *data = at(region, 8);
    llvm::Value *top = load64(region);
    llvm::Value *offset =
        opaque(ir_.CreateSub(address_number(state, address), address_number(state, data)));
    length = opaque(length);
    fault_if(state, ir_.CreateICmpUGE(offset, const64(most)), trace::FaultKind::BadAddress,
             address);
    fault_if(state, ir_.CreateICmpUGT(length, const64(most)), trace::FaultKind::BadAddress,
             address);
    fault_if(state, ir_.CreateICmpUGT(ir_.CreateAdd(offset, length), top),
             trace::FaultKind::BadAddress, address);
    return at(data, offset);
}

bool Lowering::program_allocates() {
    if (!program_allocates_) {
        program_allocates_ = false;
        for (const auto &[expr, resolution] : input_.checked.resolutions)
            if (resolution.function &&
                (resolution.function->name == "alloca" || resolution.function->name == "copyin"))
                program_allocates_ = true;
    }
    return *program_allocates_;
}

void Lowering::check_scratch_read(ClauseState &state, llvm::Value *address, llvm::Value *size) {
    if (!program_allocates())
        return;
    llvm::Value *number = address_number(state, address);
    llvm::Value *scratch_start = address_number(state, at(state.dctx, scratch_area_offset()));
    llvm::Value *in_scratch =
        ir_.CreateICmpULT(ir_.CreateSub(number, scratch_start), const64(scratch_area_limit_));
    llvm::Value *allowed = ir_.getFalse();
    if (state.alloca_region) {
        llvm::Value *region = at(state.dctx, scratch_area_offset() + *state.alloca_region);
        llvm::Value *offset = ir_.CreateSub(number, address_number(state, at(region, 8)));
        llvm::Value *top = load64(region);
        allowed = ir_.CreateAnd(ir_.CreateICmpULT(offset, top),
                                ir_.CreateICmpULE(ir_.CreateAdd(offset, size), top));
    }
    fault_if(state, ir_.CreateAnd(in_scratch, ir_.CreateNot(allowed)), trace::FaultKind::BadAddress,
             number);
}

void Lowering::write_user(ClauseState &state, llvm::Value *address, llvm::Value *from,
                          llvm::Value *length) {
    llvm::Value *result = call_helper(BPF_FUNC_probe_write_user, i64(),
                                      {address, from, ir_.CreateTrunc(length, i32())});
    fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, address);
}

std::optional<uint64_t> Lowering::kernel_member_offset(const ast::Expr &at, std::string_view type,
                                                       std::string_view member) {
    std::optional<uint64_t> offset;
    if (options_.kernel_member_offset)
        offset = options_.kernel_member_offset(type, member);
    if (!offset)
        error("D_CODEGEN", at.range,
              "this needs struct " + std::string(type) + "'s member " + std::string(member) +
                  " from the kernel's BTF (/sys/kernel/btf/vmlinux), which does not "
                  "have it");
    return offset;
}

void Lowering::record_printed_value(const ast::Expr &value, uint32_t size, llvm::Value *to,
                                    ClauseState &state) {
    // A struct, union or array behind a pointer (`*p`, `p->member`) is read
    // from the kernel straight into the record, not through scratch.
    llvm::Value *address = nullptr;
    if (is_memory_value(value.type) && !sema::is_string(sema::resolve(value.type))) {
        if (auto *u = value.as<ast::Unary>(); u && u->op == ast::UnaryOp::Deref &&
                                              sema::is_pointer(sema::resolve(u->operand->type))) {
            address = lower_scalar(*u->operand, state);
        } else if (auto *m = value.as<ast::Member>(); m && m->arrow) {
            const sema::Type *pointer = sema::resolve(m->base->type);
            std::optional<sema::Member> member =
                pointer ? sema::find_member(sema::resolve(pointer->element), m->member)
                        : std::nullopt;
            if (member && !member->is_bit_field())
                address =
                    ir_.CreateAdd(lower_scalar(*m->base, state), const64(member->byte_offset()));
        }
    }
    if (address) {
        llvm::Value *result =
            call_helper(BPF_FUNC_probe_read_kernel, i64(), {to, ir_.getInt32(size), address});
        fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress,
                 address);
        return;
    }
    Value v = lower(value, state);
    if (v.value->getType()->isPointerTy()) {
        copy_bytes(to, v.value, size);
        return;
    }
    store_integer(normalize(v.value, value.type), to, value.type);
}

void Lowering::record_pointee(const ast::Expr &pointer, uint32_t size, llvm::Value *to,
                              ClauseState &state) {
    llvm::Value *address = lower_scalar(pointer, state);
    store64(address, to);
    check_scratch_read(state, address, const64(size));
    llvm::Value *result =
        call_helper(BPF_FUNC_probe_read_kernel, i64(), {at(to, 8), ir_.getInt32(size), address});
    fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, address);
}

uint32_t Lowering::printed_pointee(const sema::Type *pointer) {
    trace::PrintedType described = description_.printed_types.at(printed_type(pointer));
    described.with_pointee = true;
    described.element = printed_type(sema::resolve(pointer)->element);
    description_.printed_types.push_back(std::move(described));
    return uint32_t(description_.printed_types.size() - 1);
}

// A D type as print() shows it. Types are described once per program, so a
// struct printed by several actions, or met again inside another, is one entry.
uint32_t Lowering::printed_type(const sema::Type *type) {
    if (auto it = printed_types_.find(type); it != printed_types_.end())
        return it->second;
    using Kind = trace::PrintedType::Kind;
    const sema::Type *t = sema::resolve(type);
    trace::PrintedType described;
    described.name = type->name;
    // An anonymous struct or union is shown by its keyword alone.
    for (size_t at; (at = described.name.find(" <anonymous>")) != std::string::npos;)
        described.name.erase(at, 12);
    described.size = uint32_t(t->size);
    described.is_signed = t->is_signed;
    switch (t->kind) {
    case sema::TypeKind::Integer:
        // char and signed char print as characters, as C's character types.
        described.kind = t->size == 1 && t->rank == 1 && t->is_signed &&
                                 t->symbolization == sema::Symbolization::None
                             ? Kind::Char
                             : Kind::Integer;
        break;
    case sema::TypeKind::Float:
        described.kind = Kind::Float;
        break;
    case sema::TypeKind::Enum:
        described.kind = Kind::Enum;
        for (const sema::EnumValue &e : t->enumerators)
            described.enumerators.emplace_back(e.name, e.value);
        break;
    case sema::TypeKind::Pointer:
        described.kind = Kind::Pointer;
        break;
    case sema::TypeKind::String:
        described.kind = Kind::String;
        described.size = uint32_t(strsize());
        break;
    case sema::TypeKind::Array:
        described.kind = Kind::Array;
        described.count = t->array_count;
        break;
    case sema::TypeKind::Struct:
        described.kind = Kind::Struct;
        break;
    case sema::TypeKind::Union:
        described.kind = Kind::Union;
        break;
    default: // nothing the checker lets print() show
        described.kind = Kind::Integer;
        break;
    }
    const uint32_t index = uint32_t(description_.printed_types.size());
    description_.printed_types.push_back(std::move(described));
    printed_types_[type] = index;
    // Elements and members after the entry exists: vectors may grow meanwhile.
    if (t->kind == sema::TypeKind::Array) {
        uint32_t element = printed_type(t->element);
        description_.printed_types[index].element = element;
    } else if (t->kind == sema::TypeKind::Struct || t->kind == sema::TypeKind::Union) {
        std::vector<trace::PrintedType::Member> members;
        for (const sema::Member &m : t->members)
            members.push_back({m.name, printed_type(m.type), m.bit_offset, m.bit_width});
        description_.printed_types[index].members = std::move(members);
    }
    return index;
}

// ptr dtx_agg_insert(map, key, initial[, spill]): the entry made for `key`
// with the initial state in `map`, else in the spill map (see
// lower_storage.cpp); null, the drop counted, when neither has room. One
// function for every keyed aggregation, called only for a new key: the
// kernel rewrites each map lookup at load time, in time growing with the
// program, and a new key is rare.
llvm::Value *Lowering::insert_aggregation_key(const AggregationStorage &storage, llvm::Value *key) {
    const bool spills = storage.spill_map != nullptr;
    llvm::Function *&insert = aggregation_inserts_[spills];
    if (!insert) {
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        std::vector<llvm::Type *> parameters{ptr(), ptr(), ptr()};
        std::vector<std::string> names{"map", "key", "initial"};
        if (spills) {
            parameters.push_back(ptr());
            names.push_back("spill");
        }
        insert = new_function(spills ? "dtx_agg_insert_spill" : "dtx_agg_insert",
                              llvm::FunctionType::get(ptr(), parameters, false), 0, names);
        llvm::Value *map = insert->getArg(0), *at_key = insert->getArg(1),
                    *initial = insert->getArg(2);
        auto *full = llvm::BasicBlock::Create(context_, "agg_full", insert);
        call_helper(BPF_FUNC_map_update_elem, i64(), {map, at_key, initial, const64(BPF_NOEXIST)});
        llvm::Value *created = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {map, at_key});
        if (spills) {
            // Not allocated now: the spill map takes the key.
            llvm::Value *spill = insert->getArg(3);
            auto *made = llvm::BasicBlock::Create(context_, "agg_entry", insert);
            auto *lookup = llvm::BasicBlock::Create(context_, "agg_spill", insert);
            auto *spilled = llvm::BasicBlock::Create(context_, "agg_spilled", insert);
            auto *add = llvm::BasicBlock::Create(context_, "agg_spill_new", insert);
            ir_.CreateCondBr(ir_.CreateIsNull(created), lookup, made);
            ir_.SetInsertPoint(made);
            ir_.CreateRet(created);
            ir_.SetInsertPoint(lookup);
            created = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {spill, at_key});
            ir_.CreateCondBr(ir_.CreateIsNull(created), add, spilled);
            ir_.SetInsertPoint(spilled);
            ir_.CreateRet(created);
            ir_.SetInsertPoint(add);
            call_helper(BPF_FUNC_map_update_elem, i64(),
                        {spill, at_key, initial, const64(BPF_NOEXIST)});
            created = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {spill, at_key});
        }
        auto *made = llvm::BasicBlock::Create(context_, "agg_made", insert);
        ir_.CreateCondBr(ir_.CreateIsNull(created), full, made);
        ir_.SetInsertPoint(made);
        ir_.CreateRet(created);
        ir_.SetInsertPoint(full);
        auto *counted = llvm::BasicBlock::Create(context_, "agg_dropped", insert);
        count_drop(trace::DropCounter::Aggregation, counted);
        ir_.SetInsertPoint(counted);
        ir_.CreateRet(llvm::ConstantPointerNull::get(ir_.getPtrTy()));
    }
    std::vector<llvm::Value *> args{storage.map, key, storage.initial_value};
    if (spills)
        args.push_back(storage.spill_map);
    return ir_.CreateCall(insert, args);
}

void Lowering::lower_aggregation(const ast::Assign &assign, ClauseState &state) {
    const ast::Expr *target = assign.target.get();
    const std::vector<ast::ExprPtr> *keys = nullptr;
    if (auto *sub = target->as<ast::Subscript>()) {
        keys = &sub->indices;
        target = sub->base.get();
    }
    auto found = aggregations_.find(aggregation_name(*target));
    auto *call = assign.value->as<ast::Call>();
    if (found == aggregations_.end() || !call) {
        error("D_CODEGEN", assign.range, "internal error: unknown aggregation");
        return;
    }
    AggregationStorage &storage = found->second;
    const trace::AggregationDescription &d = storage.description;

    // The key: fields at the offsets the description gives, after the id
    // word in a shared map, zero elsewhere.
    llvm::Value *key;
    if (d.single_slot) {
        // The slot, on the stack, where the verifier (Linux 6.14 and later)
        // sees a constant key and knows that the lookup cannot fail. One slot
        // of stack for all the clause's aggregations: LLVM would not reuse
        // the stack of one alloca per aggregation, and 512 bytes are soon spent.
        if (!state.slot_key) {
            llvm::IRBuilder<>::InsertPointGuard guard(ir_);
            llvm::BasicBlock &entry = state.function->getEntryBlock();
            ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
            state.slot_key = ir_.CreateAlloca(i32(), nullptr, "slot");
        }
        key = state.slot_key;
        ir_.CreateStore(ir_.getInt32(d.map_index), key);
    } else {
        key = zeroed_scratch(state, d.key_size);
        if (d.shared_map)
            store64(const64(uint64_t(d.map_index) << 32), key);
    }
    if (keys)
        for (size_t i = 0; i < keys->size() && i < d.key_fields.size(); i++) {
            Value v = lower(*(*keys)[i], state);
            const sema::Type *key_type = storage.info->key_types[i];
            if (!v.value->getType()->isPointerTy())
                v.value = normalize(v.value, v.type);
            store_field({v.value, key_type}, d.key_fields[i], at(key, d.key_fields[i].offset));
        }

    // The value and the weight (the quantize family's optional last argument).
    const sema::FunctionDescriptor &aggregating = *storage.info->function;
    llvm::Value *value = const64(0);
    llvm::Value *increment = const64(1);
    if (!call->arguments.empty())
        value = lower_scalar(argument(*call, 0), state);
    if (aggregating.weight_argument >= 0 &&
        size_t(aggregating.weight_argument) < call->arguments.size())
        increment = lower_scalar(argument(*call, size_t(aggregating.weight_argument)), state);

    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    llvm::Value *entry = map_lookup(storage.map, key);
    auto *update = llvm::BasicBlock::Create(context_, "agg_update", function);
    auto *done = llvm::BasicBlock::Create(context_, "agg_done", function);
    llvm::Value *words = entry;
    if (d.single_slot) {
        ir_.CreateCondBr(ir_.CreateIsNull(entry), done, update);
        ir_.SetInsertPoint(update);
        store64(const64(1), at(words, trace::data_word_count(d.function) * 8)); // has data
    } else {
        // A new key starts from the initial state; a full map drops the update.
        auto *create = llvm::BasicBlock::Create(context_, "agg_new", function);
        llvm::BasicBlock *lookup_block = ir_.GetInsertBlock();
        ir_.CreateCondBr(ir_.CreateIsNull(entry), create, update);
        ir_.SetInsertPoint(create);
        llvm::Value *created = insert_aggregation_key(storage, key);
        llvm::BasicBlock *create_end = ir_.GetInsertBlock();
        ir_.CreateCondBr(ir_.CreateIsNull(created), done, update);

        ir_.SetInsertPoint(update);
        llvm::PHINode *phi = ir_.CreatePHI(ptr(), 2);
        phi->addIncoming(entry, lookup_block);
        phi->addIncoming(created, create_end);
        words = phi;
    }
    aggregating.aggregate(*this, AggregationUpdate{d, words, value, increment, done, state});
    ir_.CreateBr(done);
    ir_.SetInsertPoint(done);
}

} // namespace dtx::codegen
