#include "libtrace/user_symbols.h"

#include "libtrace/hex.h"
#include "libtrace/whole_file.h"

#include <fcntl.h>

#include <algorithm>
#include <charconv>

namespace dtx::trace {

namespace {

// Rereading a live process's maps on a miss finds libraries it dlopen()ed
// since; addresses that stay unknown (JIT code, anonymous memory) must not
// make every frame reread them.
constexpr std::size_t kMaxRereadsPerProcess = 16;
constexpr uint64_t kPageSize = 4096;
// Modules a process no longer maps, kept beneath those it maps for the
// addresses recorded while it did, at most (the oldest go first).
constexpr std::size_t kMaxUnmappedModules = 256;
// Files held open until they are read, at most: past it, a file is read
// from its path when needed, if it is still there.
constexpr std::size_t kMaxHeldFiles = 512;

FileIdentity identity_of(const ProcessModule &module) {
    return {module.inode, module.device};
}

bool overlaps(const MapsEntry &mapping, uint64_t start, uint64_t end) {
    return mapping.start < end && start < mapping.end;
}

// Appends to `now` what of `before` overlaps nothing `now` maps.
void keep_unmapped(std::vector<ProcessModule> &before, std::vector<ProcessModule> &now) {
    std::vector<std::pair<uint64_t, uint64_t>> mapped;
    for (const ProcessModule &module : now)
        for (const MapsEntry &mapping : module.mappings)
            mapped.emplace_back(mapping.start, mapping.end);
    const size_t limit = now.size() + kMaxUnmappedModules;
    for (ProcessModule &module : before) {
        if (now.size() >= limit)
            break;
        std::erase_if(module.mappings, [&mapped](const MapsEntry &mapping) {
            return std::any_of(mapped.begin(), mapped.end(), [&mapping](const auto &range) {
                return overlaps(mapping, range.first, range.second);
            });
        });
        if (!module.mappings.empty())
            now.push_back(std::move(module));
    }
}

const ProcessModule *module_containing(const std::vector<ProcessModule> &modules,
                                       uint64_t address) {
    for (const ProcessModule &module : modules)
        if (module.offset_of_address(address))
            return &module;
    return nullptr;
}

// When process `pid` started (field 22 of /proc/PID/stat, in clock ticks
// since boot), or nothing when it has exited (a zombie has too: its memory
// is gone). A pid that names another process has another start time.
std::optional<uint64_t> start_time(pid_t pid) {
    const std::optional<std::string> text = read_file("/proc/" + std::to_string(pid) + "/stat");
    // The command (field 2) is in parentheses and may hold anything.
    const size_t end_of_command = text ? text->rfind(')') : std::string::npos;
    if (end_of_command == std::string::npos)
        return std::nullopt;
    // After it, fields 3 (the state) to 52, each after one space.
    std::string_view fields = std::string_view(*text).substr(end_of_command + 1);
    for (int field = 3; field <= 22; field++) {
        const size_t space = fields.find(' ');
        if (space == std::string_view::npos)
            return std::nullopt;
        fields.remove_prefix(space + 1);
        if (field == 3 && (fields.starts_with('Z') || fields.starts_with('X')))
            return std::nullopt;
    }
    uint64_t started = 0;
    if (std::from_chars(fields.data(), fields.data() + fields.size(), started).ec != std::errc())
        return std::nullopt;
    return started;
}

// The module of `file` mapped at [start, end) in `pid`, named from another
// mapping of the file there (a library unloaded since and loaded again).
std::optional<ProcessModule> read_mapped_elsewhere(pid_t pid, uint64_t start, uint64_t end,
                                                   uint64_t offset, const FileIdentity &file) {
    const std::string maps = read_file("/proc/" + std::to_string(pid) + "/maps").value_or("");
    for (const MapsEntry &entry : parse_maps(maps)) {
        if (!entry.executable || entry.inode != file.inode)
            continue;
        std::optional<ProcessModule> other =
            read_mapped_module(pid, entry.start, entry.end, entry.offset);
        if (!other || identity_of(*other) != file)
            continue;
        MapsEntry &mapping = other->mappings.front();
        mapping.start = start;
        mapping.end = end;
        mapping.offset = offset;
        return other;
    }
    return std::nullopt;
}

} // namespace

UserSymbols::UserSymbols(std::shared_ptr<ElfFileCache> files) : files_(std::move(files)) {}

void UserSymbols::remember(pid_t pid) {
    std::lock_guard lock(mutex_);
    process(pid, false);
}

void UserSymbols::reread(pid_t pid) {
    std::lock_guard lock(mutex_);
    process(pid, true);
}

std::string UserSymbols::format(pid_t pid, uint64_t address) {
    std::lock_guard lock(mutex_);
    const Resolved resolved = resolve(pid, address);
    if (!resolved.module)
        return hex(address);
    std::string text = resolved.module->name() + "`";
    if (!resolved.function)
        return text + hex(resolved.link_address);
    text += resolved.function->name;
    if (const uint64_t delta = resolved.link_address - resolved.function->address)
        text += "+" + hex(delta);
    return text;
}

std::string UserSymbols::function(pid_t pid, uint64_t address) {
    std::lock_guard lock(mutex_);
    const Resolved resolved = resolve(pid, address);
    if (!resolved.module)
        return hex(address);
    return resolved.module->name() + "`" +
           (resolved.function ? resolved.function->name : hex(resolved.link_address));
}

std::string UserSymbols::module(pid_t pid, uint64_t address) {
    std::lock_guard lock(mutex_);
    const Resolved resolved = resolve(pid, address);
    return resolved.module ? resolved.module->name() : hex(address);
}

UserSymbols::Resolved UserSymbols::resolve(pid_t pid, uint64_t address) {
    Resolved resolved;
    resolved.module = module_containing(process(pid, false).modules, address);
    if (!resolved.module && may_reread(pid, address))
        resolved.module = module_containing(process(pid, true).modules, address);
    if (!resolved.module)
        if (auto exited = exited_.find(pid); exited != exited_.end())
            resolved.module = module_containing(exited->second, address);
    if (!resolved.module)
        return resolved;
    const uint64_t offset = *resolved.module->offset_of_address(address);
    // Without the file, the offset stands for the link-time address: they
    // are equal for the first segment of most libraries, and it is what
    // the file's readers (addr2line -e) need anyway.
    resolved.link_address = offset;
    resolved.file = file_of(*resolved.module);
    if (!resolved.file)
        return resolved;
    if (std::optional<uint64_t> vaddr = resolved.file->vaddr_of_offset(offset)) {
        resolved.link_address = *vaddr;
        resolved.function = resolved.file->function_at(*vaddr);
    }
    return resolved;
}

const UserSymbols::Process &UserSymbols::process(pid_t pid, bool reread) {
    auto known = processes_.find(pid);
    if (known != processes_.end() && !reread)
        return known->second;
    Result<std::vector<ProcessModule>> read = read_process_modules(pid);
    Process &slot = processes_[pid];
    if (!read) {
        // Gone: keep what was known; an unknown pid stays without modules
        // rather than failing again on each of its addresses.
        return slot;
    }
    note_files(*read);
    keep_unmapped(slot.modules, *read);
    slot.modules = std::move(*read);
    slot.start_time = start_time(pid).value_or(0);
    slot.gone = false;
    return slot;
}

void UserSymbols::learn(pid_t pid, uint64_t start, uint64_t end, uint64_t offset,
                        const FileIdentity &file) {
    std::lock_guard lock(mutex_);
    process(pid, false);
    Process &slot = processes_[pid];
    for (const ProcessModule &module : slot.modules)
        if (identity_of(module) == file)
            for (const MapsEntry &mapping : module.mappings)
                if (mapping.start == start && mapping.end == end && mapping.offset == offset)
                    return;
    // Named where the file was seen before, else read while it is mapped.
    std::optional<ProcessModule> learned;
    if (auto seen = files_seen_.find(file); seen != files_seen_.end()) {
        learned.emplace();
        learned->path = seen->second.path;
        learned->open_path = seen->second.open_path;
        learned->inode = file.inode;
        learned->device = file.device;
        MapsEntry &mapping = learned->mappings.emplace_back();
        mapping.start = start;
        mapping.end = end;
        mapping.readable = mapping.executable = true;
        mapping.offset = offset;
        mapping.inode = file.inode;
    } else {
        learned = read_mapped_module(pid, start, end, offset);
        if (!learned || identity_of(*learned) != file)
            learned = read_mapped_elsewhere(pid, start, end, offset, file);
        if (!learned)
            return;
        note_files({*learned});
    }
    for (ProcessModule &module : slot.modules)
        std::erase_if(module.mappings,
                      [&](const MapsEntry &mapping) { return overlaps(mapping, start, end); });
    std::erase_if(slot.modules,
                  [](const ProcessModule &module) { return module.mappings.empty(); });
    slot.modules.push_back(std::move(*learned));
}

std::optional<std::string> UserSymbols::known_path(const FileIdentity &file) {
    std::lock_guard lock(mutex_);
    auto seen = files_seen_.find(file);
    if (seen == files_seen_.end())
        return std::nullopt;
    for (const std::string *path : {&seen->second.open_path, &seen->second.path})
        if (!path->empty() && file_identity(*path) == file)
            return *path;
    return std::nullopt;
}

void UserSymbols::note_files(const std::vector<ProcessModule> &modules) {
    for (const ProcessModule &module : modules) {
        KnownFile &known = files_seen_[identity_of(module)];
        // A path that did not read may be replaced by one that will.
        if (known.path.empty() || (known.read && !known.file)) {
            known.path = module.path;
            known.open_path = module.open_path;
            known.read = false;
        }
        // Held open now (reading it would hold up the records): paths
        // through /proc/PID only open while the process maps the file, and
        // a file may be removed once unmapped.
        if (!known.held && !known.read && files_held_ < kMaxHeldFiles) {
            known.held.reset(open(known.open_path.c_str(), O_RDONLY | O_CLOEXEC));
            files_held_ += known.held.valid();
        }
    }
}

std::vector<pid_t> UserSymbols::exited_processes() {
    std::lock_guard lock(mutex_);
    std::vector<pid_t> swept;
    for (auto &[pid, process] : processes_) {
        if (process.gone) {
            swept.push_back(pid);
            continue;
        }
        const std::optional<uint64_t> started = start_time(pid);
        process.gone = !started || (process.start_time && *started != process.start_time);
    }
    return swept;
}

void UserSymbols::keep_only(pid_t pid, const std::set<uint64_t> &addresses) {
    std::lock_guard lock(mutex_);
    auto found = processes_.find(pid);
    if (found == processes_.end())
        return;
    // An exited process maps nothing new: of each module, only the mappings
    // holding those addresses are needed, and not their paths.
    std::vector<ProcessModule> kept;
    for (ProcessModule &module : found->second.modules) {
        std::erase_if(module.mappings, [&addresses](const MapsEntry &mapping) {
            auto first = addresses.lower_bound(mapping.start);
            return first == addresses.end() || *first >= mapping.end;
        });
        if (module.mappings.empty())
            continue;
        for (MapsEntry &mapping : module.mappings)
            std::string().swap(mapping.path);
        module.mappings.shrink_to_fit();
        kept.push_back(std::move(module));
    }
    processes_.erase(found);
    reread_pages_.erase(pid);
    if (kept.empty())
        return;
    // An earlier process with this pid may have left modules: the newer
    // come first, as a later process's would.
    std::vector<ProcessModule> &slot = exited_[pid];
    for (ProcessModule &module : slot)
        kept.push_back(std::move(module));
    slot = std::move(kept);
}

size_t UserSymbols::process_count() {
    std::lock_guard lock(mutex_);
    size_t count = exited_.size();
    for (const auto &entry : processes_)
        count += !exited_.contains(entry.first);
    return count;
}

bool UserSymbols::may_reread(pid_t pid, uint64_t address) {
    std::set<uint64_t> &pages = reread_pages_[pid];
    if (pages.size() >= kMaxRereadsPerProcess)
        return false;
    return pages.insert(address / kPageSize).second;
}

std::shared_ptr<const ElfFile> UserSymbols::file_of(const ProcessModule &module) {
    KnownFile &known = files_seen_[identity_of(module)];
    if (known.open_path.empty()) {
        known.path = module.path;
        known.open_path = module.open_path;
    }
    if (!known.read) {
        known.read = true;
        const std::string path = known.held ? "/proc/self/fd/" + std::to_string(known.held.get())
                                            : known.open_path;
        Result<std::shared_ptr<const ElfFile>> file = files_->get(path);
        if (file)
            known.file = std::move(*file);
        if (known.held) {
            known.held.reset();
            files_held_--;
        }
    }
    return known.file;
}

} // namespace dtx::trace
