// The usdt provider: the statically defined probes of user programs and
// libraries, as <sys/sdt.h> (systemtap's, which DTrace-style DTRACE_PROBEn
// macros expand to) records them in .note.stapsdt.
//   PROVIDERpid:MODULE:FUNCTION:NAME   the probe NAME of note provider
//                                      PROVIDER in one process: python123:
//                                      libpython3.11.so.1.0:_PyEval_EvalFrameDefault:function-entry
//   usdt:PATH:PROVIDER:NAME            the probe in every process that runs
//                                      the file PATH (bpftrace's form)
// NAME is the note's name with each "__" written "-" (function__entry is
// function-entry), FUNCTION the function around the probe site, MODULE the
// basename of the file. A probe with several sites in one function is one
// probe. arg0..argN are the note's arguments, read as its specification
// says (registers, memory, constants) and extended to 64 bits by their size
// and sign; args[N] are typed by that size (int32_t, uint64_t...).
// Semaphore-guarded probes have their semaphore counted up by the kernel
// while attached (uprobe ref_ctr_offset); dtx never writes the target's memory.
//
// `dtx -l -p PID` lists the probes of PID's modules.
#include "libtrace/usdt_note.h"
#include "providers/registry.h"
#include "providers/target_modules.h"
#include "providers/uprobe.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace dtx::providers {

namespace {

constexpr std::string_view kPathFormProvider = "usdt";

const UprobeProbeData &data_of(const trace::Probe &probe) {
    return static_cast<const UprobeProbeData &>(*probe.data);
}

// A provider field's pid: the decimal digits it ends with, after a name.
std::optional<std::pair<std::string_view, pid_t>> split_provider_pid(std::string_view field) {
    size_t digits = field.size();
    while (digits > 0 && field[digits - 1] >= '0' && field[digits - 1] <= '9')
        digits--;
    if (digits == 0 || digits == field.size())
        return std::nullopt;
    std::optional<pid_t> pid = pid_after_prefix(field, field.substr(0, digits));
    if (!pid)
        return std::nullopt;
    return std::pair(field.substr(0, digits), *pid);
}

std::string integer_type_of(int size) {
    unsigned bytes = unsigned(size < 0 ? -size : size);
    return std::string(size < 0 ? "int" : "uint") + std::to_string(bytes * 8) + "_t";
}

class UsdtProvider final : public Provider {
public:
    explicit UsdtProvider(const ProviderContext &context) : modules_(context) {}

    std::string_view name() const override { return kPathFormProvider; }

    bool owns(std::string_view provider) const override {
        return provider == kPathFormProvider ||
               (split_provider_pid(provider) && !pid_after_prefix(provider, "pid"));
    }

    std::optional<std::string> match(const ProbePattern &pattern, trace::ProbeTable &table,
                                     std::vector<const trace::Probe *> &out) override {
        if (pattern.provider == kPathFormProvider)
            return match_path(pattern, table, out);
        std::vector<pid_t> pids;
        auto named = split_provider_pid(pattern.provider);
        if (named && !pid_after_prefix(pattern.provider, "pid"))
            pids.push_back(named->second);
        // A glob (python*, *) may name any target: the notes decide.
        if (trace::has_glob(pattern.provider))
            for (pid_t pid : modules_.target_pids())
                if (std::find(pids.begin(), pids.end(), pid) == pids.end())
                    pids.push_back(pid);
        for (pid_t pid : pids) {
            auto modules = modules_.of(pid);
            if (auto *error = std::get_if<std::string>(&modules)) {
                if (named && named->second == pid && !trace::has_glob(pattern.provider))
                    return "probe '" + pattern.full() + "': " + *error;
                continue;
            }
            for (const trace::ProcessModule &module :
                 *std::get<const std::vector<trace::ProcessModule> *>(modules))
                if (module.matches(pattern.module))
                    add_probes(module.open_path, module.name(), pid, pattern, table, out);
        }
        return std::nullopt;
    }

    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override {
        auto named = split_provider_pid(pattern.provider);
        if (!named || pid_after_prefix(pattern.provider, "pid") || trace::has_glob(pattern.provider))
            return std::nullopt;
        auto modules = modules_.of(named->second);
        if (std::holds_alternative<std::string>(modules))
            return std::nullopt;
        std::set<std::string> probes;
        for (const trace::ProcessModule &module :
             *std::get<const std::vector<trace::ProcessModule> *>(modules)) {
            auto file = modules_.file(module);
            if (const auto *elf = std::get_if<std::shared_ptr<const trace::ElfFile>>(&file))
                for (const trace::UsdtProbe &note : probes_of(**elf))
                    probes.insert(note.provider + ":" + trace::usdt_probe_name_in_d(note.name) +
                                  " (" + module.name() + ")");
        }
        std::string which = "pid " + std::to_string(named->second) + " has no USDT probe '" +
                            pattern.full() + "'";
        if (probes.empty())
            return which + "; it has no USDT probes";
        std::string list;
        for (const std::string &probe : probes)
            list += (list.empty() ? "" : ", ") + probe;
        return which + "; its probes are " + list;
    }

    void list(trace::ProbeTable &table) override {
        ProbePattern any{"*", "", "", ""};
        std::vector<const trace::Probe *> ignored;
        match(any, table, ignored);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        std::vector<trace::ProbeArgument> arguments;
        const UprobeProbeData &data = data_of(probe);
        if (data.sites.empty())
            return arguments;
        for (const trace::UsdtArgument &argument : data.sites.front().usdt_arguments)
            arguments.push_back({integer_type_of(argument.size), 0, ""});
        return arguments;
    }

    ProviderAttributes attributes() const override {
        Attributes evolving_isa{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
        Attributes private_unknown{Stability::Private, Stability::Private,
                                   DependencyClass::Unknown};
        return {evolving_isa, private_unknown, private_unknown, evolving_isa, evolving_isa};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        return uprobe_trampolines("dtx_usdt", enabled);
    }

private:
    std::optional<std::string> match_path(const ProbePattern &pattern, trace::ProbeTable &table,
                                          std::vector<const trace::Probe *> &out) {
        if (pattern.module.empty() || trace::has_glob(pattern.module))
            return "probe '" + pattern.full() +
                   "': the usdt provider needs the path of a program or library as the module";
        // A path is taken as it is (a library need not be executable); a
        // bare name is a program found as -c finds it.
        std::variant<std::string, int> found =
            pattern.module.find('/') != std::string::npos
                ? std::variant<std::string, int>(pattern.module)
                : trace::find_executable(pattern.module);
        if (const int *error = std::get_if<int>(&found))
            return "probe '" + pattern.full() + "': " + pattern.module + ": " +
                   std::strerror(*error);
        const std::string *path = &std::get<std::string>(found);
        auto file = modules_.file(*path);
        if (auto *error = std::get_if<std::string>(&file))
            return "probe '" + pattern.full() + "': " + *error;
        ProbePattern notes = pattern;
        notes.provider = "*";     // the note's provider is in the function field
        notes.function = "";
        notes.module = "";
        add_probes(*path, pattern.module, -1, notes, table, out, pattern.function);
        return std::nullopt;
    }

    // Adds the probes of file `path` that `pattern` names, for process `pid`
    // (-1: every process, named usdt:MODULE:PROVIDER:NAME).
    void add_probes(const std::string &path, const std::string &module_name, pid_t pid,
                    const ProbePattern &pattern, trace::ProbeTable &table,
                    std::vector<const trace::Probe *> &out,
                    std::string_view note_provider_glob = {}) {
        auto file = modules_.file(path);
        if (std::holds_alternative<std::string>(file))
            return; // match_path() reports it; a process's other modules may do
        const auto &elf = *std::get<std::shared_ptr<const trace::ElfFile>>(file);
        const std::vector<trace::UsdtProbe> &notes = probes_of(elf);
        // Probe names in order of first appearance, with their sites.
        std::vector<std::pair<trace::ProbeName, std::vector<const trace::UsdtProbe *>>> named;
        for (const trace::UsdtProbe &note : notes) {
            std::string d_name = trace::usdt_probe_name_in_d(note.name);
            if (!trace::glob_match(pattern.name, d_name))
                continue;
            trace::ProbeName name;
            if (pid < 0) {
                if (!trace::glob_match(note_provider_glob, note.provider))
                    continue;
                name = {std::string(kPathFormProvider), module_name, note.provider, d_name};
            } else {
                const trace::ElfFunction *function = elf.function_at(note.address);
                name = {note.provider + std::to_string(pid), module_name,
                        function ? function->name : "", d_name};
                if (!trace::glob_match(pattern.provider, name.provider) ||
                    !trace::glob_match(pattern.function, name.function))
                    continue;
            }
            auto it = std::find_if(named.begin(), named.end(),
                                   [&](const auto &entry) { return entry.first == name; });
            if (it == named.end())
                it = named.insert(named.end(), {name, {}});
            it->second.push_back(&note);
        }
        for (auto &[name, sites] : named) {
            const trace::Probe *probe = table.find(name);
            if (!probe) {
                auto data = std::make_shared<UprobeProbeData>();
                data->arguments = UprobeArguments::Usdt;
                data->pid = pid;
                for (const trace::UsdtProbe *note : sites) {
                    std::optional<uint64_t> offset = elf.file_offset(note->address);
                    if (!offset)
                        continue;
                    uint64_t semaphore = note->semaphore ? elf.file_offset(note->semaphore).value_or(0) : 0;
                    data->sites.push_back({{path, *offset, semaphore}, note->arguments});
                }
                if (data->sites.empty())
                    continue;
                probe = &table.add(name, std::move(data));
            }
            if (std::find(out.begin(), out.end(), probe) == out.end())
                out.push_back(probe);
        }
    }

    const std::vector<trace::UsdtProbe> &probes_of(const trace::ElfFile &elf) {
        auto it = notes_.find(&elf);
        if (it == notes_.end())
            it = notes_.emplace(&elf, trace::read_usdt_probes(elf)).first;
        return it->second;
    }

    TargetModules modules_;
    // Keyed by the cached file, which the ElfFileCache keeps alive.
    std::map<const trace::ElfFile *, std::vector<trace::UsdtProbe>> notes_;
};

} // namespace

std::unique_ptr<Provider> make_usdt_provider(const ProviderContext &context) {
    return std::make_unique<UsdtProvider>(context);
}

} // namespace dtx::providers
