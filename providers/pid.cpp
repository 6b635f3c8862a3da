// The pid provider: function boundaries and instructions of one process.
//   pidPID:MODULE:FUNCTION:entry    the function's first instruction
//   pidPID:MODULE:FUNCTION:return   its return (a uretprobe)
//   pidPID:MODULE:FUNCTION:OFFSET   the instruction at hex OFFSET in it
// MODULE is "a.out" (the executable), a module's basename ("libc.so.6") or
// its path; FUNCTION a symbol of .symtab/.dynsym or a PLT stub of the module
// ("malloc@plt": that module's calls of malloc), with an optional version
// ("malloc@@GLIBC_2.2.5"). Probes exist once a description names them with a
// pid (pid$target, pid123, or a glob that matches one: p*d$target), as in
// DTrace; globs in MODULE and FUNCTION create every match, an empty or
// globbed name both entry and return. A probe's module field is the
// module's basename; a library named without its version (libc.so) is its
// versioned file.
//
// entry: arg0..arg5 from the argument registers, arg6..arg9 from the stack;
// return: arg0 = the address returned to, arg1 = the return value.
// The uprobe itself is shared by every process tracing the same file offset;
// see uprobe.h for how each process's clauses run only for it.
#include "libtrace/hex.h"
#include "providers/registry.h"
#include "providers/target_modules.h"
#include "providers/uprobe.h"
#include "providers/x86_instructions.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <set>

namespace dtx::providers {

namespace {

constexpr std::string_view kPrefix = "pid";

// What a probe name field asks for.
struct NameRequest {
    bool entry = false, ret = false;
    std::optional<uint64_t> offset; // an instruction probe
};

std::optional<NameRequest> parse_name(std::string_view name) {
    NameRequest request;
    if (name.empty() || trace::has_glob(name)) {
        request.entry = trace::glob_match(name, "entry");
        request.ret = trace::glob_match(name, "return");
        if (!request.entry && !request.ret)
            return std::nullopt;
        return request;
    }
    if (name == "entry") {
        request.entry = true;
        return request;
    }
    if (name == "return") {
        request.ret = true;
        return request;
    }
    uint64_t offset = 0;
    std::string_view digits = name.starts_with("0x") ? name.substr(2) : name;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), offset, 16);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    request.offset = offset;
    return request;
}

// The process a description's provider field names: pid123, or a glob that
// matches pid123 (p*d123, as $target expands in p*d$target).
std::optional<pid_t> pid_of(std::string_view provider) {
    if (std::optional<pid_t> pid = pid_after_prefix(provider, kPrefix))
        return pid;
    const size_t digits = provider.find_last_not_of("0123456789") + 1;
    if (!trace::has_glob(provider) || digits == provider.size())
        return std::nullopt;
    const std::string name = std::string(kPrefix) + std::string(provider.substr(digits));
    std::optional<pid_t> pid = pid_after_prefix(name, kPrefix);
    return pid && trace::glob_match(provider, name) ? pid : std::nullopt;
}

class PidProvider final : public Provider {
public:
    explicit PidProvider(const ProviderContext &context) : modules_(context) {}

    std::string_view name() const override { return kPrefix; }
    bool owns(std::string_view provider) const override {
        return pid_after_prefix(provider, kPrefix).has_value();
    }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        std::optional<pid_t> pid = pid_of(pattern.provider);
        if (!pid)
            return {};
        std::optional<NameRequest> request = parse_name(pattern.name);
        if (!request)
            return {};
        auto modules = modules_.of(*pid);
        if (!modules)
            return modules.error().prefixed("probe '" + pattern.full() + "'");
        for (const trace::ProcessModule &module : **modules) {
            if (!module.matches(pattern.module))
                continue;
            auto file = modules_.file(module);
            if (!file) {
                if (trace::has_glob(pattern.module) || pattern.module.empty())
                    continue; // an unreadable module among many is not the one asked for
                return file.error().prefixed("probe '" + pattern.full() + "'");
            }
            const trace::ElfFile &elf = **file;
            for (const trace::ElfFunction *function : functions(elf, pattern.function)) {
                std::optional<uint64_t> entry = elf.file_offset(function->address);
                if (!entry)
                    continue;
                auto add = [&](std::string kind, UprobeArguments arguments, uint64_t offset) {
                    trace::ProbeName name{"pid" + std::to_string(*pid), module.name(),
                                          function->name, std::move(kind)};
                    const trace::Probe *probe = table.find(name);
                    if (!probe) {
                        auto data = std::make_shared<UprobeProbeData>();
                        data->arguments = arguments;
                        data->pid = *pid;
                        data->sites.push_back({{module.open_path, offset, 0}, {}});
                        probe = &table.add(std::move(name), std::move(data));
                    }
                    if (std::find(out.begin(), out.end(), probe) == out.end())
                        out.push_back(probe);
                };
                if (request->entry)
                    add("entry", UprobeArguments::Entry, *entry);
                if (request->ret)
                    add("return", UprobeArguments::Return, *entry);
                if (request->offset) {
                    if (Status checked =
                            check_offset(module.open_path, *function, *entry, *request->offset);
                        !checked)
                        return checked.error().prefixed("probe '" + pattern.full() + "'");
                    add(trace::hex_digits(*request->offset), UprobeArguments::Entry,
                        *entry + *request->offset);
                }
            }
        }
        return {};
    }

    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override {
        std::optional<pid_t> pid = pid_of(pattern.provider);
        if (!pid || !parse_name(pattern.name))
            return std::nullopt;
        auto modules = modules_.of(*pid);
        if (!modules)
            return std::nullopt;
        std::string names;
        bool any_module = false;
        for (const trace::ProcessModule &module : **modules) {
            names += (names.empty() ? "" : ", ") +
                     (module.main_executable ? "a.out (" + module.name() + ")" : module.name());
            any_module |= module.matches(pattern.module);
        }
        if (!any_module)
            return "pid " + std::to_string(*pid) + " has no module '" + pattern.module +
                   "'; its modules are " + names;
        if (!trace::has_glob(pattern.function) && !pattern.function.empty())
            return "no function '" + pattern.function + "' in module '" + pattern.module +
                   "' of pid " + std::to_string(*pid);
        return std::nullopt;
    }

    void list(trace::ProbeTable &) override {} // pid probes exist once named

    ProviderAttributes attributes() const override {
        Attributes evolving_isa{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
        Attributes private_unknown{Stability::Private, Stability::Private,
                                   DependencyClass::Unknown};
        return {evolving_isa, private_unknown, private_unknown, evolving_isa, private_unknown};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        return uprobe_trampolines("dtx_pid", enabled);
    }

private:
    // The functions `pattern` names, as matching() finds them; a name without
    // a glob or version stands for its address's preferred name, which names
    // the probe, as dtrace names it (pid$target::_go:entry is go's entry
    // probe when _go is go's weak alias).
    static std::vector<const trace::ElfFunction *> functions(const trace::ElfFile &elf,
                                                             const std::string &pattern) {
        std::vector<const trace::ElfFunction *> found = matching(elf, pattern);
        if (trace::has_glob(pattern) || pattern.find('@') != std::string::npos)
            return found;
        std::span<const trace::ElfFunction> all = elf.functions();
        for (const trace::ElfFunction *&function : found) {
            auto first =
                std::partition_point(all.begin(), all.end(), [&](const trace::ElfFunction &f) {
                    return f.address < function->address;
                });
            auto preferred = std::find_if(first, all.end(), [&](const trace::ElfFunction &f) {
                return f.address != function->address || !f.plt_stub;
            });
            if (preferred != all.end() && preferred->address == function->address)
                function = &*preferred;
        }
        return found;
    }

    // The functions whose name matches `pattern`, one per address (aliases
    // share a site: the first matching name in the file's order of
    // preference). PLT stubs and versioned names only when the pattern asks
    // for them with '@'.
    static std::vector<const trace::ElfFunction *> matching(const trace::ElfFile &elf,
                                                            const std::string &pattern) {
        std::vector<const trace::ElfFunction *> found;
        bool with_at = pattern.find('@') != std::string::npos;
        if (with_at && !trace::has_glob(pattern) && !pattern.ends_with("@plt")) {
            std::vector<const trace::ElfFunction *> versioned = elf.find(pattern);
            if (!versioned.empty())
                found.push_back(versioned.front());
            return found;
        }
        // GCC's out-of-line cold parts (strfromd.cold) are not functions to
        // enter, unless asked for by name.
        bool with_cold = pattern.find(".cold") != std::string::npos;
        std::optional<uint64_t> last_address;
        for (const trace::ElfFunction &function : elf.functions()) {
            if (last_address == function.address)
                continue;
            if (function.plt_stub != with_at || !trace::glob_match(pattern, function.name))
                continue;
            if (!with_cold && function.name.find(".cold") != std::string::npos)
                continue;
            found.push_back(&function);
            last_address = function.address;
        }
        return found;
    }

    // Whether an instruction of `function` (at file offset `entry`) starts
    // at `offset`: its size must be known, and its code decodes up to there.
    static Status check_offset(const std::string &path, const trace::ElfFunction &function,
                               uint64_t entry, uint64_t offset) {
        std::string where = "offset " + trace::hex(offset) + " in " + function.name;
        if (function.size == 0)
            return failure(where + ": the symbol table does not give the function's size");
        if (offset >= function.size)
            return failure(where + ": beyond its end (" + std::to_string(function.size) +
                           " bytes)");
        std::vector<uint8_t> code(function.size);
        trace::UniqueFd file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
        if (!file ||
            pread(file.get(), code.data(), code.size(), off_t(entry)) != ssize_t(code.size()))
            return Error(where + ": cannot read " + path + ": " + std::strerror(errno), errno);
        if (Status starts = check_instruction_start(code, offset); !starts)
            return starts.error().prefixed(where);
        return {};
    }

    TargetModules modules_;
};

} // namespace

std::unique_ptr<Provider> make_pid_provider(const ProviderContext &context) {
    return std::make_unique<PidProvider>(context);
}

} // namespace dtx::providers
