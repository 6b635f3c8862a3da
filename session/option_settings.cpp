#include "session/option_settings.h"

#include "libtrace/options.h"
#include "libtrace/program_description.h"

#include <bpf/libbpf.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace dtx::session {

namespace {

using trace::ConsumerOptions;
using trace::OptionSpec;
using trace::OptionSyntax;
using trace::OptionTime;
using trace::OptionValue;

// The values an option may take: sizes in bytes, rates in nanoseconds.
struct OptionRange {
    uint64_t least = 0;
    uint64_t most = 0;
};

// dtrace keeps option values in an int64_t and refuses those that read as
// negative, so no value reaches 2^63. Options without a narrower range stop
// below that: numbers at INT64_MAX, sizes and rates at the largest value
// their largest unit writes exactly.
constexpr uint64_t kMaxNumber = INT64_MAX;
constexpr uint64_t kMaxSize = (uint64_t{1} << 63) - (uint64_t{1} << 40); // 8388607t
constexpr uint64_t kDay = 86400'000'000'000;
constexpr uint64_t kMaxRate = INT64_MAX / kDay * kDay; // 106751d

// The most speculations a program may have (nspec).
constexpr uint64_t kMaxSpeculations = 1024;
// bpf_get_stack() gives at most 127 frames (dtrace caps at maxframes).
constexpr uint64_t kMaxStackFrames = 127;
// The deepest stackindent prints, in spaces.
constexpr uint64_t kMaxStackIndent = 1024;

// The numbers `spec` may be set to; nullopt for an option without one.
std::optional<OptionRange> range_of(const OptionSpec &spec) {
    constexpr std::pair<std::string_view, OptionRange> kRanges[] = {
        // Sizes of what dtx allocates: at least a byte. bufsize is rounded
        // up to the ring buffer's size (codegen::kMaxRingBufferSize); a
        // string of strsize bytes must fit whole in one record.
        {"aggsize", {1, kMaxSize}},
        {"bufsize", {1, codegen::kMaxRingBufferSize}},
        {"dynvarsize", {1, kMaxSize}},
        {"specsize", {1, kMaxSize}},
        {"strsize", {1, trace::kMaxRecordSize - trace::kRecordDataStart}},
        {"nspec", {1, kMaxSpeculations}},
        {"stackframes", {1, kMaxStackFrames}},
        {"ustackframes", {1, kMaxStackFrames}},
        {"jstackframes", {1, kMaxStackFrames}},
        // One trace::UnwindRow at least; the rows map's entries fit 32 bits
        // and its memory is the kernel's (vmalloc).
        {"unwindsize", {16, uint64_t{1} << 32}},
        {"stackindent", {0, kMaxStackIndent}},
    };
    for (const auto &[name, range] : kRanges)
        if (spec.name == name)
            return range;
    // A CPU this machine may have.
    if (spec.name == "cpu")
        return OptionRange{0, uint64_t(std::max(libbpf_num_possible_cpus(), 1) - 1)};
    switch (spec.syntax) {
    case OptionSyntax::Size:
        return OptionRange{0, kMaxSize};
    case OptionSyntax::Rate:
        return OptionRange{0, kMaxRate};
    case OptionSyntax::Toggle:
    case OptionSyntax::Number:
        return OptionRange{0, kMaxNumber};
    case OptionSyntax::Positive:
        return OptionRange{1, kMaxNumber};
    default:
        return std::nullopt;
    }
}

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
    constexpr Unit kTimes[] = {{"ns", 1},           {"us", 1000},          {"ms", 1000'000},
                               {"s", 1000'000'000}, {"m", 60'000'000'000}, {"h", 3600'000'000'000},
                               {"d", kDay}};
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
// words with the range (trace::dtrace_reason()), for setopt().
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
    return trace::option_error("option '" + std::string(spec.name) + "' needs " + kind + " " +
                                   bounds + ", not " + (value ? "'" + *value + "'" : "nothing"),
                               std::string(trace::kInvalidOptionValue) + " (" + bounds + ")");
}

// -x cpu's value is a CPU: neither a number outside this machine's nor
// anything but a number (or a toggle's word, which unsets it) makes sense.
Status cpu_error(const std::optional<std::string> &value) {
    const int cpus = std::max(libbpf_num_possible_cpus(), 1);
    return trace::option_error(
        "option 'cpu' must be a CPU number from 0 to " + std::to_string(cpus - 1) +
            " (this machine has " + std::to_string(cpus) + " CPU" + (cpus == 1 ? "" : "s") +
            "), not " + (value ? "'" + *value + "'" : "nothing"),
        std::string(trace::kInvalidOptionValue) + " (from 0 to " + std::to_string(cpus - 1) + ")");
}

// The options the consumer reads, which setopt() changes while tracing.
bool set_consumer_option(ConsumerOptions &options, std::string_view name, const OptionValue &value,
                         const std::optional<std::string> &text) {
    if (name == "stackformat") {
        // A choice: the value is one of the option's words.
        const bool folded = text == "folded";
        options.print.stack_format =
            folded ? trace::StackFormat::Folded : trace::StackFormat::Default;
        options.format.folded_stacks = folded;
    } else if (name == "quiet")
        options.quiet = value.set;
    else if (name == "flowindent")
        options.flow_indent = value.set;
    else if (name == "rawbytes")
        options.raw_bytes = value.set;
    else if (name == "stackindent")
        options.print.stack_indent =
            value.set ? unsigned(value.number) : trace::AggregationPrintOptions{}.stack_indent;
    else if (name == "aggsortkey")
        options.print.sort.by_key = value.set;
    else if (name == "aggsortrev")
        options.print.sort.reverse = value.set;
    else if (name == "aggsortpos")
        options.print.sort.aggregation_position = value.set ? size_t(value.number) : 0;
    else if (name == "aggsortkeypos")
        options.print.sort.key_position = value.set ? size_t(value.number) : 0;
    else
        return false;
    return true;
}

// The options the compiler and the session read, before the program runs.
Status set_compile_option(const OptionTargets &targets, const std::string &name,
                          const OptionValue &v, const std::optional<std::string> &value) {
    codegen::CompileOptions &compile = *targets.compile;
    SessionFlags &flags = *targets.flags;
    // Numbers are in their option's range (check_range()).
    auto frames = [&](uint32_t &target, uint32_t default_frames) {
        target = v.set ? uint32_t(v.number) : default_frames;
    };
    if (name == "bufsize")
        compile.bufsize = v.number;
    else if (name == "aggsize") {
        compile.aggsize_given = true;
        compile.aggsize = v.number;
    } else if (name == "dynvarsize")
        compile.dynvarsize = v.number;
    else if (name == "strsize")
        compile.strsize = v.number;
    else if (name == "specsize")
        targets.consumer->speculation_size = v.number;
    else if (name == "stackframes")
        frames(compile.stackframes, codegen::CompileOptions{}.stackframes);
    else if (name == "ustackframes")
        frames(compile.ustackframes, codegen::CompileOptions{}.ustackframes);
    else if (name == "jstackframes")
        frames(compile.jstackframes, codegen::CompileOptions{}.jstackframes);
    else if (name == "unwindsize")
        flags.unwindsize = v.number;
    else if (name == "cpu") {
        if (!value)
            return failure("option 'cpu' needs the number of a CPU, -x cpu=N");
        compile.cpu = v.set ? std::optional(uint32_t(v.number)) : std::nullopt;
    } else if (name == "oformat") {
        // JSON shows each firing's timestamp: the records carry it.
        const bool json = value == "json";
        targets.consumer->output = json ? trace::OutputKind::Json : trace::OutputKind::Text;
        compile.record_timestamps = json;
    } else if (name == "zdefs")
        flags.zero_matches_allowed = true;
    else if (name == "defaultargs")
        flags.defaultargs = true;
    else if (name == "destructive")
        flags.destructive = v.set;
    else if (name == "errtags")
        flags.errtags = true;
    else if (name == "nspec") {
        // Each speculation is a map slot claimed by a loop in speculation().
        if (!v.set)
            return failure("option 'nspec' needs a number from 1 to " +
                           std::to_string(kMaxSpeculations) + ", not " +
                           (value ? "'" + *value + "'" : std::string("nothing")));
        compile.nspec = uint32_t(v.number);
    }
    // The rest act elsewhere (the cpp options in the command) or need nothing
    // (rates: the consumer reads each record as it comes).
    return {};
}

} // namespace

Result<std::string> apply_option(const OptionTargets &targets, OptionSource source,
                                 const std::string &name, const std::optional<std::string> &value) {
    const bool tracing = source == OptionSource::Setopt;
    const OptionSpec *spec = trace::find_option(name);
    if (!spec)
        return failure(tracing ? std::string(trace::kInvalidOptionName)
                               : "unknown option '" + name + "'");
    if (source == OptionSource::Program && spec->outside_program)
        return failure("option '" + name + "' cannot be set in a D program (" +
                       std::string(trace::kOptionInProgram) +
                       "): give it on the command line, -x " + name);
    if (tracing && spec->time == OptionTime::Runtime)
        return failure(std::string(trace::kOptionWhileTracing));
    Result<OptionValue> parsed = trace::parse_option(*spec, value);
    Status valid = parsed ? check_range(*spec, *parsed, value) : Status(parsed.error());
    if (!valid && spec->name == "cpu")
        valid = cpu_error(value);
    if (!valid)
        return failure(tracing ? std::string(trace::dtrace_reason(valid.error()))
                               : valid.error().message);
    // A compile-time option changes nothing once the program runs; dtrace
    // takes its value without a word, as here.
    if (tracing && spec->time != OptionTime::Dynamic)
        return std::string();
    const OptionValue &v = *parsed;
    if (spec->effect == OptionSpec::Effect::Ignored)
        return targets.noticed->insert(name).second ? trace::no_effect_notice(*spec) : "";
    if (set_consumer_option(*targets.consumer, name, v, value) || tracing)
        return std::string();
    if (Status set = set_compile_option(targets, name, v, value); !set)
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
