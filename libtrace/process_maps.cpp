// parse_maps() (process_modules.h), alone in its file because it is pure: the
// fuzz build, which has no libelf, compiles just this file.
#include "libtrace/process_modules.h"

#include <charconv>

namespace dtx::trace {

namespace {

constexpr std::string_view kDeletedSuffix = " (deleted)";

template <typename Number>
bool take_number(std::string_view &text, Number &value, int base) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc{} || end == text.data())
        return false;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return true;
}

bool take_char(std::string_view &text, char c) {
    if (text.empty() || text.front() != c)
        return false;
    text.remove_prefix(1);
    return true;
}

// "r-xp": each position holds its letter or '-'; the last is 'p' or 's'.
bool take_permissions(std::string_view &text, MapsEntry &entry) {
    if (text.size() < 4)
        return false;
    const auto flag = [&](std::size_t i, char set, bool &value) {
        value = text[i] == set;
        return value || text[i] == '-';
    };
    if (!flag(0, 'r', entry.readable) || !flag(1, 'w', entry.writable) ||
        !flag(2, 'x', entry.executable))
        return false;
    if (text[3] != 'p' && text[3] != 's')
        return false;
    entry.shared = text[3] == 's';
    text.remove_prefix(4);
    return true;
}

// "start-end perms offset major:minor inode   path"; the kernel pads the
// path to a column, and the path runs to the end of the line (it may hold
// spaces).
std::optional<MapsEntry> parse_line(std::string_view line) {
    MapsEntry entry;
    if (!take_number(line, entry.start, 16) || !take_char(line, '-') ||
        !take_number(line, entry.end, 16) || entry.start > entry.end || !take_char(line, ' ') ||
        !take_permissions(line, entry) || !take_char(line, ' ') ||
        !take_number(line, entry.offset, 16) || !take_char(line, ' ') ||
        !take_number(line, entry.device_major, 16) || !take_char(line, ':') ||
        !take_number(line, entry.device_minor, 16) || !take_char(line, ' ') ||
        !take_number(line, entry.inode, 10))
        return std::nullopt;
    if (!line.empty() && line.front() != ' ')
        return std::nullopt;
    const std::size_t path_start = line.find_first_not_of(' ');
    if (path_start == std::string_view::npos)
        return entry;
    line.remove_prefix(path_start);
    if (line.ends_with(kDeletedSuffix)) {
        line.remove_suffix(kDeletedSuffix.size());
        entry.deleted = true;
    }
    entry.path = line;
    return entry;
}

} // namespace

std::vector<MapsEntry> parse_maps(std::string_view text) {
    std::vector<MapsEntry> entries;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = text.substr(0, newline);
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        if (std::optional<MapsEntry> entry = parse_line(line))
            entries.push_back(std::move(*entry));
    }
    return entries;
}

} // namespace dtx::trace
