// The fbt provider (DTrace's function boundary tracing): the entry and return
// of every traceable kernel function.
//   fbt:MODULE:FUNCTION:entry    args[] are the function's arguments
//   fbt:MODULE:FUNCTION:return   arg1 (args[1]) is the return value
// MODULE is "vmlinux" for the kernel image. Types come from BTF.
//
// Each probe goes through a BPF trampoline (fentry/fexit) where the kernel
// allows them and BTF describes the function, else a kprobe. Trampolines cost
// less per event, but each one detaches only after a tasks-RCU grace period,
// one at a time (~140 ms each on Linux 6.1 under qemu, against ~45 ms per
// kprobe closed from several threads, or one link for all with kprobe_multi):
// so past kMostTrampolines functions fbt uses kprobes where it can. -v says
// which and why.
#include "providers/kernel_function_probes.h"
#include "providers/registry.h"

#include <set>

namespace dtx::providers {

namespace {

constexpr std::string_view kProviderName = "fbt";
constexpr size_t kMostTrampolines = 8;

class FbtProvider final : public KernelFunctionProvider {
public:
    explicit FbtProvider(std::shared_ptr<KernelFunctionCatalog> catalog)
        : KernelFunctionProvider(kProviderName, {}, std::move(catalog)) {}

    std::optional<std::string> unavailable() override {
        Unavailable no_kprobes = catalog().kprobes();
        Unavailable no_fentry = no_kprobes ? catalog().fentry() : std::nullopt;
        if (no_kprobes && no_fentry)
            return "fbt needs kprobes or BPF trampolines (fentry), and this kernel has neither: " +
                   *no_kprobes + "; " + *no_fentry;
        return std::nullopt;
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::set<std::string> functions;
        for (const trace::Probe *probe : enabled)
            functions.insert(std::string(kernel_function_of(*probe).function));
        Unavailable no_kprobes = catalog().kprobes();
        bool few = functions.size() <= kMostTrampolines;
        // Probing for fentry loads BTF and a program: only when it would be used.
        Unavailable no_fentry = few || no_kprobes ? catalog().fentry() : std::nullopt;
        bool prefer_fentry = !no_fentry && (no_kprobes || few);
        std::string why;
        if (prefer_fentry)
            why = no_kprobes ? "this kernel has no kprobes"
                             : "BPF trampolines cost less per event (kprobes past " +
                                   std::to_string(kMostTrampolines) + " functions)";
        else if (!few)
            why = std::to_string(functions.size()) +
                  " functions: each BPF trampoline takes a grace period to detach, one at a time";
        else
            why = *no_fentry;

        std::vector<const trace::Probe *> through_fentry, through_kprobes;
        for (const trace::Probe *probe : enabled) {
            bool fentry = prefer_fentry && !catalog().fentry_refusal(kernel_function_of(*probe));
            (fentry || no_kprobes ? through_fentry : through_kprobes).push_back(probe);
        }
        std::vector<Trampoline> out;
        auto note = [&](std::vector<Trampoline> made, std::string mechanism) {
            for (Trampoline &t : made) {
                size_t count = t.spec.probes.size();
                std::string text = "fbt: " + t.spec.probes.front()->name.full() +
                                   (count > 1 ? " and " + std::to_string(count - 1) + " more" : "") +
                                   " through " + mechanism + " (" + why + ")";
                t.attach = [attach = std::move(t.attach), text](AttachContext &context) {
                    context.notes.push_back(text);
                    return attach(context);
                };
                out.push_back(std::move(t));
            }
        };
        if (!through_fentry.empty())
            note(fentry_trampolines(through_fentry, catalog(), "dtx_fbt_f"),
                 "BPF trampolines (fentry/fexit)");
        if (!through_kprobes.empty())
            note(kprobe_trampolines(through_kprobes, catalog(), "dtx_fbt_k"),
                 catalog().kprobe_multi() ? "kprobe_multi links" : "kprobes");
        return out;
    }
};

} // namespace

std::unique_ptr<Provider> make_fbt_provider(std::shared_ptr<KernelFunctionCatalog> catalog) {
    return std::make_unique<FbtProvider>(std::move(catalog));
}

} // namespace dtx::providers
