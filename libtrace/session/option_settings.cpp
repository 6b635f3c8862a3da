#include "libtrace/session/option_settings.h"

#include "libtrace/options.h"

#include <algorithm>

namespace dtx::session {

namespace {

using trace::ConsumerOptions;
using trace::OptionSpec;
using trace::OptionTime;
using trace::OptionValue;

// The most speculations a program may have (nspec).
constexpr uint64_t kMaxSpeculations = 1024;

// The options the consumer reads, which setopt() changes while tracing.
bool set_consumer_option(ConsumerOptions &options, std::string_view name,
                         const OptionValue &value) {
    if (name == "quiet")
        options.quiet = value.set;
    else if (name == "flowindent")
        options.flow_indent = value.set;
    else if (name == "rawbytes")
        options.raw_bytes = value.set;
    else if (name == "stackindent")
        options.print.stack_indent = value.set ? unsigned(std::min<uint64_t>(value.number, 1024))
                                               : trace::AggregationPrintOptions{}.stack_indent;
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
    auto given = [&] { return value ? "'" + *value + "'" : std::string("nothing"); };
    auto size = [&](uint64_t &target) -> Status {
        if (v.number == 0)
            return failure("option '" + name + "' needs a size from 1 byte, not " + given());
        target = v.number;
        return {};
    };
    auto frames = [&](uint32_t &target, uint32_t default_frames) {
        // bpf_get_stack() gives at most 127 frames (dtrace caps at maxframes).
        target = v.set ? uint32_t(std::clamp<uint64_t>(v.number, 1, 127)) : default_frames;
    };
    if (name == "bufsize")
        return size(compile.bufsize);
    if (name == "aggsize") {
        compile.aggsize_given = true;
        return size(compile.aggsize);
    }
    if (name == "dynvarsize")
        return size(compile.dynvarsize);
    if (name == "strsize")
        return size(compile.strsize);
    if (name == "specsize")
        return size(targets.consumer->speculation_size);
    if (name == "stackframes")
        frames(compile.stackframes, codegen::CompileOptions{}.stackframes);
    else if (name == "ustackframes")
        frames(compile.ustackframes, codegen::CompileOptions{}.ustackframes);
    else if (name == "zdefs")
        flags.zero_matches_allowed = true;
    else if (name == "defaultargs")
        flags.defaultargs = true;
    else if (name == "destructive")
        flags.destructive = v.set;
    else if (name == "errtags")
        flags.errtags = true;
    else if (name == "nspec") {
        // Each speculation is a map slot claimed by a loop in speculation().
        if (!v.set || v.number < 1 || v.number > kMaxSpeculations)
            return failure("option 'nspec' needs a number from 1 to " +
                           std::to_string(kMaxSpeculations) + ", not " + given());
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
    if (!parsed)
        return failure(tracing ? std::string(trace::dtrace_reason(parsed.error()))
                               : parsed.error().message);
    // A compile-time option changes nothing once the program runs; dtrace
    // takes its value without a word, as here.
    if (tracing && spec->time != OptionTime::Dynamic)
        return std::string();
    const OptionValue &v = *parsed;
    if (spec->effect == OptionSpec::Effect::Ignored)
        return targets.noticed->insert(name).second ? trace::no_effect_notice(*spec) : "";
    if (set_consumer_option(*targets.consumer, name, v) || tracing)
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
