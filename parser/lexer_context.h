// State shared between the Flex scanner and the Bison parser for one SourceFile.
// The parser owns one LexerContext per parse; nothing here is global.
#pragma once

#include "parser/ast.h"
#include "parser/diagnostics.h"
#include "parser/source.h"
#include "parser/type_names.h"

#include <memory>
#include <string>

namespace dtx::parser {

enum class StartSymbol { Program, Expression, Type };

// Where the scanner is in the D program; see the start conditions in lexer.l.
enum class LexMode {
    Outer,       // between clauses: probe descriptions and declarations begin here
    Declaration, // an outer-scope declaration, until its ';' at brace depth 0
    Predicate,   // between the predicate's slashes
    Body,        // inside a clause body, until its closing '}'
    Standalone,  // parse_expression / parse_type: never returns to Outer
};

struct LexerContext {
    LexerContext(const SourceFile &file, DiagnosticEngine &diags, TypeNames &types,
                 StartSymbol start)
        : source(file), diagnostics(diags), type_names(types), start_symbol(start),
          display_name(std::make_shared<const std::string>(file.name())) {}

    const SourceFile &source;
    DiagnosticEngine &diagnostics;
    TypeNames &type_names;
    StartSymbol start_symbol;
    bool start_token_sent = false;

    // Position of the next character to scan. `line` is the line the user sees
    // (cpp line markers move it); `physical_line` indexes `source`.
    size_t offset = 0;
    uint32_t line = 1;
    uint32_t physical_line = 1;
    uint32_t column = 1;
    std::shared_ptr<const std::string> display_name;

    LexMode mode = LexMode::Outer;
    int brace_depth = 0;
    // Set by the parser after the '{' of a C function definition: the scanner
    // skips to the matching '}' and returns the whole body as one token.
    bool skip_function_body = false;
    SourceRange function_body_start; // its '{'
    // After '.' or '->' a name is a member, never a type name or keyword.
    bool expect_member_name = false;

    // Set when the input ended inside a comment: the parser's "unexpected end
    // of input" would only repeat that.
    bool ended_in_comment = false;
    // The text holds a NUL byte, where scanning stops: D source is text (and
    // flex would rescan a token for every NUL in it, quadratic on binaries).
    bool stops_at_nul = false;
    // The program has as many clauses as it may: the input ends here, and
    // the parser says nothing of a clause it cut short.
    bool stopped_at_clause_limit = false;

    // Outputs the scanner produces on the side.
    std::vector<ast::Pragma> pragmas;

    // The range of the token just scanned.
    SourceRange token_range;

    SourceRange here() const {
        SourceRange r;
        r.source = &source;
        r.display_name = display_name;
        r.source_line = physical_line;
        r.begin = {line, column};
        r.end = {line, column + 1};
        return r;
    }
};

} // namespace dtx::parser
