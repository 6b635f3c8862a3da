// Which pointers point into alloca() memory, as dtrace tracks them: the
// result of alloca() or copyin(), and what casts, pointer arithmetic,
// &p->m, &p[i], ?: of two of them and variables carry of it. dtrace refuses
// at compile time a variable that would hold both such pointers and others
// (D_ALLOCA_INCOMPAT), and a copyinto() whose destination is not one.
#include "codegen/checker.h"

namespace dtx::sema {

using namespace ast;

bool Checker::is_alloca_pointer(const Expr &expr) const {
    return alloca_pointers_.count(&expr) != 0;
}

const VariableInfo *Checker::variable_of(const Expr &expr) const {
    if (expr.kind != Expr::Kind::Identifier && expr.kind != Expr::Kind::Variable)
        return nullptr;
    auto it = out_.resolutions.find(&expr);
    return it != out_.resolutions.end() && it->second.kind == Resolution::Kind::Variable
               ? it->second.variable
               : nullptr;
}

void Checker::note_alloca(Expr &expr) {
    if (!expr.type)
        return;
    bool alloca = false;
    switch (expr.kind) {
    case Expr::Kind::Call: {
        const std::string &name = expr.as<Call>()->function;
        alloca = name == "alloca" || name == "copyin";
        break;
    }
    case Expr::Kind::Cast:
        alloca = is_pointer(expr.type) && is_alloca_pointer(*expr.as<Cast>()->operand);
        break;
    case Expr::Kind::Binary: {
        const auto &binary = *expr.as<Binary>();
        alloca = (binary.op == BinaryOp::Add || binary.op == BinaryOp::Sub) &&
                 is_pointer(expr.type) &&
                 (is_alloca_pointer(*binary.lhs) || is_alloca_pointer(*binary.rhs));
        break;
    }
    case Expr::Kind::Unary: {
        const auto &unary = *expr.as<Unary>();
        if (unary.op != UnaryOp::AddressOf)
            break;
        const Expr &place = *unary.operand;
        if (const auto *member = place.as<ast::Member>(); member && member->arrow)
            alloca = is_alloca_pointer(*member->base);
        else if (const auto *element = place.as<Subscript>())
            alloca = is_alloca_pointer(*element->base);
        else if (const auto *deref = place.as<Unary>(); deref && deref->op == UnaryOp::Deref)
            alloca = is_alloca_pointer(*deref->operand);
        break;
    }
    case Expr::Kind::Conditional: {
        // Where only one result is an alloca() pointer, the value is not one
        // (and may not go into a variable that holds them).
        const auto &cond = *expr.as<Conditional>();
        alloca = is_alloca_pointer(*cond.if_true) && is_alloca_pointer(*cond.if_false);
        break;
    }
    case Expr::Kind::Identifier:
    case Expr::Kind::Variable: {
        const VariableInfo *variable = variable_of(expr);
        auto it = variable ? alloca_variables_.find(variable) : alloca_variables_.end();
        alloca = it != alloca_variables_.end() && it->second;
        break;
    }
    case Expr::Kind::Assign:
        alloca = note_alloca_store(*expr.as<Assign>());
        break;
    default:
        break;
    }
    if (alloca)
        alloca_pointers_.insert(&expr);
}

bool Checker::note_alloca_store(const Assign &assign) {
    if (assign.op != AssignOp::Assign)
        return is_alloca_pointer(*assign.target);
    const bool alloca = is_alloca_pointer(*assign.value);
    const VariableInfo *variable = variable_of(*assign.target);
    // NULL may go anywhere; only pointers are told apart.
    if (!variable || !is_pointer(assign.value->type) || is_null_constant(*assign.value))
        return alloca;
    auto [it, first] = alloca_variables_.try_emplace(variable, alloca);
    if (!first && it->second != alloca)
        error("D_ALLOCA_INCOMPAT", assign.range,
              alloca ? "an alloca() pointer assigned to a variable that holds other pointers"
                     : "a pointer that is not from alloca() assigned to a variable that holds "
                       "alloca() pointers");
    return alloca;
}

} // namespace dtx::sema
