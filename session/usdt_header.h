// dtx -h: the C header that puts a D provider declaration's probes into a
// program, as dtrace -h does, over <sys/sdt.h> (.note.stapsdt) as
// systemtap's dtrace(1) does:
//
//   provider myprov { probe query__start(int, char *); };
// gives
//   #define MYPROV_QUERY_START(arg0, arg1) (backslash, newline)
//       DTRACE_PROBE2(myprov, query__start, (int)(arg0), (char *)(arg1))
//   #define MYPROV_QUERY_START_ENABLED() (backslash, newline)
//       __builtin_expect(myprov_query__start_semaphore, 0)
//   extern unsigned short myprov_query__start_semaphore, in .probes (dtx -G defines it)
//
// Names as dtrace -h gives them: the provider and probe upper-cased, each
// "__" of the probe's name "_" in the macro. The note keeps the probe's name
// as declared; D names it with each "__" written "-" (myprov$target:::
// query-start), as the usdt provider reads every note. The arguments are
// cast to the declared types, so that the note records each as declared
// (its size and sign: args[] in D are typed by them) whatever the caller
// passes, where dtrace's header declares a prototype.
#pragma once

#include "parser/ast.h"
#include "parser/diagnostics.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::session {

// The most arguments a <sys/sdt.h> probe takes (DTRACE_PROBE12).
inline constexpr size_t kMaxUsdtArguments = 12;

// One probe of a provider declaration, as the header and the object spell it.
struct UsdtProbeDefinition {
    std::string provider;  // as declared: "myprov"
    std::string probe;     // as declared, the note's name: "query__start"
    std::string macro;     // "MYPROV_QUERY_START"
    std::string semaphore; // "myprov_query__start_semaphore"
    // The C spelling of each argument's declared type ("char *"; D's string
    // is "char *"), and its name where the declaration gives one.
    std::vector<std::string> argument_types;
    std::vector<std::string> argument_names;
};

// Every probe of the program's provider declarations, in declaration order.
// A declaration <sys/sdt.h> cannot express is reported in `diagnostics`
// (D_PROV_ARG: a struct passed by value, more than 12 arguments, a variadic
// probe; D_PROV_DUP: two probes with one macro name) and left out.
std::vector<UsdtProbeDefinition> usdt_probe_definitions(const ast::Program &program,
                                                        DiagnosticEngine &diagnostics);

// The header's text. `header_name` (the output file's name) gives the
// include guard; `source_name` is said in its first comment.
std::string usdt_header_text(std::span<const UsdtProbeDefinition> probes,
                             std::string_view header_name, std::string_view source_name);

} // namespace dtx::session
