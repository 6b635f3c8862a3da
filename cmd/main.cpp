// The dtx command: parse options, load and compile the program, report.
// Exit status as dtrace(1): 0 on success, 1 for compile and run-time errors,
// 2 for usage errors.

#include "cmd/options.h"
#include "cmd/program_sources.h"
#include "parser/ast_dump.h"
#include "parser/parser.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int usage_error(const std::string &message) {
    std::cerr << "dtx: " << message << '\n' << dtx::cmd::usage_text("dtx");
    return kExitUsage;
}

bool wants_dump(const dtx::cmd::Options &options, std::string_view stage) {
    return std::find(options.dump_stages.begin(), options.dump_stages.end(), stage) !=
           options.dump_stages.end();
}

int run(const dtx::cmd::Options &options) {
    if (options.help) {
        std::cout << dtx::cmd::usage_text("dtx");
        return kExitSuccess;
    }
    if (options.version) {
        std::cout << "dtx: Sun D 2.0 (dtx " DTX_VERSION ")\n";
        return kExitSuccess;
    }

    dtx::cmd::SourceLoadResult loaded = dtx::cmd::load_program_sources(options);
    if (!loaded.error.empty()) {
        std::cerr << "dtx: " << loaded.error << '\n';
        return kExitError;
    }

    dtx::DiagnosticEngine diagnostics;
    dtx::parser::TypeNames type_names;
    dtx::ast::Program program;
    for (const dtx::cmd::LoadedSource &source : loaded.sources) {
        dtx::parser::ProgramParseOptions parse_options;
        parse_options.allow_bare_descriptions = source.from_command_line;
        dtx::parser::parse_program(*source.file, type_names, program, diagnostics, parse_options);
    }
    diagnostics.render(std::cerr);
    if (diagnostics.has_errors())
        return kExitError;

    std::ofstream output_file;
    std::ostream *out = &std::cout;
    if (!options.output_file.empty()) {
        output_file.open(options.output_file, std::ios::app);
        if (!output_file) {
            std::cerr << "dtx: failed to open output file " << options.output_file << '\n';
            return kExitError;
        }
        out = &output_file;
    }
    if (wants_dump(options, "ast"))
        dtx::ast::dump(*out, program);

    if (options.compile_only)
        return kExitSuccess;
    if (options.list) {
        std::cerr << "dtx: probe listing is not implemented in this version\n";
        return kExitError;
    }
    std::cerr << "dtx: this version of dtx compiles D programs (-e) but cannot trace yet\n";
    return kExitError;
}

} // namespace

int main(int argc, char **argv) {
    auto parsed = dtx::cmd::parse_options(std::span<const char *const>(argv, size_t(argc)));
    if (auto *error = std::get_if<dtx::cmd::UsageError>(&parsed))
        return usage_error(error->message);
    return run(std::get<dtx::cmd::Options>(parsed));
}
