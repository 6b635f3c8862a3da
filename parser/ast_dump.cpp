#include "parser/ast_dump.h"

#include <ostream>
#include <sstream>

namespace dtx::ast {

const char *binary_op_name(BinaryOp op) {
    switch (op) {
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::Mod:
        return "%";
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::Shl:
        return "<<";
    case BinaryOp::Shr:
        return ">>";
    case BinaryOp::Lt:
        return "<";
    case BinaryOp::Gt:
        return ">";
    case BinaryOp::Le:
        return "<=";
    case BinaryOp::Ge:
        return ">=";
    case BinaryOp::Eq:
        return "==";
    case BinaryOp::Ne:
        return "!=";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::LogicalAnd:
        return "&&";
    case BinaryOp::LogicalXor:
        return "^^";
    case BinaryOp::LogicalOr:
        return "||";
    case BinaryOp::Comma:
        return ",";
    }
    return "?";
}

const char *unary_op_name(UnaryOp op) {
    switch (op) {
    case UnaryOp::Negate:
        return "neg";
    case UnaryOp::Plus:
        return "plus";
    case UnaryOp::BitNot:
        return "~";
    case UnaryOp::LogicalNot:
        return "!";
    case UnaryOp::Deref:
        return "deref";
    case UnaryOp::AddressOf:
        return "addr";
    case UnaryOp::PreIncrement:
        return "pre++";
    case UnaryOp::PreDecrement:
        return "pre--";
    case UnaryOp::PostIncrement:
        return "post++";
    case UnaryOp::PostDecrement:
        return "post--";
    case UnaryOp::SizeofExpr:
        return "sizeof";
    case UnaryOp::Stringof:
        return "stringof";
    }
    return "?";
}

const char *assign_op_name(AssignOp op) {
    switch (op) {
    case AssignOp::Assign:
        return "=";
    case AssignOp::Mul:
        return "*=";
    case AssignOp::Div:
        return "/=";
    case AssignOp::Mod:
        return "%=";
    case AssignOp::Add:
        return "+=";
    case AssignOp::Sub:
        return "-=";
    case AssignOp::Shl:
        return "<<=";
    case AssignOp::Shr:
        return ">>=";
    case AssignOp::And:
        return "&=";
    case AssignOp::Xor:
        return "^=";
    case AssignOp::Or:
        return "|=";
    }
    return "?";
}

namespace {

std::string quote(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char buf[8];
                snprintf(buf, sizeof buf, "\\%03o", unsigned(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

void write_expr(std::ostream &out, const Expr &e);

void write_list(std::ostream &out, const std::vector<ExprPtr> &list) {
    for (const ExprPtr &item : list) {
        out << ' ';
        write_expr(out, *item);
    }
}

void write_type(std::ostream &out, const TypeExpr &t) {
    if (t.qualifiers & uint8_t(TypeQualifier::Const))
        out << "const ";
    if (t.qualifiers & uint8_t(TypeQualifier::Volatile))
        out << "volatile ";
    switch (t.kind) {
    case TypeExpr::Kind::Named:
        out << t.name;
        return;
    case TypeExpr::Kind::Struct:
    case TypeExpr::Kind::Union:
        out << (t.kind == TypeExpr::Kind::Struct ? "struct " : "union ")
            << (t.name.empty() ? "<anon>" : t.name);
        if (t.has_body) {
            out << " {";
            for (const StructMember &m : t.members) {
                out << ' ';
                write_type(out, *m.type);
                out << ' ' << (m.name.empty() ? "<anon>" : m.name);
                if (m.bit_width) {
                    out << " : ";
                    write_expr(out, *m.bit_width);
                }
                out << ';';
            }
            out << " }";
        }
        return;
    case TypeExpr::Kind::Enum:
        out << "enum " << (t.name.empty() ? "<anon>" : t.name);
        if (t.has_body) {
            out << " {";
            for (const Enumerator &e : t.enumerators) {
                out << ' ' << e.name;
                if (e.value) {
                    out << " = ";
                    write_expr(out, *e.value);
                }
                out << ',';
            }
            out << " }";
        }
        return;
    case TypeExpr::Kind::Pointer:
        out << "(ptr ";
        write_type(out, *t.element);
        out << ')';
        return;
    case TypeExpr::Kind::Array:
        out << "(array ";
        write_type(out, *t.element);
        if (t.array_size) {
            out << ' ';
            write_expr(out, *t.array_size);
        }
        for (const TypeExprPtr &k : t.array_keys) {
            out << " [key ";
            write_type(out, *k);
            out << ']';
        }
        out << ')';
        return;
    case TypeExpr::Kind::Function:
        out << "(fn ";
        write_type(out, *t.element);
        for (const TypeExprPtr &p : t.parameters) {
            out << ' ';
            write_type(out, *p);
        }
        if (t.variadic)
            out << " ...";
        out << ')';
        return;
    }
}

void write_expr(std::ostream &out, const Expr &e) {
    switch (e.kind) {
    case Expr::Kind::IntegerLiteral: {
        const auto &n = *e.as<IntegerLiteral>();
        out << n.value;
        if (n.is_unsigned)
            out << 'u';
        for (int i = 0; i < n.long_count; ++i)
            out << 'l';
        return;
    }
    case Expr::Kind::StringLiteral:
        out << quote(e.as<StringLiteral>()->value);
        return;
    case Expr::Kind::Identifier: {
        const auto &n = *e.as<Identifier>();
        if (n.scoped)
            out << n.module << '`';
        out << n.name;
        return;
    }
    case Expr::Kind::Variable: {
        const auto &n = *e.as<Variable>();
        out << (n.scope == VariableScope::Thread ? "self->" : "this->") << n.name;
        return;
    }
    case Expr::Kind::Aggregation:
        out << '@' << e.as<Aggregation>()->name;
        return;
    case Expr::Kind::MacroArgument: {
        const auto &n = *e.as<MacroArgument>();
        out << (n.as_string ? "$$" : "$") << n.name;
        return;
    }
    case Expr::Kind::Unary: {
        const auto &n = *e.as<Unary>();
        out << '(' << unary_op_name(n.op) << ' ';
        write_expr(out, *n.operand);
        out << ')';
        return;
    }
    case Expr::Kind::Binary: {
        const auto &n = *e.as<Binary>();
        out << '(' << binary_op_name(n.op) << ' ';
        write_expr(out, *n.lhs);
        out << ' ';
        write_expr(out, *n.rhs);
        out << ')';
        return;
    }
    case Expr::Kind::Assign: {
        const auto &n = *e.as<Assign>();
        out << '(' << assign_op_name(n.op) << ' ';
        write_expr(out, *n.target);
        out << ' ';
        write_expr(out, *n.value);
        out << ')';
        return;
    }
    case Expr::Kind::Conditional: {
        const auto &n = *e.as<Conditional>();
        out << "(? ";
        write_expr(out, *n.condition);
        out << ' ';
        write_expr(out, *n.if_true);
        out << ' ';
        write_expr(out, *n.if_false);
        out << ')';
        return;
    }
    case Expr::Kind::Call: {
        const auto &n = *e.as<Call>();
        out << "(call " << n.function;
        write_list(out, n.arguments);
        out << ')';
        return;
    }
    case Expr::Kind::Subscript: {
        const auto &n = *e.as<Subscript>();
        out << "(index ";
        write_expr(out, *n.base);
        write_list(out, n.indices);
        out << ')';
        return;
    }
    case Expr::Kind::Member: {
        const auto &n = *e.as<Member>();
        out << '(' << (n.arrow ? "->" : ".") << ' ';
        write_expr(out, *n.base);
        out << ' ' << n.member << ')';
        return;
    }
    case Expr::Kind::Cast: {
        const auto &n = *e.as<Cast>();
        out << "(cast ";
        write_type(out, *n.type);
        out << ' ';
        write_expr(out, *n.operand);
        out << ')';
        return;
    }
    case Expr::Kind::SizeofType:
        out << "(sizeof-type ";
        write_type(out, *e.as<SizeofType>()->type);
        out << ')';
        return;
    case Expr::Kind::Offsetof: {
        const auto &n = *e.as<Offsetof>();
        out << "(offsetof ";
        write_type(out, *n.type);
        out << ' ' << n.member << ')';
        return;
    }
    case Expr::Kind::Xlate: {
        const auto &n = *e.as<Xlate>();
        out << "(xlate ";
        write_type(out, *n.type);
        out << ' ';
        write_expr(out, *n.operand);
        out << ')';
        return;
    }
    }
}

void write_stmt(std::ostream &out, const Stmt &s, int depth) {
    std::string indent(size_t(depth) * 2, ' ');
    switch (s.kind) {
    case Stmt::Kind::Expression:
        out << indent;
        write_expr(out, *s.as<ExpressionStmt>()->expr);
        out << '\n';
        return;
    case Stmt::Kind::Empty:
        out << indent << "(empty)\n";
        return;
    case Stmt::Kind::Block:
        out << indent << "(block\n";
        for (const StmtPtr &inner : s.as<BlockStmt>()->statements)
            write_stmt(out, *inner, depth + 1);
        out << indent << ")\n";
        return;
    case Stmt::Kind::If: {
        const auto &n = *s.as<IfStmt>();
        out << indent << "(if ";
        write_expr(out, *n.condition);
        out << '\n';
        write_stmt(out, *n.then_branch, depth + 1);
        if (n.else_branch) {
            out << indent << " else\n";
            write_stmt(out, *n.else_branch, depth + 1);
        }
        out << indent << ")\n";
        return;
    }
    }
}

const char *storage_name(StorageClass s) {
    switch (s) {
    case StorageClass::None:
        return "";
    case StorageClass::Auto:
        return "auto ";
    case StorageClass::Register:
        return "register ";
    case StorageClass::Static:
        return "static ";
    case StorageClass::Extern:
        return "extern ";
    case StorageClass::Typedef:
        return "typedef ";
    case StorageClass::Self:
        return "self ";
    case StorageClass::This:
        return "this ";
    }
    return "";
}

} // namespace

std::string to_string(const Expr &expr) {
    std::ostringstream out;
    write_expr(out, expr);
    return out.str();
}

std::string to_string(const TypeExpr &type) {
    std::ostringstream out;
    write_type(out, type);
    return out.str();
}

void dump(std::ostream &out, const Program &program) {
    for (const Pragma &p : program.pragmas) {
        out << "(pragma";
        for (const std::string &w : p.words)
            out << ' ' << w;
        out << ")\n";
    }
    for (const Node *item : program.items) {
        if (item->range.source && item->range.source->library())
            continue; // dtx's D library, not the program
        if (auto *c = dynamic_cast<const Clause *>(item)) {
            out << "(clause";
            for (const ProbeDescription &p : c->probes)
                out << " [" << p.provider << ':' << p.module << ':' << p.function << ':' << p.name
                    << ']';
            out << '\n';
            if (c->predicate)
                out << "  (predicate " << to_string(*c->predicate) << ")\n";
            if (!c->has_body)
                out << "  (no-body)\n";
            for (const StmtPtr &s : c->statements)
                write_stmt(out, *s, 1);
            out << ")\n";
        } else if (auto *d = dynamic_cast<const Declaration *>(item)) {
            out << "(declare " << storage_name(d->storage) << to_string(*d->type);
            if (!d->name.empty())
                out << ' ' << d->name;
            out << ")\n";
        } else if (auto *i = dynamic_cast<const InlineDefinition *>(item)) {
            out << "(inline " << to_string(*i->type) << ' ' << i->name;
            if (!i->parameters.empty()) {
                out << '[';
                for (size_t k = 0; k < i->parameters.size(); k++)
                    out << (k ? ", " : "") << to_string(*i->parameters[k].type) << ' '
                        << i->parameters[k].name;
                out << ']';
            }
            out << " = " << to_string(*i->value) << ")\n";
        } else if (auto *t = dynamic_cast<const TranslatorDefinition *>(item)) {
            out << "(translator " << to_string(*t->output_type) << " < "
                << to_string(*t->input_type) << ' ' << t->parameter << " >\n";
            for (const TranslatorMember &m : t->members)
                out << "  (" << m.name << " = " << to_string(*m.value) << ")\n";
            out << ")\n";
        } else if (auto *p = dynamic_cast<const ProviderDefinition *>(item)) {
            out << "(provider " << p->name << '\n';
            for (const ProviderProbe &probe : p->probes) {
                out << "  (probe " << probe.name;
                for (const TypeExprPtr &type : probe.native_types)
                    out << ' ' << to_string(*type);
                if (!probe.translated_types.empty()) {
                    out << " :";
                    for (const TypeExprPtr &type : probe.translated_types)
                        out << ' ' << to_string(*type);
                }
                out << ")\n";
            }
            out << ")\n";
        }
    }
}

} // namespace dtx::ast
