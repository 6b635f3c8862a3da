// The modules of the processes pid and usdt probes name, as those providers
// see them: a running process's from its maps; a -c command's, while it is
// held before exec, from its executable and the libraries the dynamic linker
// will load. Read once per process and kept for the session.
#pragma once

#include "libtrace/elf_file.h"
#include "libtrace/process_modules.h"
#include "providers/provider.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dtx::providers {

class TargetModules {
public:
    explicit TargetModules(const ProviderContext &context) : context_(context) {}

    // The modules of `pid`, or why they cannot be had ("pid 12: No such process").
    Result<const std::vector<trace::ProcessModule> *> of(pid_t pid);
    // The parsed file of `module`.
    Result<std::shared_ptr<const trace::ElfFile>> file(const trace::ProcessModule &module);
    // The file at `path` (the usdt provider's path form).
    Result<std::shared_ptr<const trace::ElfFile>> file(const std::string &path);

    // The -c and -p processes.
    std::vector<pid_t> target_pids() const;

private:
    ProviderContext context_;
    std::map<pid_t, Result<std::vector<trace::ProcessModule>>> modules_;
};

// The pid a provider field names after `prefix` ("pid123" -> 123 for prefix
// "pid"); nullopt when the rest is not a decimal number.
std::optional<pid_t> pid_after_prefix(std::string_view field, std::string_view prefix);

} // namespace dtx::providers
