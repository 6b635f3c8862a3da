// A tracing session, the library's lifecycle that the dtx command drives:
//   compile()  check the program, match its probe descriptions against the
//              providers, generate the BPF object (one pass list, in one place)
//   run()      load it, attach every trampoline, fire BEGIN, consume records
//              until exit(), a signal or the end of the target, fire END,
//              print what is left, detach everything; returns the exit status
// A test can drive it without the command.
#pragma once

#include "codegen/compile.h"
#include "codegen/sema.h"
#include "libtrace/consumer.h"
#include "libtrace/elf_file.h"
#include "libtrace/probe.h"
#include "libtrace/target.h"
#include "parser/ast.h"
#include "parser/diagnostics.h"

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace dtx::providers {
class Provider;
struct Trampoline;
} // namespace dtx::providers

namespace dtx::trace {

struct BpfObjectError;

struct SessionOptions {
    bool quiet = false;
    bool zero_matches_allowed = false; // -Z
    bool verbose = false;              // -v
    bool destructive = false;          // -w: destructive actions allowed
    bool flow_indent = false;          // -F
    // -x name[=value], in order (no value: "-x name"); #pragma D option
    // lines are read from the program.
    std::vector<std::pair<std::string, std::optional<std::string>>> options;
    std::vector<std::string> macro_arguments; // $1 ..
    std::vector<std::string> dump_stages;     // --dump=ir, --dump=bpf
    FILE *out = stdout;
    FILE *err = stderr;
    // $target (-c or -p), in D expressions and probe descriptions.
    std::optional<pid_t> target_pid;
    // The -c and -p processes, not owned: run() releases the held command after
    // BEGIN and ends tracing, as exit(0) would, when the last of them exits.
    TargetProcesses *targets = nullptr;
};

// Where a clause came from, for dtrace's "matched N probes" notice.
struct ProgramUnit {
    const SourceFile *file = nullptr;
    std::string label; // "description 'BEGIN'", "script 'x.d'"
};

class Session {
public:
    explicit Session(SessionOptions options);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // False after reporting errors into `diags` (or, for option errors,
    // on the error stream).
    bool compile(ast::Program &program, std::span<const ProgramUnit> units,
                 DiagnosticEngine &diags);

    // Runs the compiled program; the exit status as dtrace(1) gives it.
    int run();

    const codegen::CompiledProgram *compiled() const { return compiled_.get(); }

private:
    // One -x option (in_program: a #pragma D option); false with `error` set.
    bool apply_option(const std::string &name, const std::optional<std::string> &value,
                      bool in_program, std::string &error);
    std::optional<uint64_t> kernel_member_offset(std::string_view type, std::string_view member);
    // args[] of a clause enabling `probes`, from their providers.
    sema::ClauseArguments clause_arguments(std::span<const Probe *const> probes);
    // Why the kernel refused the program, with the clauses it runs: a kernel
    // limit in the program's terms, else what the verifier said.
    void report_load_failure(const BpfObjectError &error, const ProgramDescription &description);

    SessionOptions options_;
    codegen::CompileOptions compile_options_;
    bool defaultargs_ = false; // -x defaultargs (the program's pragma is sema's)
    // What the options set for the consumer (quiet, flowindent, aggsort* ...).
    ConsumerOptions consumer_options_;
    std::set<std::string> noticed_options_; // "has no effect" said once each
    ProbeTable probes_;
    // The ELF files the pid and usdt providers and user symbols read, each once.
    std::shared_ptr<ElfFileCache> elf_files_ = std::make_shared<ElfFileCache>();
    std::vector<std::unique_ptr<providers::Provider>> providers_;
    std::vector<providers::Trampoline> trampolines_;
    std::unique_ptr<codegen::CompiledProgram> compiled_;
    std::map<uint32_t, std::vector<ProbeArgument>> probe_arguments_; // by probe ID
    std::vector<std::string> match_notices_; // "dtx: description 'BEGIN ' matched 1 probe"
};

} // namespace dtx::trace
