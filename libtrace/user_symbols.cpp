#include "libtrace/user_symbols.h"

#include "libtrace/hex.h"

#include <charconv>

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

} // namespace

UserSymbols::UserSymbols(std::shared_ptr<ElfFileCache> files) : files_(std::move(files)) {}

void UserSymbols::remember(pid_t pid) {
    std::lock_guard lock(mutex_);
    modules_of(pid, false);
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
    resolved.module = module_containing(*modules_of(pid, false), address);
    if (!resolved.module && may_reread(pid, address))
        resolved.module = module_containing(*modules_of(pid, true), address);
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

const std::vector<ProcessModule> *UserSymbols::modules_of(pid_t pid, bool reread) {
    auto known = processes_.find(pid);
    if (known != processes_.end() && !reread)
        return &known->second;
    Result<std::vector<ProcessModule>> read = read_process_modules(pid);
    if (!read) {
        // Gone: keep what was known; an unknown pid stays without modules
        // rather than failing again on each of its addresses.
        return &processes_[pid];
    }
    std::vector<ProcessModule> &slot = processes_[pid];
    slot = std::move(*read);
    for (const ProcessModule &module : slot)
        if (module.open_path != module.path)
            file_of(module);
    return &slot;
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
