// The D library: what DTrace ships beside its compiler as D text
// (dtrace-utils' /usr/lib64/dtrace/*.d), embedded in dtx from
// codegen/dlib/*.d: the stable types (psinfo_t, bufinfo_t ...), the
// translators that fill them from the kernel's own structures through BTF,
// and the inlines built on them (curpsinfo, fds[] ...), and DTrace's
// constants as inlines (EINVAL, AF_INET6, B_READ ...: errno.d, net.d ...).
// NULL, the signal numbers and the uregs[] indexes are a table instead
// (builtins.h).
//
// It is parsed before each program, so that its type names are known to the
// program's lexer, and its nodes come first in the program. The checker
// defines its inlines and translators only when the program uses them
// (sema.h), so a program that does not use them pays only for the parse and
// never reads the kernel's BTF for them.
#pragma once

#include "parser/ast.h"
#include "parser/diagnostics.h"
#include "parser/type_names.h"

#include <cstddef>
#include <span>

namespace dtx::codegen {

struct DLibraryFile {
    const char *name; // "procfs.d"
    const char *text;
};

std::span<const DLibraryFile> d_library_files();

// Parses the library into `program` and its typedef names into `types`;
// false after errors (which are dtx's, not the user's).
bool parse_d_library(parser::TypeNames &types, ast::Program &program, DiagnosticEngine &diags);

} // namespace dtx::codegen
