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

constexpr uint32_t kRecordMaskOffset = sizeof(trace::RecordHeader);

const ast::Expr &argument(const ast::Call &call, size_t i) {
    return *call.arguments.at(i);
}

std::string aggregation_name(const ast::Expr &expr) {
    if (auto *agg = expr.as<ast::Aggregation>())
        return agg->name;
    return "";
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
    uint32_t bit = state.action_count++;
    if (bit >= 64) {
        error(action.location, "a clause may record at most 64 actions");
        bit = 63;
    }
    llvm::Value *mask_address = record_address(state, kRecordMaskOffset);
    store64(ir_.CreateOr(load64(mask_address), const64(uint64_t{1} << bit)), mask_address);
    state.description->actions.push_back(std::move(action));
    return bit;
}

// Fills `buffer` with the current kernel stack (frames * 8 bytes, zero after
// the last frame). Without a program context there is no stack to take.
llvm::Value *Lowering::stack_flags(bool user, ClauseState &state) {
    if (user)
        return const64(BPF_F_USER_STACK);
    llvm::Value *skip = load64(at(state.dctx, ClauseContextLayout::stack_skip));
    return ir_.CreateAnd(skip, const64(BPF_F_SKIP_FIELD_MASK));
}

llvm::Value *Lowering::stack_into(llvm::Value *buffer, uint32_t frames, bool user,
                                  ClauseState &state) {
    zero(buffer, frames * 8);
    if (!state.ctx)
        return buffer;
    call_helper(BPF_FUNC_get_stack, i64(),
                {state.ctx, buffer, ir_.getInt32((frames - 1) * 8), stack_flags(user, state)});
    return buffer;
}

uint32_t Lowering::stack_depth(const ast::Call &call) {
    bool user = call.function == "ustack";
    uint32_t frames = user ? options_.ustackframes : options_.stackframes;
    if (!call.arguments.empty())
        if (auto n = sema::integer_constant(argument(call, 0), input_.checked))
            frames = uint32_t(std::clamp<int64_t>(*n, 1, 127));
    return frames;
}

// A user stack starts with its process's pid (trace::ValueKind::UserStack),
// which the consumer is told about while the process lives.
void Lowering::capture_stack(llvm::Value *buffer, uint32_t words, bool user, ClauseState &state) {
    if (user) {
        announce_process();
        store64(current_process(), buffer);
        buffer = at(buffer, 8);
    }
    stack_into(buffer, words, user, state);
}

Value Lowering::lower_call(const ast::Call &call, bool statement, ClauseState &state) {
    const std::string &name = call.function;
    const sema::Type *type = call.type;
    auto record_value = [&](trace::ActionDescription &action, const ast::Expr &arg) {
        Value v = lower(arg, state);
        if (!v.value->getType()->isPointerTy())
            v.value = normalize(v.value, v.type);
        trace::ValueLayout layout = layout_of(v.type, state.record_offset);
        state.record_offset += layout.size;
        if (state.record_offset <= record_area_limit_)
            store_field(v, layout, record_address(state, layout.offset));
        action.values.push_back(layout);
    };
    auto aggregation_id = [&](const ast::Expr &arg) -> uint32_t {
        auto it = aggregations_.find(aggregation_name(arg));
        if (it == aggregations_.end()) {
            error(arg.range, "internal error: unknown aggregation");
            return 0;
        }
        return it->second.description.id;
    };

    // --- actions ------------------------------------------------------------
    if (name == "trace" || name == "printf" || name == "printa" || name == "exit" ||
        name == "clear" || name == "trunc" || name == "normalize" || name == "denormalize" ||
        name == "setopt" || name == "print" ||
        ((name == "stack" || name == "ustack") && statement)) {
        trace::ActionDescription action;
        action.location = call.range;
        if (name == "trace") {
            action.kind = trace::ActionKind::Trace;
            record_value(action, argument(call, 0));
        } else if (name == "printf") {
            action.kind = trace::ActionKind::Printf;
            auto *format = argument(call, 0).as<ast::StringLiteral>();
            if (!format) {
                error(call.range, "printf() needs a constant format string");
                return {const64(0), type};
            }
            action.format = format->value;
            trace::FormatParseResult parsed = trace::parse_format(format->value);
            action.parsed_format = parsed.format;
            for (size_t i = 1; i < call.arguments.size(); i++)
                record_value(action, argument(call, i));
        } else if (name == "printa") {
            action.kind = trace::ActionKind::Printa;
            size_t first = 0;
            if (auto *format = argument(call, 0).as<ast::StringLiteral>()) {
                action.format = format->value;
                action.parsed_format = trace::parse_format(format->value).format;
                first = 1;
            }
            for (size_t i = first; i < call.arguments.size(); i++)
                action.aggregations.push_back(aggregation_id(argument(call, i)));
        } else if (name == "exit") {
            action.kind = trace::ActionKind::Exit;
            record_value(action, argument(call, 0));
            // Nothing but END runs after exit(), as in DTrace.
            llvm::StoreInst *store = ir_.CreateStore(
                ir_.getInt32(uint32_t(trace::Activity::Draining)), activity_);
            store->setVolatile(true);
        } else if (name == "stack" || name == "ustack") {
            // ustack(n, strsize): strsize is for jstack()'s strings; ignored.
            action.kind = trace::ActionKind::Stack;
            bool user = name == "ustack";
            uint32_t frames = stack_depth(call);
            trace::ValueLayout layout;
            layout.kind = user ? trace::ValueKind::UserStack : trace::ValueKind::KernelStack;
            layout.offset = state.record_offset;
            layout.size = (user ? 8 : 0) + (frames + 1) * 8;
            state.record_offset += layout.size;
            if (state.record_offset <= record_area_limit_)
                capture_stack(record_address(state, layout.offset), frames + 1, user, state);
            action.values.push_back(layout);
        } else if (name == "print") {
            // The value's own bytes; the consumer lays them out by its type.
            action.kind = trace::ActionKind::Print;
            const ast::Expr &value = argument(call, 0);
            const sema::Type *t = sema::resolve(value.type);
            trace::ValueLayout layout;
            layout.kind = trace::ValueKind::Bytes;
            layout.offset = state.record_offset;
            layout.size = uint32_t(sema::is_string(t) ? strsize() : t->size);
            state.record_offset += align8(layout.size);
            action.printed_type = printed_type(value.type);
            if (state.record_offset <= record_area_limit_)
                record_printed_value(value, layout.size, record_address(state, layout.offset),
                                     state);
            action.values.push_back(layout);
        } else if (name == "setopt") {
            action.kind = trace::ActionKind::Setopt;
            auto *option = argument(call, 0).as<ast::StringLiteral>();
            auto *value = call.arguments.size() > 1 ? argument(call, 1).as<ast::StringLiteral>()
                                                    : nullptr;
            if (!option || (call.arguments.size() > 1 && !value)) {
                error(call.range, "setopt() needs constant strings");
                return {const64(0), type};
            }
            action.option_name = option->value;
            action.option_value = value ? value->value : "";
        } else {
            action.aggregations.push_back(aggregation_id(argument(call, 0)));
            if (name == "clear") {
                action.kind = trace::ActionKind::Clear;
            } else if (name == "denormalize") {
                action.kind = trace::ActionKind::Denormalize;
            } else if (name == "normalize") {
                action.kind = trace::ActionKind::Normalize;
                record_value(action, argument(call, 1));
            } else {
                action.kind = trace::ActionKind::Trunc;
                if (call.arguments.size() > 1)
                    record_value(action, argument(call, 1));
            }
        }
        record_action(state, std::move(action));
        return {const64(0), type};
    }

    // --- subroutines ----------------------------------------------------------
    auto string_arg = [&](size_t i) { return lower(argument(call, i), state).value; };
    auto int_arg = [&](size_t i) { return lower_scalar(argument(call, i), state); };
    auto optional_int = [&](size_t i) {
        return call.arguments.size() > i ? int_arg(i) : const64(uint64_t(kRuntimeOmittedArgument));
    };
    auto string_result = [&]() { return scratch(state, uint32_t(strsize())); };
    llvm::Value *strsize_value = const64(strsize());

    if (name == "strlen")
        return {runtime_call("dtx_rt_strlen", {string_arg(0), strsize_value}), type};
    if (name == "strjoin") {
        llvm::Value *a = string_arg(0), *b = string_arg(1), *dst = string_result();
        runtime_call("dtx_rt_strjoin", {dst, a, b, strsize_value});
        return {dst, type};
    }
    if (name == "substr") {
        llvm::Value *s = string_arg(0), *index = int_arg(1), *length = optional_int(2);
        llvm::Value *dst = string_result();
        runtime_call("dtx_rt_substr", {dst, s, index, length, strsize_value});
        return {dst, type};
    }
    if (name == "index" || name == "rindex") {
        llvm::Value *s = string_arg(0), *sub = string_arg(1), *start = optional_int(2);
        return {normalize(runtime_call("dtx_rt_" + name, {s, sub, start, strsize_value}), type),
                type};
    }
    if (name == "strchr" || name == "strrchr" || name == "strstr") {
        llvm::Value *s = string_arg(0);
        llvm::Value *what = name == "strstr" ? string_arg(1) : int_arg(1);
        llvm::Value *dst = string_result();
        runtime_call("dtx_rt_" + name, {dst, s, what, strsize_value});
        return {dst, type};
    }
    if (name == "basename" || name == "dirname" || name == "toupper" || name == "tolower") {
        llvm::Value *s = string_arg(0), *dst = string_result();
        runtime_call("dtx_rt_" + name, {dst, s, strsize_value});
        return {dst, type};
    }
    if (name == "lltostr") {
        llvm::Value *value = int_arg(0);
        llvm::Value *base = call.arguments.size() > 1 ? int_arg(1) : const64(10);
        llvm::Value *dst = string_result();
        runtime_call("dtx_rt_lltostr", {dst, value, base, strsize_value});
        return {dst, type};
    }
    if (name == "copyinstr") {
        llvm::Value *address = int_arg(0);
        llvm::Value *dst = string_result();
        store64(const64(0), dst);
        llvm::Value *limit = ir_.getInt32(uint32_t(strsize()));
        if (call.arguments.size() > 1) {
            // At most n bytes, and never more than strsize - 1 plus the NUL.
            llvm::Value *n = ir_.CreateAdd(int_arg(1), const64(1));
            n = ir_.CreateSelect(ir_.CreateICmpULT(n, const64(strsize())), n, const64(strsize()));
            limit = ir_.CreateTrunc(n, i32());
        }
        llvm::Value *result =
            call_helper(BPF_FUNC_probe_read_user_str, i64(), {dst, limit, address});
        fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress,
                 address);
        return {dst, type};
    }
    if (name == "copyin") {
        llvm::Value *address = int_arg(0);
        llvm::Value *length = int_arg(1);
        uint32_t limit = 4096;
        llvm::Value *dst = scratch(state, limit);
        length = ir_.CreateSelect(ir_.CreateICmpULE(length, const64(limit)), length, const64(limit));
        llvm::Value *result = call_helper(BPF_FUNC_probe_read_user, i64(),
                                          {dst, ir_.CreateTrunc(length, i32()), address});
        fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress,
                 address);
        return {ir_.CreatePtrToInt(dst, i64()), type};
    }
    if (name == "rand")
        return {ir_.CreateZExt(call_helper(BPF_FUNC_get_prandom_u32, i32(), {}), i64()), type};
    if (name == "htons" || name == "ntohs" || name == "htonl" || name == "ntohl" ||
        name == "htonll" || name == "ntohll") {
        unsigned bits = name.back() == 's' ? 16 : name.ends_with("ll") ? 64 : 32;
        llvm::Value *value = ir_.CreateTrunc(int_arg(0), ir_.getIntNTy(bits));
        llvm::Value *swapped = ir_.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value);
        return {ir_.CreateZExt(swapped, i64()), type};
    }
    // Symbol addresses are integers until a record or key holds them (store_field).
    if (name == "func" || name == "sym" || name == "mod" || name == "usym" || name == "ufunc" ||
        name == "umod" || name == "uaddr")
        return {int_arg(0), type};
    if (name == "stack" || name == "ustack") { // as a value: an aggregation key
        bool user = name == "ustack";
        uint32_t bytes = stored_size(type);
        llvm::Value *buffer = scratch(state, bytes);
        zero(buffer, bytes);
        uint32_t room = (bytes - (user ? 8 : 0)) / 8;
        capture_stack(buffer, std::min(stack_depth(call) + 1, room), user, state);
        return {buffer, type};
    }
    error(call.function_range,
          "'" + name + "' is not supported by this version of dtx");
    return {is_memory_value(type) ? string_literal("") : const64(0), type};
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

namespace {

uint64_t power(uint64_t base, unsigned exponent) {
    uint64_t result = 1;
    while (exponent--)
        result *= base;
    return result;
}

} // namespace

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
        error(assign.range, "internal error: unknown aggregation");
        return;
    }
    AggregationStorage &storage = found->second;
    const trace::AggregationDescription &d = storage.description;

    // The key: fields at the offsets the description gives, zero elsewhere.
    llvm::Value *key;
    if (d.single_slot) {
        // Slot 0, on the stack, where the verifier (Linux 6.14 and later) sees
        // a constant key and knows that the lookup cannot fail.
        {
            llvm::IRBuilder<>::InsertPointGuard guard(ir_);
            llvm::BasicBlock &entry = state.function->getEntryBlock();
            ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
            key = ir_.CreateAlloca(i32(), nullptr, "slot");
        }
        ir_.CreateStore(ir_.getInt32(0), key);
    } else {
        key = scratch(state, d.key_size);
        zero(key, d.key_size);
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
    llvm::Value *value = const64(0);
    llvm::Value *increment = const64(1);
    using K = trace::AggregationKind;
    if (d.function.kind != K::Count && !call->arguments.empty())
        value = lower_scalar(argument(*call, 0), state);
    size_t weight_index = d.function.kind == K::Quantize     ? 1
                          : d.function.kind == K::Lquantize  ? 4
                          : d.function.kind == K::Llquantize ? 5
                                                             : 99;
    if (d.function.kind == K::Lquantize && call->arguments.size() == 4 &&
        !sema::integer_constant(argument(*call, 3), input_.checked))
        weight_index = 3;
    if (weight_index < call->arguments.size())
        increment = lower_scalar(argument(*call, weight_index), state);

    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    llvm::Value *entry = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {storage.map, key});
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
        auto *full = llvm::BasicBlock::Create(context_, "agg_full", function);
        llvm::BasicBlock *lookup_block = ir_.GetInsertBlock();
        ir_.CreateCondBr(ir_.CreateIsNull(entry), create, update);
        ir_.SetInsertPoint(create);
        call_helper(BPF_FUNC_map_update_elem, i64(),
                    {storage.map, key, storage.initial_value, const64(BPF_NOEXIST)});
        llvm::Value *created = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {storage.map, key});
        llvm::BasicBlock *create_end = ir_.GetInsertBlock();
        ir_.CreateCondBr(ir_.CreateIsNull(created), full, update);

        ir_.SetInsertPoint(full);
        count_drop(state, trace::DropCounter::Aggregation, done);

        ir_.SetInsertPoint(update);
        llvm::PHINode *phi = ir_.CreatePHI(ptr(), 2);
        phi->addIncoming(entry, lookup_block);
        phi->addIncoming(created, create_end);
        words = phi;
    }
    auto word = [&](unsigned i) { return at(words, uint64_t(i) * 8); };
    auto add_to = [&](unsigned i, llvm::Value *v) {
        store64(ir_.CreateAdd(load64(word(i)), v), word(i));
    };
    llvm::Value *zero64 = const64(0);
    switch (d.function.kind) {
    case K::Count:
        add_to(0, const64(1));
        break;
    case K::Sum:
        add_to(0, value);
        break;
    case K::Avg:
        add_to(0, const64(1));
        add_to(1, value);
        break;
    case K::Min:
    case K::Max: {
        // The word is kept XORed with the identity (trace::convert_kernel_words).
        llvm::Value *bias = const64(d.function.kind == K::Min ? uint64_t(INT64_MAX)
                                                               : uint64_t(INT64_MIN));
        llvm::Value *current = ir_.CreateXor(load64(word(0)), bias);
        llvm::Value *better = d.function.kind == K::Min ? ir_.CreateICmpSLT(value, current)
                                                        : ir_.CreateICmpSGT(value, current);
        store64(ir_.CreateXor(ir_.CreateSelect(better, value, current), bias), word(0));
        break;
    }
    case K::Stddev: {
        add_to(0, const64(1));
        add_to(1, value);
        // Add |value|^2 to the 128-bit sum of squares in words 2 (low) and 3
        // (high), from 32-bit halves: BPF has no 128-bit multiply.
        llvm::Value *magnitude = ir_.CreateSelect(ir_.CreateICmpSLT(value, zero64),
                                                  ir_.CreateSub(zero64, value), value);
        llvm::Value *lo = ir_.CreateAnd(magnitude, const64(0xffffffff));
        llvm::Value *hi = ir_.CreateLShr(magnitude, 32);
        llvm::Value *lo_lo = ir_.CreateMul(lo, lo);
        llvm::Value *hi_lo = ir_.CreateMul(hi, lo);
        llvm::Value *hi_hi = ir_.CreateMul(hi, hi);
        llvm::Value *cross_top = ir_.CreateLShr(hi_lo, 63); // bit 64 of 2*hi*lo
        llvm::Value *cross = ir_.CreateShl(hi_lo, 1);
        llvm::Value *low = ir_.CreateAdd(lo_lo, ir_.CreateShl(cross, 32));
        llvm::Value *carry = ir_.CreateZExt(ir_.CreateICmpULT(low, lo_lo), i64());
        llvm::Value *high = ir_.CreateAdd(
            ir_.CreateAdd(hi_hi, ir_.CreateLShr(cross, 32)),
            ir_.CreateAdd(ir_.CreateShl(cross_top, 32), carry));
        llvm::Value *old_low = load64(word(2));
        llvm::Value *new_low = ir_.CreateAdd(old_low, low);
        llvm::Value *carry2 = ir_.CreateZExt(ir_.CreateICmpULT(new_low, old_low), i64());
        store64(new_low, word(2));
        store64(ir_.CreateAdd(load64(word(3)), ir_.CreateAdd(high, carry2)), word(3));
        break;
    }
    case K::Quantize:
    case K::Lquantize:
    case K::Llquantize: {
        llvm::Value *bucket = nullptr;
        uint64_t bucket_count = trace::data_word_count(d.function);
        if (d.function.kind == K::Quantize) {
            llvm::Value *negative = ir_.CreateICmpSLT(value, zero64);
            llvm::Value *magnitude =
                ir_.CreateSelect(negative, ir_.CreateSub(zero64, value), value);
            llvm::Value *leading = ir_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, magnitude,
                                                             ir_.getFalse());
            llvm::Value *bits = ir_.CreateSub(const64(64), leading);
            llvm::Value *capped =
                ir_.CreateSelect(ir_.CreateICmpUGT(bits, const64(63)), const64(63), bits);
            llvm::Value *zero_bucket = const64(trace::quantize_zero_bucket);
            bucket = ir_.CreateSelect(
                ir_.CreateICmpEQ(value, zero64), zero_bucket,
                ir_.CreateSelect(negative, ir_.CreateSub(zero_bucket, capped),
                                 ir_.CreateAdd(zero_bucket, bits)));
        } else if (d.function.kind == K::Lquantize) {
            const trace::LinearBuckets &lb = d.function.linear;
            llvm::Value *lower_bound = const64(uint64_t(int64_t(lb.lower)));
            llvm::Value *level = ir_.CreateUDiv(ir_.CreateSub(value, lower_bound), const64(lb.step));
            level = ir_.CreateSelect(ir_.CreateICmpUGT(level, const64(lb.levels)),
                                     const64(lb.levels), level);
            bucket = ir_.CreateSelect(ir_.CreateICmpSLT(value, lower_bound), zero64,
                                      ir_.CreateAdd(level, const64(1)));
        } else {
            const trace::LogLinearBuckets &b = d.function.log_linear;
            const uint64_t factor = b.factor, steps = b.steps;
            const uint64_t per_magnitude = steps - steps / factor;
            const uint64_t zero_bucket =
                1 + uint64_t(b.high_magnitude - b.low_magnitude + 1) * per_magnitude;
            llvm::Value *negative = ir_.CreateICmpSLT(value, zero64);
            llvm::Value *magnitude =
                ir_.CreateSelect(negative, ir_.CreateSub(zero64, value), value);
            // Outermost first: values at or above factor^(high+1).
            bucket = ir_.CreateSelect(negative, zero64, const64(2 * zero_bucket));
            uint64_t offset = 1 + uint64_t(b.high_magnitude - b.low_magnitude) * per_magnitude;
            for (int m = b.high_magnitude; m >= int(b.low_magnitude); m--) {
                uint64_t floor = power(factor, unsigned(m));
                uint64_t ceiling = floor * factor;
                llvm::Value *slice;
                if (ceiling % steps == 0)
                    slice = ir_.CreateUDiv(magnitude, const64(ceiling / steps));
                else if (steps % ceiling == 0)
                    slice = ir_.CreateMul(magnitude, const64(steps / ceiling));
                else
                    slice = ir_.CreateUDiv(ir_.CreateMul(magnitude, const64(steps)),
                                           const64(ceiling));
                llvm::Value *in_magnitude =
                    ir_.CreateAdd(ir_.CreateSub(slice, const64(steps / factor)), const64(offset));
                llvm::Value *here = ir_.CreateSelect(
                    negative, ir_.CreateSub(const64(zero_bucket), in_magnitude),
                    ir_.CreateAdd(const64(zero_bucket), in_magnitude));
                bucket = ir_.CreateSelect(ir_.CreateICmpULT(magnitude, const64(ceiling)), here,
                                          bucket);
                offset -= per_magnitude;
            }
            uint64_t low_floor = power(factor, b.low_magnitude);
            bucket = ir_.CreateSelect(ir_.CreateICmpULT(magnitude, const64(low_floor)),
                                      const64(zero_bucket), bucket);
        }
        // The verifier must see the bucket bounded before it indexes the value.
        bucket = opaque(bucket);
        auto *in_range = llvm::BasicBlock::Create(context_, "agg_bucket", function);
        ir_.CreateCondBr(ir_.CreateICmpULT(bucket, const64(bucket_count)), in_range, done);
        ir_.SetInsertPoint(in_range);
        llvm::Value *address = at(words, ir_.CreateShl(bucket, 3));
        store64(ir_.CreateAdd(load64(address), increment), address);
        break;
    }
    }
    ir_.CreateBr(done);
    ir_.SetInsertPoint(done);
}

} // namespace dtx::codegen
