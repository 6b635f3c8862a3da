#include "session/option_settings.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace dtx::session {

namespace {

// A unit values are written in: its suffix and its size.
using Unit = std::pair<std::string_view, uint64_t>;

// `amount` in the largest of `units` (the smallest first, of size 1) that
// divides it: 4096 bytes is "4k", 90 s "90s".
std::string in_units(uint64_t amount, std::span<const Unit> units) {
    auto unit = units.begin();
    for (auto larger = units.begin(); larger != units.end(); ++larger)
        if (amount % larger->second == 0)
            unit = larger;
    return std::to_string(amount / unit->second) + std::string(unit->first);
}

// A bound of `spec`'s range as its values are written.
std::string bound_text(const OptionSpec &spec, uint64_t bound) {
    constexpr Unit kSizes[] = {
        {" bytes", 1}, {"k", 1ull << 10}, {"m", 1ull << 20}, {"g", 1ull << 30}, {"t", 1ull << 40}};
    constexpr Unit kTimes[] = {{"ns", 1},
                               {"us", 1000},
                               {"ms", 1000'000},
                               {"s", 1000'000'000},
                               {"m", 60'000'000'000},
                               {"h", 3600'000'000'000},
                               {"d", kNanosecondsPerDay}};
    if (bound == 0)
        return "0";
    if (spec.syntax == OptionSyntax::Size)
        return bound == 1 ? "1 byte" : in_units(bound, kSizes);
    if (spec.syntax == OptionSyntax::Rate)
        return in_units(bound, kTimes);
    return std::to_string(bound);
}

// Fails unless the number `v` read from `value` is in `spec`'s range. The
// error names the option, the value and the range; its detail is dtrace's
// words with the range (dtrace_reason()), for setopt().
Status check_range(const OptionSpec &spec, const OptionValue &v,
                   const std::optional<std::string> &value) {
    std::optional<OptionRange> range = range_of(spec);
    // An unset toggle (-x stackframes=no) takes its default.
    if (!range || (spec.syntax == OptionSyntax::Toggle && !v.set))
        return {};
    if (v.number >= range->least && v.number <= range->most)
        return {};
    std::string bounds =
        "from " + bound_text(spec, range->least) + " to " + bound_text(spec, range->most);
    std::string kind = spec.syntax == OptionSyntax::Size   ? "a size"
                       : spec.syntax == OptionSyntax::Rate ? "a rate"
                                                           : "a number";
    return option_error("option '" + std::string(spec.name) + "' needs " + kind + " " + bounds +
                            ", not " + (value ? "'" + *value + "'" : "nothing"),
                        std::string(kInvalidOptionValue) + " (" + bounds + ")");
}

// `value` read and checked as `spec` takes it; an unset toggle has the
// row's default for its number.
Result<OptionValue> checked_value(const OptionSpec &spec, const std::optional<std::string> &value) {
    Result<OptionValue> parsed = parse_option(spec, value);
    Status valid = parsed ? check_range(spec, *parsed, value) : Status(parsed.error());
    if (!valid)
        return spec.refusal ? spec.refusal(value) : std::move(valid).error();
    if (!parsed->set && !spec.default_value.empty()) {
        Result<OptionValue> fallback = parse_option(spec, std::string(spec.default_value));
        if (fallback)
            parsed->number = fallback->number;
    }
    return parsed;
}

} // namespace

Result<std::string> apply_option(const OptionTargets &targets, std::set<std::string> &noticed,
                                 OptionSource source, const std::string &name,
                                 const std::optional<std::string> &value) {
    const bool tracing = source == OptionSource::Setopt;
    const OptionSpec *spec = find_option(name);
    if (!spec)
        return failure(tracing ? std::string(kInvalidOptionName) : "unknown option '" + name + "'");
    if (source == OptionSource::Program && spec->outside_program)
        return failure("option '" + name + "' cannot be set in a D program (" +
                       std::string(kOptionInProgram) + "): give it on the command line, -x " +
                       name);
    if (tracing && spec->time == OptionTime::Runtime)
        return failure(std::string(kOptionWhileTracing));
    Result<OptionValue> checked = checked_value(*spec, value);
    if (!checked)
        return failure(tracing ? std::string(dtrace_reason(checked.error()))
                               : checked.error().message);
    // A compile-time option changes nothing once the program runs; dtrace
    // takes its value without a word, as here.
    if (tracing && spec->time != OptionTime::Dynamic)
        return std::string();
    if (spec->effect == OptionSpec::Effect::Ignored)
        return noticed.insert(name).second ? no_effect_notice(spec->name) : "";
    if (spec->set)
        if (Status set = spec->set(targets, {*checked, value}); !set)
            return std::move(set).error();
    return std::string();
}

std::vector<ProgramOption> program_options(const ast::Program &program) {
    std::vector<ProgramOption> options;
    for (const ast::Pragma &pragma : program.pragmas) {
        if (pragma.words.size() < 2 || pragma.words[0] != "option")
            continue;
        const std::string &word = pragma.words[1];
        size_t eq = word.find('=');
        ProgramOption option{word.substr(0, eq), std::nullopt, pragma.range};
        if (eq != std::string::npos) {
            option.value = word.substr(eq + 1);
            if (option.value->empty() && pragma.words.size() > 2)
                option.value = pragma.words[2];
        }
        options.push_back(std::move(option));
    }
    return options;
}

} // namespace dtx::session
