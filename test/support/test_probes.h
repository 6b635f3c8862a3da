// Probes and trampolines for compiling D without the providers (the code
// generator's unit tests, the compile fuzzer): each clause is enabled on the
// probes of a small table its descriptions match, and each enabled probe
// gets a raw_tp trampoline that stores constant arguments and runs its
// clauses. Such programs load and run under BPF_PROG_TEST_RUN.
#pragma once

#include "codegen/compile.h"
#include "codegen/trampoline.h"
#include "libtrace/probe.h"
#include "libtrace/vmlinux_btf.h"
#include "parser/ast.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dtx::test {

// `options` with the running kernel's struct layouts (from its BTF), which
// the session gives the code generator: ustack()'s walk reads mappings.
inline codegen::CompileOptions with_kernel_layouts(codegen::CompileOptions options) {
    if (!options.kernel_member_offset)
        options.kernel_member_offset = trace::kernel_member_offset;
    return options;
}

// A trampoline for `probe` whose argument i is argument(i).
inline codegen::TrampolineSpec constant_trampoline(const trace::Probe &probe,
                                                   std::function<uint64_t(unsigned)> argument) {
    codegen::TrampolineSpec spec;
    spec.program_name = "dtx_test_" + std::to_string(probe.id);
    spec.section = "raw_tp";
    spec.probes = {&probe};
    const uint32_t id = probe.id;
    spec.emit = [id, argument](codegen::TrampolineBuilder &b) {
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Value *dctx = b.clause_context();
        b.store_probe_id(dctx, ir.getInt64(id));
        for (unsigned i = 0; i < codegen::ClauseContextLayout::arg_count; i++)
            b.store_argument(dctx, i, ir.getInt64(argument(i)));
        ir.CreateStore(
            ir.getInt64(0),
            ir.CreateConstGEP1_64(ir.getInt8Ty(), dctx, codegen::ClauseContextLayout::errno_value));
        b.run_clauses(dctx, codegen::ClauseGate::None);
    };
    return spec;
}

struct TestEnabling {
    // For each clause (program order), the probes it enables.
    std::vector<std::vector<const trace::Probe *>> clause_probes;
    // Every enabled probe once, in the order first enabled.
    std::vector<const trace::Probe *> enabled;
};

// Enables each clause of `program` on the probes of `probes` its
// descriptions match (in description, then table order); a clause that
// matches none is enabled on `fallback`, when given.
inline TestEnabling enable_clauses(const ast::Program &program, const trace::ProbeTable &probes,
                                   const trace::Probe *fallback = nullptr) {
    TestEnabling out;
    for (const auto &clause : program.clauses) {
        std::vector<const trace::Probe *> &matched = out.clause_probes.emplace_back();
        for (const ast::ProbeDescription &d : clause->probes)
            for (const trace::Probe &probe : probes)
                if (trace::glob_match(d.provider, probe.name.provider) &&
                    trace::glob_match(d.module, probe.name.module) &&
                    trace::glob_match(d.function, probe.name.function) &&
                    trace::glob_match(d.name, probe.name.name) &&
                    std::find(matched.begin(), matched.end(), &probe) == matched.end())
                    matched.push_back(&probe);
        if (matched.empty() && fallback)
            matched.push_back(fallback);
        for (const trace::Probe *probe : matched)
            if (std::find(out.enabled.begin(), out.enabled.end(), probe) == out.enabled.end())
                out.enabled.push_back(probe);
    }
    return out;
}

} // namespace dtx::test
