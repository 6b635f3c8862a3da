#include "libtrace/user_symbols.h"

#include "libtrace/hex.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <sstream>

namespace dtx::trace {

namespace {

// Rereading a live process's maps on a miss finds libraries it dlopen()ed
// since; addresses that stay unknown (JIT code, anonymous memory) must not
// make every frame reread them.
constexpr std::size_t kMaxRereadsPerProcess = 16;
constexpr uint64_t kPageSize = 4096;

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
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    const std::string text{std::istreambuf_iterator<char>(file), {}};
    // The command (field 2) is in parentheses and may hold anything.
    const size_t end_of_command = text.rfind(')');
    if (end_of_command == std::string::npos)
        return std::nullopt;
    std::istringstream fields(text.substr(end_of_command + 1));
    std::string state;
    fields >> state; // field 3
    if (state == "Z" || state == "X")
        return std::nullopt;
    std::string skipped;
    for (int field = 4; field < 22; field++)
        fields >> skipped;
    uint64_t started = 0;
    if (!(fields >> started))
        return std::nullopt;
    return started;
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
    slot.modules = std::move(*read);
    slot.start_time = start_time(pid).value_or(0);
    slot.gone = false;
    for (const ProcessModule &module : slot.modules)
        if (module.open_path != module.path)
            file_of(module);
    return slot;
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
        if (module.mappings.empty()) {
            close_private_file(module);
            continue;
        }
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

void UserSymbols::close_private_file(const ProcessModule &module) {
    if (module.open_path != module.path)
        opened_.erase({module.open_path, module.inode});
}

bool UserSymbols::may_reread(pid_t pid, uint64_t address) {
    std::set<uint64_t> &pages = reread_pages_[pid];
    if (pages.size() >= kMaxRereadsPerProcess)
        return false;
    return pages.insert(address / kPageSize).second;
}

std::shared_ptr<const ElfFile> UserSymbols::file_of(const ProcessModule &module) {
    const auto [slot, added] = opened_.try_emplace({module.open_path, module.inode});
    if (added) {
        Result<std::shared_ptr<const ElfFile>> file = files_->get(module.open_path);
        if (file)
            slot->second = std::move(*file);
    }
    return slot->second;
}

} // namespace dtx::trace
