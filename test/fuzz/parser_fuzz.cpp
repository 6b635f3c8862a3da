// Feeds arbitrary bytes to the D parser through all three start symbols and
// renders every diagnostic: nothing may crash, hang or leak.

#include "parser/ast_dump.h"
#include "parser/parser.h"

#include <cstddef>
#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    // The first byte picks how the rest is parsed.
    uint8_t mode = data[0] % 4;
    dtx::SourceFile source("fuzz.d",
                           std::string(reinterpret_cast<const char *>(data + 1), size - 1));
    dtx::parser::TypeNames types;
    dtx::DiagnosticEngine diags;
    std::ostringstream sink;
    if (mode <= 1) {
        dtx::ast::Program program;
        dtx::parser::ProgramParseOptions options;
        options.allow_bare_descriptions = mode == 1;
        if (dtx::parser::parse_program(source, types, program, diags, options))
            dtx::ast::dump(sink, program);
    } else if (mode == 2) {
        if (auto expr = dtx::parser::parse_expression(source, types, diags))
            sink << dtx::ast::to_string(*expr);
    } else {
        if (auto type = dtx::parser::parse_type(source, types, diags))
            sink << dtx::ast::to_string(*type);
    }
    diags.render(sink);
    return 0;
}
