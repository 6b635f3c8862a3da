// The usdt provider: the statically defined probes of user programs and
// libraries, as <sys/sdt.h> (systemtap's, which DTrace-style DTRACE_PROBEn
// macros expand to) records them in .note.stapsdt.
//   PROVIDERpid:MODULE:FUNCTION:NAME   the probe NAME of note provider
//                                      PROVIDER in one process: python123:
//                                      libpython3.11.so.1.0:_PyEval_EvalFrameDefault:function-entry
//   usdt:PATH:PROVIDER:NAME            the probe in every process that runs
//                                      the file PATH (bpftrace's form)
//   GLOB:MODULE:FUNCTION:NAME          python*:::function-entry: as in DTrace,
//                                      the probes of every process whose
//                                      PROVIDERpid the glob matches, and of
//                                      the processes started later from the
//                                      same files
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
//
// System-wide globs. A provider field with a glob that names none of the
// other providers (python*, but not *, s* or sys*, which stay as cheap as
// they were) is looked for in every running process: /proc/*/maps are read
// once per session, the mapped files deduplicated by device and inode, each
// file's section headers checked for .note.stapsdt, and only the files that
// have notes parsed (ElfFileCache). A note whose provider the glob matches
// ("python" for python*) is then enabled per FILE, without a process filter,
// so that processes started later from that file fire too, without polling;
// a note that only a process's pid-suffixed name matches (python12*) is
// enabled for those processes, as the PROVIDERpid form would. DTrace names
// such probes per process, which a probe that fires in processes not yet
// running cannot be: the enabled probe is named after the note's provider
// without a pid and the file's basename, python:python3.11:
// _PyEval_EvalFrameDefault:function-entry (probeprov is "python"; pid tells
// the processes apart), one probe for every file of that basename. `-l`
// lists the same glob per process, python1234:python3.11:..., as dtrace
// does; -v says which files were attached and how long the search took.
#include "libtrace/usdt_note.h"
#include "providers/registry.h"
#include "providers/target_modules.h"
#include "providers/uprobe.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
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

// A file with USDT notes that running processes map (or that a held -c
// command will), found by the system-wide search.
struct NoteFile {
    std::string open_path; // where dtx opens and attaches it
    // The processes that map it, with their module for it.
    std::vector<std::pair<pid_t, const trace::ProcessModule *>> processes;
};

// What the system-wide search found, once per session.
struct NoteFileSearch {
    std::vector<NoteFile> files;
    size_t processes = 0, mapped_files = 0;
    double milliseconds = 0;
};

std::vector<pid_t> running_pids() {
    std::vector<pid_t> pids;
    // Incremented with an error code: a range-for's ++ throws.
    std::error_code error;
    for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
        const std::string name = entry->path().filename();
        pid_t pid = 0;
        auto [rest, parsed] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (parsed == std::errc() && rest == name.data() + name.size() && pid > 0)
            pids.push_back(pid);
    }
    std::sort(pids.begin(), pids.end());
    return pids;
}

// What add_probes() does with a note whose provider the provider glob matches
// without a pid (python* and the note provider python).
enum class BareProviderNotes {
    AsNamed,  // nothing special: the pid-suffixed name must match (PROVIDERpid)
    Skipped,  // left out: probes of every process cover it
    Included, // listed for the process (-l of a system-wide glob)
};

class UsdtProvider final : public Provider {
public:
    UsdtProvider(const ProviderContext &context,
                 std::shared_ptr<const std::vector<std::string>> provider_names)
        : modules_(context), listing_(context.listing), provider_names_(std::move(provider_names)) {
    }

    std::string_view name() const override { return kPathFormProvider; }

    bool owns(std::string_view provider) const override {
        return provider == kPathFormProvider ||
               (split_provider_pid(provider) && !pid_after_prefix(provider, "pid")) ||
               every_process_providers_.contains(std::string(provider));
    }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (pattern.provider == kPathFormProvider)
            return match_path(pattern, table, out);
        if (system_wide(pattern.provider)) {
            match_system_wide(pattern, table, out);
            return {};
        }
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
            if (!modules) {
                if (named && named->second == pid && !trace::has_glob(pattern.provider))
                    return modules.error().prefixed("probe '" + pattern.full() + "'");
                continue;
            }
            for (const trace::ProcessModule &module : **modules)
                if (module.matches(pattern.module))
                    add_probes(module.open_path, module.name(), pid, pattern, table, out);
        }
        return {};
    }

    std::optional<std::string> explain_no_match(const ProbePattern &pattern) override {
        if (system_wide(pattern.provider) && search_)
            return "no USDT provider of the " + std::to_string(search_->processes) +
                   " running processes matches '" + pattern.provider + "' (" +
                   std::to_string(search_->files.size()) + " of their files have USDT probes)";
        auto named = split_provider_pid(pattern.provider);
        if (!named || pid_after_prefix(pattern.provider, "pid") ||
            trace::has_glob(pattern.provider))
            return std::nullopt;
        auto modules = modules_.of(named->second);
        if (!modules)
            return std::nullopt;
        std::set<std::string> probes;
        for (const trace::ProcessModule &module : **modules) {
            if (auto file = modules_.file(module))
                for (const trace::UsdtProbe &note : probes_of(**file))
                    probes.insert(note.provider + ":" + trace::usdt_probe_name_in_d(note.name) +
                                  " (" + module.name() + ")");
        }
        std::string which =
            "pid " + std::to_string(named->second) + " has no USDT probe '" + pattern.full() + "'";
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
        // Only a description naming one process fails, and "*" names none.
        static_cast<void>(match(any, table, ignored));
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
        std::vector<Trampoline> trampolines = uprobe_trampolines("dtx_usdt", enabled);
        bool first = true;
        for (Trampoline &t : trampolines) {
            std::vector<std::string> notes = attachment_notes(t.spec.probes);
            if (notes.empty())
                continue;
            if (first && search_)
                notes.insert(notes.begin(),
                             "usdt: searched " + std::to_string(search_->processes) +
                                 " processes' " + std::to_string(search_->mapped_files) +
                                 " mapped files for USDT notes in " +
                                 std::to_string(int(search_->milliseconds + 0.5)) + " ms");
            first = false;
            t.attach = [attach = std::move(t.attach), notes](AttachContext &context) {
                Status attached = attach(context);
                context.notes.insert(context.notes.end(), notes.begin(), notes.end());
                return attached;
            };
        }
        return trampolines;
    }

private:
    // Whether a provider field is a glob for the USDT providers of every
    // process: it has a glob character, and matches no other provider's name
    // (so *, s* or sys* do not make every program search every process).
    bool system_wide(std::string_view provider) const {
        if (!provider_names_ || provider.empty() || !trace::has_glob(provider))
            return false;
        return std::none_of(
            provider_names_->begin(), provider_names_->end(),
            [&](const std::string &name) { return trace::glob_match(provider, name); });
    }

    // The files with USDT notes that running processes (and the held -c
    // command) map, each once.
    const NoteFileSearch &search() {
        if (search_)
            return *search_;
        auto start = std::chrono::steady_clock::now();
        NoteFileSearch found;
        std::vector<pid_t> pids = running_pids();
        for (pid_t target : modules_.target_pids())
            if (!std::binary_search(pids.begin(), pids.end(), target))
                pids.push_back(target);
        std::map<std::pair<dev_t, ino_t>, std::optional<size_t>> files; // -> index in found.files
        for (pid_t pid : pids) {
            if (pid == getpid())
                continue;
            auto modules = modules_.of(pid);
            if (!modules)
                continue; // a kernel thread, or gone
            found.processes++;
            for (const trace::ProcessModule &module : **modules) {
                struct stat st;
                if (stat(module.open_path.c_str(), &st) != 0)
                    continue;
                auto [it, added] = files.try_emplace({st.st_dev, st.st_ino});
                if (added) {
                    found.mapped_files++;
                    if (trace::elf_file_has_section(module.open_path, ".note.stapsdt")) {
                        it->second = found.files.size();
                        found.files.push_back({module.open_path, {}});
                    }
                }
                if (!it->second)
                    continue;
                NoteFile &file = found.files[*it->second];
                file.processes.push_back({pid, &module});
                // A path of dtx's own namespace outlives the process whose
                // /proc/PID/root another would go through.
                if (file.open_path.starts_with("/proc/") && !module.open_path.starts_with("/proc/"))
                    file.open_path = module.open_path;
            }
        }
        found.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        search_ = std::move(found);
        return *search_;
    }

    void match_system_wide(const ProbePattern &pattern, trace::ProbeTable &table,
                           std::vector<const trace::Probe *> &out) {
        // Probes of every process, by name, in order of first appearance:
        // files of the same basename share them.
        std::vector<std::pair<trace::ProbeName, std::shared_ptr<UprobeProbeData>>> every_process;
        for (const NoteFile &file : search().files) {
            std::vector<std::pair<pid_t, const trace::ProcessModule *>> named;
            for (const auto &process : file.processes)
                if (process.second->matches(pattern.module))
                    named.push_back(process);
            if (named.empty())
                continue;
            if (listing_) {
                for (const auto &[pid, module] : named)
                    add_probes(file.open_path, module->name(), pid, pattern, table, out, {},
                               BareProviderNotes::Included);
                continue;
            }
            add_every_process_probes(file, named.front().second->name(), pattern, every_process);
            // Notes that only a pid-suffixed name matches (python12*): those processes.
            for (const auto &[pid, module] : named)
                add_probes(file.open_path, module->name(), pid, pattern, table, out, {},
                           BareProviderNotes::Skipped);
        }
        for (auto &[name, data] : every_process) {
            const trace::Probe *probe = table.find(name);
            if (!probe) {
                every_process_providers_.insert(name.provider);
                probe = &table.add(name, std::move(data));
            }
            if (std::find(out.begin(), out.end(), probe) == out.end())
                out.push_back(probe);
        }
    }

    // Adds to `named` the probes of `file` whose note provider `pattern`'s
    // provider glob matches, for every process.
    void add_every_process_probes(
        const NoteFile &file, const std::string &module_name, const ProbePattern &pattern,
        std::vector<std::pair<trace::ProbeName, std::shared_ptr<UprobeProbeData>>> &named) {
        auto parsed = modules_.file(file.open_path);
        if (!parsed)
            return;
        const trace::ElfFile &elf = **parsed;
        for (const trace::UsdtProbe &note : probes_of(elf)) {
            if (!trace::glob_match(pattern.provider, note.provider))
                continue;
            const trace::ElfFunction *function = elf.function_at(note.address);
            trace::ProbeName name{note.provider, module_name, function ? function->name : "",
                                  trace::usdt_probe_name_in_d(note.name)};
            if (!trace::glob_match(pattern.function, name.function) ||
                !trace::glob_match(pattern.name, name.name))
                continue;
            std::optional<uint64_t> offset = elf.file_offset(note.address);
            if (!offset)
                continue;
            auto it = std::find_if(named.begin(), named.end(),
                                   [&](const auto &entry) { return entry.first == name; });
            if (it == named.end()) {
                auto data = std::make_shared<UprobeProbeData>();
                data->arguments = UprobeArguments::Usdt;
                data->pid = -1;
                it = named.insert(named.end(), {name, std::move(data)});
            }
            uint64_t semaphore = note.semaphore ? elf.file_offset(note.semaphore).value_or(0) : 0;
            it->second->sites.push_back({{file.open_path, *offset, semaphore}, note.arguments});
        }
    }

    // -v: the files the system-wide probes among `probes` attach to.
    std::vector<std::string> attachment_notes(std::span<const trace::Probe *const> probes) {
        std::map<std::string, std::pair<std::set<std::string>, size_t>> by_file; // probes, sites
        for (const trace::Probe *probe : probes) {
            const UprobeProbeData &data = data_of(*probe);
            if (data.pid >= 0 || probe->name.provider == kPathFormProvider)
                continue;
            for (const UprobeProbeData::Site &site : data.sites) {
                auto &[names, sites] = by_file[site.place.path];
                names.insert(probe->name.full());
                sites++;
            }
        }
        std::vector<std::string> notes;
        for (const auto &[path, what] : by_file) {
            // A few of the processes by pid (libc* would name them all).
            constexpr size_t kNamed = 8;
            std::string pids;
            if (search_)
                for (const NoteFile &file : search_->files)
                    if (file.open_path == path) {
                        for (size_t i = 0; i < file.processes.size() && i < kNamed; i++)
                            pids += " " + std::to_string(file.processes[i].first);
                        if (file.processes.size() > kNamed)
                            pids +=
                                " and " + std::to_string(file.processes.size() - kNamed) + " more";
                    }
            notes.push_back("usdt: " + path + ": " + std::to_string(what.first.size()) +
                            (what.first.size() == 1 ? " probe, " : " probes, ") +
                            std::to_string(what.second) + (what.second == 1 ? " site" : " sites") +
                            " attached for every process that runs it (running now:" +
                            (pids.empty() ? std::string(" none") : pids) + ")");
        }
        return notes;
    }

    Status match_path(const ProbePattern &pattern, trace::ProbeTable &table,
                      std::vector<const trace::Probe *> &out) {
        if (pattern.module.empty() || trace::has_glob(pattern.module))
            return failure("probe '" + pattern.full() +
                           "': the usdt provider needs the path of a program or library as the "
                           "module");
        // A path is taken as it is (a library need not be executable); a
        // bare name is a program found as -c finds it.
        Result<std::string> found = pattern.module.find('/') != std::string::npos
                                        ? Result<std::string>(pattern.module)
                                        : trace::find_executable(pattern.module);
        if (!found)
            return found.error().prefixed("probe '" + pattern.full() + "'");
        const std::string &path = *found;
        auto file = modules_.file(path);
        if (!file)
            return file.error().prefixed("probe '" + pattern.full() + "'");
        ProbePattern notes = pattern;
        notes.provider = "*"; // the note's provider is in the function field
        notes.function = "";
        notes.module = "";
        add_probes(path, pattern.module, -1, notes, table, out, pattern.function);
        return {};
    }

    // Adds the probes of file `path` that `pattern` names, for process `pid`
    // (-1: every process, named usdt:MODULE:PROVIDER:NAME). `bare` says what
    // to do with notes whose provider the provider glob matches without a pid.
    void add_probes(const std::string &path, const std::string &module_name, pid_t pid,
                    const ProbePattern &pattern, trace::ProbeTable &table,
                    std::vector<const trace::Probe *> &out,
                    std::string_view note_provider_glob = {},
                    BareProviderNotes bare = BareProviderNotes::AsNamed) {
        auto file = modules_.file(path);
        if (!file)
            return; // match_path() reports it; a process's other modules may do
        const trace::ElfFile &elf = **file;
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
                bool bare_match = bare != BareProviderNotes::AsNamed &&
                                  trace::glob_match(pattern.provider, note.provider);
                if (bare_match && bare == BareProviderNotes::Skipped)
                    continue;
                const trace::ElfFunction *function = elf.function_at(note.address);
                name = {note.provider + std::to_string(pid), module_name,
                        function ? function->name : "", d_name};
                if (!(bare_match || trace::glob_match(pattern.provider, name.provider)) ||
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
                    uint64_t semaphore =
                        note->semaphore ? elf.file_offset(note->semaphore).value_or(0) : 0;
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
    bool listing_ = false;
    std::shared_ptr<const std::vector<std::string>> provider_names_;
    std::optional<NoteFileSearch> search_;
    // The note providers that name probes of every process ("python").
    std::set<std::string> every_process_providers_;
    // Keyed by the cached file, which the ElfFileCache keeps alive.
    std::map<const trace::ElfFile *, std::vector<trace::UsdtProbe>> notes_;
};

} // namespace

std::unique_ptr<Provider>
make_usdt_provider(const ProviderContext &context,
                   std::shared_ptr<const std::vector<std::string>> provider_names) {
    return std::make_unique<UsdtProvider>(context, std::move(provider_names));
}

} // namespace dtx::providers
