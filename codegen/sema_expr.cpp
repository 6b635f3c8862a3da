// Expressions: literals, operators, assignment, members, casts and xlate.

#include "codegen/checker.h"
#include "parser/ast_dump.h"

namespace dtx::sema {

using namespace ast;

namespace {

// The binary operator a compound assignment applies.
BinaryOp compound_op(AssignOp op) {
    switch (op) {
    case AssignOp::Mul:
        return BinaryOp::Mul;
    case AssignOp::Div:
        return BinaryOp::Div;
    case AssignOp::Mod:
        return BinaryOp::Mod;
    case AssignOp::Add:
        return BinaryOp::Add;
    case AssignOp::Sub:
        return BinaryOp::Sub;
    case AssignOp::Shl:
        return BinaryOp::Shl;
    case AssignOp::Shr:
        return BinaryOp::Shr;
    case AssignOp::And:
        return BinaryOp::BitAnd;
    case AssignOp::Xor:
        return BinaryOp::BitXor;
    default:
        return BinaryOp::BitOr;
    }
}

} // namespace

const Type *Checker::check(Expr &expr, bool statement) {
    const Type *type = check_node(expr, statement);
    expr.type = type;
    note_alloca(expr);
    return type;
}

const Type *Checker::spelled(std::string_view spelling) {
    if (spelling.ends_with(" *")) {
        const Type *pointee = spelled(spelling.substr(0, spelling.size() - 2));
        return pointee ? types_.pointer_to(pointee) : nullptr;
    }
    if (spelling == "stack")
        return types_.stack_type();
    if (spelling == "_symaddr")
        return types_.symbol_address(Symbolization::Kernel);
    if (spelling == "_usymaddr")
        return types_.symbol_address(Symbolization::User);
    // A kernel struct (mutex_owner()'s task): void where BTF lacks it.
    if (spelling.starts_with("struct ")) {
        const Type *kernel =
            kernel_types().by_tag(TypeKind::Struct, std::string(spelling.substr(7)));
        return kernel ? kernel : types_.void_type();
    }
    return types_.lookup(spelling);
}

const Type *Checker::check_node(Expr &expr, bool statement) {
    switch (expr.kind) {
    case Expr::Kind::IntegerLiteral:
        return check_integer(*expr.as<IntegerLiteral>());
    case Expr::Kind::StringLiteral:
        return types_.string_type();
    case Expr::Kind::Identifier:
        return check_identifier(*expr.as<Identifier>());
    case Expr::Kind::Variable:
        return check_variable(*expr.as<Variable>());
    case Expr::Kind::Aggregation:
        error("D_AGG_VALUE", expr.range,
              "aggregation @" + expr.as<Aggregation>()->name +
                  " cannot be used as a value; print it with printa()");
        return nullptr;
    case Expr::Kind::MacroArgument:
        return check_macro(*expr.as<MacroArgument>());
    case Expr::Kind::Unary:
        return check_unary(*expr.as<Unary>());
    case Expr::Kind::Binary:
        return check_binary(*expr.as<Binary>());
    case Expr::Kind::Assign: {
        const Type *type = check_assign(*expr.as<Assign>());
        return type;
    }
    case Expr::Kind::Conditional:
        return check_conditional(*expr.as<Conditional>(), statement);
    case Expr::Kind::Call:
        return check_call(*expr.as<Call>(), statement);
    case Expr::Kind::Subscript:
        return check_subscript(*expr.as<Subscript>());
    case Expr::Kind::Member:
        return check_member(*expr.as<ast::Member>());
    case Expr::Kind::Cast:
        return check_cast(*expr.as<Cast>());
    case Expr::Kind::SizeofType: {
        auto *node = expr.as<SizeofType>();
        const Type *type = resolve_type(*node->type);
        return type ? check_sizeof(expr, type, node->type->range) : nullptr;
    }
    case Expr::Kind::Offsetof: {
        auto *node = expr.as<Offsetof>();
        const Type *type = resolve_type(*node->type);
        if (!type)
            return nullptr;
        if (!is_struct_or_union(type) || !with_members(resolve(type))->complete) {
            error("D_OFFSETOF_TYPE", node->type->range,
                  "offsetof() needs a complete struct or union, not " + quote(type));
            return nullptr;
        }
        std::optional<sema::Member> member = find_member(type, node->member);
        if (!member) {
            error("D_TYPE_MEMBER", expr.range,
                  quote(type) + " has no member named '" + node->member + "'");
            return nullptr;
        }
        if (member->is_bit_field()) {
            error("D_OFFSETOF_BITFIELD", expr.range,
                  "offsetof() cannot be applied to bit-field '" + node->member + "'");
            return nullptr;
        }
        out_.resolutions[&expr] = {.kind = Resolution::Kind::Constant,
                                   .value = int64_t(member->byte_offset())};
        return types_.lookup("size_t");
    }
    case Expr::Kind::Xlate:
        return check_xlate(*expr.as<Xlate>());
    }
    return nullptr;
}

// DTrace types an integer constant as the first of int, unsigned int, long,
// unsigned long, long long, unsigned long long that holds it; a u suffix skips
// the signed types and l / ll suffixes the shorter ones.
const Type *Checker::check_integer(IntegerLiteral &literal) {
    static constexpr const char *kOrder[] = {"int",           "unsigned int", "long",
                                             "unsigned long", "long long",    "unsigned long long"};
    size_t start = literal.long_count == 2 ? 4 : literal.long_count == 1 ? 2 : 0;
    for (size_t i = start; i < std::size(kOrder); ++i) {
        const Type *type = types_.lookup(kOrder[i]);
        if (literal.is_unsigned && type->is_signed)
            continue;
        // As in C, a decimal constant without a 'u' suffix is int, long or
        // long long; only octal and hex constants may become unsigned.
        if (!literal.is_unsigned && literal.base == 10 && !type->is_signed &&
            i + 1 < std::size(kOrder))
            continue;
        uint64_t max = type->is_signed   ? (uint64_t(1) << (type->size * 8 - 1)) - 1
                       : type->size == 8 ? UINT64_MAX
                                         : (uint64_t(1) << (type->size * 8)) - 1;
        if (literal.value <= max)
            return type;
    }
    return types_.lookup("unsigned long long");
}

const Type *Checker::check_sizeof(Expr &expr, const Type *type, const SourceRange &at) {
    const Type *resolved = resolve(type);
    if (resolved->kind == TypeKind::Void || resolved->kind == TypeKind::Function ||
        (is_struct_or_union(resolved) && !resolved->complete)) {
        error("D_SIZEOF_TYPE", at, "sizeof cannot be applied to " + quote(type));
        return nullptr;
    }
    out_.resolutions[&expr] = {.kind = Resolution::Kind::Constant,
                               .value = int64_t(resolved->size)};
    return types_.lookup("size_t");
}

const Type *Checker::check_unary(Unary &unary) {
    Expr &operand = *unary.operand;
    switch (unary.op) {
    case UnaryOp::PreIncrement:
    case UnaryOp::PreDecrement:
    case UnaryOp::PostIncrement:
    case UnaryOp::PostDecrement: {
        const bool increment =
            unary.op == UnaryOp::PreIncrement || unary.op == UnaryOp::PostIncrement;
        const std::string op = increment ? "++" : "--";
        const Type *type = check_store(operand, nullptr, false, unary.range, op);
        if (!type)
            return nullptr;
        operand.type = type;
        if (!is_scalar(type)) {
            error("D_OP_SCALAR", unary.range,
                  "operator " + op + " needs an integer or pointer, not " + quote(type));
            return nullptr;
        }
        return type;
    }
    default:
        break;
    }
    const Type *type = check(operand);
    if (!type)
        return nullptr;
    switch (unary.op) {
    case UnaryOp::Negate:
    case UnaryOp::Plus:
    case UnaryOp::BitNot:
        if (!is_integer(type)) {
            error(is_string(type) ? "D_OP_ARITH" : "D_OP_INT", unary.range,
                  std::string("operator ") +
                      (unary.op == UnaryOp::BitNot ? "~"
                       : unary.op == UnaryOp::Plus ? "+"
                                                   : "-") +
                      " needs an integer operand, not " + quote(type));
            return nullptr;
        }
        return promote(types_, type);
    case UnaryOp::LogicalNot:
        if (!is_scalar(type)) {
            error("D_OP_SCALAR", unary.range,
                  "operator ! needs an integer or pointer operand, not " + quote(type));
            return nullptr;
        }
        return types_.int_type();
    case UnaryOp::Deref: {
        const Type *resolved = resolve(type);
        if (resolved->kind == TypeKind::Array)
            return resolved->element;
        if (resolved->kind != TypeKind::Pointer) {
            error("D_DEREF_NONPTR", unary.range,
                  "operator * needs a pointer operand, not " + quote(type));
            return nullptr;
        }
        if (is_void(resolved->element)) {
            error("D_DEREF_VOID", unary.range,
                  "cannot dereference " + quote(type) + "; cast it to a typed pointer first");
            return nullptr;
        }
        if (resolve(resolved->element)->kind == TypeKind::Function) {
            error("D_DEREF_FUNC", unary.range,
                  "cannot dereference function pointer " + quote(type));
            return nullptr;
        }
        return resolved->element;
    }
    case UnaryOp::AddressOf: {
        auto resolution = out_.resolutions.find(&operand);
        const bool kernel_symbol = resolution != out_.resolutions.end() &&
                                   resolution->second.kind == Resolution::Kind::KernelSymbol;
        if (operand.kind == Expr::Kind::Variable ||
            (operand.kind == Expr::Kind::Identifier && !kernel_symbol)) {
            error("D_ADDROF_VAR", unary.range,
                  "cannot take the address of a D variable, built-in or constant");
            return nullptr;
        }
        if (bit_fields_.count(&operand)) {
            error("D_ADDROF_BITFIELD", unary.range, "cannot take the address of a bit-field");
            return nullptr;
        }
        const bool lvalue =
            operand.kind == Expr::Kind::Identifier || operand.kind == Expr::Kind::Member ||
            operand.kind == Expr::Kind::Subscript ||
            (operand.kind == Expr::Kind::Unary && operand.as<Unary>()->op == UnaryOp::Deref);
        if (!lvalue) {
            error("D_ADDROF_LVAL", unary.range, "operator & needs an lvalue operand");
            return nullptr;
        }
        return types_.pointer_to(type);
    }
    case UnaryOp::SizeofExpr:
        if (bit_fields_.count(&operand)) {
            error("D_SIZEOF_BITFIELD", unary.range, "sizeof cannot be applied to a bit-field");
            return nullptr;
        }
        // A string constant is its characters and the NUL, as in dtrace:
        // sizeof "hi" is 3.
        if (const auto *literal = operand.as<StringLiteral>()) {
            out_.resolutions[&unary] = {.kind = Resolution::Kind::Constant,
                                        .value = int64_t(literal->value.size() + 1)};
            return types_.lookup("size_t");
        }
        return check_sizeof(unary, type, operand.range);
    case UnaryOp::Stringof:
        if (!is_scalar(type) && !is_string_like(type)) {
            error("D_STRINGOF_TYPE", unary.range,
                  "stringof needs a pointer, integer or string operand, not " + quote(type));
            return nullptr;
        }
        return types_.string_type();
    default:
        return nullptr;
    }
}

const Type *Checker::decayed(const Type *type) {
    const Type *t = resolve(type);
    return t && is_array(t) ? types_.pointer_to(t->element) : type;
}

const Type *Checker::check_binary(Binary &binary) {
    const Type *lhs = check(*binary.lhs);
    const Type *rhs = check(*binary.rhs);
    if (!lhs || !rhs)
        return nullptr;
    const std::string op = binary_op_name(binary.op);
    auto incompatible = [&](const char *code, const std::string &why) -> const Type * {
        error(code, binary.range,
              "operator " + op + " " + why + ": " + quote(lhs) + " and " + quote(rhs));
        return nullptr;
    };
    switch (binary.op) {
    case BinaryOp::Comma:
        return rhs;
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
    case BinaryOp::LogicalXor:
        if (!is_scalar(lhs) || !is_scalar(rhs))
            return incompatible("D_OP_SCALAR", "needs integer or pointer operands");
        return types_.int_type();
    case BinaryOp::Lt:
    case BinaryOp::Gt:
    case BinaryOp::Le:
    case BinaryOp::Ge:
    case BinaryOp::Eq:
    case BinaryOp::Ne: {
        const Type *left = decayed(lhs), *right = decayed(rhs);
        const bool comparable =
            (is_integer(lhs) && is_integer(rhs)) || (is_string_like(lhs) && is_string_like(rhs)) ||
            pointers_compatible(left, right) ||
            ((is_pointer(left) || is_string_like(lhs)) && is_null_constant(*binary.rhs)) ||
            ((is_pointer(right) || is_string_like(rhs)) && is_null_constant(*binary.lhs));
        if (!comparable) {
            if ((is_string(lhs) && is_integer(rhs)) || (is_integer(lhs) && is_string(rhs)))
                return incompatible("D_OP_INCOMPAT", "cannot compare a string with an integer");
            return incompatible("D_OP_INCOMPAT", "has incompatible operands");
        }
        return types_.int_type();
    }
    case BinaryOp::Add:
    case BinaryOp::Sub: {
        if (is_string_like(lhs) && is_string_like(rhs) && (is_string(lhs) || is_string(rhs)))
            return incompatible("D_OP_ARITH", "cannot do arithmetic on strings (use strjoin())");
        // A string and an integer: the string from that offset, as in dtrace.
        if (binary.op == BinaryOp::Add &&
            ((is_string(lhs) && is_integer(rhs)) || (is_integer(lhs) && is_string(rhs))))
            return types_.string_type();
        const Type *left = decayed(lhs), *right = decayed(rhs);
        if (is_pointer(left) && is_integer(rhs))
            return resolve(left);
        if (binary.op == BinaryOp::Add && is_integer(lhs) && is_pointer(right))
            return resolve(right);
        if (binary.op == BinaryOp::Sub && is_pointer(left) && is_pointer(right)) {
            if (!pointers_compatible(left, right))
                return incompatible("D_OP_INCOMPAT", "subtracts incompatible pointers");
            return types_.lookup("ptrdiff_t");
        }
    }
        [[fallthrough]];
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
        if (!is_integer(lhs) || !is_integer(rhs)) {
            if (is_string(lhs) || is_string(rhs))
                return incompatible("D_OP_ARITH", "cannot do arithmetic on strings");
            // % is an integer operator (dtrace's D_OP_INT); + - * / arithmetic.
            return incompatible(binary.op == BinaryOp::Mod ? "D_OP_INT" : "D_OP_ARITH",
                                "needs integer operands");
        }
        if ((binary.op == BinaryOp::Div || binary.op == BinaryOp::Mod)) {
            // The annotation must be there before constant_value looks at it.
            binary.rhs->type = rhs;
            if (std::optional<int64_t> divisor = constant_value(*binary.rhs);
                divisor && !*divisor) {
                error("D_DIV_ZERO", binary.rhs->range, "division by zero");
                return nullptr;
            }
        }
        return usual_arithmetic(types_, lhs, rhs);
    case BinaryOp::Shl:
    case BinaryOp::Shr:
        if (!is_integer(lhs) || !is_integer(rhs))
            return incompatible(is_string(lhs) || is_string(rhs) ? "D_OP_ARITH" : "D_OP_INT",
                                "needs integer operands");
        return promote(types_, lhs);
    case BinaryOp::BitAnd:
    case BinaryOp::BitXor:
    case BinaryOp::BitOr:
        if (!is_integer(lhs) || !is_integer(rhs))
            return incompatible(is_string(lhs) || is_string(rhs) ? "D_OP_ARITH" : "D_OP_INT",
                                "needs integer operands");
        return usual_arithmetic(types_, lhs, rhs);
    }
    return nullptr;
}

const Type *Checker::check_conditional(Conditional &cond, bool statement) {
    if (statement) {
        // A whole statement: each branch is run for what it does, and may be
        // an action (the Solaris idiom `c ? printf("a") : 1;`).
        const Type *test = check(*cond.condition);
        const Type *yes = check(*cond.if_true, true);
        const Type *no = check(*cond.if_false, true);
        if (test && !is_scalar(test)) {
            error("D_OP_SCALAR", cond.condition->range,
                  "the condition of ?: must be an integer or pointer, not " + quote(test));
            return nullptr;
        }
        return test && yes && no ? types_.void_type() : nullptr;
    }
    const Type *test = check(*cond.condition);
    const Type *yes = check(*cond.if_true);
    const Type *no = check(*cond.if_false);
    if (!test || !yes || !no)
        return nullptr;
    if (!is_scalar(test)) {
        error("D_OP_SCALAR", cond.condition->range,
              "the condition of ?: must be an integer or pointer, not " + quote(test));
        return nullptr;
    }
    if (is_integer(yes) && is_integer(no))
        return usual_arithmetic(types_, yes, no);
    // Two pointers stay a pointer (char * included, as in C).
    if (pointers_compatible(yes, no))
        return is_void(resolve(yes)->element) ? no : yes;
    if (is_string_like(yes) && is_string_like(no))
        return types_.string_type();
    if (is_pointer(yes) && is_null_constant(*cond.if_false))
        return yes;
    if (is_pointer(no) && is_null_constant(*cond.if_true))
        return no;
    if ((is_string(yes) && is_null_constant(*cond.if_false)) ||
        (is_null_constant(*cond.if_true) && is_string(no)))
        return types_.string_type();
    if (resolve(yes) == resolve(no) && !is_void(yes))
        return yes;
    error("D_OP_INCOMPAT", cond.range,
          "the branches of ?: have incompatible types " + quote(yes) + " and " + quote(no));
    return nullptr;
}

const Type *Checker::check_assign(Assign &assign) {
    Expr &target = *assign.target;
    Aggregation *agg = target.as<Aggregation>();
    Subscript *subscript = target.as<Subscript>();
    if (!agg && subscript)
        agg = subscript->base->as<Aggregation>();
    if (agg) {
        if (assign.op != AssignOp::Assign) {
            error("D_AGG_FUNC", assign.range,
                  "aggregations can only be assigned with '=' from an aggregating function");
            return nullptr;
        }
        check_aggregation_assign(assign, *agg, subscript ? &subscript->indices : nullptr);
        return types_.void_type();
    }
    const Type *value = check(*assign.value);
    if (!value)
        return nullptr;
    if (is_void(value)) {
        error("D_OP_VFPTR", assign.value->range, "cannot assign a value of type void");
        return nullptr;
    }
    if (assign.op == AssignOp::Assign) {
        const Type *type =
            check_store(target, value, is_null_constant(*assign.value), assign.range, "=");
        target.type = type;
        return type;
    }
    const Type *type = check_store(target, nullptr, false, assign.range, "op=");
    target.type = type;
    if (!type)
        return nullptr;
    const BinaryOp op = compound_op(assign.op);
    const bool pointer_step =
        (op == BinaryOp::Add || op == BinaryOp::Sub) && is_pointer(type) && is_integer(value);
    if (!pointer_step && (!is_integer(type) || !is_integer(value))) {
        error(is_string(type) || is_string(value) ? "D_OP_ARITH" : "D_OP_INCOMPAT", assign.range,
              std::string("operator ") + binary_op_name(op) +
                  "= needs integer operands: " + quote(type) + " and " + quote(value));
        return nullptr;
    }
    return type;
}

const Type *Checker::check_member(ast::Member &member) {
    const Type *base = check(*member.base);
    if (!base)
        return nullptr;
    const Type *record = resolve(base);
    if (member.arrow) {
        if (record->kind != TypeKind::Pointer) {
            error("D_OP_PTR", member.range,
                  "operator -> needs a pointer to a struct or union, not " + quote(base));
            return nullptr;
        }
        record = resolve(record->element);
    }
    record = with_members(record);
    if (!is_struct_or_union(record)) {
        Diagnostic &d =
            error("D_OP_SOU", member.range,
                  std::string("operator ") + (member.arrow ? "->" : ".") +
                      " needs a struct or union, not " + quote(member.arrow ? record : base));
        if (!member.arrow && is_pointer(base) && is_struct_or_union(resolve(base)->element))
            d.hints.push_back("use -> to reach a member through a pointer");
        return nullptr;
    }
    if (!record->complete) {
        Diagnostic &d = error("D_OP_INCOMPLETE", member.range,
                              quote(record) + " is incomplete: its members are not known");
        d.hints.push_back("define it in the script (the kernel's BTF does not define it)");
        return nullptr;
    }
    std::optional<sema::Member> found = find_member(record, member.member);
    if (!found) {
        Diagnostic &d = error("D_TYPE_MEMBER", member.range,
                              quote(record) + " has no member named '" + member.member + "'");
        std::vector<std::string> names;
        for (const sema::Member &m : record->members)
            names.push_back(m.name);
        suggest(d, member.member, names);
        if (!names.empty()) {
            // Say what does exist: all of a small record, the start of a large one.
            constexpr size_t kShown = 12;
            std::string list;
            for (size_t i = 0; i < names.size() && i < kShown; i++)
                list += (i ? ", " : "") + (names[i].empty() ? "<anonymous>" : names[i]);
            if (names.size() > kShown)
                list += ", ... (" + std::to_string(names.size()) + " members)";
            d.hints.push_back("its members are " + list);
        }
        return nullptr;
    }
    if (found->is_bit_field())
        bit_fields_.insert(&member);
    if (const TranslatorInfo *translator = translator_behind(*member.base);
        translator && !translator->members.count(member.member)) {
        error("D_XLATE_NOCONV", member.range,
              "the translator to " + quote(translator->output) + " does not define member '" +
                  member.member + "'");
        return nullptr;
    }
    return found->type;
}

const TranslatorInfo *Checker::translator_behind(const Expr &expr) const {
    // What lowering translates one member of: an xlate, an inline whose value
    // is one (curpsinfo, fds[fd]), a stable provider's args[N], or a member
    // that is itself translated (curpsinfo->pr_lwp).
    auto resolution = [&](const Expr &e) -> const Resolution * {
        auto it = out_.resolutions.find(&e);
        return it == out_.resolutions.end() ? nullptr : &it->second;
    };
    if (const auto *xlate = expr.as<Xlate>()) {
        const Resolution *r = resolution(*xlate);
        return r ? r->translator : nullptr;
    }
    const Resolution *r = resolution(expr);
    if (r && r->kind == Resolution::Kind::Substitute)
        return translator_behind(*r->substitute);
    if (r && r->kind == Resolution::Kind::Inline && expr.kind == Expr::Kind::Identifier)
        return translator_behind(*r->inline_definition->value);
    if (const auto *use = expr.as<Subscript>()) {
        const Resolution *base = resolution(*use->base);
        if (base && base->kind == Resolution::Kind::Inline)
            return translator_behind(*base->inline_definition->value);
        return nullptr;
    }
    if (const auto *inner = expr.as<ast::Member>()) {
        const TranslatorInfo *outer = translator_behind(*inner->base);
        auto it = outer ? outer->members.find(inner->member) : decltype(outer->members.end()){};
        if (outer && it != outer->members.end())
            return translator_behind(*it->second);
    }
    return nullptr;
}

const Type *Checker::check_cast(Cast &cast) {
    const Type *target = resolve_type(*cast.type);
    const Type *operand = check(*cast.operand);
    if (!target || !operand)
        return nullptr;
    const Type *to = resolve(target);
    bool ok = false;
    if (to->kind == TypeKind::Void)
        ok = true;
    else if (is_integer(to))
        ok = is_scalar(decayed(operand));
    else if (to->kind == TypeKind::Pointer)
        ok = is_scalar(operand) || is_array(operand);
    else if (is_string(to)) // the string at an address, or a char array's
        ok = is_scalar(operand) || is_string_like(operand);
    else if (is_struct_or_union(to)) // a value of that very type, as dtrace allows
        ok = resolve(operand) == to;
    if (!ok) {
        Diagnostic &d = error("D_CAST_INVAL", cast.range,
                              "cannot cast " + quote(operand) + " to " + quote(target));
        if (is_string(to) && is_scalar(operand))
            d.hints.push_back("use stringof() to turn a pointer into a string");
        return nullptr;
    }
    return target;
}

const Type *Checker::check_xlate(Xlate &xlate) {
    const Type *target = resolve_type(*xlate.type);
    const Type *operand = check(*xlate.operand);
    if (!target || !operand)
        return nullptr;
    const Type *output = resolve(target);
    if (output->kind == TypeKind::Pointer)
        output = resolve(output->element);
    define_library_translators(output);
    // The last translator defined for the output that takes the operand.
    const TranslatorInfo *chosen = nullptr;
    bool any_output = false;
    for (const auto &translator : out_.translators) {
        if (resolve(translator->output) != output)
            continue;
        any_output = true;
        if (assignable(translator->input, operand, is_null_constant(*xlate.operand)))
            chosen = translator.get();
    }
    if (!chosen) {
        if (!any_output)
            error("D_XLATE_NONE", xlate.range, "no translator to " + quote(output) + " is defined");
        else
            error("D_XLATE_NONE", xlate.range,
                  "no translator to " + quote(output) + " takes a value of type " + quote(operand));
        return nullptr;
    }
    out_.resolutions[&xlate] = {.kind = Resolution::Kind::Translation, .translator = chosen};
    return target;
}

} // namespace dtx::sema
