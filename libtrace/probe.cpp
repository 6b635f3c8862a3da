#include "libtrace/probe.h"

#include <fnmatch.h>

namespace dtx::trace {

std::string ProbeName::full() const {
    return provider + ":" + module + ":" + function + ":" + name;
}

const Probe &ProbeTable::add(ProbeName name, std::shared_ptr<const ProbeData> data) {
    if (const Probe *existing = find(name))
        return *existing;
    Probe &probe = probes_.emplace_back();
    probe.id = uint32_t(probes_.size());
    probe.name = std::move(name);
    probe.data = std::move(data);
    by_name_.emplace(probe.name, &probe);
    return probe;
}

const Probe *ProbeTable::find(const ProbeName &name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

const Probe *ProbeTable::find(uint32_t id) const {
    return id >= 1 && id <= probes_.size() ? &probes_[id - 1] : nullptr;
}

bool glob_match(std::string_view pattern, std::string_view text) {
    if (pattern.empty())
        return true;
    return fnmatch(std::string(pattern).c_str(), std::string(text).c_str(), 0) == 0;
}

bool has_glob(std::string_view pattern) {
    return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

} // namespace dtx::trace
