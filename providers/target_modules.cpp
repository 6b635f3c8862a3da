#include "providers/target_modules.h"

#include <charconv>

namespace dtx::providers {

Result<const std::vector<trace::ProcessModule> *> TargetModules::of(pid_t pid) {
    auto it = modules_.find(pid);
    if (it == modules_.end()) {
        std::optional<std::string> held =
            context_.targets ? context_.targets->held_executable(pid) : std::nullopt;
        it = modules_
                 .emplace(pid, held ? trace::predict_executable_modules(*held)
                                    : trace::read_process_modules(pid))
                 .first;
    }
    if (!it->second)
        return it->second.error();
    return &*it->second;
}

Result<std::shared_ptr<const trace::ElfFile>>
TargetModules::file(const trace::ProcessModule &module) {
    return file(module.open_path);
}

Result<std::shared_ptr<const trace::ElfFile>> TargetModules::file(const std::string &path) {
    return context_.elf_files->get(path);
}

std::vector<pid_t> TargetModules::target_pids() const {
    return context_.targets ? context_.targets->pids() : std::vector<pid_t>{};
}

std::optional<pid_t> pid_after_prefix(std::string_view field, std::string_view prefix) {
    if (!field.starts_with(prefix) || field.size() == prefix.size())
        return std::nullopt;
    std::string_view digits = field.substr(prefix.size());
    pid_t pid = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (error != std::errc() || end != digits.data() + digits.size() || pid <= 0)
        return std::nullopt;
    return pid;
}

} // namespace dtx::providers
