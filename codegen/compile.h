// The compiler's pipeline after semantic analysis, in one place:
//   lower the checked AST to LLVM IR (one function per clause, one entry
//   program per trampoline, the ERROR path, maps and globals)
//   -> link the run-time library -> optimize -> BPF ELF object in memory,
// plus the ProgramDescription the consumer decodes records with.
#pragma once

#include "codegen/sema.h"
#include "codegen/trampoline.h"
#include "libtrace/error.h"
#include "libtrace/probe.h"
#include "libtrace/program_description.h"
#include "parser/ast.h"
#include "parser/diagnostics.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::codegen {

// The largest ring buffer (bufsize, rounded up to a power of two of at least
// a page): a map's max_entries N is written in BTF as an array of N ints,
// whose 4N bytes must fit in 32 bits.
inline constexpr uint64_t kMaxRingBufferSize = uint64_t{1} << 29;

// The most clauses one probe may run (dtx(1), LIMITS). A probe's clauses are
// called from its one BPF program, in at most 96 blocks of 8,000 LLVM IR
// instructions (BPF_MAX_SUBPROGS, and a BPF jump's reach); past this many,
// even clauses without code fill them, the blocks grow and so does the
// compile time of each clause (and the kernel verifies at most a million
// instructions of one program). Checked once probes are matched
// (D_CLAUSE_LIMIT).
inline constexpr size_t kMaxProbeClauses = 48'000;

struct CompileOptions {
    uint64_t strsize = 256;     // characters a string holds, its NUL not counted
    uint64_t aggsize = 4 << 20; // bytes of aggregation data, sizes the maps
    // aggsize was given (-x, #pragma): each map holds what fits in it. At the
    // default, a keyed aggregation's map holds at least 65,536 keys however
    // large they are (ustack() keys are ~800 bytes: 4 MB holds only 5,090),
    // which costs nothing until used (entries are allocated as keys arrive).
    bool aggsize_given = false;
    uint64_t dynvarsize = 1 << 20; // bytes of associative-array and thread-local data
    // Given, dynvarsize alone says how many entries fit (as in dtrace, where
    // a small one drops); by default each map holds at least 1,024.
    bool dynvarsize_given = false;
    uint32_t stackframes = 20;   // stack() depth when not given
    uint32_t ustackframes = 100; // ustack() depth when not given
    uint32_t jstackframes = 50;  // jstack() depth when not given
    uint32_t scratchsize = 4096; // the bytes alloca() and copyin() may take in a clause
    uint32_t maxframes = 127; // the most frames any stack holds (the kernel's perf_event_max_stack)
    uint64_t bufsize = 4 << 20;  // the ring buffer (rounded up to a power of two)
    uint32_t nspec = 1;          // speculations a program can have at once
    uint64_t specsize = 4 << 20; // bytes of records one speculation holds
    uint32_t pcapsize = 1514;    // bytes of a packet pcap() records (dtrace's default)
    // -x cpu: clauses run only on this CPU (BEGIN and END run there).
    std::optional<uint32_t> cpu;
    // Every record holds its firing's timestamp (oformat=json shows it):
    // ClauseDescription::timestamp_offset.
    bool record_timestamps = false;
    // Kernel struct member offsets from BTF, for built-ins that read the
    // current task (ppid, vtimestamp): ("task_struct", "real_parent") -> bytes.
    std::function<std::optional<uint64_t>(std::string_view type, std::string_view member)>
        kernel_member_offset;
    // The address of a kernel symbol ("jiffies", module "" for any) from
    // /proc/kallsyms, for `symbol kernel variables; an error says why not.
    std::function<Result<uint64_t>(std::string_view name, std::string_view module)>
        kernel_symbol_address;
    // Says an error LLVM cannot go on from, just before compile_program()
    // ends the process (see there): the text is whole lines, ready to be
    // written as it is. The session writes it on its error stream; unset,
    // the error goes unsaid.
    std::function<void(std::string_view text)> fatal_error_output;
    bool want_ir = false;       // keep the IR text (--dump=ir)
    bool want_assembly = false; // keep the BPF assembly (--dump=bpf)
};

struct CompileInput {
    ast::Program &program;
    const sema::CheckedProgram &checked;
    // For each clause (program order), the probes its descriptions enabled.
    std::vector<std::vector<const trace::Probe *>> clause_probes;
    std::vector<TrampolineSpec> trampolines;
    const trace::ProbeTable &probes;
};

struct CompiledProgram {
    std::vector<char> object; // BPF ELF image
    trace::ProgramDescription description;
    std::string ir;       // with want_ir
    std::string assembly; // with want_assembly
};

// Errors (constructs that cannot be lowered, LLVM backend errors, an LLVM
// without a BPF target) go to `diags` with the clause's location; the result
// is then empty. An error LLVM cannot go on from (report_fatal_error()) is
// rendered with the others, in the program's terms, and given to
// options.fatal_error_output; then the process exits with status 1: LLVM
// allows nothing else (LlvmFatalErrorScope). Memory exhausted, it only says
// so on stderr and exits 1.
std::optional<CompiledProgram>
compile_program(const CompileInput &input, const CompileOptions &options, DiagnosticEngine &diags);

} // namespace dtx::codegen
