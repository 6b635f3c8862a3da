#include "parser/ast.h"

namespace dtx::ast {

void for_each_operand(const Expr &expr, const std::function<void(const Expr &)> &visit) {
    auto each = [&](const std::vector<ExprPtr> &list) {
        for (const ExprPtr &e : list)
            visit(*e);
    };
    switch (expr.kind) {
    case Expr::Kind::Unary:
        visit(*expr.as<Unary>()->operand);
        return;
    case Expr::Kind::Binary:
        visit(*expr.as<Binary>()->lhs);
        visit(*expr.as<Binary>()->rhs);
        return;
    case Expr::Kind::Assign:
        visit(*expr.as<Assign>()->value);
        visit(*expr.as<Assign>()->target);
        return;
    case Expr::Kind::Conditional: {
        const auto *c = expr.as<Conditional>();
        visit(*c->condition);
        visit(*c->if_true);
        visit(*c->if_false);
        return;
    }
    case Expr::Kind::Call:
        each(expr.as<Call>()->arguments);
        return;
    case Expr::Kind::Subscript:
        visit(*expr.as<Subscript>()->base);
        each(expr.as<Subscript>()->indices);
        return;
    case Expr::Kind::Member:
        visit(*expr.as<Member>()->base);
        return;
    case Expr::Kind::Cast:
        visit(*expr.as<Cast>()->operand);
        return;
    case Expr::Kind::Xlate:
        visit(*expr.as<Xlate>()->operand);
        return;
    default:
        return;
    }
}

void for_each_expression(const Expr &expr, const std::function<void(const Expr &)> &visit) {
    visit(expr);
    for_each_operand(expr, [&](const Expr &operand) { for_each_expression(operand, visit); });
}

void for_each_expression(const Stmt &stmt, const std::function<void(const Expr &)> &visit) {
    switch (stmt.kind) {
    case Stmt::Kind::Expression:
        for_each_expression(*stmt.as<ExpressionStmt>()->expr, visit);
        return;
    case Stmt::Kind::If: {
        const auto *branch = stmt.as<IfStmt>();
        for_each_expression(*branch->condition, visit);
        for_each_expression(*branch->then_branch, visit);
        if (branch->else_branch)
            for_each_expression(*branch->else_branch, visit);
        return;
    }
    case Stmt::Kind::Block:
        for (const StmtPtr &inner : stmt.as<BlockStmt>()->statements)
            for_each_expression(*inner, visit);
        return;
    case Stmt::Kind::Empty:
        return;
    }
}

} // namespace dtx::ast
