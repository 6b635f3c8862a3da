// The fentry provider: BPF trampolines on kernel functions.
//   fentry:vmlinux:FUNCTION:entry    a fentry program
//   fentry:vmlinux:FUNCTION:return   a fexit program
// Only functions BTF describes, with at most six arguments passed in
// registers. args[] are typed from BTF (args[0] of vfs_read is a struct
// file *); on return args[1] is the return value, typed. Cheaper per event
// than kprobes, but each function costs a BPF program and a trampoline, and
// detaching a trampoline waits for a tasks-RCU grace period (~140 ms on Linux
// 6.1 under qemu, one at a time): prefer fbt or kprobe for hundreds of functions.
#include "providers/kernel_function_probes.h"
#include "providers/registry.h"

namespace dtx::providers {

namespace {

constexpr std::string_view kProviderName = "fentry";

class FentryProvider final : public KernelFunctionProvider {
public:
    explicit FentryProvider(std::shared_ptr<KernelFunctionCatalog> catalog)
        : KernelFunctionProvider(kProviderName, {.needs_fentry = true}, std::move(catalog)) {}

    std::optional<std::string> unavailable() override { return catalog().fentry(); }

    // The functions are fbt's, which -l lists; these are listed when asked
    // for (-l -P fentry, -l -n 'fentry::vfs_*:').
    void list(trace::ProbeTable &) override {}

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        return fentry_trampolines(enabled, catalog(), "dtx_fentry");
    }
};

} // namespace

std::unique_ptr<Provider> make_fentry_provider(std::shared_ptr<KernelFunctionCatalog> catalog) {
    return std::make_unique<FentryProvider>(std::move(catalog));
}

} // namespace dtx::providers
