// Places: the lvalues that are not whole variables, as assignment, compound
// assignment and ++/-- write them: members (g.x, this->s.a, self->p.y,
// a[k].x, nested), elements of declared arrays (g.arr[i]), bit-fields, and
// memory reached through a pointer (*p, p->x, p[i]), which D lets a program
// write only in scratch memory it allocated (alloca()). Whole variables
// (x, self->x, a[k]) are written by write_variable() in lower_expr.cpp, which
// keeps D's rule that assigning 0 deletes a dynamic variable.
#include "codegen/lowering.h"

#include <linux/bpf.h>

namespace dtx::codegen {

namespace {

// The operator of a compound assignment: `x *= y` is x = x * y.
ast::BinaryOp compound_operator(ast::AssignOp op) {
    switch (op) {
    case ast::AssignOp::Mul:
        return ast::BinaryOp::Mul;
    case ast::AssignOp::Div:
        return ast::BinaryOp::Div;
    case ast::AssignOp::Mod:
        return ast::BinaryOp::Mod;
    case ast::AssignOp::Sub:
        return ast::BinaryOp::Sub;
    case ast::AssignOp::Shl:
        return ast::BinaryOp::Shl;
    case ast::AssignOp::Shr:
        return ast::BinaryOp::Shr;
    case ast::AssignOp::And:
        return ast::BinaryOp::BitAnd;
    case ast::AssignOp::Xor:
        return ast::BinaryOp::BitXor;
    case ast::AssignOp::Or:
        return ast::BinaryOp::BitOr;
    default:
        return ast::BinaryOp::Add;
    }
}

// The bytes a bit-field of `width` bits starting `shift` bits into its first
// byte touches.
uint32_t bit_field_bytes(uint32_t shift, uint32_t width) {
    return (shift + width + 7) / 8;
}

} // namespace

bool Lowering::is_whole_variable(const ast::Expr &target) {
    const VariableStorage *storage = storage_of(target);
    if (!storage)
        return false;
    if (target.kind == ast::Expr::Kind::Subscript)
        return storage->kind == VariableStorage::Kind::Map;
    return target.kind == ast::Expr::Kind::Identifier || target.kind == ast::Expr::Kind::Variable;
}

llvm::Value *Lowering::map_entry(const VariableStorage &storage,
                                 const std::vector<ast::ExprPtr> *keys, ClauseState &state) {
    llvm::Value *key = build_key(storage, keys, state);
    llvm::Value *entry = map_lookup(storage.map, key);
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *create = llvm::BasicBlock::Create(context_, "entry_new", function);
    auto *full = llvm::BasicBlock::Create(context_, "entry_full", function);
    auto *ready = llvm::BasicBlock::Create(context_, "entry_ready", function);
    llvm::BasicBlock *found = ir_.GetInsertBlock();
    ir_.CreateCondBr(ir_.CreateIsNull(entry), create, ready);

    // A member of a variable not yet set is written into a zeroed one.
    ir_.SetInsertPoint(create);
    llvm::Value *zeros = scratch(state, storage.value_size);
    zero(zeros, storage.value_size);
    call_helper(BPF_FUNC_map_update_elem, i64(), {storage.map, key, zeros, const64(BPF_NOEXIST)});
    llvm::Value *created = map_lookup(storage.map, key);
    llvm::BasicBlock *created_end = ir_.GetInsertBlock();
    ir_.CreateCondBr(ir_.CreateIsNull(created), full, ready);

    // The map is full: the store is a dynamic variable drop, and the clause
    // goes on as dtrace's does.
    ir_.SetInsertPoint(full);
    llvm::Value *sink = scratch(state, storage.value_size);
    zero(sink, storage.value_size);
    auto *dropped = llvm::BasicBlock::Create(context_, "entry_dropped", function);
    count_drop(trace::DropCounter::Dynamic, dropped);
    ir_.SetInsertPoint(dropped);
    ir_.CreateBr(ready);
    llvm::BasicBlock *full_end = dropped;

    ir_.SetInsertPoint(ready);
    llvm::PHINode *address = ir_.CreatePHI(ptr(), 3);
    address->addIncoming(entry, found);
    address->addIncoming(created, created_end);
    address->addIncoming(sink, full_end);
    return address;
}

std::optional<Place> Lowering::place_of(const ast::Expr &target, ClauseState &state) {
    const sema::Type *type = target.type;
    switch (target.kind) {
    case ast::Expr::Kind::Identifier:
    case ast::Expr::Kind::Variable: {
        const VariableStorage *storage = storage_of(target);
        if (!storage)
            break;
        switch (storage->kind) {
        case VariableStorage::Kind::Global:
            return Place{at(globals_, storage->offset), type};
        case VariableStorage::Kind::ClauseLocal:
            return Place{at(state.dctx, storage->offset), type};
        case VariableStorage::Kind::Map:
            return Place{map_entry(*storage, nullptr, state), type};
        }
        break;
    }
    case ast::Expr::Kind::Subscript: {
        const auto &s = *target.as<ast::Subscript>();
        if (const VariableStorage *storage = storage_of(target);
            storage && storage->kind == VariableStorage::Kind::Map)
            return Place{map_entry(*storage, &s.indices, state), type};
        const sema::Type *base_type = sema::resolve(s.base->type);
        const sema::Type *element = sema::resolve(type);
        const uint64_t element_size = element && element->size ? element->size : 1;
        llvm::Value *index = lower_scalar(*s.indices.at(0), state);
        if (base_type && sema::is_array(base_type)) {
            std::optional<Place> base = place_of(*s.base, state);
            if (!base)
                return std::nullopt;
            check_index(state, index, base_type);
            llvm::Value *bounded = opaque(index);
            return Place{at(base->address, ir_.CreateMul(bounded, const64(element_size))), type};
        }
        llvm::Value *address = ir_.CreateAdd(lower_scalar(*s.base, state),
                                             ir_.CreateMul(index, const64(element_size)));
        llvm::Value *length = const64(element_size);
        return Place{scratch_pointer(state, address, length), type};
    }
    case ast::Expr::Kind::Member: {
        const auto &m = *target.as<ast::Member>();
        std::optional<sema::Member> member = member_of(m);
        if (!member)
            break;
        uint32_t shift = member->is_bit_field() ? uint32_t(member->bit_offset % 8) : 0;
        if (m.arrow) {
            llvm::Value *address =
                ir_.CreateAdd(lower_scalar(*m.base, state), const64(member->byte_offset()));
            uint64_t size = member->is_bit_field()
                                ? bit_field_bytes(shift, member->bit_width)
                                : std::max<uint64_t>(sema::resolve(member->type)->size, 1);
            llvm::Value *length = const64(size);
            return Place{scratch_pointer(state, address, length), type, shift, member->bit_width};
        }
        std::optional<Place> base = place_of(*m.base, state);
        if (!base)
            return std::nullopt;
        return Place{at(base->address, member->byte_offset()), type, shift, member->bit_width};
    }
    case ast::Expr::Kind::Unary: {
        const auto &u = *target.as<ast::Unary>();
        if (u.op != ast::UnaryOp::Deref)
            break;
        const sema::Type *pointee = sema::resolve(type);
        llvm::Value *length = const64(pointee && pointee->size ? pointee->size : 1);
        return Place{scratch_pointer(state, lower_scalar(*u.operand, state), length), type};
    }
    default:
        break;
    }
    error("D_CODEGEN", target.range, "internal error: this is not a place that can be assigned");
    return std::nullopt;
}

llvm::Value *Lowering::load_bits(llvm::Value *address, uint32_t shift, uint32_t width,
                                 const sema::Type *type) {
    // Byte by byte: a bit-field's bytes may end anywhere in its struct.
    const uint32_t bytes = bit_field_bytes(shift, width);
    llvm::Value *bits = const64(0);
    for (uint32_t i = 0; i < bytes && i < 8; i++) {
        llvm::Value *byte = ir_.CreateZExt(ir_.CreateLoad(i8(), at(address, i)), i64());
        bits = ir_.CreateOr(bits, ir_.CreateShl(byte, 8 * i));
    }
    bits = ir_.CreateLShr(bits, shift);
    if (bytes > 8) { // a wide field's last bits, in a ninth byte
        llvm::Value *last = ir_.CreateZExt(ir_.CreateLoad(i8(), at(address, 8)), i64());
        bits = ir_.CreateOr(bits, ir_.CreateShl(last, 64 - shift));
    }
    if (width < 64) {
        bits = ir_.CreateAnd(bits, const64((uint64_t(1) << width) - 1));
        const sema::Type *t = sema::resolve(type);
        if (t && t->is_signed) { // sign-extend from the field's top bit
            llvm::Value *up = ir_.CreateShl(bits, 64 - width);
            bits = ir_.CreateAShr(up, 64 - width);
        }
    }
    return bits;
}

void Lowering::store_bits(llvm::Value *address, uint32_t shift, uint32_t width,
                          llvm::Value *value) {
    const uint32_t bytes = bit_field_bytes(shift, width);
    for (uint32_t i = 0; i < bytes; i++) {
        // Which bits of byte i belong to the field, and which of the value's.
        const int64_t first = int64_t(i) * 8 - int64_t(shift); // value bit at the byte's bit 0
        uint64_t mask = 0;
        for (int bit = 0; bit < 8; bit++) {
            int64_t v = first + bit;
            if (v >= 0 && v < int64_t(width))
                mask |= uint64_t(1) << bit;
        }
        llvm::Value *part = first >= 0 ? ir_.CreateLShr(value, uint64_t(first))
                                       : ir_.CreateShl(value, uint64_t(-first));
        part = ir_.CreateAnd(part, const64(mask));
        llvm::Value *byte_address = at(address, i);
        llvm::Value *old = ir_.CreateZExt(ir_.CreateLoad(i8(), byte_address), i64());
        llvm::Value *merged = ir_.CreateOr(ir_.CreateAnd(old, const64(~mask & 0xff)), part);
        ir_.CreateStore(ir_.CreateTrunc(merged, i8()), byte_address);
    }
}

llvm::Value *Lowering::load_place(const Place &place) {
    if (place.bit_width)
        return load_bits(place.address, place.shift, place.bit_width, place.type);
    return load_integer(place.address, place.type);
}

void Lowering::store_place(const Place &place, const Value &value) {
    const sema::Type *t = sema::resolve(place.type);
    if (place.bit_width) {
        store_bits(place.address, place.shift, place.bit_width, value.value);
        return;
    }
    if (t && sema::is_char_array(t)) {
        // A string into a char array: at most the array's bytes, NUL included
        // when it fits (C's strncpy, as dtrace stores it).
        llvm::Value *from = value.value;
        if (!from->getType()->isPointerTy())
            from = ir_.CreateIntToPtr(from, ptr());
        zero(place.address, uint32_t(t->size));
        call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                    {place.address, ir_.getInt32(uint32_t(t->size)), from});
        return;
    }
    if (is_memory_value(t)) {
        copy_bytes(place.address, value.value, uint32_t(t->size));
        return;
    }
    llvm::Value *scalar = value.value;
    if (scalar->getType()->isPointerTy()) // a string's address into a char *
        scalar = ir_.CreatePtrToInt(scalar, i64());
    store_integer(normalize(scalar, place.type), place.address, place.type);
}

Value Lowering::assign_place(const ast::Assign &assign, ClauseState &state) {
    const sema::Type *type = assign.target->type;
    if (assign.op == ast::AssignOp::Assign) {
        Value value = lower(*assign.value, state);
        std::optional<Place> place = place_of(*assign.target, state);
        if (!place)
            return {const64(0), type};
        if (!value.value->getType()->isPointerTy())
            value.value = convert(value.value, assign.value->type, type);
        store_place(*place, value);
        if (is_memory_value(type))
            return {place->address, type};
        return {normalize(value.value, type), type};
    }
    std::optional<Place> place = place_of(*assign.target, state);
    if (!place)
        return {const64(0), type};
    llvm::Value *result = compound(assign, load_place(*place), type, state);
    store_place(*place, {result, type});
    return {result, type};
}

Value Lowering::increment_place(const ast::Unary &unary, ClauseState &state) {
    const sema::Type *type = unary.operand->type;
    std::optional<Place> place = place_of(*unary.operand, state);
    if (!place)
        return {const64(0), type};
    llvm::Value *current = load_place(*place);
    const bool increment =
        unary.op == ast::UnaryOp::PreIncrement || unary.op == ast::UnaryOp::PostIncrement;
    const uint64_t step = sema::is_pointer(sema::resolve(type)) ? pointee_size(type) : 1;
    llvm::Value *updated = normalize(increment ? ir_.CreateAdd(current, const64(step))
                                               : ir_.CreateSub(current, const64(step)),
                                     type);
    store_place(*place, {updated, type});
    const bool post =
        unary.op == ast::UnaryOp::PostIncrement || unary.op == ast::UnaryOp::PostDecrement;
    return {post ? current : updated, type};
}

llvm::Value *Lowering::compound(const ast::Assign &assign, llvm::Value *current,
                                const sema::Type *type, ClauseState &state) {
    llvm::Value *rhs = lower_scalar(*assign.value, state);
    const ast::BinaryOp op = compound_operator(assign.op);
    const sema::Type *op_type =
        sema::is_integer(sema::resolve(assign.value->type))
            ? sema::usual_arithmetic(*input_.checked.types, type, assign.value->type)
            : type;
    if (sema::is_pointer(sema::resolve(type)) &&
        (op == ast::BinaryOp::Add || op == ast::BinaryOp::Sub)) {
        rhs = ir_.CreateMul(rhs, const64(pointee_size(type)));
        op_type = type;
    }
    llvm::Value *lhs = convert(current, type, op_type);
    if (op != ast::BinaryOp::Shl && op != ast::BinaryOp::Shr)
        rhs = convert(rhs, assign.value->type, op_type);
    return normalize(arithmetic(op, lhs, rhs, op_type, state), type);
}

uint64_t Lowering::pointee_size(const sema::Type *pointer) {
    const sema::Type *p = sema::resolve(pointer);
    const sema::Type *element = p ? sema::resolve(p->element) : nullptr;
    return element && element->size ? element->size : 1;
}

} // namespace dtx::codegen
