// The D front end's entry points. Each parse reads one SourceFile; several
// sources (every -n and -s of a command line) parse into one Program, in order,
// sharing one TypeNames table so a typedef in one is known in the next.
#pragma once

#include "parser/ast.h"
#include "parser/diagnostics.h"
#include "parser/source.h"
#include "parser/type_names.h"

namespace dtx::parser {

// The most clauses a program may have, all its sources together (dtx(1),
// LIMITS). Each clause is code of its own, which costs the compiler about
// 10 KB and up to a millisecond: a generated script of 700,000 one-line
// clauses ran for minutes and took 3.8 GB before an answer. At this limit a
// program compiles in a minute or two and 700 MB (bench/compile-scale); the
// clause past it is an error (D_CLAUSE_LIMIT), and nothing after it is
// read, so that the answer comes at once.
inline constexpr size_t kMaxProgramClauses = 65'536;

struct ProgramParseOptions {
    // -n descriptions may stand alone (`dtx -n syscall::read:entry`); in a
    // script file a description must be followed by a predicate or a body.
    bool allow_bare_descriptions = false;
};

// Appends the source's clauses and declarations to `program`. Returns false
// if any error was reported (they are in `diags`).
bool parse_program(const SourceFile &source, TypeNames &types, ast::Program &program,
                   DiagnosticEngine &diags, const ProgramParseOptions &options = {});

// A single D expression, or a type name such as `struct foo *`. Null on error.
ast::ExprPtr parse_expression(const SourceFile &source, TypeNames &types, DiagnosticEngine &diags);
ast::TypeExprPtr parse_type(const SourceFile &source, TypeNames &types, DiagnosticEngine &diags);

} // namespace dtx::parser
