#include "session/session.h"

#include "codegen/d_library.h"
#include "codegen/kernel_types.h"
#include "codegen/sema.h"
#include "libtrace/kernel_symbols.h"
#include "libtrace/privileges.h"
#include "libtrace/probe_macros.h"
#include "libtrace/vmlinux_btf.h"
#include "parser/ast_dump.h"
#include "parser/parser.h"
#include "providers/provider.h"
#include "session/listing.h"
#include "session/session_impl.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <unordered_map>

namespace dtx::session {

namespace {

using trace::MacroValues;
using trace::Probe;
using trace::ProbeArgument;

// 48000 as "48,000".
std::string grouped(size_t n) {
    std::string digits = std::to_string(n);
    for (size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, ",");
    return digits;
}

bool wants_dump(const Options &options, std::string_view stage) {
    return std::find(options.dump_stages.begin(), options.dump_stages.end(), stage) !=
           options.dump_stages.end();
}

// #pragma D option errtags, looked for before the options are applied:
// parse errors are said in the form it asks for.
bool program_wants_errtags(const ast::Program &program) {
    return std::ranges::any_of(program_options(program), [](const ProgramOption &option) {
        return option.name == "errtags" && !option.value;
    });
}

bool given_on_command_line(const Options &options, const std::string &name) {
    return std::ranges::any_of(options.xopts, [&](const auto &xopt) { return xopt.first == name; });
}

Error usage_error(std::string message) {
    return Error(std::move(message), ErrorKind::Usage);
}

} // namespace

Session::Session(Options options, FILE *err)
    : impl_(std::make_unique<Impl>(std::move(options), err)) {}

Session::~Session() = default;

Session::Impl::Impl(Options given, FILE *err_stream) : options(std::move(given)), err(err_stream) {
    providers = providers::make_providers({&targets, elf_files});
    for (auto &provider : providers)
        if (provider->name() == "dtrace")
            provider->list(probes); // BEGIN, END, ERROR get IDs 1, 2, 3
}

Session::Impl::~Impl() {
    if (out != stdout)
        std::fclose(out);
}

Status Session::Impl::open_output() {
    if (options.output_file.empty() || out != stdout)
        return {};
    out = std::fopen(options.output_file.c_str(), "a");
    if (!out) {
        out = stdout;
        return errno_error("failed to open output file " + options.output_file, "fopen", errno);
    }
    return {};
}

Status Session::Impl::take_diagnostics(DiagnosticEngine &diagnostics) {
    std::ostringstream text;
    if (!flags.errtags || !diagnostics.has_errors()) {
        diagnostics.render(text);
    } else {
        // As dtrace does: the first error on one line after what failed
        // ("failed to compile script x.d: [D_SYNTAX] line 3: ..." or "invalid
        // probe specifier TEXT: ..."); warnings as usual.
        for (const Diagnostic &d : diagnostics.diagnostics()) {
            if (d.severity != Severity::Error) {
                render_diagnostic(text, d);
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
            text << "dtx: " << (what.empty() ? "" : what + ": ") << errtags_form(d) << '\n';
            break;
        }
    }
    const bool failed = diagnostics.has_errors();
    diagnostics = DiagnosticEngine();
    if (failed)
        return Error(text.str(), ErrorKind::Diagnostics);
    std::fputs(text.str().c_str(), err);
    return {};
}

Status Session::Impl::load_sources() {
    if (sources_loaded)
        return {};
    // The preprocessor's options say how script files are read.
    if (Status applied = apply_command_line_options(); !applied)
        return applied;
    Result<std::vector<LoadedSource>> loaded =
        load_program_sources(options.sources, flags.preprocess, flags.cpp_args);
    if (!loaded)
        return std::move(loaded).error();
    sources = std::move(*loaded);
    sources_loaded = true;
    return {};
}

Status Session::Impl::read_program() {
    if (Status loaded = load_sources(); !loaded)
        return loaded;
    DiagnosticEngine diagnostics;
    parser::TypeNames type_names;
    type_names.set_lookup(sema::is_kernel_typedef);
    // The D library first: its types are names the program may use.
    codegen::parse_d_library(type_names, program, diagnostics);
    for (const LoadedSource &source : sources) {
        parser::ProgramParseOptions parse_options;
        parse_options.allow_bare_descriptions = source.from_command_line;
        parser::parse_program(*source.file, type_names, program, diagnostics, parse_options);
        // dtrace names a -n program by its text up to the first '{', '/' or ';'.
        const std::string &text = source.file->text();
        std::string description = text.substr(0, text.find_first_of("{/;"));
        units.push_back({source.file.get(), source.from_command_line
                                                ? "description '" + description + "'"
                                                : "script '" + source.file->name() + "'"});
    }
    flags.errtags = flags.errtags || program_wants_errtags(program);
    if (Status parsed = take_diagnostics(diagnostics); !parsed)
        return parsed;
    if (wants_dump(options, "ast")) {
        std::ostringstream text;
        ast::dump(text, program);
        std::fputs(text.str().c_str(), out);
    }
    return {};
}

Status Session::Impl::start_targets() {
    // Before compiling, so that $target is known; the -c command waits before
    // exec until tracing has started.
    if (options.commands.size() > 1)
        return usage_error("only one -c command can be traced at a time");
    if (!options.commands.empty()) {
        std::vector<std::string> words = trace::split_command_line(options.commands[0]);
        if (words.empty())
            return usage_error("-c needs a command, not only white space");
        if (Status started = targets.start_command(words); !started)
            return started;
    }
    for (int pid : options.pids)
        if (Status grabbed = targets.grab(pid); !grabbed)
            return grabbed;
    target_pid = targets.target_pid();
    return {};
}

Result<bool> Session::Impl::prepare() {
    // The program's text first: a script that cannot be read is its own
    // error, whoever runs dtx.
    if (Status loaded = load_sources(); !loaded)
        return std::move(loaded).error();
    // -e only compiles, which needs nothing the kernel guards.
    if (!options.compile_only)
        if (Status allowed = trace::check_tracing_privileges(); !allowed)
            return std::move(allowed).error();
    if (Status opened = open_output(); !opened)
        return std::move(opened).error();
    if (Status read = read_program(); !read)
        return std::move(read).error();
    // -e with only --dump=ast stops after parsing: the AST of a program whose
    // probes or types this machine cannot resolve can still be inspected.
    if (options.compile_only && options.dump_stages == std::vector<std::string>{"ast"})
        return false;
    if (Status started = start_targets(); !started)
        return std::move(started).error();
    return true;
}

Status Session::list() {
    Impl &session = *impl_;
    Result<bool> prepared = session.prepare();
    if (!prepared)
        return std::move(prepared).error();
    if (!*prepared)
        return {};
    // Listed with the targets' user-space probes; a held -c command is
    // killed unrun when the session goes.
    std::vector<ProbeFilter> filters = probe_filters(session.program, session.sources);
    const MacroValues macros =
        MacroValues::of_this_process(session.options.macro_args, session.target_pid);
    for (ProbeFilter &filter : filters)
        for (std::string *field : {&filter.pattern.provider, &filter.pattern.module,
                                   &filter.pattern.function, &filter.pattern.name}) {
            Result<std::string> expanded = trace::expand_probe_macros(*field, macros);
            if (!expanded)
                return expanded.error().prefixed("invalid probe description " + filter.text);
            *field = *expanded;
        }
    providers::ProviderContext context{&session.targets};
    context.listing = true;
    return list_probes(providers::make_providers(context), filters, session.options.verbose,
                       session.out);
}

Status Session::compile() {
    Result<bool> prepared = impl_->prepare();
    if (!prepared)
        return std::move(prepared).error();
    return *prepared ? impl_->compile() : Status();
}

Status Session::Impl::apply_command_line_options() {
    OptionTargets targets{&compile_options, &flags, &consumer_options};
    for (const auto &[name, value] : options.xopts) {
        Result<std::string> set =
            apply_option(targets, noticed_options, OptionSource::CommandLine, name, value);
        if (!set)
            return failure("failed to set -x " + name + ": " + set.error().message);
        if (!set->empty())
            command_line_notices.push_back(*set);
    }
    return {};
}

Status Session::Impl::apply_program_options() {
    auto notice = [&](const std::string &text) {
        if (!text.empty())
            std::fprintf(err, "dtx: %s\n", text.c_str());
    };
    // The command line wins: a pragma of an option it sets is checked, and
    // set in copies that are then dropped.
    codegen::CompileOptions compile_copy = compile_options;
    SessionFlags flags_copy = flags;
    trace::ConsumerOptions consumer_copy = consumer_options;
    const OptionTargets copies{&compile_copy, &flags_copy, &consumer_copy};
    const OptionTargets targets{&compile_options, &flags, &consumer_options};
    DiagnosticEngine diagnostics;
    for (const ProgramOption &option : program_options(program)) {
        Result<std::string> set =
            apply_option(given_on_command_line(options, option.name) ? copies : targets,
                         noticed_options, OptionSource::Program, option.name, option.value);
        if (!set) {
            diagnostics.error("D_PRAGMA_OPTSET", option.range, set.error().message);
            return take_diagnostics(diagnostics);
        }
        notice(*set);
    }
    for (const std::string &text : command_line_notices)
        notice(text);
    command_line_notices.clear();
    consumer_options.set_option = [noticed = &noticed_options](
                                      trace::ConsumerOptions &live, const std::string &name,
                                      const std::optional<std::string> &value) {
        return apply_option({nullptr, nullptr, &live}, *noticed, OptionSource::Setopt, name, value);
    };
    return {};
}

sema::ClauseArguments Session::Impl::clause_arguments(std::span<const Probe *const> clause_probes) {
    sema::ClauseArguments arguments_out;
    for (size_t i = 0; i < clause_probes.size(); i++) {
        const Probe &probe = *clause_probes[i];
        auto cached = probe_arguments.find(probe.id);
        if (cached == probe_arguments.end()) {
            std::vector<ProbeArgument> arguments;
            for (auto &provider : providers)
                if (provider->owns(probe.name.provider))
                    arguments = provider->arguments(probe);
            cached = probe_arguments.emplace(probe.id, std::move(arguments)).first;
        }
        const std::vector<ProbeArgument> &arguments = cached->second;
        if (i == 0) {
            arguments_out.arguments = arguments;
            arguments_out.probe = probe.name.full();
            continue;
        }
        auto same = [](const ProbeArgument &a, const ProbeArgument &b) {
            return a.type == b.type && a.btf_id == b.btf_id && a.expression == b.expression;
        };
        if (!std::equal(arguments.begin(), arguments.end(), arguments_out.arguments.begin(),
                        arguments_out.arguments.end(), same)) {
            arguments_out.conflict = arguments_out.probe + " and " + probe.name.full();
            break;
        }
    }
    return arguments_out;
}

std::vector<std::vector<const Probe *>>
Session::Impl::match_clauses(DiagnosticEngine &diagnostics,
                             std::map<const SourceFile *, size_t> &matches_per_file) {
    // Probe descriptions -> probes, clause by clause.
    std::vector<std::vector<const Probe *>> clause_probes(program.clauses.size());
    const MacroValues macros = MacroValues::of_this_process(options.macro_args, target_pid);
    for (size_t c = 0; c < program.clauses.size(); c++) {
        const ast::Clause &clause = *program.clauses[c];
        for (const ast::ProbeDescription &description : clause.probes) {
            providers::ProbePattern pattern;
            Status expanded;
            for (auto [field, text] : {std::pair{&pattern.provider, &description.provider},
                                       std::pair{&pattern.module, &description.module},
                                       std::pair{&pattern.function, &description.function},
                                       std::pair{&pattern.name, &description.name}})
                if (expanded) {
                    Result<std::string> value = trace::expand_probe_macros(*text, macros);
                    if (value)
                        *field = *value;
                    else
                        expanded = std::move(value).error();
                }
            if (!expanded) {
                const std::string &macro_error = expanded.error().message;
                Diagnostic &d =
                    diagnostics.error("D_MACRO_UNDEF", description.range,
                                      "probe description " + description.text + ": " + macro_error);
                if (macro_error.starts_with("macro argument"))
                    d.hints.push_back("pass it after the script (-x defaultargs does not "
                                      "apply to probe descriptions)");
                continue;
            }
            std::vector<const Probe *> found;
            std::vector<std::string> left_out; // unavailable providers a glob matched
            bool malformed = false;
            for (auto &provider : providers) {
                size_t before = found.size();
                if (Status matched = provider->match(pattern, probes, found); !matched) {
                    diagnostics.error("D_PROBE_SPEC", description.range, matched.error().message);
                    malformed = true;
                } else if (found.size() > before) {
                    if (auto missing = provider->unavailable()) {
                        // A glob over providers (`*:::`) leaves out those
                        // this kernel cannot run; a named one is an error.
                        if (pattern.provider.find_first_of("*?[") != std::string::npos) {
                            left_out.push_back("probes of " + std::string(provider->name()) +
                                               " matched, but " + *missing);
                            found.resize(before);
                            continue;
                        }
                        diagnostics.error("D_PROBE_SPEC", description.range,
                                          "probe '" + found[before]->name.full() +
                                              "': " + *missing);
                        malformed = true;
                        continue;
                    }
                    // Probes this kernel cannot run: a description that names
                    // one is an error; a glob leaves them out.
                    const bool named = !pattern.name.empty() && !trace::has_glob(pattern.name);
                    size_t kept = before;
                    for (size_t i = before; i < found.size(); i++) {
                        std::optional<std::string> why = provider->probe_unavailable(*found[i]);
                        if (!why) {
                            found[kept++] = found[i];
                        } else if (named) {
                            diagnostics.error("D_PROBE_SPEC", description.range,
                                              "probe '" + found[i]->name.full() + "': " + *why);
                            malformed = true;
                        } else {
                            left_out.push_back("probe " + found[i]->name.full() + " matched, but " +
                                               *why);
                        }
                    }
                    found.resize(kept);
                }
            }
            if (found.empty() && !malformed && !flags.zero_matches_allowed) {
                Diagnostic &zero = diagnostics.error("D_PDESC_ZERO", description.range,
                                                     "probe description " + description.text +
                                                         " does not match any probes");
                for (auto &provider : providers)
                    if (auto why = provider->explain_no_match(pattern))
                        zero.hints.push_back(*why);
                zero.hints.insert(zero.hints.end(), left_out.begin(), left_out.end());
                if (!target_pid && description.text.find("$target") != std::string::npos)
                    zero.hints.push_back("$target is 0: no -c or -p gave a process to trace");
                zero.hints.push_back("dtx -l lists the probes; -Z permits descriptions that "
                                     "match nothing");
            }
            // A probe that two descriptions of the clause name runs it twice, as in dtrace.
            clause_probes[c].insert(clause_probes[c].end(), found.begin(), found.end());
        }
        matches_per_file[clause.range.source] += clause_probes[c].size();
    }
    return clause_probes;
}

void Session::Impl::check_probe_clauses(
    const std::vector<std::vector<const Probe *>> &clause_probes, DiagnosticEngine &diagnostics) {
    std::unordered_map<const Probe *, size_t> clauses_of;
    for (size_t c = 0; c < clause_probes.size(); c++)
        for (const Probe *probe : clause_probes[c])
            if (++clauses_of[probe] > codegen::kMaxProbeClauses) {
                diagnostics
                    .error("D_CLAUSE_LIMIT", program.clauses[c]->probes.front().range,
                           "too many clauses for probe '" + probe->name.full() +
                               "': one probe may run at most " +
                               grouped(codegen::kMaxProbeClauses) + " clauses")
                    .hints.push_back("the clauses of a probe run in its one BPF program; clauses "
                                     "that differ only in a constant can be one clause whose "
                                     "predicate, variables or aggregation keys hold it");
                return;
            }
}

Status Session::Impl::compile() {
    if (Status applied = apply_program_options(); !applied)
        return applied;
    DiagnosticEngine diagnostics;
    std::map<const SourceFile *, size_t> matches_per_file;
    std::vector<std::vector<const Probe *>> clause_probes =
        match_clauses(diagnostics, matches_per_file);
    check_probe_clauses(clause_probes, diagnostics);
    if (diagnostics.has_errors())
        return take_diagnostics(diagnostics);

    sema::CheckOptions check_options;
    check_options.macro_arguments = options.macro_args;
    check_options.strsize = compile_options.strsize;
    check_options.dtx_pid = getpid();
    check_options.dtx_ppid = getppid();
    check_options.dtx_uid = getuid();
    check_options.dtx_gid = getgid();
    check_options.dtx_pgid = getpgrp();
    check_options.dtx_sid = getsid(0);
    check_options.target_pid = target_pid;
    check_options.defaultargs = flags.defaultargs;
    check_options.destructive = flags.destructive;
    check_options.clause_arguments = [&](size_t clause) {
        return clause_arguments(clause_probes[clause]);
    };
    sema::CheckedProgram checked = sema::check_program(program, diagnostics, check_options);
    if (diagnostics.has_errors())
        return take_diagnostics(diagnostics);

    // One set of trampolines per provider, for the probes it owns.
    std::map<providers::Provider *, std::vector<const Probe *>> enabled;
    for (const auto &clause_enabled : clause_probes)
        for (const Probe *probe : clause_enabled)
            for (auto &provider : providers) {
                if (!provider->owns(probe->name.provider))
                    continue;
                auto &list = enabled[provider.get()];
                if (std::find(list.begin(), list.end(), probe) == list.end())
                    list.push_back(probe);
                break;
            }
    std::vector<codegen::TrampolineSpec> specs;
    for (auto &provider : providers) {
        auto it = enabled.find(provider.get());
        if (it == enabled.end())
            continue;
        for (providers::Trampoline &t : provider->trampolines(it->second)) {
            specs.push_back(t.spec);
            trampolines.push_back(std::move(t));
        }
    }

    compile_options.kernel_member_offset = [this](std::string_view type, std::string_view member) {
        return trace::kernel_member_offset(type, member);
    };
    // Kernel variables' addresses: /proc/kallsyms, read once if a program
    // names one.
    auto kallsyms = std::make_shared<std::optional<Result<trace::KernelSymbolTable>>>();
    compile_options.kernel_symbol_address =
        [kallsyms](std::string_view name, std::string_view module) -> Result<uint64_t> {
        if (!kallsyms->has_value())
            kallsyms->emplace(trace::KernelSymbolTable::load());
        const Result<trace::KernelSymbolTable> &table = **kallsyms;
        if (!table)
            return table.error().prefixed("cannot read /proc/kallsyms");
        if (std::optional<uint64_t> address = table->lookup(name, module); address && *address)
            return *address;
        if (table->lookup("__start_rodata").value_or(0) && !table->lookup("jiffies"))
            return failure("it is not in /proc/kallsyms, which lists no kernel variables here "
                           "(the kernel was built without CONFIG_KALLSYMS_ALL)");
        return failure("it is not in /proc/kallsyms");
    };
    auto wants = [&](std::string_view stage) {
        return std::find(options.dump_stages.begin(), options.dump_stages.end(), stage) !=
               options.dump_stages.end();
    };
    // An error LLVM cannot go on from, said just before the process exits.
    compile_options.fatal_error_output = [this](std::string_view text) {
        std::fwrite(text.data(), 1, text.size(), err);
        std::fflush(err);
    };
    compile_options.want_ir = wants("ir");
    compile_options.want_assembly = wants("bpf");
    codegen::CompileInput input{program, checked, clause_probes, specs, probes};
    std::optional<codegen::CompiledProgram> compiled_program =
        codegen::compile_program(input, compile_options, diagnostics);
    if (!compiled_program)
        return take_diagnostics(diagnostics);
    compiled = std::make_unique<codegen::CompiledProgram>(std::move(*compiled_program));
    if (compile_options.want_ir)
        std::fputs(compiled->ir.c_str(), out);
    if (compile_options.want_assembly)
        std::fputs(compiled->assembly.c_str(), out);

    // dtrace says what each program matched when it enables them (run()).
    for (const ProgramUnit &unit : units) {
        size_t n = matches_per_file[unit.file];
        matched_probes += n;
        match_notices.push_back("dtx: " + unit.label + " matched " + std::to_string(n) + " probe" +
                                (n == 1 ? "" : "s"));
    }
    return take_diagnostics(diagnostics);
}

} // namespace dtx::session
