#include "providers/target_modules.h"

#include <charconv>

namespace dtx::providers {

std::variant<const std::vector<trace::ProcessModule> *, std::string> TargetModules::of(pid_t pid) {
    auto it = modules_.find(pid);
    if (it == modules_.end()) {
        std::optional<std::string> held =
            context_.targets ? context_.targets->held_executable(pid) : std::nullopt;
        it = modules_
                 .emplace(pid, held ? trace::predict_executable_modules(*held)
                                    : trace::read_process_modules(pid))
                 .first;
    }
    if (const auto *error = std::get_if<std::string>(&it->second))
        return *error;
    return &std::get<std::vector<trace::ProcessModule>>(it->second);
}

std::variant<std::shared_ptr<const trace::ElfFile>, std::string>
TargetModules::file(const trace::ProcessModule &module) {
    return file(module.open_path);
}

std::variant<std::shared_ptr<const trace::ElfFile>, std::string>
TargetModules::file(const std::string &path) {
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
