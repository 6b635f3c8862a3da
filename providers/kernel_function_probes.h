// What the kernel-function providers (fbt, kprobe, fentry) share: the
// catalog of traceable functions with their BTF prototypes and the kernel's
// features, probe matching over it, and the two kinds of entry program:
//   kprobes  one program for every function of a kind (entry or return), the
//            probe ID in the bpf cookie; one perf-event kprobe per function,
//            or one kprobe_multi link for all where the kernel has them
//   fentry   BPF trampolines: a program is verified for its one function, so
//            each probe has its own (libbpf loads them with their BTF), the
//            probe ID built in
#pragma once

#include "libtrace/kernel_functions.h"
#include "providers/provider.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct btf;

namespace dtx::providers {

// x86-64 passes this many arguments in registers; BPF trampolines on Linux 6.1
// take no more.
inline constexpr unsigned kRegisterArguments = 6;

// One probe on a kernel function, as its name and data say.
struct KernelFunctionProbe {
    std::string_view function; // as the kernel spells it, without the offset
    std::string_view module;   // trace::kKernelImageModule or a module
    uint64_t offset = 0;       // kprobe::FUNC+0x10:entry
    bool is_return = false;
};

// The function of a probe these providers made; views into its name.
KernelFunctionProbe kernel_function_of(const trace::Probe &probe);

// Why a mechanism cannot be used at all, or nullopt when it can.
using Unavailable = std::optional<std::string>;

// The traceable functions and what the kernel offers to trace them, found on
// first use and shared by the providers of one session.
class KernelFunctionCatalog {
public:
    // The functions, or null (error() says why).
    const trace::KernelFunctionList *functions();
    const std::string &error();

    // The FUNC_PROTO of `function` in vmlinux BTF, 0 when BTF does not describe
    // it (a module's function, a compiler-made copy, no BTF).
    uint32_t prototype(std::string_view function, std::string_view module);
    // The BTF FUNC id of a vmlinux function, 0 if none.
    uint32_t function_id(std::string_view function, std::string_view module);
    const btf *vmlinux();

    // args[] of a probe: the function's parameters (entry), or arg0 (always 0:
    // the offset of the return instruction is not known) and the return value
    // (return), typed from BTF when it describes the function.
    std::vector<trace::ProbeArgument> arguments(const KernelFunctionProbe &probe);
    // The number of registers argN reads: the parameter count when BTF knows
    // it, else all of them.
    unsigned argument_count(const KernelFunctionProbe &probe);
    // Why a BPF trampoline cannot trace `probe`'s function, if it cannot.
    std::optional<std::string> fentry_refusal(const KernelFunctionProbe &probe);
    // Whether the return value exists (the function is not void).
    bool returns_value(const KernelFunctionProbe &probe);

    // Whether kprobes refuse `function` (the kprobe blacklist).
    bool kprobe_blacklisted(std::string_view function);
    // Whether /proc/kallsyms has `name` as a text symbol (of `module` if given),
    // for kprobes on symbols ftrace does not list.
    bool kallsyms_has_text(std::string_view name, std::string_view module);

    // Feature probes, each run once.
    Unavailable kprobes();
    Unavailable fentry();
    bool kprobe_multi();
    bool kprobe_cookies();

private:
    struct BtfIndex {
        std::unordered_map<std::string_view, uint32_t> functions; // name -> FUNC id
    };
    BtfIndex *btf_index();

    bool loaded_ = false;
    std::optional<trace::KernelFunctionList> functions_;
    std::string error_;
    bool btf_loaded_ = false;
    const btf *vmlinux_ = nullptr;
    std::unique_ptr<BtfIndex> btf_index_;
    std::optional<trace::KprobeBlacklist> blacklist_;
    std::optional<std::string> kallsyms_;
    std::optional<Unavailable> kprobes_, fentry_;
    std::optional<bool> kprobe_multi_, kprobe_cookies_;
};

// Which functions a provider offers.
struct KernelFunctionFilter {
    // Only functions BTF describes with at most kRegisterArguments arguments
    // (fentry); otherwise any listed function.
    bool needs_fentry = false;
    // Offsets (FUNC+0x10) and unlisted kallsyms symbols named exactly (kprobe).
    bool kprobe_extras = false;
};

// Adds the probes of provider `provider` that `pattern` matches (entry and
// return of each matching function; FUNC+OFFSET entries for kprobe). A
// description naming FUNC exactly also matches the compiler's copies of FUNC
// (FUNC.isra.0) when the kernel has no FUNC itself.
Status match_kernel_functions(std::string_view provider, const ProbePattern &pattern,
                              const KernelFunctionFilter &filter, KernelFunctionCatalog &catalog,
                              trace::ProbeTable &table, std::vector<const trace::Probe *> &out);
void list_kernel_functions(std::string_view provider, const KernelFunctionFilter &filter,
                           KernelFunctionCatalog &catalog, trace::ProbeTable &table);
// Why nothing matched, when the catalog can say (the function exists but the
// provider cannot trace it, or the list could not be read).
std::optional<std::string> explain_kernel_function_miss(std::string_view provider,
                                                        const ProbePattern &pattern,
                                                        const KernelFunctionFilter &filter,
                                                        KernelFunctionCatalog &catalog);

// What fbt, kprobe and fentry have in common: probes on the catalog's
// functions that `filter` admits, typed from BTF, with the same attributes.
// Each adds how it attaches them (trampolines) and what it needs (unavailable).
class KernelFunctionProvider : public Provider {
public:
    KernelFunctionProvider(std::string_view name, KernelFunctionFilter filter,
                           std::shared_ptr<KernelFunctionCatalog> catalog)
        : name_(name), filter_(filter), catalog_(std::move(catalog)) {}

    std::string_view name() const override { return name_; }
    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override;
    void list(trace::ProbeTable &table) override;
    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override;
    ProviderAttributes attributes() const override;
    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override;

protected:
    KernelFunctionCatalog &catalog() { return *catalog_; }

private:
    std::string_view name_;
    KernelFunctionFilter filter_;
    std::shared_ptr<KernelFunctionCatalog> catalog_;
};

// Entry programs for `probes` through kprobes and through BPF trampolines.
// `program_prefix` makes the program names unique ("dtx_fbt_k").
std::vector<Trampoline> kprobe_trampolines(std::span<const trace::Probe *const> probes,
                                           KernelFunctionCatalog &catalog,
                                           std::string_view program_prefix);
std::vector<Trampoline> fentry_trampolines(std::span<const trace::Probe *const> probes,
                                           KernelFunctionCatalog &catalog,
                                           std::string_view program_prefix);

} // namespace dtx::providers
