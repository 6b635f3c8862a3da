// The interface every provider implements, and the table that registers them.
// A provider maps some kind of kernel or user event to D probes: it names its
// probes (for -l and for matching probe descriptions), builds the entry program
// of each kind of attachment it needs, and attaches those programs through the
// shared link layer once they are loaded.
#pragma once

#include "codegen/trampoline.h"
#include "libtrace/attach.h"
#include "libtrace/bpf_object.h"
#include "libtrace/elf_file.h"
#include "libtrace/probe.h"
#include "libtrace/target.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtx::providers {

// A probe description with macros expanded: each field a glob, empty = any.
struct ProbePattern {
    std::string provider, module, function, name;

    // "provider:module:function:name", for messages.
    std::string full() const { return provider + ":" + module + ":" + function + ":" + name; }
};

// When the session runs a trampoline that is not attached to a kernel event.
enum class Activation {
    Attached, // attach() hooks it to kernel events
    Begin,    // run once before tracing starts (dtrace:::BEGIN)
    End,      // run once when tracing ends (dtrace:::END)
};

// What attach() gets once the object is loaded.
struct AttachContext {
    int program_fd = -1;
    trace::BpfObject &object;
    trace::AttachmentSet &attachments;
    // What attach() left out and why, for the session to print as warnings
    // ("probe 'pid12:libc.so.6:f:entry' left out: ...").
    std::vector<std::string> warnings{};
    // How the probes were attached and why that way, printed with -v.
    std::vector<std::string> notes{};
};

// DTrace's stability levels and dependency classes, each in increasing order:
// what a provider promises about its probe names and arguments (`dtx -lv`).
enum class Stability {
    Internal,
    Private,
    Obsolete,
    External,
    Unstable,
    Evolving,
    Stable,
    Standard,
};
enum class DependencyClass { Unknown, Cpu, Platform, Group, Isa, Common };

struct Attributes {
    Stability names = Stability::Private;
    Stability data = Stability::Private;
    DependencyClass dependency = DependencyClass::Unknown;
};

// A provider's attributes for each field of its probe names and for their
// arguments, as dtrace declares them per provider.
struct ProviderAttributes {
    Attributes provider, module, function, name, arguments;
};

// One entry program and the probes it serves.
struct Trampoline {
    codegen::TrampolineSpec spec;
    Activation activation = Activation::Attached;
    // The program's expected_attach_type when its section does not imply it
    // (uprobe_multi programs, which libbpf 1.1 has no section name for).
    std::optional<uint32_t> expected_attach_type;
    // The kernel function a fentry/fexit program is loaded (and verified) for.
    std::string attach_function;
    // Hooks the loaded program up; an error's message names the probe.
    std::function<Status(AttachContext &)> attach;
};

class Provider {
public:
    virtual ~Provider() = default;
    virtual std::string_view name() const = 0;
    // Whether probes whose provider field is `provider` are this provider's:
    // its name, or for per-process providers the name with a pid (pid123).
    virtual bool owns(std::string_view provider) const { return provider == name(); }

    // Adds to `out` every probe of this provider that `pattern` matches,
    // creating on demand probes that exist once named (tick-5s). Fails on a
    // malformed name (profile-0) or a named process or file it cannot read.
    virtual Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                         std::vector<const trace::Probe *> &out) = 0;

    // Every probe the provider offers without being asked by name, for -l.
    virtual void list(trace::ProbeTable &table) = 0;

    // The typed arguments of one of its probes (args[N], -lv); empty when the
    // provider has no types for them (args[N] is then argN as int64_t). May
    // read files, so the session asks only for probes whose clauses use args[].
    virtual std::vector<trace::ProbeArgument> arguments(const trace::Probe &) { return {}; }

    // The stability of its probe names and arguments (-lv). A provider that
    // declares none promises nothing: Private, Private, Unknown throughout.
    virtual ProviderAttributes attributes() const { return {}; }

    // The entry programs for the probes of this provider that clauses enable.
    virtual std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) = 0;

    // Why this kernel cannot enable the provider's probes (it lacks kprobes...),
    // or nullopt. Asked only when a clause enables them: -l lists probes anyway.
    virtual std::optional<std::string> unavailable() { return std::nullopt; }
    // Why this kernel cannot enable one of its probes, where that differs
    // from probe to probe (a stable probe whose tracepoint the kernel lacks):
    // listed under -lv; a clause naming it is an error, a glob leaves it out.
    virtual std::optional<std::string> probe_unavailable(const trace::Probe &) {
        return std::nullopt;
    }

    // Why `pattern` matched none of this provider's probes, when the provider
    // can say more than "no match" (the module or function it names does not
    // exist, and which do); nullopt otherwise.
    virtual std::optional<std::string> explain_no_match(const ProbePattern &) {
        return std::nullopt;
    }
};

class KernelFunctionCatalog;

// What providers need from the session: the -c and -p processes (for -l and
// for globbed provider names), the parsed ELF files the user-space providers
// share, and the kernel functions the fbt, kprobe and fentry providers share.
struct ProviderContext {
    const trace::TargetProcesses *targets = nullptr;
    std::shared_ptr<trace::ElfFileCache> elf_files = std::make_shared<trace::ElfFileCache>();
    std::shared_ptr<KernelFunctionCatalog> kernel_functions = nullptr;
    // For -l: probes are only listed, never enabled. The usdt provider then
    // names a system-wide glob's probes per process (python1234:...), as
    // dtrace lists them, instead of per file as it enables them.
    bool listing = false;
};

// Whether a probe description's name field could name a kernel tracepoint
// event: a glob, empty, or an identifier as the kernel spells its events
// (lower case, digits, '_'; their groups may have '-'). BEGIN, tick-1s or profile-997 cannot, which
// spares the tracepoint providers reading tracefs and BTF for the commonest descriptions, whose
// provider field is usually empty.
inline bool could_name_kernel_event(std::string_view field) {
    if (trace::has_glob(field))
        return true;
    for (char c : field)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

// The registered providers, in listing order; the dtrace provider first so
// that BEGIN, END and ERROR get IDs 1, 2 and 3.
std::vector<std::unique_ptr<Provider>> make_providers(const ProviderContext &context = {});

} // namespace dtx::providers
