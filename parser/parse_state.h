// What the grammar's actions build into, one per parse: the lexer context, the
// program being filled, and the node constructors the actions call. Only
// grammar.yy, lexer.l and parser.cpp include this.
#pragma once

#include "parser/grammar.hh"
#include "parser/lexer_context.h"

namespace dtx::parser {

template <typename T>
std::unique_ptr<T> make_node(const SourceRange &range) {
    auto node = std::make_unique<T>();
    node->range = range;
    return node;
}

struct ParseState {
    ParseState(LexerContext &lexer, ast::Program *program, bool allow_bare_descriptions)
        : lex(lexer), program(program), allow_bare_descriptions(allow_bare_descriptions) {}

    LexerContext &lex;
    ast::Program *program; // null when parsing an expression or a type
    bool allow_bare_descriptions;
    void *scanner = nullptr;   // the Flex yyscan_t
    SourceRange comment_start; // where the open block comment began
    int comment_return = 0;    // the start condition to resume after it

    ast::ExprPtr expression_result;
    ast::TypeExprPtr type_result;

    DiagnosticEngine &diagnostics() { return lex.diagnostics; }

    // Error reporting from the Bison parser.
    void syntax_error(const SourceRange &where, const std::string &message);
    void report_syntax_error(const Parser::context &ctx);

    // Node constructors used by the actions.
    ast::ProbeDescription probe_description(const std::string &text, const SourceRange &range);
    void add_clause(std::vector<ast::ProbeDescription> probes, ast::ExprPtr predicate,
                    std::vector<ast::StmtPtr> body, bool has_body, const SourceRange &range);
    ast::ExprPtr binary(ast::BinaryOp op, ast::ExprPtr lhs, ast::ExprPtr rhs,
                        const SourceRange &range);
    ast::ExprPtr unary(ast::UnaryOp op, ast::ExprPtr operand, const SourceRange &range);
    ast::ExprPtr call(ast::ExprPtr callee, std::vector<ast::ExprPtr> args,
                      const SourceRange &range);
    ast::ExprPtr member(ast::ExprPtr base, std::string name, bool arrow, const SourceRange &range);
    ast::ExprPtr identifier(const std::string &text, const SourceRange &range);
    ast::ExprPtr integer(const IntegerToken &token, const SourceRange &range);
    ast::ExprPtr macro(const std::string &name, bool as_string, const SourceRange &range);
    ast::ExprPtr variable(ast::VariableScope scope, std::string name, const SourceRange &range);

    ast::TypeExprPtr record_type(ast::TypeExpr::Kind kind, std::string tag, bool has_body,
                                 std::vector<ast::StructMember> members, const SourceRange &range);
    ast::TypeExprPtr enum_type(std::string tag, bool has_body,
                               std::vector<ast::Enumerator> enumerators, const SourceRange &range);
    std::vector<ast::StructMember> members(DeclSpecs specs,
                                           std::vector<MemberDeclarator> declarators);
    void add_parameter(ParameterList &list, DeclSpecs specs, Declarator declarator);
    void add_key(KeyList &list, DeclSpecs specs, Declarator declarator);

    void add_type_declaration(DeclSpecs specs, const SourceRange &range);
    void add_declarations(DeclSpecs specs, std::vector<Declarator> declarators);
    void ignore_function_definition(DeclSpecs specs, Declarator declarator,
                                    const SourceRange &range);
    void add_inline(DeclSpecs specs, Declarator declarator, ast::ExprPtr value,
                    const SourceRange &range);
    void add_translator(ast::TypeExprPtr output, ast::TypeExprPtr input, std::string parameter,
                        std::vector<ast::TranslatorMember> members, const SourceRange &range);
    void add_provider(std::string name, std::vector<ast::ProviderProbe> probes,
                      const SourceRange &range);

private:
    bool program_expected(const SourceRange &range, const char *what);
};

} // namespace dtx::parser
