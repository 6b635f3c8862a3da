// A readable S-expression rendering of the AST, for --dump=ast and for tests
// that want to see how an expression grouped: `(+ 1 (* 2 3))`.
#pragma once

#include "parser/ast.h"

#include <iosfwd>
#include <string>

namespace dtx::ast {

std::string to_string(const Expr &expr);
std::string to_string(const TypeExpr &type);
void dump(std::ostream &out, const Program &program);

const char *binary_op_name(BinaryOp op);
const char *unary_op_name(UnaryOp op);
const char *assign_op_name(AssignOp op);

} // namespace dtx::ast
