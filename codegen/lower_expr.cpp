// Expressions: constants, built-in variables, D variables of every scope,
// strings, conditionals, members, subscripts and casts. Operators are in
// lower_operators.cpp.
#include "codegen/lowering.h"

#include <linux/bpf.h>

namespace dtx::codegen {

llvm::Value *Lowering::lower_scalar(const ast::Expr &expr, ClauseState &state) {
    // An array as a scalar is its address (C's decay), not a copy's.
    if (sema::is_array(sema::resolve(expr.type)))
        if (std::optional<llvm::Value *> address = address_of(expr, state))
            return *address;
    Value v = lower(expr, state);
    if (v.value->getType()->isPointerTy())
        return ir_.CreatePtrToInt(v.value, i64());
    return v.value;
}

llvm::Value *Lowering::truth(const ast::Expr &expr, ClauseState &state) {
    Value v = lower(expr, state);
    if (v.value->getType()->isPointerTy()) {
        if (is_string_value(v.type)) // a string is true unless empty
            return ir_.CreateICmpNE(ir_.CreateLoad(i8(), v.value), ir_.getInt8(0));
        return ir_.getTrue();
    }
    return ir_.CreateICmpNE(v.value, const64(0));
}

const VariableStorage *Lowering::storage_of(const ast::Expr &target) {
    const ast::Expr *base = &target;
    if (auto *sub = target.as<ast::Subscript>())
        base = sub->base.get();
    if (auto *id = base->as<ast::Identifier>()) {
        auto it = globals_storage_.find(id->name);
        return it == globals_storage_.end() ? nullptr : &it->second;
    }
    if (auto *var = base->as<ast::Variable>()) {
        auto &scope = var->scope == ast::VariableScope::Thread ? thread_storage_ : clause_storage_;
        auto it = scope.find(var->name);
        return it == scope.end() ? nullptr : &it->second;
    }
    return nullptr;
}

llvm::Value *Lowering::build_key(const VariableStorage &storage,
                                 const std::vector<ast::ExprPtr> *keys, ClauseState &state) {
    // Keys are compared bytewise by the kernel: zero the buffer so that the
    // bytes after a string's NUL are always the same.
    llvm::Value *key = zeroed_scratch(state, storage.key_size);
    uint32_t offset = storage.keys_offset;
    if (storage.info->scope == sema::VariableScope::Thread) {
        llvm::Value *pid_tgid = current_pid_tgid(state);
        llvm::Value *tid = ir_.CreateAnd(pid_tgid, const64(0xffffffff));
        store64(ir_.CreateOr(tid, const64(storage.key_prefix)), key);
    } else if (offset) {
        store64(const64(storage.key_prefix), key); // the variable's id in a shared map
    }
    if (keys) {
        for (size_t i = 0; i < keys->size(); i++) {
            const sema::Type *key_type =
                i < storage.info->key_types.size() ? storage.info->key_types[i] : nullptr;
            Value v = lower(*(*keys)[i], state);
            if (!v.value->getType()->isPointerTy() && key_type)
                v.value = normalize(v.value, key_type);
            if (key_type && is_string_value(key_type) && !v.value->getType()->isPointerTy())
                error("D_PROTO_ARG", (*keys)[i]->range, "a string key needs a string value");
            store_value({v.value, key_type ? key_type : v.type}, at(key, offset));
            offset += stored_size(key_type ? key_type : v.type);
        }
    }
    return key;
}

Value Lowering::read_variable(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                              const ast::Expr &expr, ClauseState &state) {
    const sema::Type *type = storage.info->type;
    llvm::Value *address = nullptr;
    switch (storage.kind) {
    case VariableStorage::Kind::Global:
        address = at(globals_, storage.offset);
        break;
    case VariableStorage::Kind::ClauseLocal:
        address = at(state.dctx, storage.offset);
        break;
    case VariableStorage::Kind::Map: {
        llvm::Value *key = build_key(storage, keys, state);
        llvm::Value *entry = map_lookup(storage.map, key);
        // A missing entry reads as zero: 0, D's NULL string, or zeroed memory.
        if (is_memory_value(type)) {
            llvm::Value *empty = null_string();
            if (!sema::is_string(sema::resolve(type))) {
                empty = scratch(state, storage.value_size);
                zero(empty, storage.value_size);
            }
            address = ir_.CreateSelect(ir_.CreateIsNull(entry), empty, entry);
            break;
        }
        llvm::Function *function = ir_.GetInsertBlock()->getParent();
        auto *present = llvm::BasicBlock::Create(context_, "present", function);
        auto *join = llvm::BasicBlock::Create(context_, "read", function);
        llvm::BasicBlock *before = ir_.GetInsertBlock();
        ir_.CreateCondBr(ir_.CreateIsNull(entry), join, present);
        ir_.SetInsertPoint(present);
        llvm::Value *loaded = load_integer(entry, type);
        llvm::BasicBlock *after = ir_.GetInsertBlock();
        ir_.CreateBr(join);
        ir_.SetInsertPoint(join);
        llvm::PHINode *phi = ir_.CreatePHI(i64(), 2);
        phi->addIncoming(const64(0), before);
        phi->addIncoming(loaded, after);
        return {phi, expr.type ? expr.type : type};
    }
    }
    if (storage.kind != VariableStorage::Kind::Map &&
        sema::is_string(sema::resolve(type))) { // NULL until set (string_slot_size())
        llvm::Value *set = ir_.CreateLoad(i8(), at(address, strsize()));
        return {ir_.CreateSelect(ir_.CreateICmpNE(set, ir_.getInt8(0)), address, null_string()),
                type};
    }
    if (is_memory_value(type))
        return {address, type};
    return {load_integer(address, type), expr.type ? expr.type : type};
}

void Lowering::store_slot(const Value &value, llvm::Value *slot) {
    store_value(value, slot);
    if (sema::is_string(sema::resolve(value.type)))
        ir_.CreateStore(ir_.CreateZExt(ir_.CreateICmpNE(value.value, null_string()), i8()),
                        at(slot, strsize()));
}

void Lowering::write_variable(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                              const Value &value, bool is_zero_constant, ClauseState &state) {
    const sema::Type *type = storage.info->type;
    Value stored = value;
    if (is_memory_value(type) && !stored.value->getType()->isPointerTy())
        stored.value = null_string(); // NULL (0) into a string: ""
    else if (!stored.value->getType()->isPointerTy())
        stored.value = normalize(stored.value, type);
    stored.type = type;
    switch (storage.kind) {
    case VariableStorage::Kind::Global:
        store_slot(stored, at(globals_, storage.offset));
        return;
    case VariableStorage::Kind::ClauseLocal:
        store_slot(stored, at(state.dctx, storage.offset));
        return;
    case VariableStorage::Kind::Map:
        break;
    }
    llvm::Value *key = build_key(storage, keys, state);
    if (is_zero_constant) { // assigning 0 deletes the entry, as in DTrace
        call_helper(BPF_FUNC_map_delete_elem, i64(), {storage.map, key});
        return;
    }
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *update = llvm::BasicBlock::Create(context_, "update", function);
    auto *join = llvm::BasicBlock::Create(context_, "stored", function);
    const bool string = sema::is_string(sema::resolve(type));
    if (!is_memory_value(type) || (string && stored.value->getType()->isPointerTy())) {
        // Storing 0, or the NULL string, frees the variable.
        auto *remove = llvm::BasicBlock::Create(context_, "delete", function);
        llvm::Value *freed = string ? ir_.CreateICmpEQ(stored.value, null_string())
                                    : ir_.CreateICmpEQ(stored.value, const64(0));
        ir_.CreateCondBr(freed, remove, update);
        ir_.SetInsertPoint(remove);
        call_helper(BPF_FUNC_map_delete_elem, i64(), {storage.map, key});
        ir_.CreateBr(join);
    } else {
        ir_.CreateBr(update);
    }
    ir_.SetInsertPoint(update);
    llvm::Value *buffer = scratch(state, storage.value_size);
    if (is_memory_value(type))
        zero(buffer, storage.value_size);
    store_value(stored, buffer);
    llvm::Value *result =
        call_helper(BPF_FUNC_map_update_elem, i64(), {storage.map, key, buffer, const64(BPF_ANY)});
    auto *full = llvm::BasicBlock::Create(context_, "full", function);
    ir_.CreateCondBr(ir_.CreateICmpEQ(result, const64(0)), join, full);
    ir_.SetInsertPoint(full);
    count_drop(trace::DropCounter::Dynamic, join);
    ir_.SetInsertPoint(join);
}

llvm::Value *Lowering::probe_name_field(unsigned field, ClauseState &state) {
    // The table is built in finish(), once every enabled probe is known.
    if (!probe_names_[field])
        probe_names_[field] =
            new llvm::GlobalVariable(*module_, i64(), false, llvm::GlobalValue::ExternalLinkage,
                                     const64(0), "dtx_probe_name_placeholder");
    llvm::Value *index = load64(at(state.dctx, probe_index_offset()));
    uint64_t count = std::max<size_t>(dense_probes_.size(), 1);
    index = opaque(ir_.CreateSelect(ir_.CreateICmpULT(index, const64(count)), index, const64(0)));
    return at(probe_names_[field], ir_.CreateMul(index, const64(align8(strsize()))));
}

llvm::Value *Lowering::firing_timestamp(ClauseState &state) {
    // Read once per firing, so every clause of one firing sees one value.
    llvm::Value *slot = at(state.dctx, ClauseContextLayout::timestamp);
    llvm::Value *cached = load64(slot);
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *read = llvm::BasicBlock::Create(context_, "read_clock", function);
    auto *join = llvm::BasicBlock::Create(context_, "clock", function);
    llvm::BasicBlock *before = ir_.GetInsertBlock();
    ir_.CreateCondBr(ir_.CreateICmpEQ(cached, const64(0)), read, join);
    ir_.SetInsertPoint(read);
    llvm::Value *now = call_helper(BPF_FUNC_ktime_get_ns, i64(), {});
    store64(now, slot);
    ir_.CreateBr(join);
    ir_.SetInsertPoint(join);
    llvm::PHINode *phi = ir_.CreatePHI(i64(), 2);
    phi->addIncoming(cached, before);
    phi->addIncoming(now, read);
    return phi;
}

llvm::Value *Lowering::walltime_offset() {
    llvm::LoadInst *offset = ir_.CreateLoad(i64(), walltime_offset_);
    offset->setVolatile(true);
    return offset;
}

Value Lowering::lower_assign(const ast::Assign &assign, ClauseState &state) {
    if (!is_whole_variable(*assign.target))
        return assign_place(assign, state);
    const VariableStorage *storage = storage_of(*assign.target);
    const std::vector<ast::ExprPtr> *keys = nullptr;
    if (auto *sub = assign.target->as<ast::Subscript>())
        keys = &sub->indices;
    const sema::Type *type = storage->info->type;
    Value value;
    bool zero_constant = false;
    if (assign.op == ast::AssignOp::Assign) {
        value = lower(*assign.value, state);
        std::optional<int64_t> constant = sema::integer_constant(*assign.value, input_.checked);
        // 0 into a struct or union is only allowed where it frees the
        // variable (a thread-local or an element).
        zero_constant = constant && *constant == 0 &&
                        (!is_memory_value(type) || sema::is_string(sema::resolve(type)) ||
                         sema::is_struct_or_union(sema::resolve(type)));
    } else {
        Value current = read_variable(*storage, keys, *assign.target, state);
        value = {compound(assign, current.value, type, state), type};
    }
    write_variable(*storage, keys, value, zero_constant, state);
    if (value.value->getType()->isPointerTy())
        return {value.value, type};
    return {normalize(value.value, type), type};
}

Value Lowering::lower(const ast::Expr &expr, ClauseState &state) {
    // Expressions of the D library (a translator's members, an inline's
    // value) fault at the place in the program that used them.
    const ast::Expr *enclosing = faulting_expression_;
    if (!state.clause || expr.range.source == state.clause->range.source)
        faulting_expression_ = &expr;
    Value value = lower_expression(expr, state);
    faulting_expression_ = enclosing;
    return value;
}

Value Lowering::lower_expression(const ast::Expr &expr, ClauseState &state) {
    const sema::Type *type = expr.type;
    if (sema::is_integer(sema::resolve(type)) && expr.kind != ast::Expr::Kind::Assign &&
        expr.kind != ast::Expr::Kind::Call) {
        if (std::optional<int64_t> constant = sema::integer_constant(expr, input_.checked))
            return {const64(uint64_t(*constant)), type};
    }
    switch (expr.kind) {
    case ast::Expr::Kind::IntegerLiteral:
        return {const64(expr.as<ast::IntegerLiteral>()->value), type};
    case ast::Expr::Kind::StringLiteral:
        return {string_literal(expr.as<ast::StringLiteral>()->value), type};
    case ast::Expr::Kind::Identifier:
    case ast::Expr::Kind::MacroArgument:
        return lower_name(expr, state);
    case ast::Expr::Kind::Variable: {
        const VariableStorage *storage = storage_of(expr);
        if (!storage) {
            // A self-> variable that is never assigned reads as 0.
            return {const64(0), type};
        }
        return read_variable(*storage, nullptr, expr, state);
    }
    case ast::Expr::Kind::Unary:
        return lower_unary(*expr.as<ast::Unary>(), state);
    case ast::Expr::Kind::Binary:
        return lower_binary(*expr.as<ast::Binary>(), state);
    case ast::Expr::Kind::Assign:
        return lower_assign(*expr.as<ast::Assign>(), state);
    case ast::Expr::Kind::Conditional:
        return lower_conditional(*expr.as<ast::Conditional>(), state);
    case ast::Expr::Kind::Call:
        return lower_call(*expr.as<ast::Call>(), /*statement=*/false, state);
    case ast::Expr::Kind::Subscript:
        return lower_subscript(*expr.as<ast::Subscript>(), state);
    case ast::Expr::Kind::Member:
        return lower_member(*expr.as<ast::Member>(), state);
    case ast::Expr::Kind::Cast:
        return lower_cast(*expr.as<ast::Cast>(), state);
    case ast::Expr::Kind::SizeofType:
    case ast::Expr::Kind::Offsetof:
        break; // constants, folded above
    case ast::Expr::Kind::Aggregation:
        error("D_CG_DYN", expr.range, "an aggregation cannot be used as a value");
        return {const64(0), type};
    case ast::Expr::Kind::Xlate:
        return lower_xlate(*expr.as<ast::Xlate>(), state);
    }
    error("D_CODEGEN", expr.range, "internal error: this expression could not be lowered");
    return {const64(0), type};
}

Value Lowering::lower_name(const ast::Expr &expr, ClauseState &state) {
    const sema::Type *type = expr.type;
    auto it = input_.checked.resolutions.find(&expr);
    if (it == input_.checked.resolutions.end()) {
        error("D_CODEGEN", expr.range, "internal error: unresolved name");
        return {const64(0), type};
    }
    const sema::Resolution &r = it->second;
    switch (r.kind) {
    case sema::Resolution::Kind::Builtin:
        if (r.builtin->lower)
            return r.builtin->lower(*this, expr, state);
        break;
    case sema::Resolution::Kind::Constant:
        if (r.text)
            return {string_literal(*r.text), type};
        return {const64(uint64_t(r.value)), type};
    case sema::Resolution::Kind::Inline: {
        Value v = lower(*r.inline_definition->value, state);
        v.value = convert(v.value, r.inline_definition->value->type, type);
        v.type = type;
        return v;
    }
    case sema::Resolution::Kind::Variable:
        if (const VariableStorage *storage = storage_of(expr))
            return read_variable(*storage, nullptr, expr, state);
        break;
    case sema::Resolution::Kind::Parameter:
        return bound_parameter(r, expr);
    case sema::Resolution::Kind::KernelSymbol: {
        llvm::Value *address = *kernel_address(expr, state);
        if (is_memory_value(type))
            return {read_kernel_value(state, address, type), type};
        const sema::Type *resolved = sema::resolve(type);
        const uint32_t size = resolved && resolved->size ? uint32_t(resolved->size) : 8;
        return {load_integer(read_kernel(state, address, std::min<uint32_t>(size, 8)), type), type};
    }
    default:
        break;
    }
    error("D_CODEGEN", expr.range, "this name cannot be used in a probe by this version of dtx");
    return {const64(0), type};
}

Value Lowering::lower_conditional(const ast::Conditional &c, ClauseState &state) {
    const sema::Type *type = c.type;
    llvm::Value *condition = truth(*c.condition, state);
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *yes = llvm::BasicBlock::Create(context_, "cond_true", function);
    auto *no = llvm::BasicBlock::Create(context_, "cond_false", function);
    auto *join = llvm::BasicBlock::Create(context_, "cond", function);
    ir_.CreateCondBr(condition, yes, no);
    ir_.SetInsertPoint(yes);
    Value a = lower(*c.if_true, state);
    llvm::BasicBlock *yes_end = ir_.GetInsertBlock();
    ir_.SetInsertPoint(no);
    Value b = lower(*c.if_false, state);
    llvm::BasicBlock *no_end = ir_.GetInsertBlock();
    bool memory = a.value->getType()->isPointerTy() || b.value->getType()->isPointerTy();
    auto join_from = [&](Value &v, llvm::BasicBlock *end) {
        ir_.SetInsertPoint(end);
        if (memory && !v.value->getType()->isPointerTy())
            v.value = ir_.CreateIntToPtr(v.value, ptr());
        else if (!memory)
            v.value = convert(v.value, v.type, type);
        ir_.CreateBr(join);
    };
    join_from(a, yes_end);
    join_from(b, no_end);
    ir_.SetInsertPoint(join);
    llvm::PHINode *phi = ir_.CreatePHI(memory ? ptr() : i64(), 2);
    phi->addIncoming(a.value, yes_end);
    phi->addIncoming(b.value, no_end);
    return {phi, type};
}

Value Lowering::lower_subscript(const ast::Subscript &s, ClauseState &state) {
    const sema::Type *type = s.type;
    if (const ast::Expr *substitute = substitute_of(s)) {
        Value value = lower(*substitute, state);
        value.type = type;
        return value;
    }
    if (auto it = input_.checked.resolutions.find(s.base.get());
        it != input_.checked.resolutions.end()) {
        const sema::Resolution &r = it->second;
        if (r.kind == sema::Resolution::Kind::Builtin && r.builtin->lower_element)
            return r.builtin->lower_element(*this, s, state);
        if (r.kind == sema::Resolution::Kind::Inline && !r.inline_definition->parameters.empty())
            return lower_inline_call(s, *r.inline_definition, state);
    }
    const VariableStorage *named = storage_of(s);
    if (const sema::Type *base_type = sema::resolve(s.base->type);
        base_type && sema::is_string(base_type) &&
        !(named && named->info && named->info->associative)) {
        // A char of the string's strsize bytes; beyond them, a fault.
        llvm::Value *base = lower_string(*s.base, state);
        llvm::Value *index = lower_scalar(*s.indices.at(0), state);
        fault_if(state, ir_.CreateICmpUGE(index, const64(strsize())), trace::FaultKind::BadIndex,
                 index);
        return {load_integer(at(base, opaque(index)), type), type};
    }
    if (const VariableStorage *storage = storage_of(s);
        storage && storage->kind == VariableStorage::Kind::Map)
        return read_variable(*storage, &s.indices, s, state);
    if (!storage_of(s) && s.base->kind == ast::Expr::Kind::Variable)
        return {const64(0), type}; // a self-> array never assigned
    // Arrays and pointers: element i of the base's memory.
    const sema::Type *base_type = sema::resolve(s.base->type);
    const sema::Type *element = sema::resolve(type);
    uint64_t element_size = element && element->size ? element->size : 1;
    llvm::Value *index = lower_scalar(*s.indices.at(0), state);
    if (base_type && sema::is_array(base_type)) {
        Value base = lower(*s.base, state);
        check_index(state, index, base_type);
        llvm::Value *bounded = opaque(index);
        llvm::Value *address = at(base.value, ir_.CreateMul(bounded, const64(element_size)));
        if (is_memory_value(type))
            return {address, type};
        return {load_integer(address, type), type};
    }
    llvm::Value *pointer = lower_scalar(*s.base, state);
    llvm::Value *address = ir_.CreateAdd(pointer, ir_.CreateMul(index, const64(element_size)));
    uint32_t size = uint32_t(std::min<uint64_t>(element_size, 8));
    return {load_integer(read_kernel(state, address, size), type), type};
}

Value Lowering::lower_member(const ast::Member &m, ClauseState &state) {
    const sema::Type *type = m.type;
    if (std::optional<Value> translated = lower_translated_member(*m.base, m.member, type, state))
        return *translated;
    std::optional<sema::Member> member = member_of(m);
    if (!member) {
        error("D_CODEGEN", m.range, "internal error: unknown member '" + m.member + "'");
        return {const64(0), type};
    }
    uint64_t offset = member->byte_offset();
    uint32_t size = uint32_t(sema::resolve(member->type)->size);
    llvm::Value *address;
    // A member of a kernel variable (`init_task.comm) is kernel memory too.
    std::optional<llvm::Value *> in_kernel =
        m.arrow ? std::optional(lower_scalar(*m.base, state)) : kernel_address(*m.base, state);
    if (in_kernel) {
        // Through a pointer: kernel memory, read with a probe.
        llvm::Value *pointer = ir_.CreateAdd(*in_kernel, const64(offset));
        if (sema::is_char_array(member->type))
            return {read_kernel_value(state, pointer, member->type), type};
        const uint32_t shift = uint32_t(member->bit_offset % 8);
        uint32_t bytes = member->is_bit_field() ? (shift + member->bit_width + 7) / 8
                                                : std::max<uint32_t>(size, 1);
        address = read_kernel(state, pointer, bytes);
    } else {
        Value base = lower(*m.base, state);
        address = at(base.value, offset);
        if (sema::is_char_array(member->type)) // room to be read as a string
            return {char_array_string(state, size,
                                      [&](llvm::Value *buffer) {
                                          call_helper(BPF_FUNC_probe_read_kernel, i64(),
                                                      {buffer, ir_.getInt32(size), address});
                                      }),
                    type};
    }
    if (member->is_bit_field())
        return {load_bits(address, uint32_t(member->bit_offset % 8), member->bit_width, type),
                type};
    if (is_memory_value(type))
        return {address, type};
    return {load_integer(address, type), type};
}

Value Lowering::lower_cast(const ast::Cast &c, ClauseState &state) {
    // (ast::Cast's own `type` is the type as written.)
    const sema::Type *type = static_cast<const ast::Expr &>(c).type;
    if (sema::is_array(sema::resolve(c.operand->type)) && !is_memory_value(type))
        return {normalize(lower_scalar(*c.operand, state), type), type};
    Value v = lower(*c.operand, state);
    const sema::Type *from = sema::resolve(c.operand->type);
    if (sema::is_string(sema::resolve(type)) && sema::is_char_array(from) &&
        from->size < strsize()) {
        // A string holds strsize bytes: the array's, then NULs.
        llvm::Value *buffer = scratch(state, uint32_t(strsize()));
        zero(buffer, uint32_t(strsize()));
        copy_bytes(buffer, v.value, uint32_t(from->size));
        return {buffer, type};
    }
    if (is_memory_value(type)) {
        if (v.value->getType()->isPointerTy())
            return {v.value, type};
        llvm::Value *buffer = scratch(state, uint32_t(strsize()));
        store64(const64(0), buffer);
        call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                    {buffer, ir_.getInt32(uint32_t(strsize())), v.value});
        return {buffer, type};
    }
    if (v.value->getType()->isPointerTy())
        return {normalize(ir_.CreatePtrToInt(v.value, i64()), type), type};
    if (!sema::is_integer(sema::resolve(c.operand->type))) // a pointer's 64 bits
        return {normalize(v.value, type), type};
    return {normalize(convert(v.value, c.operand->type, type), type), type};
}

llvm::Value *Lowering::as_number(ClauseState &state, llvm::Value *value) {
    // The verifier refuses arithmetic between a map value's pointer (alloca
    // scratch, a global's bytes) and a number it cannot bound (`&a[3] - p`);
    // what is read back from map memory is only a number.
    llvm::Value *slot = scratch(state, 8);
    ir_.CreateAlignedStore(value, slot, llvm::Align(8), /*isVolatile=*/true);
    return ir_.CreateAlignedLoad(i64(), slot, llvm::Align(8), /*isVolatile=*/true);
}

void Lowering::check_index(ClauseState &state, llvm::Value *index, const sema::Type *array) {
    if (array->array_count != 0) // not a flexible array member
        fault_if(state, ir_.CreateICmpUGE(index, const64(array->array_count)),
                 trace::FaultKind::BadIndex, index);
}

std::optional<sema::Member> Lowering::member_of(const ast::Member &m) const {
    const sema::Type *base_type = sema::resolve(m.base->type);
    const sema::Type *record = m.arrow && base_type ? sema::resolve(base_type->element) : base_type;
    return record ? sema::find_member(record, m.member) : std::nullopt;
}

std::optional<llvm::Value *> Lowering::kernel_address(const ast::Expr &expr, ClauseState &state) {
    if (expr.kind == ast::Expr::Kind::Identifier) {
        auto it = input_.checked.resolutions.find(&expr);
        if (it == input_.checked.resolutions.end() ||
            it->second.kind != sema::Resolution::Kind::KernelSymbol)
            return std::nullopt;
        const auto &id = *expr.as<ast::Identifier>();
        Result<uint64_t> found = options_.kernel_symbol_address
                                     ? options_.kernel_symbol_address(id.name, id.module)
                                     : failure("no kernel symbol table");
        if (!found) {
            error("D_IDENT_UNDEF", expr.range,
                  "kernel symbol '" + id.name + "': " + found.error().message);
            return const64(0);
        }
        return const64(*found);
    }
    if (const auto *m = expr.as<ast::Member>(); m && !m->arrow) {
        std::optional<llvm::Value *> base = kernel_address(*m->base, state);
        std::optional<sema::Member> member = base ? member_of(*m) : std::nullopt;
        if (!member)
            return std::nullopt;
        return ir_.CreateAdd(*base, const64(member->byte_offset()));
    }
    return std::nullopt;
}

std::optional<llvm::Value *> Lowering::address_of(const ast::Expr &lvalue, ClauseState &state) {
    if (std::optional<llvm::Value *> kernel = kernel_address(lvalue, state))
        return kernel;
    switch (lvalue.kind) {
    case ast::Expr::Kind::Identifier: {
        // A global's own bytes in the program's data, for `&a[2]` and `&g.x`
        // (sema refuses `&a` itself, as dtrace does).
        auto resolved = input_.checked.resolutions.find(&lvalue);
        const VariableStorage *storage = storage_of(lvalue);
        if (resolved == input_.checked.resolutions.end() ||
            resolved->second.kind != sema::Resolution::Kind::Variable || !storage ||
            storage->kind != VariableStorage::Kind::Global)
            return std::nullopt;
        return as_number(state, ir_.CreatePtrToInt(at(globals_, storage->offset), i64()));
    }
    case ast::Expr::Kind::Unary:
        if (const auto &u = *lvalue.as<ast::Unary>(); u.op == ast::UnaryOp::Deref)
            return lower_scalar(*u.operand, state);
        return std::nullopt;
    case ast::Expr::Kind::Member: {
        const auto &m = *lvalue.as<ast::Member>();
        std::optional<sema::Member> member = member_of(m);
        if (!member)
            return std::nullopt;
        std::optional<llvm::Value *> base =
            m.arrow ? std::optional(lower_scalar(*m.base, state)) : address_of(*m.base, state);
        if (!base)
            return std::nullopt;
        return ir_.CreateAdd(*base, const64(member->byte_offset()));
    }
    case ast::Expr::Kind::Subscript: {
        const auto &s = *lvalue.as<ast::Subscript>();
        const sema::Type *base_type = sema::resolve(s.base->type);
        if (!base_type || (!sema::is_pointer(base_type) && !sema::is_array(base_type)))
            return std::nullopt;
        std::optional<llvm::Value *> base = sema::is_pointer(base_type)
                                                ? std::optional(lower_scalar(*s.base, state))
                                                : address_of(*s.base, state);
        if (!base)
            return std::nullopt;
        const sema::Type *element = sema::resolve(lvalue.type);
        llvm::Value *index = lower_scalar(*s.indices.at(0), state);
        return ir_.CreateAdd(
            *base, ir_.CreateMul(index, const64(element && element->size ? element->size : 1)));
    }
    default:
        return std::nullopt;
    }
}

// args[N]: argN as its provider types it. A string or an array argument's
// argN holds the kernel address of its bytes (a tracepoint record's field).
Value Lowering::lower_probe_argument(const ast::Subscript &s, const sema::Type *type,
                                     ClauseState &state) {
    std::optional<int64_t> index = sema::integer_constant(*s.indices.at(0), input_.checked);
    llvm::Value *slot;
    if (index) {
        slot = at(state.dctx, ClauseContextLayout::args + 8 * uint32_t(*index));
    } else {
        // Untyped args[] with a computed index: argN, 0 out of range.
        llvm::Value *i = opaque(lower_scalar(*s.indices[0], state));
        llvm::Value *in_range = ir_.CreateICmpULT(i, const64(ClauseContextLayout::arg_count));
        llvm::Value *bounded = ir_.CreateAnd(ir_.CreateSelect(in_range, i, const64(0)), 15);
        llvm::Value *offset =
            ir_.CreateAdd(const64(ClauseContextLayout::args), ir_.CreateShl(bounded, 3));
        llvm::Value *value = load64(ir_.CreateGEP(ir_.getInt8Ty(), state.dctx, offset));
        return {normalize(ir_.CreateSelect(in_range, value, const64(0)), type), type};
    }
    llvm::Value *value = load64(slot);
    if (sema::is_string(type)) {
        llvm::Value *buffer = scratch(state, uint32_t(strsize()));
        store64(const64(0), buffer);
        llvm::Value *result = call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                                          {buffer, ir_.getInt32(uint32_t(strsize())), value});
        fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, value);
        return {buffer, type};
    }
    if (is_memory_value(type))
        return {read_kernel_value(state, value, type), type};
    return {normalize(value, type), type};
}

// uregs[i]: slot i of the user registers the kernel saved when the current
// thread entered it (its struct pt_regs). One way for every probe type: a
// uprobe's context holds the same registers. Past pt_regs, as dtrace-utils
// has them on x86-64, R_DS, R_ES, R_FS, R_GS and R_TRAPNO (21 to 25) read
// the task's struct thread_struct: ds, es (16 bits), fsbase, gsbase and
// trap_nr (64). A computed index out of range is an illegal operation, as
// in DTrace.
Value Lowering::lower_user_register(const ast::Subscript &s, const sema::Type *type,
                                    ClauseState &state) {
    llvm::Value *index = lower_scalar(*s.indices.at(0), state);
    std::optional<int64_t> constant = sema::integer_constant(*s.indices[0], input_.checked);
    if (!constant)
        fault_if(state, ir_.CreateICmpUGE(index, const64(sema::kUserRegisterCount)),
                 trace::FaultKind::IllegalOperation, nullptr);
    llvm::Value *task = call_helper(BPF_FUNC_get_current_task_btf, ptr(), {});
    llvm::Value *address = nullptr;
    llvm::Value *mask = const64(~uint64_t(0));
    if (!constant || *constant < sema::kPtRegsSlots) {
        llvm::Value *registers = call_helper(BPF_FUNC_task_pt_regs, ptr(), {task});
        address = ir_.CreatePtrToInt(at(registers, ir_.CreateShl(index, 3)), i64());
    }
    if (!constant || *constant >= sema::kPtRegsSlots) {
        // The member at each index past pt_regs, and whether it is 16 bits.
        constexpr std::pair<std::string_view, bool> kThreadMembers[] = {
            {"ds", true}, {"es", true}, {"fsbase", false}, {"gsbase", false}, {"trap_nr", false}};
        std::optional<uint64_t> thread = kernel_member_offset(s, "task_struct", "thread");
        if (!thread)
            return {const64(0), type};
        llvm::Value *task_address = ir_.CreatePtrToInt(task, i64());
        llvm::Value *from_thread = nullptr;
        for (int64_t k = 0; k < int64_t(std::size(kThreadMembers)); k++) {
            auto [member, narrow] = kThreadMembers[k];
            std::optional<uint64_t> offset = kernel_member_offset(s, "thread_struct", member);
            if (!offset)
                return {const64(0), type};
            llvm::Value *here = ir_.CreateAdd(task_address, const64(*thread + *offset));
            llvm::Value *chosen = ir_.CreateICmpEQ(index, const64(sema::kPtRegsSlots + k));
            from_thread = from_thread ? ir_.CreateSelect(chosen, here, from_thread) : here;
            if (narrow)
                mask = ir_.CreateSelect(chosen, const64(0xffff), mask);
        }
        address = address ? ir_.CreateSelect(ir_.CreateICmpULT(index, const64(sema::kPtRegsSlots)),
                                             address, from_thread)
                          : from_thread;
    }
    llvm::Value *buffer = scratch(state, 8);
    store64(const64(0), buffer);
    call_helper(BPF_FUNC_probe_read_kernel, i64(),
                {buffer, ir_.getInt32(8), ir_.CreateIntToPtr(address, ptr())});
    return {normalize(ir_.CreateAnd(load64(buffer), mask), type), type};
}

} // namespace dtx::codegen
