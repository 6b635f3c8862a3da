// What a Session holds between its steps; shared by session.cpp (reading
// and compiling the program) and tracing.cpp (running it).
#pragma once

#include "codegen/compile.h"
#include "codegen/sema.h"
#include "libtrace/consumer.h"
#include "libtrace/elf_file.h"
#include "libtrace/probe.h"
#include "libtrace/target.h"
#include "parser/ast.h"
#include "parser/diagnostics.h"
#include "session/option_settings.h"
#include "session/program_sources.h"
#include "session/session.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace dtx::providers {
class Provider;
struct Trampoline;
} // namespace dtx::providers

namespace dtx::session {

// Where a clause came from, for dtrace's "matched N probes" notice.
struct ProgramUnit {
    const SourceFile *file = nullptr;
    std::string label; // "description 'BEGIN'", "script 'x.d'"
};

struct Session::Impl {
    Impl(Options options, FILE *err);
    ~Impl();

    // session.cpp
    // What list() and compile() do first: read the program's sources, check
    // the privileges tracing needs, open -o's file, parse the program
    // (--dump=ast), start the targets; false: stop there (-e with only
    // --dump=ast).
    Result<bool> prepare();
    Status open_output();
    // The -n/-s/-P/-m/-f/-i sources into `sources`, once, after the command
    // line's options (apply_command_line_options()).
    Status load_sources();
    // Parses the sources (loaded first where they are not yet).
    Status read_program();
    Status start_targets();
    // -x (and the flags that stand for options); their notices wait for
    // apply_program_options(), which applies `#pragma D option` lines
    // where the command line does not set the same option.
    Status apply_command_line_options();
    Status apply_program_options();
    Status compile();
    // The probes each clause enables (errors for descriptions that match
    // none, unless -Z), and how many each source file's clauses matched.
    std::vector<std::vector<const trace::Probe *>>
    match_clauses(DiagnosticEngine &diagnostics,
                  std::map<const SourceFile *, size_t> &matches_per_file);
    // An error at the clause past codegen::kMaxProbeClauses of a probe.
    void check_probe_clauses(const std::vector<std::vector<const trace::Probe *>> &clause_probes,
                             DiagnosticEngine &diagnostics);
    // The diagnostics so far: an error of kind Diagnostics if there are
    // errors, else the warnings are said on `err`.
    Status take_diagnostics(DiagnosticEngine &diagnostics);
    sema::ClauseArguments clause_arguments(std::span<const trace::Probe *const> probes);

    // tracing.cpp: the steps of trace(), in order.
    struct Tracing;
    Status load(Tracing &tracing);
    void load_unwind_tables(Tracing &tracing, uint32_t rows);
    Status attach(Tracing &tracing);
    void attach_loader_watch(Tracing &tracing);
    void hold_loader_stops(Tracing &tracing);
    Status begin(Tracing &tracing, const Interrupts &interrupts);
    Status consume(Tracing &tracing, const Interrupts &interrupts);
    void sweep_exited_processes(Tracing &tracing);
    int end(Tracing &tracing, const Interrupts &interrupts);
    void detach(Tracing &tracing);
    // At the end: the processes stop() stopped that are stopped still (but
    // for the -c command, which dtx kills), with how to resume them.
    void report_stopped(const Tracing &tracing);

    Options options;
    FILE *err;
    FILE *out = stdout; // -o's file, owned once opened
    std::vector<LoadedSource> sources;
    bool sources_loaded = false;
    std::vector<ProgramUnit> units;
    ast::Program program;
    trace::TargetProcesses targets;
    std::optional<pid_t> target_pid; // $target

    // What the options set (option_settings.h).
    codegen::CompileOptions compile_options;
    trace::ConsumerOptions consumer_options;
    SessionFlags flags;
    std::set<std::string> noticed_options;
    std::vector<std::string> command_line_notices;

    trace::ProbeTable probes;
    // The ELF files the pid and usdt providers and user symbols read, each once.
    std::shared_ptr<trace::ElfFileCache> elf_files = std::make_shared<trace::ElfFileCache>();
    std::vector<std::unique_ptr<providers::Provider>> providers;
    std::vector<providers::Trampoline> trampolines;
    std::unique_ptr<codegen::CompiledProgram> compiled;
    std::map<uint32_t, std::vector<trace::ProbeArgument>> probe_arguments; // by probe ID
    std::vector<std::string> match_notices; // "dtx: description 'BEGIN ' matched 1 probe"
    size_t matched_probes = 0;              // by all clauses, counting a probe once per clause
};

} // namespace dtx::session
