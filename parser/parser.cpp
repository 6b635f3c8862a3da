#include "parser/parser.h"

#include "parser/lexer_support.h"
#include "parser/parse_state.h"

namespace dtx::parser {

namespace {

// Runs the generated parser over one source. Returns whether no new errors arose.
bool run(ParseState &state) {
    size_t errors_before = state.lex.diagnostics.error_count();
    scanner_init(state);
    Parser parser(state);
    int status = parser.parse();
    scanner_destroy(state);
    if (status != 0 && state.lex.diagnostics.error_count() == errors_before)
        state.lex.diagnostics.error("D_SYNTAX", state.lex.here(),
                                    "the program could not be parsed");
    return state.lex.diagnostics.error_count() == errors_before;
}

} // namespace

bool parse_program(const SourceFile &source, TypeNames &types, ast::Program &program,
                   DiagnosticEngine &diags, const ProgramParseOptions &options) {
    if (program.clause_limit_reached)
        return false; // said where an earlier source reached it
    LexerContext lex(source, diags, types, StartSymbol::Program);
    ParseState state(lex, &program, options.allow_bare_descriptions);
    bool ok = run(state);
    for (ast::Pragma &p : lex.pragmas)
        program.pragmas.push_back(std::move(p));
    return ok;
}

ast::ExprPtr parse_expression(const SourceFile &source, TypeNames &types, DiagnosticEngine &diags) {
    LexerContext lex(source, diags, types, StartSymbol::Expression);
    lex.mode = LexMode::Standalone;
    ParseState state(lex, nullptr, false);
    return run(state) ? std::move(state.expression_result) : nullptr;
}

ast::TypeExprPtr parse_type(const SourceFile &source, TypeNames &types, DiagnosticEngine &diags) {
    LexerContext lex(source, diags, types, StartSymbol::Type);
    lex.mode = LexMode::Standalone;
    ParseState state(lex, nullptr, false);
    return run(state) ? std::move(state.type_result) : nullptr;
}

} // namespace dtx::parser
