// Operators, with C's semantics on normalized i64 values: unary operators,
// ++ and -- on whole variables, logical operators, comparisons (of strings
// too) and arithmetic (of pointers too).
#include "codegen/lowering.h"
#include "codegen/runtime_library.h"

#include <linux/bpf.h>

#include <bit>

namespace dtx::codegen {

namespace {

bool is_signed_type(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    return t && sema::is_integer(t) && t->is_signed;
}

} // namespace

Value Lowering::lower_unary(const ast::Unary &u, ClauseState &state) {
    const sema::Type *type = u.type;
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
    case ast::UnaryOp::PostDecrement:
        if (!is_whole_variable(*u.operand))
            return increment_place(u, state);
        return increment_variable(u, state);
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
        return {string_at(state, v.value), type};
    }
    case ast::UnaryOp::AddressOf:
        if (std::optional<llvm::Value *> address = address_of(*u.operand, state))
            return {*address, type};
        error("D_ADDROF_VAR", u.range,
              "cannot take the address of memory of the D program's own "
              "variables; only of memory reached through a pointer");
        return {const64(0), type};
    default:
        break;
    }
    error("D_CODEGEN", u.range, "internal error: an operator without a lowering");
    return {const64(0), type};
}

Value Lowering::increment_variable(const ast::Unary &u, ClauseState &state) {
    const VariableStorage *storage = storage_of(*u.operand);
    const std::vector<ast::ExprPtr> *keys = nullptr;
    if (auto *sub = u.operand->as<ast::Subscript>())
        keys = &sub->indices;
    Value current = read_variable(*storage, keys, *u.operand, state);
    const sema::Type *vt = storage->info->type;
    const uint64_t step = sema::is_pointer(sema::resolve(vt)) ? pointee_size(vt) : 1;
    bool increment = u.op == ast::UnaryOp::PreIncrement || u.op == ast::UnaryOp::PostIncrement;
    llvm::Value *updated = normalize(increment ? ir_.CreateAdd(current.value, const64(step))
                                               : ir_.CreateSub(current.value, const64(step)),
                                     vt);
    write_variable(*storage, keys, {updated, vt}, false, state);
    bool post = u.op == ast::UnaryOp::PostIncrement || u.op == ast::UnaryOp::PostDecrement;
    return {post ? current.value : updated, u.type};
}

Value Lowering::lower_binary(const ast::Binary &b, ClauseState &state) {
    if (b.op == ast::BinaryOp::Comma) {
        lower(*b.lhs, state);
        return lower(*b.rhs, state);
    }
    if (b.op == ast::BinaryOp::LogicalAnd || b.op == ast::BinaryOp::LogicalOr ||
        b.op == ast::BinaryOp::LogicalXor)
        return lower_logical(b, state);
    if (b.op >= ast::BinaryOp::Lt && b.op <= ast::BinaryOp::Ne)
        return lower_comparison(b, state);
    return lower_arithmetic(b, state);
}

Value Lowering::lower_logical(const ast::Binary &b, ClauseState &state) {
    const sema::Type *type = b.type;
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
    // ^^ is decided by both operands: no short circuit.
    llvm::Value *left = truth(*b.lhs, state);
    llvm::Value *right = truth(*b.rhs, state);
    return {ir_.CreateZExt(ir_.CreateXor(left, right), i64()), type};
}

Value Lowering::lower_comparison(const ast::Binary &b, ClauseState &state) {
    const sema::Type *type = b.type;
    if (is_string_value(b.lhs->type) && is_string_value(b.rhs->type))
        return string_compare(lower(*b.lhs, state), lower(*b.rhs, state), b.op);
    if (is_string_value(b.lhs->type) || is_string_value(b.rhs->type))
        return null_string_compare(b, state);
    llvm::Value *lhs = lower_scalar(*b.lhs, state);
    llvm::Value *rhs = lower_scalar(*b.rhs, state);
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

// `string + n` and `n + string`: the string from byte n on ("" past its
// end); a negative n is an address before it, a fault.
Value Lowering::lower_string_offset(const ast::Binary &b, ClauseState &state) {
    const bool string_first = sema::is_string(sema::resolve(b.lhs->type));
    llvm::Value *text = lower_string(string_first ? *b.lhs : *b.rhs, state);
    llvm::Value *offset = lower_scalar(string_first ? *b.rhs : *b.lhs, state);
    fault_if(state, ir_.CreateICmpSLT(offset, const64(0)), trace::FaultKind::BadAddress, offset);
    llvm::Value *dst = scratch(state, uint32_t(strsize()));
    runtime_call("dtx_rt_substr", {dst, text, offset, const64(uint64_t(kRuntimeOmittedArgument)),
                                   const64(strsize())});
    return {dst, b.type};
}

Value Lowering::lower_arithmetic(const ast::Binary &b, ClauseState &state) {
    const sema::Type *type = b.type;
    if (sema::is_string(sema::resolve(type)))
        return lower_string_offset(b, state);
    llvm::Value *lhs = lower_scalar(*b.lhs, state);
    llvm::Value *rhs = lower_scalar(*b.rhs, state);
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

} // namespace dtx::codegen
