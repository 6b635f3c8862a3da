// Feeds D programs through the whole compiler short of the kernel: parser,
// checker, lowering, LLVM's BPF back end, to an object in memory. Whatever
// parses must check or fail with a diagnostic, and whatever checks must
// compile or fail with one; nothing may crash, abort or hang.
//
// Every clause is enabled on the probes its descriptions name among BEGIN,
// END, ERROR and fuzz:::one/two, and on fuzz:::one when they name none, so
// that no clause is left out for naming a probe this table lacks. Their
// trampolines store constant arguments (test/support/test_probes.h), built
// but never loaded.

#include "codegen/compile.h"
#include "codegen/sema.h"
#include "codegen/trampoline.h"
#include "libtrace/probe.h"
#include "parser/parser.h"
#include "test/support/test_probes.h"

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
    test::TestEnabling enabling = test::enable_clauses(program, probes, fallback);
    std::vector<codegen::TrampolineSpec> trampolines;
    for (const trace::Probe *probe : enabling.enabled)
        if (probe->name.name != "ERROR") // run from the fault path, no program of its own
            trampolines.push_back(test::constant_trampoline(*probe, [](unsigned i) { return i; }));

    codegen::CompileInput input{program, checked, enabling.clause_probes, trampolines, probes};
    if (!codegen::compile_program(input, test::with_kernel_layouts({}), diags))
        diags.render(sink);
    return 0;
}
