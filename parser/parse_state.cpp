#include "parser/parse_state.h"

#include "parser/parser.h"

#include <algorithm>
#include <set>

namespace dtx::parser {

using namespace ast;
using Kind = Parser::symbol_kind_type;

// ---- syntax errors ---------------------------------------------------------

void ParseState::syntax_error(const SourceRange &where, const std::string &message) {
    if (!lex.stopped_at_clause_limit)
        diagnostics().error("D_SYNTAX", where, message);
}

namespace {

// 65536 as "65,536".
std::string grouped(size_t n) {
    std::string digits = std::to_string(n);
    for (size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, ",");
    return digits;
}

// What the unexpected token is, in words: "identifier 'foo'", "';'", "end of input".
std::string describe_token(const Parser::symbol_type &token, const SourceRange &at) {
    Kind kind = token.kind();
    std::string text;
    if (at.valid() && at.begin.line == at.end.line && at.end.column > at.begin.column) {
        std::string_view line = at.source->line(at.source_line);
        if (at.begin.column - 1 < line.size())
            text = std::string(line.substr(at.begin.column - 1, at.end.column - at.begin.column));
    }
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    switch (kind) {
    case Kind::S_YYEOF:
        return "end of input";
    case Kind::S_IDENT:
    case Kind::S_TYPE_NAME:
    case Kind::S_SCOPED_IDENT:
    case Kind::S_INTEGER:
    case Kind::S_STRING:
    case Kind::S_AGGREGATION:
    case Kind::S_MACRO:
    case Kind::S_MACRO_STRING:
    case Kind::S_PSPEC:
        return std::string(Parser::symbol_name(kind)) + " '" + text + "'";
    case Kind::S_RESERVED:
        return "reserved word '" + text + "'";
    case Kind::S_PRED_BEGIN:
    case Kind::S_PRED_END:
        return "'/'";
    default:
        return Parser::symbol_name(kind);
    }
}

bool is_operator(Kind k) {
    switch (k) {
    case Kind::S_PLUS:
    case Kind::S_MINUS:
    case Kind::S_STAR:
    case Kind::S_SLASH:
    case Kind::S_PERCENT:
    case Kind::S_AMP:
    case Kind::S_PIPE:
    case Kind::S_CARET:
    case Kind::S_LT:
    case Kind::S_GT:
    case Kind::S_LE:
    case Kind::S_GE:
    case Kind::S_EQ:
    case Kind::S_NE:
    case Kind::S_SHL:
    case Kind::S_SHR:
    case Kind::S_AND_AND:
    case Kind::S_OR_OR:
    case Kind::S_XOR_XOR:
    case Kind::S_INC:
    case Kind::S_DEC:
    case Kind::S_ASSIGN:
    case Kind::S_MUL_ASSIGN:
    case Kind::S_DIV_ASSIGN:
    case Kind::S_MOD_ASSIGN:
    case Kind::S_ADD_ASSIGN:
    case Kind::S_SUB_ASSIGN:
    case Kind::S_SHL_ASSIGN:
    case Kind::S_SHR_ASSIGN:
    case Kind::S_AND_ASSIGN:
    case Kind::S_XOR_ASSIGN:
    case Kind::S_OR_ASSIGN:
    case Kind::S_QUESTION:
    case Kind::S_DOT:
    case Kind::S_ARROW:
    case Kind::S_LBRACKET:
    case Kind::S_COMMA:
        return true;
    default:
        return false;
    }
}

// Tokens that can only begin an expression. A string constant is left out:
// after one, another may follow (they are joined), which is no reason to say
// "expected an expression".
bool starts_expression(Kind k) {
    switch (k) {
    case Kind::S_IDENT:
    case Kind::S_INTEGER:
    case Kind::S_AGGREGATION:
    case Kind::S_MACRO:
    case Kind::S_MACRO_STRING:
    case Kind::S_SCOPED_IDENT:
    case Kind::S_KW_SELF:
    case Kind::S_KW_THIS:
    case Kind::S_KW_SIZEOF:
    case Kind::S_KW_STRINGOF:
    case Kind::S_KW_OFFSETOF:
    case Kind::S_KW_XLATE:
    case Kind::S_TILDE:
    case Kind::S_BANG:
        return true;
    default:
        return false;
    }
}

bool starts_type(Kind k) {
    switch (k) {
    case Kind::S_KW_INT:
    case Kind::S_KW_CHAR:
    case Kind::S_KW_SHORT:
    case Kind::S_KW_LONG:
    case Kind::S_KW_SIGNED:
    case Kind::S_KW_UNSIGNED:
    case Kind::S_KW_VOID:
    case Kind::S_KW_FLOAT:
    case Kind::S_KW_DOUBLE:
    case Kind::S_KW_STRING:
    case Kind::S_KW_STRUCT:
    case Kind::S_KW_UNION:
    case Kind::S_KW_ENUM:
    case Kind::S_TYPE_NAME:
        return true;
    default:
        return false;
    }
}

// The expected tokens in words. Long operator lists are summed up: after a
// complete expression nearly every operator could follow.
std::string describe_expected(const std::vector<Kind> &expected) {
    // At the outer scope the choices are too many to list usefully.
    if (std::find(expected.begin(), expected.end(), Kind::S_PSPEC) != expected.end())
        return "a probe description or a declaration";
    auto has = [&](Kind k) {
        return std::find(expected.begin(), expected.end(), k) != expected.end();
    };
    // An expression can always begin with an integer; where only a name fits
    // (after '->', in a declarator) say so.
    bool expression = has(Kind::S_INTEGER);
    bool name = !expression && has(Kind::S_IDENT);
    bool type = false;
    std::vector<Kind> operators;
    std::vector<std::string> named;
    for (Kind k : expected) {
        if (starts_expression(k) || k == Kind::S_IDENT || k == Kind::S_TYPE_NAME ||
            k == Kind::S_SCOPED_IDENT)
            continue;
        if (starts_type(k))
            type = true;
        else if (is_operator(k) || k == Kind::S_STRING)
            operators.push_back(k);
        else if (k == Kind::S_PRED_END)
            named.push_back("'/' to end the predicate");
        else if (k == Kind::S_YYEOF)
            named.push_back("end of input");
        else if (k == Kind::S_KW_CONST || k == Kind::S_KW_VOLATILE || k == Kind::S_KW_RESTRICT)
            continue;
        else if (k == Kind::S_LPAREN && (expression || operators.size() > 3))
            continue; // implied by "an expression" or "an operator"
        else if (!(expression && (k == Kind::S_PLUS || k == Kind::S_MINUS || k == Kind::S_STAR ||
                                  k == Kind::S_AMP)))
            named.push_back(Parser::symbol_name(k));
    }
    std::vector<std::string> parts;
    if (expression)
        parts.push_back(type ? "an expression or a type" : "an expression");
    else if (name)
        parts.push_back(type ? "a name or a type" : "a name");
    else if (type)
        parts.push_back("a type name");
    for (auto &n : named) {
        if (n == "'('" && operators.size() > 3)
            continue;
        if (std::find(parts.begin(), parts.end(), n) == parts.end())
            parts.push_back(n);
    }
    if (!expression && operators.size() > 3) {
        parts.push_back("an operator");
    } else if (!expression) {
        for (Kind k : operators)
            parts.push_back(k == Kind::S_STRING ? "a string constant" : Parser::symbol_name(k));
    }
    if (parts.empty())
        return "";
    if (parts.size() > 6) {
        parts.resize(6);
        parts.push_back("...");
    }
    std::string out = parts[0];
    for (size_t i = 1; i < parts.size(); ++i)
        out += (i + 1 == parts.size() ? " or " : ", ") + parts[i];
    return out;
}

} // namespace

void ParseState::report_syntax_error(const Parser::context &ctx) {
    const Parser::symbol_type &token = ctx.lookahead();
    const SourceRange &at = ctx.location();
    std::vector<Kind> expected(64);
    int n = ctx.expected_tokens(expected.data(), int(expected.size()));
    expected.resize(size_t(std::max(n, 0)));
    // With a full buffer the list was cut short; Bison then reports 0 tokens.
    Kind kind = token.kind();
    if ((kind == Kind::S_YYEOF && lex.ended_in_comment) || lex.stopped_at_clause_limit)
        return;
    std::string message;
    if (kind == Kind::S_RESERVED) {
        message = describe_token(token, at) + " is not supported in D";
        if (token.value.as<std::string>() == "for" || token.value.as<std::string>() == "while" ||
            token.value.as<std::string>() == "do") {
            diagnostics()
                .error("D_SYNTAX", at, message)
                .hints.push_back("D has no loops; use a predicate, or unroll");
            return;
        }
    } else {
        message = "syntax error near " + describe_token(token, at);
        std::string wanted = describe_expected(expected);
        if (!wanted.empty())
            message += ": expected " + wanted;
    }
    diagnostics().error("D_SYNTAX", at, message);
}

// ---- clauses ---------------------------------------------------------------

ProbeDescription ParseState::probe_description(const std::string &text, const SourceRange &range) {
    ProbeDescription desc;
    desc.range = range;
    desc.text = text;
    // Split on ':' not escaped by a backslash; fill fields from the right.
    std::vector<std::string> fields(1);
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            fields.back() += text[++i];
        } else if (text[i] == ':') {
            fields.emplace_back();
        } else {
            fields.back() += text[i];
        }
    }
    if (fields.size() > 4) {
        diagnostics()
            .error("D_PDESC_INVAL", range,
                   "probe description '" + text + "' has more than four fields")
            .hints.push_back("probe descriptions are provider:module:function:name");
    }
    std::string *slots[4] = {&desc.provider, &desc.module, &desc.function, &desc.name};
    size_t used = std::min<size_t>(fields.size(), 4);
    for (size_t i = 0; i < used; ++i)
        *slots[4 - used + i] = fields[fields.size() - used + i];
    return desc;
}

bool ParseState::program_expected(const SourceRange &range, const char *what) {
    if (program)
        return true;
    diagnostics().error("D_SYNTAX", range, std::string(what) + " is not allowed here");
    return false;
}

void ParseState::add_clause(std::vector<ProbeDescription> probes, ExprPtr predicate,
                            std::vector<StmtPtr> body, bool has_body, const SourceRange &range) {
    if (!program_expected(range, "a probe clause"))
        return;
    if (program->clauses.size() >= kMaxProgramClauses) {
        Diagnostic &refused = diagnostics().error("D_CLAUSE_LIMIT", probes.front().range,
                                                  "too many clauses: a program may have at most " +
                                                      grouped(kMaxProgramClauses) +
                                                      " clauses; nothing after this one is read");
        refused.hints.push_back("clauses that differ only in a constant can be one clause "
                                "whose predicate, variables or aggregation keys hold it");
        program->clause_limit_reached = true;
        lex.stopped_at_clause_limit = true;
        return;
    }
    if (!has_body && !allow_bare_descriptions) {
        SourceRange at = predicate ? range : probes.back().range;
        diagnostics()
            .error("D_SYNTAX", at,
                   "expected a predicate and/or actions following the probe description")
            .hints.push_back("write '" + probes.back().text + " { ... }'");
    }
    auto clause = make_node<Clause>(range);
    clause->probes = std::move(probes);
    clause->predicate = std::move(predicate);
    clause->statements = std::move(body);
    clause->has_body = has_body;
    program->items.push_back(clause.get());
    program->clauses.push_back(std::move(clause));
}

// ---- expressions -----------------------------------------------------------

ExprPtr ParseState::binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, const SourceRange &range) {
    auto node = make_node<Binary>(range);
    node->op = op;
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    return node;
}

ExprPtr ParseState::unary(UnaryOp op, ExprPtr operand, const SourceRange &range) {
    auto node = make_node<Unary>(range);
    node->op = op;
    node->operand = std::move(operand);
    return node;
}

ExprPtr ParseState::call(ExprPtr callee, std::vector<ExprPtr> args, const SourceRange &range) {
    auto node = make_node<Call>(range);
    node->arguments = std::move(args);
    if (auto *ident = callee->as<Identifier>(); ident && !ident->scoped) {
        node->function = ident->name;
        node->function_range = ident->range;
    } else {
        diagnostics().error("D_SYNTAX", callee->range,
                            "only D functions and actions can be called, by name");
        node->function_range = callee->range;
    }
    return node;
}

ExprPtr ParseState::member(ExprPtr base, std::string name, bool arrow, const SourceRange &range) {
    auto node = make_node<Member>(range);
    node->base = std::move(base);
    node->member = std::move(name);
    node->arrow = arrow;
    return node;
}

ExprPtr ParseState::identifier(const std::string &text, const SourceRange &range) {
    auto node = make_node<Identifier>(range);
    size_t tick = text.rfind('`');
    if (tick == std::string::npos) {
        node->name = text;
    } else {
        node->scoped = true;
        node->module = text.substr(0, tick);
        node->name = text.substr(tick + 1);
    }
    return node;
}

ExprPtr ParseState::integer(const IntegerToken &token, const SourceRange &range) {
    auto node = make_node<IntegerLiteral>(range);
    node->value = token.value;
    node->is_unsigned = token.is_unsigned;
    node->long_count = token.long_count;
    node->base = token.base;
    node->is_character = token.is_character;
    return node;
}

ExprPtr ParseState::macro(const std::string &name, bool as_string, const SourceRange &range) {
    auto node = make_node<MacroArgument>(range);
    node->name = name;
    node->as_string = as_string;
    return node;
}

ExprPtr ParseState::variable(VariableScope scope, std::string name, const SourceRange &range) {
    auto node = make_node<Variable>(range);
    node->scope = scope;
    node->name = std::move(name);
    return node;
}

// ---- types and declarations ------------------------------------------------

TypeExprPtr ParseState::record_type(TypeExpr::Kind kind, std::string tag, bool has_body,
                                    std::vector<StructMember> members, const SourceRange &range) {
    auto type = std::make_shared<TypeExpr>();
    type->range = range;
    type->kind = kind;
    type->name = std::move(tag);
    type->has_body = has_body;
    type->members = std::move(members);
    if (has_body) {
        std::set<std::string> seen;
        for (const StructMember &m : type->members) {
            if (!m.name.empty() && !seen.insert(m.name).second)
                diagnostics().error("D_DECL_MEMBER", m.range, "duplicate member '" + m.name + "'");
        }
    }
    return type;
}

TypeExprPtr ParseState::enum_type(std::string tag, bool has_body,
                                  std::vector<Enumerator> enumerators, const SourceRange &range) {
    auto type = std::make_shared<TypeExpr>();
    type->range = range;
    type->kind = TypeExpr::Kind::Enum;
    type->name = std::move(tag);
    type->has_body = has_body;
    type->enumerators = std::move(enumerators);
    return type;
}

std::vector<StructMember> ParseState::members(DeclSpecs specs,
                                              std::vector<MemberDeclarator> declarators) {
    std::vector<StructMember> out;
    TypeExprPtr base = specs_to_type(specs, diagnostics());
    if (declarators.empty()) {
        // An anonymous struct or union member.
        StructMember m;
        m.range = specs.range;
        m.type = base;
        out.push_back(std::move(m));
        return out;
    }
    for (MemberDeclarator &d : declarators) {
        StructMember m;
        m.range = d.range;
        m.name = d.declarator.name;
        m.type = apply_declarator(base, std::move(d.declarator));
        m.bit_width = std::move(d.bit_width);
        out.push_back(std::move(m));
    }
    return out;
}

void ParseState::add_parameter(ParameterList &list, DeclSpecs specs, Declarator declarator) {
    list.names.push_back(declarator.name);
    list.types.push_back(
        apply_declarator(specs_to_type(specs, diagnostics()), std::move(declarator)));
}

void ParseState::add_key(KeyList &list, DeclSpecs specs, Declarator declarator) {
    list.names.push_back(declarator.name);
    list.types.push_back(
        apply_declarator(specs_to_type(specs, diagnostics()), std::move(declarator)));
}

void ParseState::add_type_declaration(DeclSpecs specs, const SourceRange &range) {
    if (!program_expected(range, "a declaration"))
        return;
    if (!specs.redeclared_name.empty()) {
        Declarator name;
        name.range = specs.redeclared_range;
        name.name = std::move(specs.redeclared_name);
        std::vector<Declarator> declarators;
        declarators.push_back(std::move(name));
        add_declarations(std::move(specs), std::move(declarators));
        return;
    }
    TypeExprPtr type = specs_to_type(specs, diagnostics());
    bool defines_something =
        type->kind != TypeExpr::Kind::Named && (type->has_body || !type->name.empty());
    if (!defines_something)
        diagnostics().warning("D_DECL_USELESS", range, "declaration does not declare anything");
    auto decl = make_node<Declaration>(range);
    decl->storage = specs.storage;
    decl->type = std::move(type);
    program->items.push_back(decl.get());
    program->declarations.push_back(std::move(decl));
}

void ParseState::add_declarations(DeclSpecs specs, std::vector<Declarator> declarators) {
    if (!specs.redeclared_name.empty())
        diagnostics().error("D_DECL_COMBO", specs.redeclared_range,
                            "two or more data types in declaration specifiers");
    TypeExprPtr base = specs_to_type(specs, diagnostics());
    for (Declarator &d : declarators) {
        if (!program_expected(d.range, "a declaration"))
            return;
        auto decl = make_node<Declaration>(d.range);
        decl->storage = specs.storage;
        decl->name = d.name;
        decl->type = apply_declarator(base, std::move(d));
        if (decl->storage == StorageClass::Typedef)
            lex.type_names.add(decl->name);
        program->items.push_back(decl.get());
        program->declarations.push_back(std::move(decl));
    }
}

// dtrace compiles no C functions: a definition a header brings is checked to
// be one and then dropped, as its prototype alone would say nothing D uses.
void ParseState::ignore_function_definition(DeclSpecs specs, Declarator declarator,
                                            const SourceRange &range) {
    if (!program_expected(range, "a function definition"))
        return;
    if (declarator.parts.empty() ||
        declarator.parts.back().kind != DeclaratorPart::Kind::Function ||
        specs.storage == StorageClass::Typedef)
        diagnostics().error("D_SYNTAX", declarator.range,
                            "'{' after the declaration of '" + declarator.name +
                                "', which is not a function");
}

void ParseState::add_inline(DeclSpecs specs, Declarator declarator, ExprPtr value,
                            const SourceRange &range) {
    if (!program_expected(range, "an inline definition"))
        return;
    if (specs.storage != StorageClass::None)
        diagnostics().error("D_DECL_CLASS", specs.range,
                            "an inline definition cannot have a storage class");
    auto def = make_node<InlineDefinition>(range);
    def->name = declarator.name;
    // `inline T name[K1 a, K2 b] = expr;` is an associative-array inline
    // whose keys are its parameters.
    if (!declarator.parts.empty() && declarator.parts.back().kind == DeclaratorPart::Kind::Array &&
        !declarator.parts.back().keys.empty()) {
        DeclaratorPart keys = std::move(declarator.parts.back());
        declarator.parts.pop_back();
        for (size_t i = 0; i < keys.keys.size(); i++) {
            const std::string &name = i < keys.key_names.size() ? keys.key_names[i] : "";
            if (name.empty())
                diagnostics().error("D_DECL_INLPARAM", keys.keys[i]->range,
                                    "a parameter of inline '" + def->name + "' needs a name");
            def->parameters.push_back({name, std::move(keys.keys[i])});
        }
    }
    def->type = apply_declarator(specs_to_type(specs, diagnostics()), std::move(declarator));
    def->value = std::move(value);
    program->items.push_back(def.get());
    program->inlines.push_back(std::move(def));
}

void ParseState::add_translator(TypeExprPtr output, TypeExprPtr input, std::string parameter,
                                std::vector<TranslatorMember> members, const SourceRange &range) {
    if (!program_expected(range, "a translator"))
        return;
    auto def = make_node<TranslatorDefinition>(range);
    def->output_type = std::move(output);
    def->input_type = std::move(input);
    def->parameter = std::move(parameter);
    def->members = std::move(members);
    std::set<std::string> seen;
    for (const TranslatorMember &m : def->members) {
        if (!seen.insert(m.name).second)
            diagnostics().error("D_XLATE_REDECL", m.range,
                                "translator member '" + m.name + "' is defined twice");
    }
    program->items.push_back(def.get());
    program->translators.push_back(std::move(def));
}

void ParseState::add_provider(std::string name, std::vector<ProviderProbe> probes,
                              const SourceRange &range) {
    if (!program_expected(range, "a provider definition"))
        return;
    auto def = make_node<ProviderDefinition>(range);
    def->name = std::move(name);
    def->probes = std::move(probes);
    program->items.push_back(def.get());
    program->providers.push_back(std::move(def));
}

} // namespace dtx::parser
