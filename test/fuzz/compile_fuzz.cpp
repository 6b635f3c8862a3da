// Feeds D programs through the whole compiler short of the kernel: parser,
// checker, lowering, LLVM's BPF back end, to an object in memory. Whatever
// parses must check or fail with a diagnostic, and whatever checks must
// compile or fail with one; nothing may crash, abort or hang.
//
// Every clause is enabled on the probes its descriptions name among BEGIN,
// END, ERROR and fuzz:::one/two, and on fuzz:::one when they name none, so
// that no clause is left out for naming a probe this table lacks. Their
// trampolines are raw tracepoints that store constant arguments (the shape
// of the unit tests' trampolines), built but never loaded.

#include "codegen/compile.h"
#include "codegen/sema.h"
#include "codegen/trampoline.h"
#include "libtrace/probe.h"
#include "parser/parser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace dtx;

const trace::ProbeName kProbeNames[] = {
    {"dtrace", "", "", "BEGIN"}, {"dtrace", "", "", "END"}, {"dtrace", "", "", "ERROR"},
    {"fuzz", "", "", "one"},     {"fuzz", "", "", "two"},
};

codegen::TrampolineSpec trampoline(const trace::Probe &probe) {
    codegen::TrampolineSpec spec;
    spec.program_name = "dtx_fuzz_" + std::to_string(probe.id);
    spec.section = "raw_tp";
    spec.probes = {&probe};
    const uint32_t id = probe.id;
    spec.emit = [id](codegen::TrampolineBuilder &b) {
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Value *dctx = b.clause_context();
        b.store_probe_id(dctx, ir.getInt64(id));
        for (unsigned i = 0; i < codegen::ClauseContextLayout::arg_count; i++)
            b.store_argument(dctx, i, ir.getInt64(i));
        ir.CreateStore(
            ir.getInt64(0),
            ir.CreateConstGEP1_64(ir.getInt8Ty(), dctx, codegen::ClauseContextLayout::errno_value));
        b.run_clauses(dctx, codegen::ClauseGate::None);
    };
    return spec;
}

bool matches(const ast::ProbeDescription &d, const trace::Probe &probe) {
    return trace::glob_match(d.provider, probe.name.provider) &&
           trace::glob_match(d.module, probe.name.module) &&
           trace::glob_match(d.function, probe.name.function) &&
           trace::glob_match(d.name, probe.name.name);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    SourceFile source("fuzz.d", std::string(reinterpret_cast<const char *>(data), size));
    parser::TypeNames names;
    ast::Program program;
    DiagnosticEngine diags;
    std::ostringstream sink;
    if (!parser::parse_program(source, names, program, diags) || diags.has_errors()) {
        diags.render(sink);
        return 0;
    }
    sema::CheckOptions check_options;
    check_options.macro_arguments = {"1", "two"};
    check_options.target_pid = 1;
    check_options.destructive = true;
    sema::CheckedProgram checked = sema::check_program(program, diags, check_options);
    if (diags.has_errors()) {
        diags.render(sink);
        return 0;
    }

    trace::ProbeTable probes;
    for (const trace::ProbeName &name : kProbeNames)
        probes.add(name);
    const trace::Probe *fallback = nullptr;
    for (const trace::Probe &probe : probes)
        if (probe.name.provider == "fuzz" && !fallback)
            fallback = &probe;
    std::vector<std::vector<const trace::Probe *>> clause_probes;
    std::vector<const trace::Probe *> enabled;
    for (const auto &clause : program.clauses) {
        std::vector<const trace::Probe *> &matched = clause_probes.emplace_back();
        for (const ast::ProbeDescription &d : clause->probes)
            for (const trace::Probe &probe : probes)
                if (matches(d, probe) &&
                    std::find(matched.begin(), matched.end(), &probe) == matched.end())
                    matched.push_back(&probe);
        if (matched.empty())
            matched.push_back(fallback);
        for (const trace::Probe *probe : matched)
            if (std::find(enabled.begin(), enabled.end(), probe) == enabled.end())
                enabled.push_back(probe);
    }
    std::vector<codegen::TrampolineSpec> trampolines;
    for (const trace::Probe *probe : enabled)
        if (probe->name.name != "ERROR") // run from the fault path, no program of its own
            trampolines.push_back(trampoline(*probe));

    codegen::CompileInput input{program, checked, clause_probes, trampolines, probes};
    if (!codegen::compile_program(input, codegen::CompileOptions{}, diags))
        diags.render(sink);
    return 0;
}
