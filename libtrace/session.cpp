#include "libtrace/session.h"

#include "codegen/sema.h"
#include "libtrace/attach.h"
#include "libtrace/bpf_object.h"
#include "libtrace/consumer.h"
#include "libtrace/interruptible_output.h"
#include "libtrace/kernel_symbols.h"
#include "libtrace/options.h"
#include "libtrace/probe_macros.h"
#include "libtrace/user_symbols.h"
#include "libtrace/vmlinux_btf.h"
#include "providers/provider.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <map>
#include <set>
#include <utility>

namespace dtx::trace {

namespace {

// The most speculations a program may have (nspec).
constexpr size_t kMaxSpeculations = 1024;

uint64_t clock_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

int run_program(int fd) {
    LIBBPF_OPTS(bpf_test_run_opts, options);
    return bpf_prog_test_run_opts(fd, &options) == 0 ? 0 : -errno;
}

} // namespace

Session::Session(SessionOptions options) : options_(std::move(options)) {
    consumer_options_.quiet = options_.quiet;
    consumer_options_.flow_indent = options_.flow_indent;
    providers_ = providers::make_providers({options_.targets, elf_files_});
    for (auto &provider : providers_)
        if (provider->name() == "dtrace")
            provider->list(probes_); // BEGIN, END, ERROR get IDs 1, 2, 3
}

Session::~Session() = default;

bool Session::apply_option(const std::string &name, const std::optional<std::string> &value,
                           bool in_program, std::string &error) {
    const OptionSpec *spec = find_option(name);
    if (!spec) {
        error = "unknown option '" + name + "'";
        return false;
    }
    if (in_program && spec->outside_program) {
        error = "option '" + name + "' cannot be set in a D program (" +
                std::string(kOptionInProgram) + "): give it on the command line, -x " + name;
        return false;
    }
    auto parsed = parse_option(*spec, value);
    if (auto *problem = std::get_if<OptionError>(&parsed)) {
        error = problem->message;
        return false;
    }
    const OptionValue &v = std::get<OptionValue>(parsed);
    if (spec->effect == OptionSpec::Effect::Ignored) {
        if (noticed_options_.insert(name).second)
            std::fprintf(options_.err, "dtx: %s\n", no_effect_notice(*spec).c_str());
        return true;
    }
    auto size = [&](uint64_t &target) {
        if (v.number == 0) {
            error = "option '" + name + "' needs a size from 1 byte, not " +
                    (value ? "'" + *value + "'" : std::string("nothing"));
            return false;
        }
        target = v.number;
        return true;
    };
    auto frames = [&](uint32_t &target, uint32_t default_frames) {
        // bpf_get_stack() gives at most 127 frames (dtrace caps at maxframes).
        target = v.set ? uint32_t(std::clamp<uint64_t>(v.number, 1, 127)) : default_frames;
    };
    if (set_consumer_option(consumer_options_, name, v))
        return true;
    if (name == "bufsize")
        return size(compile_options_.bufsize);
    else if (name == "aggsize")
        return size(compile_options_.aggsize);
    else if (name == "dynvarsize")
        return size(compile_options_.dynvarsize);
    else if (name == "strsize")
        return size(compile_options_.strsize);
    else if (name == "specsize")
        return size(consumer_options_.speculation_size);
    else if (name == "stackframes")
        frames(compile_options_.stackframes, codegen::CompileOptions{}.stackframes);
    else if (name == "ustackframes")
        frames(compile_options_.ustackframes, codegen::CompileOptions{}.ustackframes);
    else if (name == "zdefs")
        options_.zero_matches_allowed = true;
    else if (name == "defaultargs")
        defaultargs_ = true;
    else if (name == "destructive")
        options_.destructive = v.set;
    else if (name == "nspec") {
        // Each speculation is a map slot claimed by a loop in speculation().
        if (!v.set || v.number < 1 || v.number > kMaxSpeculations) {
            error = "option 'nspec' needs a number from 1 to " + std::to_string(kMaxSpeculations) +
                    ", not " + (value ? "'" + *value + "'" : std::string("nothing"));
            return false;
        }
        compile_options_.nspec = uint32_t(v.number);
    }
    // The rest act elsewhere (errtags and the cpp options in the command) or
    // need nothing (rates: the consumer reads each record as it comes).
    return true;
}

std::optional<uint64_t> Session::kernel_member_offset(std::string_view type,
                                                      std::string_view member) {
    return trace::kernel_member_offset(type, member);
}

sema::ClauseArguments Session::clause_arguments(std::span<const Probe *const> probes) {
    sema::ClauseArguments out;
    for (size_t i = 0; i < probes.size(); i++) {
        const Probe &probe = *probes[i];
        auto cached = probe_arguments_.find(probe.id);
        if (cached == probe_arguments_.end()) {
            std::vector<ProbeArgument> arguments;
            for (auto &provider : providers_)
                if (provider->owns(probe.name.provider))
                    arguments = provider->arguments(probe);
            cached = probe_arguments_.emplace(probe.id, std::move(arguments)).first;
        }
        const std::vector<ProbeArgument> &arguments = cached->second;
        if (i == 0) {
            out.arguments = arguments;
            out.probe = probe.name.full();
            continue;
        }
        auto same = [](const ProbeArgument &a, const ProbeArgument &b) {
            return a.type == b.type && a.btf_id == b.btf_id && a.expression == b.expression;
        };
        if (!std::equal(arguments.begin(), arguments.end(), out.arguments.begin(),
                        out.arguments.end(), same)) {
            out.conflict = out.probe + " and " + probe.name.full();
            break;
        }
    }
    return out;
}

bool Session::compile(ast::Program &program, std::span<const ProgramUnit> units,
                      DiagnosticEngine &diags) {
    // Options: #pragma D option lines first, then -x (which wins).
    std::string option_error;
    for (const ast::Pragma &pragma : program.pragmas) {
        if (pragma.words.size() < 2 || pragma.words[0] != "option")
            continue;
        std::string word = pragma.words[1];
        size_t eq = word.find('=');
        std::string name = word.substr(0, eq);
        std::optional<std::string> value;
        if (eq != std::string::npos) {
            value = word.substr(eq + 1);
            if (value->empty() && pragma.words.size() > 2)
                value = pragma.words[2];
        }
        if (!apply_option(name, value, true, option_error)) {
            diags.error("D_PRAGMA_OPTSET", pragma.range, option_error);
            return false;
        }
    }
    for (const auto &[name, value] : options_.options)
        if (!apply_option(name, value, false, option_error)) {
            std::fprintf(options_.err, "dtx: failed to set -x %s: %s\n", name.c_str(),
                         option_error.c_str());
            return false;
        }

    // Probe descriptions -> probes, clause by clause.
    std::vector<std::vector<const Probe *>> clause_probes(program.clauses.size());
    std::map<const SourceFile *, size_t> matches_per_file;
    const MacroValues macros =
        MacroValues::of_this_process(options_.macro_arguments, options_.target_pid);
    for (size_t c = 0; c < program.clauses.size(); c++) {
        const ast::Clause &clause = *program.clauses[c];
        for (const ast::ProbeDescription &description : clause.probes) {
            providers::ProbePattern pattern;
            std::string macro_error;
            bool expanded = true;
            for (auto [field, text] : {std::pair{&pattern.provider, &description.provider},
                                       std::pair{&pattern.module, &description.module},
                                       std::pair{&pattern.function, &description.function},
                                       std::pair{&pattern.name, &description.name}})
                if (expanded) {
                    std::optional<std::string> value =
                        expand_probe_macros(*text, macros, macro_error);
                    expanded = value.has_value();
                    *field = value.value_or("");
                }
            if (!expanded) {
                Diagnostic &d =
                    diags.error("D_MACRO_UNDEF", description.range,
                                "probe description " + description.text + ": " + macro_error);
                if (macro_error.starts_with("macro argument"))
                    d.hints.push_back("pass it after the script (-x defaultargs does not "
                                      "apply to probe descriptions)");
                continue;
            }
            std::vector<const Probe *> found;
            std::vector<std::string> left_out; // unavailable providers a glob matched
            bool malformed = false;
            for (auto &provider : providers_) {
                size_t before = found.size();
                if (auto problem = provider->match(pattern, probes_, found)) {
                    diags.error("D_PROBE_SPEC", description.range, *problem);
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
                        diags.error("D_PROBE_SPEC", description.range,
                                    "probe '" + found[before]->name.full() + "': " + *missing);
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
                            diags.error("D_PROBE_SPEC", description.range,
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
            if (found.empty() && !malformed && !options_.zero_matches_allowed) {
                Diagnostic &zero = diags.error("D_PDESC_ZERO", description.range,
                                               "probe description " + description.text +
                                                   " does not match any probes");
                for (auto &provider : providers_)
                    if (auto why = provider->explain_no_match(pattern))
                        zero.hints.push_back(*why);
                zero.hints.insert(zero.hints.end(), left_out.begin(), left_out.end());
                if (!options_.target_pid && description.text.find("$target") != std::string::npos)
                    zero.hints.push_back("$target is 0: no -c or -p gave a process to trace");
                zero.hints.push_back("dtx -l lists the probes; -Z permits descriptions that "
                                     "match nothing");
            }
            for (const Probe *probe : found)
                if (std::find(clause_probes[c].begin(), clause_probes[c].end(), probe) ==
                    clause_probes[c].end())
                    clause_probes[c].push_back(probe);
        }
        matches_per_file[clause.range.source] += clause_probes[c].size();
    }
    if (diags.has_errors())
        return false;

    sema::CheckOptions check_options;
    check_options.macro_arguments = options_.macro_arguments;
    check_options.strsize = compile_options_.strsize;
    check_options.dtx_pid = getpid();
    check_options.dtx_ppid = getppid();
    check_options.dtx_uid = getuid();
    check_options.dtx_gid = getgid();
    check_options.dtx_pgid = getpgrp();
    check_options.dtx_sid = getsid(0);
    check_options.target_pid = options_.target_pid;
    check_options.defaultargs = defaultargs_;
    check_options.destructive = options_.destructive;
    check_options.clause_arguments = [&](size_t clause) {
        return clause_arguments(clause_probes[clause]);
    };
    sema::CheckedProgram checked = sema::check_program(program, diags, check_options);
    if (diags.has_errors())
        return false;

    // One set of trampolines per provider, for the probes it owns.
    std::map<providers::Provider *, std::vector<const Probe *>> enabled;
    for (const auto &probes : clause_probes)
        for (const Probe *probe : probes)
            for (auto &provider : providers_) {
                if (!provider->owns(probe->name.provider))
                    continue;
                auto &list = enabled[provider.get()];
                if (std::find(list.begin(), list.end(), probe) == list.end())
                    list.push_back(probe);
                break;
            }
    std::vector<codegen::TrampolineSpec> specs;
    for (auto &provider : providers_) {
        auto it = enabled.find(provider.get());
        if (it == enabled.end())
            continue;
        for (providers::Trampoline &t : provider->trampolines(it->second)) {
            specs.push_back(t.spec);
            trampolines_.push_back(std::move(t));
        }
    }

    compile_options_.kernel_member_offset = [this](std::string_view type, std::string_view member) {
        return kernel_member_offset(type, member);
    };
    // Kernel variables' addresses: /proc/kallsyms, read once if a program
    // names one.
    auto kallsyms = std::make_shared<std::optional<KernelSymbolTableResult>>();
    compile_options_.kernel_symbol_address =
        [kallsyms](std::string_view name,
                   std::string_view module) -> std::variant<uint64_t, std::string> {
        if (!kallsyms->has_value())
            kallsyms->emplace(KernelSymbolTable::load());
        const auto *table = std::get_if<KernelSymbolTable>(&**kallsyms);
        if (!table)
            return "cannot read /proc/kallsyms: " + std::get<KernelSymbolError>(**kallsyms).message;
        if (std::optional<uint64_t> address = table->lookup(name, module); address && *address)
            return *address;
        if (table->lookup("__start_rodata").value_or(0) && !table->lookup("jiffies"))
            return "it is not in /proc/kallsyms, which lists no kernel variables here (the "
                   "kernel was built without CONFIG_KALLSYMS_ALL)";
        return "it is not in /proc/kallsyms";
    };
    auto wants = [&](std::string_view stage) {
        return std::find(options_.dump_stages.begin(), options_.dump_stages.end(), stage) !=
               options_.dump_stages.end();
    };
    compile_options_.want_ir = wants("ir");
    compile_options_.want_assembly = wants("bpf");
    codegen::CompileInput input{program, checked, clause_probes, specs, probes_};
    std::optional<codegen::CompiledProgram> compiled =
        codegen::compile_program(input, compile_options_, diags);
    if (!compiled)
        return false;
    compiled_ = std::make_unique<codegen::CompiledProgram>(std::move(*compiled));
    if (compile_options_.want_ir)
        std::fputs(compiled_->ir.c_str(), options_.out);
    if (compile_options_.want_assembly)
        std::fputs(compiled_->assembly.c_str(), options_.out);

    // dtrace says what each program matched when it enables them (run()).
    for (const ProgramUnit &unit : units) {
        size_t n = matches_per_file[unit.file];
        match_notices_.push_back("dtx: " + unit.label + " matched " + std::to_string(n) + " probe" +
                                 (n == 1 ? "" : "s"));
    }
    return true;
}

void Session::report_load_failure(const BpfObjectError &error,
                                  const ProgramDescription &description) {
    const providers::Trampoline *rejected = nullptr;
    for (const providers::Trampoline &t : trampolines_)
        if (t.spec.program_name == error.program)
            rejected = &t;
    // The clauses the rejected program runs, and its probes.
    std::vector<std::string> clauses;
    std::set<uint32_t> seen;
    if (rejected)
        for (const EnabledProbe &enabled : description.enabled_probes) {
            bool runs = std::any_of(rejected->spec.probes.begin(), rejected->spec.probes.end(),
                                    [&](const Probe *p) { return p->id == enabled.probe_id; });
            if (!runs || !seen.insert(enabled.clause).second)
                continue;
            const SourceRange &at = description.clauses.at(enabled.clause).location;
            clauses.push_back(at.file_name() + ":" + std::to_string(at.begin.line) + ":" +
                              std::to_string(at.begin.column));
        }
    auto listed = [](const std::vector<std::string> &items, size_t most) {
        std::string text;
        for (size_t i = 0; i < items.size() && i < most; i++)
            text += (i ? ", " : "") + items[i];
        if (items.size() > most)
            text += " and " + std::to_string(items.size() - most) + " more";
        return text;
    };

    const char *limit = nullptr;
    switch (kernel_limit(error)) {
    case KernelLimit::Instructions:
        limit = "the kernel verifies at most 1,000,000 instructions of one BPF program, "
                "following every path through its clauses";
        break;
    case KernelLimit::Branches:
        limit = "the kernel's verifier follows at most 8,192 branches at once";
        break;
    case KernelLimit::Functions:
        limit = "the kernel verifies at most 256 functions in one BPF program";
        break;
    case KernelLimit::Maps:
        limit = "a BPF program may use at most 64 maps";
        break;
    case KernelLimit::Stack:
        limit = "the calls of a BPF program may use at most 512 bytes of stack";
        break;
    case KernelLimit::None:
        break;
    }
    if (limit && rejected) {
        std::vector<std::string> probes;
        for (const Probe *probe : rejected->spec.probes)
            probes.push_back("'" + probe->name.full() + "'");
        std::fprintf(options_.err,
                     "dtx: could not load the program: the %zu clause%s enabled on probe%s %s "
                     "are too many or too large for one BPF program: %s; make them fewer or "
                     "smaller\n",
                     clauses.size(), clauses.size() == 1 ? "" : "s", probes.size() == 1 ? "" : "s",
                     listed(probes, 3).c_str(), limit);
        if (options_.verbose)
            std::fprintf(options_.err, "dtx: %s\n", error.to_string().c_str());
    } else {
        std::fprintf(options_.err, "dtx: could not load the program: %s\n",
                     error.to_string().c_str());
    }
    if (rejected)
        std::fprintf(options_.err, "dtx: program '%s' runs the clause%s at %s\n",
                     error.program.c_str(), clauses.size() == 1 ? "" : "s",
                     listed(clauses, 10).c_str());
}

int Session::run() {
    const ProgramDescription &description = compiled_->description;
    // Signals arrive through a signalfd, so the loop below wakes at once.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    sigaddset(&signals, SIGCHLD); // ptrace stops of targets held at exit
    sigprocmask(SIG_BLOCK, &signals, nullptr);
    UniqueFd signal_fd(signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK));
    // Read by the loop below, and by the output while a write waits for its
    // reader: a signal that ends tracing also ends a write nobody takes.
    bool stop_signalled = false, children_stopped = false;
    auto read_signals = [&] {
        signalfd_siginfo info{};
        while (read(signal_fd.get(), &info, sizeof info) == ssize_t(sizeof info)) {
            if (info.ssi_signo == SIGCHLD)
                children_stopped = true; // ptrace stops of targets held at exit
            else
                stop_signalled = true;
        }
        return stop_signalled;
    };

    // As dtrace refuses an enabling whose buffers cannot hold one record.
    for (const AggregationDescription &aggregation : description.aggregations) {
        uint64_t entry = aggregation.key_size + aggregation.value_word_count() * 8;
        if (compile_options_.aggsize < entry) {
            std::fprintf(options_.err,
                         "dtx: could not enable tracing: aggsize (%llu bytes) cannot hold one "
                         "entry of @%s (%llu bytes)\n",
                         static_cast<unsigned long long>(compile_options_.aggsize),
                         aggregation.name.c_str(), static_cast<unsigned long long>(entry));
            return 1;
        }
    }

    if (!consumer_options_.quiet)
        for (const std::string &notice : match_notices_)
            std::fprintf(options_.err, "%s\n", notice.c_str());

    BpfObjectOptions object_options;
    object_options.echo_libbpf_up_to = options_.verbose ? std::optional(LIBBPF_INFO) : std::nullopt;
    BpfObject object(object_options);
    if (auto error = object.open(compiled_->object)) {
        std::fprintf(options_.err, "dtx: %s\n", error->to_string().c_str());
        return 1;
    }
    for (const providers::Trampoline &t : trampolines_) {
        bpf_program *program = object.program(t.spec.program_name);
        if (!program)
            continue;
        if (t.expected_attach_type)
            bpf_program__set_expected_attach_type(program,
                                                  bpf_attach_type(*t.expected_attach_type));
        if (!t.attach_function.empty())
            bpf_program__set_attach_target(program, 0, t.attach_function.c_str());
    }
    if (bpf_map *dctx = object.map(description.clause_context_map))
        bpf_map__set_max_entries(dctx, uint32_t(std::max(libbpf_num_possible_cpus(), 1)) *
                                           kNestingLevels);
    uint64_t walltime_offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
    object.set_global_variable("dtx_walltime_offset",
                               std::as_bytes(std::span(&walltime_offset, 1)));
    if (!description.cpu_info_variable.empty()) {
        const std::vector<CpuInfo> cpus = cpu_info_table();
        object.set_global_variable(description.cpu_info_variable, std::as_bytes(std::span(cpus)));
    }
    if (auto error = object.load()) {
        report_load_failure(*error, description);
        return 1;
    }
    // The activity word lives in the object's .data, mapped into our memory.
    uint32_t *activity = nullptr;
    std::pair<void *, size_t> data_mapping{nullptr, 0};
    for (bpf_map *map = bpf_object__next_map(object.get(), nullptr); map;
         map = bpf_object__next_map(object.get(), map)) {
        if (!std::string_view(bpf_map__name(map)).ends_with(".data"))
            continue;
        // Mapped here: libbpf's own copy of .data is not the kernel's map.
        size_t size = bpf_map__value_size(map);
        void *mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
        if (mapped == MAP_FAILED)
            continue;
        data_mapping = {mapped, size};
        auto *data = static_cast<char *>(mapped);
        // The variable's place in the section, from the section's BTF.
        btf *object_btf = bpf_object__btf(object.get());
        const btf_type *section = btf__type_by_id(object_btf, bpf_map__btf_value_type_id(map));
        if (!data || !section || !btf_is_datasec(section))
            continue;
        const btf_var_secinfo *variable = btf_var_secinfos(section);
        for (int i = 0; i < btf_vlen(section); i++, variable++) {
            const btf_type *var = btf__type_by_id(object_btf, variable->type);
            if (description.activity_variable == btf__name_by_offset(object_btf, var->name_off))
                activity = reinterpret_cast<uint32_t *>(data + variable->offset);
        }
    }

    // On a terminal, a detach that waits for grace periods says how it goes.
    AttachmentSet attachments(terminal_detach_progress(options_.err));
    int begin_fd = -1, end_fd = -1;
    for (providers::Trampoline &t : trampolines_) {
        int fd = object.program_fd(t.spec.program_name);
        if (t.activation == providers::Activation::Begin) {
            begin_fd = fd;
            continue;
        }
        if (t.activation == providers::Activation::End) {
            end_fd = fd;
            continue;
        }
        providers::AttachContext context{fd, object, attachments};
        std::optional<std::string> problem = t.attach(context);
        for (const std::string &warning : context.warnings)
            std::fprintf(options_.err, "dtx: %s\n", warning.c_str());
        if (options_.verbose)
            for (const std::string &note : context.notes)
                std::fprintf(options_.err, "dtx: %s\n", note.c_str());
        if (problem) {
            std::fprintf(options_.err, "dtx: %s\n", problem->c_str());
            return 1;
        }
    }

    ConsumerOptions consumer_options = consumer_options_;
    auto symbols = std::make_shared<std::optional<KernelSymbolTable>>();
    auto kernel_table = [symbols]() -> const KernelSymbolTable * {
        if (!symbols->has_value()) {
            KernelSymbolTableResult loaded = KernelSymbolTable::load();
            if (auto *table = std::get_if<KernelSymbolTable>(&loaded))
                symbols->emplace(std::move(*table));
        }
        return symbols->has_value() ? &**symbols : nullptr;
    };
    auto kernel_name = [kernel_table](uint64_t address) -> std::string {
        if (const KernelSymbolTable *table = kernel_table())
            return table->format(address);
        char text[32];
        std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(address));
        return text;
    };
    // A process's modules are read when it is announced (ProcessRecord), so
    // that its addresses are named after it exits.
    auto user_symbols = std::make_shared<UserSymbols>(elf_files_);
    consumer_options.remember_process = [user_symbols](uint32_t pid) {
        user_symbols->remember(pid_t(pid));
    };
    consumer_options.print.name_address = [kernel_table, kernel_name,
                                           user_symbols](const KeyField &field,
                                                         uint64_t address) -> std::string {
        SymbolForm form = field.kind == KeyFieldKind::Symbol ? field.form : SymbolForm::Address;
        if (field.user) {
            auto pid = pid_t(field.pid);
            return form == SymbolForm::Function ? user_symbols->function(pid, address)
                   : form == SymbolForm::Module ? user_symbols->module(pid, address)
                                                : user_symbols->format(pid, address);
        }
        const KernelSymbolTable *table = kernel_table();
        std::optional<KernelSymbol> symbol;
        if (table && form != SymbolForm::Address)
            symbol = table->resolve(address);
        if (!symbol)
            return kernel_name(address);
        std::string module(symbol->module);
        return form == SymbolForm::Module ? module : module + "`" + std::string(symbol->name);
    };
    consumer_options.format.symbols.kernel = kernel_name;
    consumer_options.format.symbols.user = [user_symbols](uint32_t pid, uint64_t address) {
        return user_symbols->format(pid_t(pid), address);
    };
    if (options_.target_pid)
        consumer_options.format.target_pid = uint32_t(*options_.target_pid);
    // Given up at a signal while its reader does not read: what is left of the
    // records is not read either.
    InterruptibleOutput output(options_.out, signal_fd.get(), read_signals);
    Consumer consumer(description, object, probes_, consumer_options, output.stream(),
                      options_.err);
    struct RingReader {
        Consumer &consumer;
        const InterruptibleOutput &output;
    } reader{consumer, output};

    ring_buffer *ring = ring_buffer__new(
        object.map_fd(description.ring_buffer_map),
        [](void *context, void *data, size_t size) {
            auto *reader = static_cast<RingReader *>(context);
            if (reader->output.abandoned())
                return -EINTR; // stops ring_buffer__consume()
            reader->consumer.consume(std::span(static_cast<const std::byte *>(data), size));
            return 0;
        },
        &reader, nullptr);
    if (!ring) {
        std::fprintf(options_.err, "dtx: could not open the ring buffer: %s\n",
                     std::strerror(errno));
        return 1;
    }

    if (begin_fd >= 0) {
        if (int e = run_program(begin_fd); e < 0)
            std::fprintf(options_.err, "dtx: could not fire BEGIN: %s\n", std::strerror(-e));
    } else if (activity) {
        __atomic_store_n(activity, uint32_t(Activity::Active), __ATOMIC_SEQ_CST);
    }

    UniqueFd epoll(epoll_create1(EPOLL_CLOEXEC));
    std::vector<int> watched = {ring_buffer__epoll_fd(ring), signal_fd.get()};
    if (options_.targets)
        for (int fd : options_.targets->exit_fds())
            watched.push_back(fd);
    for (int fd : watched) {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.fd = fd;
        epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &event);
    }
    ring_buffer__consume(ring);
    consumer.flush();
    // The -c command runs only now: every probe is attached and BEGIN's output
    // is out. Not at all when BEGIN called exit().
    int status_without_exit = 0;
    // A signal read while BEGIN's output waited for its reader ends tracing too.
    bool tracing = !consumer.exit_status() && !stop_signalled;
    // A target that exits before its user addresses are named (aggregations
    // print at the end) is held at its exit until its modules are read.
    if (tracing && options_.targets && object.map(description.processes_map))
        options_.targets->hold_exits([user_symbols](pid_t pid) { user_symbols->remember(pid); });
    if (tracing && options_.targets)
        if (auto problem = options_.targets->release_command()) {
            std::fprintf(options_.err, "dtx: %s\n", problem->c_str());
            status_without_exit = 1;
            tracing = false;
        }
    while (tracing && !consumer.exit_status()) {
        epoll_event ready[8];
        int n = epoll_wait(epoll.get(), ready, 8, -1);
        if (n < 0 && errno == EINTR)
            continue;
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            if (fd == signal_fd.get()) {
                read_signals();
            } else if (fd != ring_buffer__epoll_fd(ring)) {
                std::string notice = options_.targets->note_exit(fd);
                epoll_ctl(epoll.get(), EPOLL_CTL_DEL, fd, nullptr);
                if (!consumer.options().quiet)
                    std::fprintf(options_.err, "dtx: %s\n", notice.c_str());
            }
        }
        // Records of a target's last moments are in the buffer before its exit shows.
        ring_buffer__consume(ring);
        consumer.flush();
        if (std::exchange(children_stopped, false) && options_.targets)
            options_.targets->handle_stops();
        // The last target's exit ends tracing as exit(0) would.
        if (stop_signalled || (options_.targets && options_.targets->all_exited()))
            break;
    }

    // Stop every probe but END, fire END, and drain what is left.
    if (activity)
        __atomic_store_n(activity, uint32_t(Activity::Draining), __ATOMIC_SEQ_CST);
    if (end_fd >= 0)
        run_program(end_fd);
    ring_buffer__consume(ring);
    consumer.finish();
    ring_buffer__free(ring);
    attachments.detach_all();
    if (data_mapping.first)
        munmap(data_mapping.first, data_mapping.second);
    return consumer.exit_status().value_or(status_without_exit);
}

} // namespace dtx::trace
