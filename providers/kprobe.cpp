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

class KprobeProvider final : public KernelFunctionProvider {
public:
    explicit KprobeProvider(std::shared_ptr<KernelFunctionCatalog> catalog)
        : KernelFunctionProvider(kProviderName, {.kprobe_extras = true}, std::move(catalog)) {}

    std::optional<std::string> unavailable() override { return catalog().kprobes(); }

    // The functions are fbt's, which -l lists; these are listed when asked
    // for (-l -P kprobe, -l -n 'kprobe::vfs_*:').
    void list(trace::ProbeTable &) override {}

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        return kprobe_trampolines(enabled, catalog(), "dtx_kprobe");
    }
};

} // namespace

std::unique_ptr<Provider> make_kprobe_provider(std::shared_ptr<KernelFunctionCatalog> catalog) {
    return std::make_unique<KprobeProvider>(std::move(catalog));
}

} // namespace dtx::providers
