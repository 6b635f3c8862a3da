// The dtrace provider: probes of the dtx process itself.
//   dtrace:::BEGIN  fires once, before any other probe records anything
//   dtrace:::END    fires once, after the last record of any other probe
//   dtrace:::ERROR  fires where a clause faults (the code generator calls the
//                   ERROR clauses from its fault path; no program of its own)
// BEGIN and END are raw_tp programs that the session runs with
// BPF_PROG_TEST_RUN, in dtx's own context, so they cost no attachment.
#include "providers/provider.h"
#include "providers/registry.h"

#include "libtrace/program_description.h"

#include <linux/bpf.h>
#include <llvm/IR/Module.h>

namespace dtx::providers {

namespace {

constexpr const char *kProbeNames[] = {"BEGIN", "END", "ERROR"};

class DtraceProvider final : public Provider {
public:
    std::string_view name() const override { return "dtrace"; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, "dtrace") ||
            !trace::glob_match(pattern.module, "") || !trace::glob_match(pattern.function, ""))
            return {};
        for (const char *probe : kProbeNames)
            if (trace::glob_match(pattern.name, probe))
                out.push_back(&table.add({"dtrace", "", "", probe}));
        return {};
    }

    void list(trace::ProbeTable &table) override {
        for (const char *probe : kProbeNames)
            table.add({"dtrace", "", "", probe});
    }

    ProviderAttributes attributes() const override {
        constexpr Attributes stable{Stability::Stable, Stability::Stable, DependencyClass::Common};
        constexpr Attributes unnamed{Stability::Private, Stability::Private,
                                     DependencyClass::Unknown};
        return {stable, unnamed, unnamed, stable, stable};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::vector<Trampoline> out;
        for (const trace::Probe *probe : enabled) {
            if (probe->name.name == "ERROR")
                continue;
            bool begin = probe->name.name == "BEGIN";
            Trampoline t;
            t.spec.program_name = begin ? "dtx_begin" : "dtx_end";
            t.spec.section = "raw_tp";
            t.spec.probes = {probe};
            // dtrace runs BEGIN and END in its own process, not in the
            // kernel: no kernel stack (stackdepth 0, stack() empty), not
            // the frames of the system call that runs them here.
            t.spec.has_stack_context = false;
            t.activation = begin ? Activation::Begin : Activation::End;
            uint32_t id = probe->id;
            t.spec.emit = [id, begin](codegen::TrampolineBuilder &b) {
                llvm::IRBuilder<> &ir = b.ir();
                llvm::Value *dctx = b.clause_context();
                b.store_probe_id(dctx, ir.getInt64(id));
                b.clear_arguments(dctx);
                b.run_clauses(dctx,
                              begin ? codegen::ClauseGate::NotDraining : codegen::ClauseGate::None);
                if (begin) {
                    // Tracing starts after BEGIN unless BEGIN called exit().
                    llvm::GlobalVariable *activity = b.module().getNamedGlobal("dtx_activity");
                    llvm::LoadInst *state = ir.CreateLoad(ir.getInt32Ty(), activity);
                    state->setVolatile(true);
                    llvm::Value *next = ir.CreateSelect(
                        ir.CreateICmpEQ(state, ir.getInt32(uint32_t(trace::Activity::Inactive))),
                        ir.getInt32(uint32_t(trace::Activity::Active)), state);
                    ir.CreateStore(next, activity)->setVolatile(true);
                }
            };
            out.push_back(std::move(t));
        }
        return out;
    }
};

} // namespace

std::unique_ptr<Provider> make_dtrace_provider() {
    return std::make_unique<DtraceProvider>();
}

} // namespace dtx::providers
