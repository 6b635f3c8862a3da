#include "session/option_values.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <strings.h>

namespace dtx::session {

namespace {

using Syntax = OptionSyntax;

// libdtrace/versions.list.
constexpr std::array<std::string_view, 21> kVersions = {
    "1.0",   "1.1",   "1.2",   "1.2.1", "1.2.2", "1.3",   "1.4",
    "1.4.1", "1.5",   "1.6",   "1.6.1", "1.6.2", "1.6.3", "1.6.4",
    "2.0",   "2.0.1", "2.0.2", "2.0.3", "2.0.4", "2.0.5", "2.0.6"};

constexpr std::string_view kBadVersionForm = "Version is not properly formatted or is too large";
constexpr std::string_view kUnknownVersion = "Requested version is not supported by compiler";

// strtoull over the whole of `text` (base 0, as dtrace reads numbers),
// refusing negative numbers; the rest of the text goes to `rest`. A number
// too large for 64 bits reads as UINT64_MAX, above every option's range.
std::optional<uint64_t> leading_number(const std::string &text, std::string_view &rest) {
    if (text.empty() || text[0] == '-' || std::isspace(uint8_t(text[0])))
        return std::nullopt;
    char *end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text.c_str(), &end, 0);
    if ((errno != 0 && errno != ERANGE) || end == text.c_str())
        return std::nullopt;
    rest = std::string_view(text).substr(size_t(end - text.c_str()));
    return value;
}

// number * scale, or UINT64_MAX where that overflows.
uint64_t scaled(uint64_t number, uint64_t scale) {
    return scale != 0 && number > UINT64_MAX / scale ? UINT64_MAX : number * scale;
}

// dt_opt_runtime's words for set and unset.
std::optional<bool> toggle_word(const std::string &text) {
    constexpr std::pair<const char *, const char *> kWords[] = {
        {"yes", "no"},     {"enable", "disable"}, {"enabled", "disabled"},
        {"true", "false"}, {"on", "off"},         {"set", "unset"}};
    for (auto [positive, negative] : kWords) {
        if (strcasecmp(text.c_str(), positive) == 0)
            return true;
        if (strcasecmp(text.c_str(), negative) == 0)
            return false;
    }
    return std::nullopt;
}

std::optional<uint64_t> size_value(const std::string &text) {
    std::string_view rest;
    std::optional<uint64_t> number = leading_number(text, rest);
    if (!number)
        return std::nullopt;
    if (rest.empty())
        return number;
    if (rest.size() != 1)
        return std::nullopt;
    const std::string_view suffixes = "kmgt";
    size_t power = suffixes.find(char(std::tolower(uint8_t(rest[0]))));
    if (power == std::string_view::npos)
        return std::nullopt;
    return scaled(*number, uint64_t{1} << (10 * (power + 1)));
}

// dt_opt_rate: nanoseconds between events, from a time or a frequency.
std::optional<uint64_t> rate_value(const std::string &text) {
    std::string_view rest;
    std::optional<uint64_t> number = leading_number(text, rest);
    if (!number)
        return std::nullopt;
    constexpr uint64_t kSecond = 1000000000;
    constexpr std::pair<const char *, uint64_t> kUnits[] = {
        {"ns", 1},
        {"nsec", 1},
        {"us", 1000},
        {"usec", 1000},
        {"ms", 1000000},
        {"msec", 1000000},
        {"s", kSecond},
        {"sec", kSecond},
        {"m", 60 * kSecond},
        {"min", 60 * kSecond},
        {"h", 3600 * kSecond},
        {"hour", 3600 * kSecond},
        {"d", 86400 * kSecond},
        {"day", 86400 * kSecond},
        {"hz", 0},
    };
    if (rest.empty())
        return number;
    for (auto [unit, scale] : kUnits) {
        if (strcasecmp(std::string(rest).c_str(), unit) != 0)
            continue;
        if (scale == 0)
            return *number == 0 ? 0 : kSecond / *number;
        return scaled(*number, scale);
    }
    return std::nullopt;
}

// dt_version_str2num: up to three dot-separated numbers.
bool well_formed_version(const std::string &text) {
    int dots = 0;
    uint64_t part = 0;
    const uint64_t limits[] = {0xff, 0xfff, 0xfff};
    for (char c : text) {
        if (std::isdigit(uint8_t(c))) {
            part = part * 10 + uint64_t(c - '0');
            if (part > limits[dots])
                return false;
        } else if (c != '.' || ++dots > 2) {
            return false;
        } else {
            part = 0;
        }
    }
    return true;
}

// "2" and "2.0.0" are the version "2.0".
std::string canonical_version(const std::string &text) {
    unsigned parts[3] = {0, 0, 0};
    int at = 0;
    for (char c : text) {
        if (c == '.')
            at++;
        else
            parts[at] = parts[at] * 10 + unsigned(c - '0');
    }
    std::string version = std::to_string(parts[0]) + "." + std::to_string(parts[1]);
    if (parts[2] != 0)
        version += "." + std::to_string(parts[2]);
    return version;
}

std::string version_list() {
    std::string list;
    for (std::string_view version : kVersions)
        list += (list.empty() ? "" : " ") + std::string(version);
    return list;
}

} // namespace

std::span<const std::string_view> d_versions() {
    return kVersions;
}

Error option_error(std::string message, std::string_view dtrace_reason) {
    Error error(std::move(message));
    error.details.emplace_back(dtrace_reason);
    return error;
}

std::string_view dtrace_reason(const Error &option_error) {
    return option_error.details.front();
}

Result<OptionValue> read_option_value(std::string_view option, OptionSyntax syntax,
                                      std::string_view choices,
                                      const std::optional<std::string> &value) {
    const std::string name(option);
    auto invalid = [&](const std::string &expected) {
        std::string given = value ? "'" + *value + "'" : "nothing";
        return option_error("option '" + name + "' needs " + expected + ", not " + given,
                            kInvalidOptionValue);
    };
    switch (syntax) {
    case Syntax::Flag:
        if (value)
            return option_error("option '" + name + "' takes no value, not '" + *value + "'",
                                kInvalidOptionValue);
        return OptionValue{};
    case Syntax::Ignored:
        return OptionValue{};
    case Syntax::Toggle: {
        if (!value)
            return OptionValue{true, 0};
        if (value->empty())
            return OptionValue{false, 0};
        if (std::optional<bool> word = toggle_word(*value))
            return OptionValue{*word, *word ? 1u : 0u};
        std::string_view rest;
        std::optional<uint64_t> number = leading_number(*value, rest);
        if (!number || !rest.empty())
            return invalid("yes or no (set, unset, on, off, true, false, enable(d), "
                           "disable(d)) or a number from 0");
        return OptionValue{true, *number};
    }
    case Syntax::Size: {
        if (!value)
            return OptionValue{true, 0};
        std::optional<uint64_t> bytes = size_value(*value);
        if (!bytes)
            return invalid("a size: a number of bytes with an optional k, m, g or t suffix");
        return OptionValue{true, *bytes};
    }
    case Syntax::Rate: {
        if (!value)
            return OptionValue{true, 0};
        std::optional<uint64_t> nanoseconds = rate_value(*value);
        if (!nanoseconds)
            return invalid("a rate: a whole number with a time unit (ns, us, ms, s, m, h, d) "
                           "or hz");
        return OptionValue{true, *nanoseconds};
    }
    case Syntax::Text:
        if (!value)
            return invalid("a value");
        return OptionValue{};
    case Syntax::Choice: {
        std::string words(choices);
        std::string listed;
        for (char c : words)
            listed += c == ' ' ? std::string(", ") : std::string(1, c);
        if (value) {
            size_t start = 0;
            while (start <= words.size()) {
                size_t end = std::min(words.find(' ', start), words.size());
                std::string word = words.substr(start, end - start);
                // dtrace compares linktype without regard to case.
                bool same = option == "linktype" ? strcasecmp(word.c_str(), value->c_str()) == 0
                                                 : word == *value;
                if (same)
                    return OptionValue{};
                start = end + 1;
            }
        }
        return invalid("one of: " + listed);
    }
    case Syntax::Number:
    case Syntax::Positive: {
        std::string_view rest;
        std::optional<uint64_t> number = value ? leading_number(*value, rest) : std::nullopt;
        bool positive = syntax == Syntax::Positive;
        if (!number || !rest.empty() || (positive && *number == 0))
            return invalid(positive ? "a number from 1" : "a number from 0");
        return OptionValue{true, *number};
    }
    case Syntax::Version: {
        if (!value || !well_formed_version(*value))
            return option_error("option 'version' needs a D version such as 2.0, not " +
                                    (value ? "'" + *value + "'" : std::string("nothing")),
                                kBadVersionForm);
        std::string version = canonical_version(*value);
        if (std::find(kVersions.begin(), kVersions.end(), version) == kVersions.end())
            return option_error("D version '" + *value +
                                    "' is not one dtrace defines: " + version_list(),
                                kUnknownVersion);
        return OptionValue{};
    }
    }
    return OptionValue{};
}

std::string no_effect_notice(std::string_view name) {
    return "option '" + std::string(name) + "' has no effect in dtx";
}

} // namespace dtx::session
