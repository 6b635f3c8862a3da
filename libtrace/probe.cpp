#include "libtrace/probe.h"

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
    by_name_.emplace(
        NameView{probe.name.provider, probe.name.module, probe.name.function, probe.name.name},
        &probe);
    return probe;
}

const Probe *ProbeTable::find(const ProbeName &name) const {
    auto it = by_name_.find(NameView{name.provider, name.module, name.function, name.name});
    return it == by_name_.end() ? nullptr : it->second;
}

size_t ProbeTable::NameHash::operator()(const NameView &name) const noexcept {
    std::hash<std::string_view> hash;
    size_t h = hash(name.provider);
    for (std::string_view field : {name.module, name.function, name.name})
        h = h * 31 + hash(field);
    return h;
}

const Probe *ProbeTable::find(uint32_t id) const {
    return id >= 1 && id <= probes_.size() ? &probes_[id - 1] : nullptr;
}

namespace {

// Matches one [set] at the start of `pattern` against `c`; returns the length of
// the set, or 0 when `pattern` holds no complete set (then '[' is literal).
size_t match_set(std::string_view pattern, char c, bool &matched) {
    size_t i = 1;
    bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
    if (negate)
        i++;
    bool found = false;
    bool first = true;
    for (; i < pattern.size(); i++, first = false) {
        char low = pattern[i];
        if (low == ']' && !first) {
            matched = found != negate;
            return i + 1;
        }
        if (low == '\\' && i + 1 < pattern.size())
            low = pattern[++i];
        char high = low;
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            high = pattern[i + 2];
            if (high == '\\' && i + 3 < pattern.size())
                high = pattern[++i + 2];
            i += 2;
        }
        if (low <= c && c <= high)
            found = true;
    }
    return 0;
}

} // namespace

// fnmatch(3) without flags, on string views: * ? [set] [!set] and \ escapes.
bool glob_match(std::string_view pattern, std::string_view text) {
    if (pattern.empty())
        return true;
    size_t p = 0, t = 0;
    size_t star = std::string_view::npos, star_text = 0;
    while (t < text.size()) {
        if (p < pattern.size()) {
            char c = pattern[p];
            if (c == '*') {
                star = p++;
                star_text = t;
                continue;
            }
            if (c == '?') {
                p++;
                t++;
                continue;
            }
            if (c == '[') {
                bool matched = false;
                if (size_t length = match_set(pattern.substr(p), text[t], matched)) {
                    if (matched) {
                        p += length;
                        t++;
                        continue;
                    }
                } else if (text[t] == '[') {
                    p++;
                    t++;
                    continue;
                }
            } else {
                // A lone trailing backslash matches nothing, as in glibc.
                bool lone_backslash = c == '\\' && p + 1 == pattern.size();
                if (c == '\\' && !lone_backslash)
                    c = pattern[++p];
                if (c == text[t] && !lone_backslash) {
                    p++;
                    t++;
                    continue;
                }
            }
        }
        if (star == std::string_view::npos)
            return false;
        p = star + 1;
        t = ++star_text;
    }
    while (p < pattern.size() && pattern[p] == '*')
        p++;
    return p == pattern.size();
}

bool has_glob(std::string_view pattern) {
    return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

} // namespace dtx::trace
