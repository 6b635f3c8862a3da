// The dtx command: parse options, load and compile the program, report.
// Exit status as dtrace(1): 0 on success, 1 for compile and run-time errors,
// 2 for usage errors.

#include "cmd/listing.h"
#include "cmd/options.h"
#include "cmd/program_sources.h"
#include "codegen/d_library.h"
#include "codegen/kernel_types.h"
#include "libtrace/probe_macros.h"
#include "libtrace/session.h"
#include "libtrace/target.h"
#include "parser/ast_dump.h"
#include "parser/parser.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int usage_error(const std::string &message) {
    std::cerr << "dtx: " << message << '\n' << dtx::cmd::usage_text("dtx");
    return kExitUsage;
}

// -x errtags or #pragma D option errtags: errors in dtrace's one-line form.
bool wants_errtags(const dtx::cmd::Options &options, const dtx::ast::Program &program) {
    for (const auto &[name, value] : options.xopts)
        if (name == "errtags" && !value)
            return true;
    for (const dtx::ast::Pragma &pragma : program.pragmas)
        if (pragma.words.size() == 2 && pragma.words[0] == "option" && pragma.words[1] == "errtags")
            return true;
    return false;
}

// Prints the diagnostics. With errtags, as dtrace does: the first error on
// one line after what failed ("failed to compile script x.d: [D_SYNTAX]
// line 3: ..." or "invalid probe specifier TEXT: ..."); warnings as usual.
void report(const dtx::DiagnosticEngine &diagnostics, const dtx::cmd::Options &options,
            const std::vector<dtx::cmd::LoadedSource> &sources, bool errtags) {
    if (!errtags) {
        diagnostics.render(std::cerr);
        return;
    }
    for (const dtx::Diagnostic &d : diagnostics.diagnostics()) {
        if (d.severity != dtx::Severity::Error) {
            dtx::render_diagnostic(std::cerr, d);
            continue;
        }
        size_t unit = 0;
        while (unit + 1 < sources.size() && sources[unit].file.get() != d.range.source)
            unit++;
        std::string what;
        if (unit < sources.size() && !sources[unit].from_command_line)
            what = "failed to compile script " + sources[unit].file->name();
        else if (unit < sources.size())
            what = "invalid probe specifier " + (unit < options.sources.size()
                                                     ? options.sources[unit].text
                                                     : sources[unit].file->text());
        std::cerr << "dtx: " << (what.empty() ? "" : what + ": ") << dtx::errtags_form(d) << '\n';
        return;
    }
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
    type_names.set_lookup(dtx::sema::is_kernel_typedef);
    dtx::ast::Program program;
    // The D library first: its types are names the program may use.
    dtx::codegen::parse_d_library(type_names, program, diagnostics);
    for (const dtx::cmd::LoadedSource &source : loaded.sources) {
        dtx::parser::ProgramParseOptions parse_options;
        parse_options.allow_bare_descriptions = source.from_command_line;
        dtx::parser::parse_program(*source.file, type_names, program, diagnostics, parse_options);
    }
    bool errtags = wants_errtags(options, program);
    report(diagnostics, options, loaded.sources, errtags);
    if (diagnostics.has_errors())
        return kExitError;

    FILE *out = stdout;
    if (!options.output_file.empty()) {
        out = std::fopen(options.output_file.c_str(), "a");
        if (!out) {
            std::cerr << "dtx: failed to open output file " << options.output_file << ": "
                      << std::strerror(errno) << '\n';
            return kExitError;
        }
    }
    if (wants_dump(options, "ast")) {
        std::ostringstream text;
        dtx::ast::dump(text, program);
        std::fputs(text.str().c_str(), out);
    }

    // -e with only --dump=ast stops after parsing: the AST of a program whose
    // probes or types this machine cannot resolve can still be inspected.
    if (options.compile_only && options.dump_stages == std::vector<std::string>{"ast"})
        return kExitSuccess;
    // Target processes before compiling, so that $target is known; the -c
    // command waits before exec until tracing has started.
    if (options.commands.size() > 1)
        return usage_error("only one -c command can be traced at a time");
    dtx::trace::TargetProcesses targets;
    std::optional<std::string> target_problem;
    if (!options.commands.empty()) {
        std::vector<std::string> words = dtx::trace::split_command_line(options.commands[0]);
        if (words.empty())
            return usage_error("-c needs a command, not only white space");
        target_problem = targets.start_command(words);
    }
    for (size_t i = 0; i < options.pids.size() && !target_problem; i++)
        target_problem = targets.grab(options.pids[i]);
    if (target_problem) {
        std::cerr << "dtx: " << *target_problem << '\n';
        return kExitError;
    }
    if (options.list) {
        // Listed with the targets' user-space probes; a held -c command is
        // killed unrun when `targets` goes.
        std::vector<dtx::cmd::ProbeFilter> filters =
            dtx::cmd::probe_filters(program, loaded.sources);
        const dtx::trace::MacroValues macros =
            dtx::trace::MacroValues::of_this_process(options.macro_args, targets.target_pid());
        for (dtx::cmd::ProbeFilter &filter : filters)
            for (std::string *field : {&filter.pattern.provider, &filter.pattern.module,
                                       &filter.pattern.function, &filter.pattern.name}) {
                std::string error;
                std::optional<std::string> expanded =
                    dtx::trace::expand_probe_macros(*field, macros, error);
                if (!expanded) {
                    std::cerr << "dtx: invalid probe description " << filter.text << ": " << error
                              << '\n';
                    return kExitError;
                }
                *field = *expanded;
            }
        dtx::providers::ProviderContext provider_context{&targets};
        provider_context.listing = true;
        int status = dtx::cmd::list_probes(dtx::providers::make_providers(provider_context),
                                           filters, options.verbose, out, stderr);
        if (out != stdout)
            std::fclose(out);
        return status;
    }

    dtx::trace::SessionOptions session_options;
    session_options.quiet = options.quiet;
    session_options.zero_matches_allowed = options.zero_matches_ok;
    session_options.verbose = options.verbose;
    session_options.destructive = options.destructive;
    session_options.flow_indent = options.flow_indent;
    session_options.options = options.xopts;
    session_options.macro_arguments = options.macro_args;
    session_options.dump_stages = options.dump_stages;
    session_options.out = out;
    session_options.target_pid = targets.target_pid();
    session_options.targets = &targets;
    std::vector<dtx::trace::ProgramUnit> units;
    for (const dtx::cmd::LoadedSource &source : loaded.sources) {
        // dtrace names a -n program by its text up to the first '{', '/' or ';'.
        const std::string &text = source.file->text();
        std::string description = text.substr(0, text.find_first_of("{/;"));
        units.push_back({source.file.get(), source.from_command_line
                                                ? "description '" + description + "'"
                                                : "script '" + source.file->name() + "'"});
    }
    dtx::trace::Session session(session_options);
    dtx::DiagnosticEngine compile_diagnostics;
    bool compiled = session.compile(program, units, compile_diagnostics);
    report(compile_diagnostics, options, loaded.sources, errtags);
    if (!compiled)
        return kExitError;
    if (options.compile_only)
        return kExitSuccess;
    int status = session.run();
    if (out != stdout)
        std::fclose(out);
    return status;
}

} // namespace

int main(int argc, char **argv) {
    auto parsed = dtx::cmd::parse_options(std::span<const char *const>(argv, size_t(argc)));
    if (auto *error = std::get_if<dtx::cmd::UsageError>(&parsed))
        return usage_error(error->message);
    return run(std::get<dtx::cmd::Options>(parsed));
}
