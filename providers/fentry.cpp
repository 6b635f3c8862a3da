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
constexpr KernelFunctionFilter kFilter{.needs_fentry = true, .kprobe_extras = false};

class FentryProvider final : public Provider {
public:
    explicit FentryProvider(std::shared_ptr<KernelFunctionCatalog> catalog)
        : catalog_(std::move(catalog)) {}

    std::string_view name() const override { return kProviderName; }

    std::optional<std::string> match(const ProbePattern &pattern, trace::ProbeTable &table,
                                     std::vector<const trace::Probe *> &out) override {
        return match_kernel_functions(kProviderName, pattern, kFilter, *catalog_, table, out);
    }

    std::optional<std::string> unavailable() override { return catalog_->fentry(); }

    // The functions are fbt's, which -l lists; these are listed when asked
    // for (-l -P fentry, -l -n 'fentry::vfs_*:').
    void list(trace::ProbeTable &) override {}

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        return catalog_->arguments(kernel_function_of(probe));
    }

    ProviderAttributes attributes() const override {
        Attributes evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
        Attributes isa{Stability::Private, Stability::Private, DependencyClass::Isa};
        return {evolving, isa, isa, evolving, isa};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        return fentry_trampolines(enabled, *catalog_, "dtx_fentry");
    }

    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override {
        return explain_kernel_function_miss(kProviderName, pattern, kFilter, *catalog_);
    }

private:
    std::shared_ptr<KernelFunctionCatalog> catalog_;
};

} // namespace

std::unique_ptr<Provider> make_fentry_provider(std::shared_ptr<KernelFunctionCatalog> catalog) {
    return std::make_unique<FentryProvider>(std::move(catalog));
}

} // namespace dtx::providers
