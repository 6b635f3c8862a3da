// The kprobe provider: kprobes and kretprobes on kernel functions.
//   kprobe:MODULE:FUNCTION:entry        a kprobe on FUNCTION's first instruction
//   kprobe:MODULE:FUNCTION:return       a kretprobe
//   kprobe:MODULE:FUNCTION+0x10:entry   a kprobe at an offset into FUNCTION
// Globs match the functions ftrace lists (or BTF and kallsyms agree on); a
// function named exactly may be any text symbol of /proc/kallsyms. MODULE is
// "vmlinux" for the kernel image. arg0..arg5 are the argument registers,
// typed from BTF where it describes the function; on return arg1 is the
// return value. Attached through the kprobe PMU (or one kprobe_multi link per
// kind where the kernel has them), so nothing is left in tracefs.
#include "providers/kernel_function_probes.h"
#include "providers/registry.h"

namespace dtx::providers {

namespace {

constexpr std::string_view kProviderName = "kprobe";
constexpr KernelFunctionFilter kFilter{.needs_fentry = false, .kprobe_extras = true};

class KprobeProvider final : public Provider {
public:
    explicit KprobeProvider(std::shared_ptr<KernelFunctionCatalog> catalog)
        : catalog_(std::move(catalog)) {}

    std::string_view name() const override { return kProviderName; }

    std::optional<std::string> match(const ProbePattern &pattern, trace::ProbeTable &table,
                                     std::vector<const trace::Probe *> &out) override {
        return match_kernel_functions(kProviderName, pattern, kFilter, *catalog_, table, out);
    }

    std::optional<std::string> unavailable() override { return catalog_->kprobes(); }

    // The functions are fbt's, which -l lists; these are listed when asked
    // for (-l -P kprobe, -l -n 'kprobe::vfs_*:').
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
        return kprobe_trampolines(enabled, *catalog_, "dtx_kprobe");
    }

    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override {
        return explain_kernel_function_miss(kProviderName, pattern, kFilter, *catalog_);
    }

private:
    std::shared_ptr<KernelFunctionCatalog> catalog_;
};

} // namespace

std::unique_ptr<Provider> make_kprobe_provider(std::shared_ptr<KernelFunctionCatalog> catalog) {
    return std::make_unique<KprobeProvider>(std::move(catalog));
}

} // namespace dtx::providers
