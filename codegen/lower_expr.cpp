// Expressions: constants, built-in variables, D variables of every scope,
// operators with C's semantics on normalized i64 values, strings, members
// and subscripts.
#include "codegen/lowering.h"

#include <linux/bpf.h>

#include <bit>

namespace dtx::codegen {

namespace {

bool is_string_value(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    return t && (sema::is_string(t) || sema::is_char_array(t));
}

bool is_signed_type(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    return t && sema::is_integer(t) && t->is_signed;
}

} // namespace

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
    if (is_memory_value(type))
        return {address, type};
    return {load_integer(address, type), expr.type ? expr.type : type};
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
        store_value(stored, at(globals_, storage.offset));
        return;
    case VariableStorage::Kind::ClauseLocal:
        store_value(stored, at(state.dctx, storage.offset));
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

Value Lowering::string_compare(const Value &lhs, const Value &rhs, ast::BinaryOp op) {
    llvm::Value *cmp = runtime_call("dtx_rt_strcmp", {lhs.value, rhs.value, const64(strsize())});
    llvm::Value *result = nullptr;
    switch (op) {
    case ast::BinaryOp::Lt:
        result = ir_.CreateICmpSLT(cmp, const64(0));
        break;
    case ast::BinaryOp::Gt:
        result = ir_.CreateICmpSGT(cmp, const64(0));
        break;
    case ast::BinaryOp::Le:
        result = ir_.CreateICmpSLE(cmp, const64(0));
        break;
    case ast::BinaryOp::Ge:
        result = ir_.CreateICmpSGE(cmp, const64(0));
        break;
    case ast::BinaryOp::Eq:
        result = ir_.CreateICmpEQ(cmp, const64(0));
        break;
    default:
        result = ir_.CreateICmpNE(cmp, const64(0));
        break;
    }
    return {ir_.CreateZExt(result, i64()), input_.checked.types->int_type()};
}

// `s == NULL`, `NULL != s`: whether the string is D's NULL string (strstr()
// finding nothing, a dynamic variable not set); "" is not NULL.
Value Lowering::null_string_compare(const ast::Binary &b, ClauseState &state) {
    const ast::Expr &text = is_string_value(b.lhs->type) ? *b.lhs : *b.rhs;
    Value v = lower(text, state);
    llvm::Value *is_null = const64(0);
    if (sema::is_string(sema::resolve(text.type)) && v.value->getType()->isPointerTy())
        is_null = ir_.CreateZExt(ir_.CreateICmpEQ(v.value, null_string()), i64());
    llvm::Value *result = b.op == ast::BinaryOp::Eq ? is_null : ir_.CreateXor(is_null, const64(1));
    if (b.op != ast::BinaryOp::Eq && b.op != ast::BinaryOp::Ne)
        result = const64(0); // ordering against NULL: only == and != are meaningful
    return {result, input_.checked.types->int_type()};
}

namespace {

// Signed division and remainder on BPF v3, which divides only unsigned:
// divide the magnitudes, then fix the signs as C does (truncation toward 0).
llvm::Value *signed_divide(llvm::IRBuilder<> &ir, llvm::Value *a, llvm::Value *b, bool remainder) {
    llvm::Value *zero = ir.getInt64(0);
    llvm::Value *a_negative = ir.CreateICmpSLT(a, zero);
    llvm::Value *b_negative = ir.CreateICmpSLT(b, zero);
    llvm::Value *abs_a = ir.CreateSelect(a_negative, ir.CreateSub(zero, a), a);
    llvm::Value *abs_b = ir.CreateSelect(b_negative, ir.CreateSub(zero, b), b);
    if (remainder) {
        llvm::Value *r = ir.CreateURem(abs_a, abs_b);
        return ir.CreateSelect(a_negative, ir.CreateSub(zero, r), r);
    }
    llvm::Value *q = ir.CreateUDiv(abs_a, abs_b);
    return ir.CreateSelect(ir.CreateXor(a_negative, b_negative), ir.CreateSub(zero, q), q);
}

} // namespace

llvm::Value *Lowering::arithmetic(ast::BinaryOp op, llvm::Value *a, llvm::Value *b,
                                  const sema::Type *type, ClauseState &state) {
    const bool is_signed = is_signed_type(type);
    switch (op) {
    case ast::BinaryOp::Add:
        return ir_.CreateAdd(a, b);
    case ast::BinaryOp::Sub:
        return ir_.CreateSub(a, b);
    case ast::BinaryOp::Mul:
        return ir_.CreateMul(a, b);
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Mod: {
        fault_if(state, ir_.CreateICmpEQ(b, const64(0)), trace::FaultKind::DivideByZero, nullptr);
        const bool remainder = op == ast::BinaryOp::Mod;
        if (is_signed)
            return signed_divide(ir_, a, b, remainder);
        return remainder ? ir_.CreateURem(a, b) : ir_.CreateUDiv(a, b);
    }
    case ast::BinaryOp::Shl:
        return ir_.CreateShl(a, ir_.CreateAnd(b, const64(63)));
    case ast::BinaryOp::Shr:
        return is_signed ? ir_.CreateAShr(a, ir_.CreateAnd(b, const64(63)))
                         : ir_.CreateLShr(a, ir_.CreateAnd(b, const64(63)));
    case ast::BinaryOp::BitAnd:
        return ir_.CreateAnd(a, b);
    case ast::BinaryOp::BitOr:
        return ir_.CreateOr(a, b);
    case ast::BinaryOp::BitXor:
        return ir_.CreateXor(a, b);
    default:
        return a;
    }
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
        zero_constant = constant && *constant == 0 &&
                        (!is_memory_value(type) || sema::is_string(sema::resolve(type)));
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
    case ast::Expr::Kind::MacroArgument: {
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
            return {load_integer(read_kernel(state, address, std::min<uint32_t>(size, 8)), type),
                    type};
        }
        default:
            break;
        }
        error("D_CODEGEN", expr.range,
              "this name cannot be used in a probe by this version of dtx");
        return {const64(0), type};
    }
    case ast::Expr::Kind::Variable: {
        const VariableStorage *storage = storage_of(expr);
        if (!storage) {
            // A self-> variable that is never assigned reads as 0.
            return {const64(0), type};
        }
        return read_variable(*storage, nullptr, expr, state);
    }
    case ast::Expr::Kind::Unary: {
        const auto &u = *expr.as<ast::Unary>();
        switch (u.op) {
        case ast::UnaryOp::Negate:
            return {ir_.CreateSub(const64(0),
                                  convert(lower_scalar(*u.operand, state), u.operand->type, type)),
                    type};
        case ast::UnaryOp::Plus:
            return {convert(lower_scalar(*u.operand, state), u.operand->type, type), type};
        case ast::UnaryOp::BitNot:
            return {ir_.CreateNot(convert(lower_scalar(*u.operand, state), u.operand->type, type)),
                    type};
        case ast::UnaryOp::LogicalNot:
            return {ir_.CreateZExt(ir_.CreateNot(truth(*u.operand, state)), i64()), type};
        case ast::UnaryOp::PreIncrement:
        case ast::UnaryOp::PreDecrement:
        case ast::UnaryOp::PostIncrement:
        case ast::UnaryOp::PostDecrement: {
            if (!is_whole_variable(*u.operand))
                return increment_place(u, state);
            const VariableStorage *storage = storage_of(*u.operand);
            const std::vector<ast::ExprPtr> *keys = nullptr;
            if (auto *sub = u.operand->as<ast::Subscript>())
                keys = &sub->indices;
            Value current = read_variable(*storage, keys, *u.operand, state);
            const sema::Type *vt = storage->info->type;
            const uint64_t step = sema::is_pointer(sema::resolve(vt)) ? pointee_size(vt) : 1;
            bool increment =
                u.op == ast::UnaryOp::PreIncrement || u.op == ast::UnaryOp::PostIncrement;
            llvm::Value *updated =
                normalize(increment ? ir_.CreateAdd(current.value, const64(step))
                                    : ir_.CreateSub(current.value, const64(step)),
                          vt);
            write_variable(*storage, keys, {updated, vt}, false, state);
            bool post = u.op == ast::UnaryOp::PostIncrement || u.op == ast::UnaryOp::PostDecrement;
            return {post ? current.value : updated, type};
        }
        case ast::UnaryOp::Deref: {
            llvm::Value *address = lower_scalar(*u.operand, state);
            const sema::Type *pointee = sema::resolve(type);
            uint32_t size = pointee && pointee->size ? uint32_t(pointee->size) : 8;
            if (is_memory_value(type))
                return {read_kernel_value(state, address, type), type};
            llvm::Value *buffer = read_kernel(state, address, size);
            return {load_integer(buffer, type), type};
        }
        case ast::UnaryOp::Stringof: {
            Value v = lower(*u.operand, state);
            if (v.value->getType()->isPointerTy())
                return {v.value, type};
            llvm::Value *buffer = scratch(state, uint32_t(strsize()));
            store64(const64(0), buffer);
            llvm::Value *result = call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                                              {buffer, ir_.getInt32(uint32_t(strsize())), v.value});
            fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress,
                     v.value);
            return {buffer, type};
        }
        case ast::UnaryOp::AddressOf:
            if (std::optional<llvm::Value *> address = address_of(*u.operand, state))
                return {*address, type};
            error("D_ADDROF_VAR", expr.range,
                  "cannot take the address of memory of the D program's own "
                  "variables; only of memory reached through a pointer");
            return {const64(0), type};
        default:
            break;
        }
        error("D_CODEGEN", expr.range, "internal error: an operator without a lowering");
        return {const64(0), type};
    }
    case ast::Expr::Kind::Binary: {
        const auto &b = *expr.as<ast::Binary>();
        if (b.op == ast::BinaryOp::Comma) {
            lower(*b.lhs, state);
            return lower(*b.rhs, state);
        }
        if (b.op == ast::BinaryOp::LogicalAnd || b.op == ast::BinaryOp::LogicalOr) {
            llvm::Value *left = truth(*b.lhs, state);
            llvm::BasicBlock *left_end = ir_.GetInsertBlock();
            llvm::Function *function = left_end->getParent();
            auto *right_block = llvm::BasicBlock::Create(context_, "rhs", function);
            auto *join = llvm::BasicBlock::Create(context_, "logical", function);
            if (b.op == ast::BinaryOp::LogicalAnd)
                ir_.CreateCondBr(left, right_block, join);
            else
                ir_.CreateCondBr(left, join, right_block);
            ir_.SetInsertPoint(right_block);
            llvm::Value *right = truth(*b.rhs, state);
            llvm::BasicBlock *right_end = ir_.GetInsertBlock();
            ir_.CreateBr(join);
            ir_.SetInsertPoint(join);
            llvm::PHINode *phi = ir_.CreatePHI(ir_.getInt1Ty(), 2);
            phi->addIncoming(ir_.getInt1(b.op == ast::BinaryOp::LogicalOr), left_end);
            phi->addIncoming(right, right_end);
            return {ir_.CreateZExt(phi, i64()), type};
        }
        if (b.op == ast::BinaryOp::LogicalXor) {
            llvm::Value *left = truth(*b.lhs, state);
            llvm::Value *right = truth(*b.rhs, state);
            return {ir_.CreateZExt(ir_.CreateXor(left, right), i64()), type};
        }
        bool comparison = b.op >= ast::BinaryOp::Lt && b.op <= ast::BinaryOp::Ne;
        if (comparison && is_string_value(b.lhs->type) && is_string_value(b.rhs->type))
            return string_compare(lower(*b.lhs, state), lower(*b.rhs, state), b.op);
        if (comparison && (is_string_value(b.lhs->type) || is_string_value(b.rhs->type)))
            return null_string_compare(b, state);
        llvm::Value *lhs = lower_scalar(*b.lhs, state);
        llvm::Value *rhs = lower_scalar(*b.rhs, state);
        if (comparison) {
            const sema::Type *lt = sema::resolve(b.lhs->type), *rt = sema::resolve(b.rhs->type);
            bool is_signed = false;
            if (sema::is_integer(lt) && sema::is_integer(rt)) {
                // Both operands in their common type, as C compares them.
                const sema::Type *common =
                    sema::usual_arithmetic(*input_.checked.types, b.lhs->type, b.rhs->type);
                is_signed = is_signed_type(common);
                lhs = convert(lhs, b.lhs->type, common);
                rhs = convert(rhs, b.rhs->type, common);
            }
            llvm::CmpInst::Predicate p;
            switch (b.op) {
            case ast::BinaryOp::Lt:
                p = is_signed ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT;
                break;
            case ast::BinaryOp::Gt:
                p = is_signed ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT;
                break;
            case ast::BinaryOp::Le:
                p = is_signed ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE;
                break;
            case ast::BinaryOp::Ge:
                p = is_signed ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE;
                break;
            case ast::BinaryOp::Eq:
                p = llvm::CmpInst::ICMP_EQ;
                break;
            default:
                p = llvm::CmpInst::ICMP_NE;
                break;
            }
            return {ir_.CreateZExt(ir_.CreateICmp(p, lhs, rhs), i64()), type};
        }
        // Pointer arithmetic scales by the pointee's size.
        // An array is the address of its first element (sema's decayed()).
        const sema::Type *lt = sema::resolve(b.lhs->type), *rt = sema::resolve(b.rhs->type);
        const bool left_address = sema::is_pointer(lt) || sema::is_array(lt);
        const bool right_address = sema::is_pointer(rt) || sema::is_array(rt);
        if ((b.op == ast::BinaryOp::Add || b.op == ast::BinaryOp::Sub) &&
            (left_address || right_address)) {
            auto scale_of = [](const sema::Type *p) {
                const sema::Type *e = sema::resolve(p->element);
                return e && e->size ? e->size : 1;
            };
            // C's difference of pointers into one array is a whole number
            // of elements: an exact division, which LLVM makes a shift or a
            // multiplication (BPF before v4 has no signed division).
            if (left_address && right_address)
                return {exact_divide(ir_.CreateSub(as_number(state, lhs), as_number(state, rhs)),
                                     scale_of(lt)),
                        type};
            if (left_address)
                rhs = ir_.CreateMul(rhs, const64(scale_of(lt)));
            else
                lhs = ir_.CreateMul(lhs, const64(scale_of(rt)));
            return {b.op == ast::BinaryOp::Add ? ir_.CreateAdd(lhs, rhs) : ir_.CreateSub(lhs, rhs),
                    type};
        }
        // The usual arithmetic conversions (-7 / (uint32_t)7 divides
        // 4294967289); a shift's count keeps its own type. The result keeps
        // its 64 bits (see sema::convert_value).
        lhs = convert(lhs, b.lhs->type, type);
        if (b.op != ast::BinaryOp::Shl && b.op != ast::BinaryOp::Shr)
            rhs = convert(rhs, b.rhs->type, type);
        return {arithmetic(b.op, lhs, rhs, type, state), type};
    }
    case ast::Expr::Kind::Assign:
        return lower_assign(*expr.as<ast::Assign>(), state);
    case ast::Expr::Kind::Conditional: {
        const auto &c = *expr.as<ast::Conditional>();
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
    case ast::Expr::Kind::Call:
        return lower_call(*expr.as<ast::Call>(), /*statement=*/false, state);
    case ast::Expr::Kind::Subscript: {
        const auto &s = *expr.as<ast::Subscript>();
        if (const ast::Expr *substitute = substitute_of(expr)) {
            Value value = lower(*substitute, state);
            value.type = type;
            return value;
        }
        if (auto it = input_.checked.resolutions.find(s.base.get());
            it != input_.checked.resolutions.end()) {
            const sema::Resolution &r = it->second;
            if (r.kind == sema::Resolution::Kind::Builtin && r.builtin->lower_element)
                return r.builtin->lower_element(*this, s, state);
            if (r.kind == sema::Resolution::Kind::Inline &&
                !r.inline_definition->parameters.empty())
                return lower_inline_call(s, *r.inline_definition, state);
        }
        if (const VariableStorage *storage = storage_of(expr);
            storage && storage->kind == VariableStorage::Kind::Map)
            return read_variable(*storage, &s.indices, expr, state);
        if (!storage_of(expr) && s.base->kind == ast::Expr::Kind::Variable)
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
    case ast::Expr::Kind::Member: {
        const auto &m = *expr.as<ast::Member>();
        if (std::optional<Value> translated =
                lower_translated_member(*m.base, m.member, type, state))
            return *translated;
        std::optional<sema::Member> member = member_of(m);
        if (!member) {
            error("D_CODEGEN", expr.range, "internal error: unknown member '" + m.member + "'");
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
    case ast::Expr::Kind::Cast: {
        const auto &c = *expr.as<ast::Cast>();
        if (sema::is_array(sema::resolve(c.operand->type)) && !is_memory_value(type))
            return {normalize(lower_scalar(*c.operand, state), type), type};
        Value v = lower(*c.operand, state);
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

llvm::Value *Lowering::as_number(ClauseState &state, llvm::Value *value) {
    // The verifier refuses arithmetic between a map value's pointer (alloca
    // scratch, a global's bytes) and a number it cannot bound (`&a[3] - p`);
    // what is read back from map memory is only a number.
    llvm::Value *slot = scratch(state, 8);
    ir_.CreateAlignedStore(value, slot, llvm::Align(8), /*isVolatile=*/true);
    return ir_.CreateAlignedLoad(i64(), slot, llvm::Align(8), /*isVolatile=*/true);
}

llvm::Value *Lowering::exact_divide(llvm::Value *value, uint64_t divisor) {
    // value / divisor where it divides exactly: an arithmetic shift by the
    // divisor's factors of two, then a multiplication by the inverse of its
    // odd part modulo 2^64 (Newton's iteration doubles the bits each step).
    const unsigned shift = unsigned(std::countr_zero(divisor));
    const uint64_t odd = divisor >> shift;
    uint64_t inverse = odd;
    for (int i = 0; i < 5; i++)
        inverse *= 2 - odd * inverse;
    llvm::Value *shifted = shift ? ir_.CreateAShr(value, const64(shift), "", true) : value;
    return odd == 1 ? shifted : ir_.CreateMul(shifted, const64(inverse));
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
// uprobe's context holds the same registers. A computed index out of range is
// an illegal operation, as in DTrace.
Value Lowering::lower_user_register(const ast::Subscript &s, const sema::Type *type,
                                    ClauseState &state) {
    llvm::Value *index = lower_scalar(*s.indices.at(0), state);
    if (!sema::integer_constant(*s.indices[0], input_.checked))
        fault_if(state, ir_.CreateICmpUGE(index, const64(sema::kUserRegisterCount)),
                 trace::FaultKind::IllegalOperation, nullptr);
    llvm::Value *task = call_helper(BPF_FUNC_get_current_task_btf, ptr(), {});
    llvm::Value *registers = call_helper(BPF_FUNC_task_pt_regs, ptr(), {task});
    llvm::Value *buffer = scratch(state, 8);
    store64(const64(0), buffer);
    call_helper(BPF_FUNC_probe_read_kernel, i64(),
                {buffer, ir_.getInt32(8), at(registers, ir_.CreateShl(index, 3))});
    return {normalize(load64(buffer), type), type};
}

} // namespace dtx::codegen
