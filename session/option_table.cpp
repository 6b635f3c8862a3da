#include "session/option_table.h"

#include "libtrace/program_description.h"

#include <bpf/libbpf.h>

#include <algorithm>
#include <array>

namespace dtx::session {

namespace {

using Time = OptionTime;
using Syntax = OptionSyntax;
using Effect = OptionSpec::Effect;
using Targets = OptionTargets;
using Setting = OptionSetting;

// dtrace keeps option values in an int64_t and refuses those that read as
// negative, so no value reaches 2^63. Options without a narrower range stop
// below that: numbers at INT64_MAX, sizes and rates at the largest value
// their largest unit writes exactly.
constexpr uint64_t kMaxNumber = INT64_MAX;
constexpr uint64_t kMaxSize = (uint64_t{1} << 63) - (uint64_t{1} << 40);           // 8388607t
constexpr uint64_t kMaxRate = INT64_MAX / kNanosecondsPerDay * kNanosecondsPerDay; // 106751d

// The most speculations a program may have (nspec): each is a map slot
// claimed by a loop in speculation().
constexpr uint64_t kMaxSpeculations = 1024;
// bpf_get_stack() gives at most 127 frames (dtrace caps at maxframes).
constexpr OptionRange kStackFrames{1, 127};
// Sizes of what dtx allocates: at least a byte.
constexpr OptionRange kAllocation{1, kMaxSize};

int machine_cpus() {
    return std::max(libbpf_num_possible_cpus(), 1);
}

// -x cpu's value is a CPU: neither a number outside this machine's nor
// anything but a number (or a toggle's word, which unsets it) makes sense.
Error cpu_refusal(const std::optional<std::string> &value) {
    const int cpus = machine_cpus();
    return option_error(
        "option 'cpu' must be a CPU number from 0 to " + std::to_string(cpus - 1) +
            " (this machine has " + std::to_string(cpus) + " CPU" + (cpus == 1 ? "" : "s") +
            "), not " + (value ? "'" + *value + "'" : "nothing"),
        std::string(kInvalidOptionValue) + " (from 0 to " + std::to_string(cpus - 1) + ")");
}

// The preprocessor's arguments in cppargs: words split at white space.
void add_cpp_words(std::vector<std::string> &args, std::string_view words) {
    constexpr std::string_view kSpace = " \t\n\r\f\v";
    while (!words.empty()) {
        size_t start = words.find_first_not_of(kSpace);
        if (start == std::string_view::npos)
            break;
        size_t end = words.find_first_of(kSpace, start);
        args.emplace_back(words.substr(start, end - start));
        words.remove_prefix(end == std::string_view::npos ? words.size() : end);
    }
}

// dt_options.c's tables, in one list sorted by name, with three of dtx's
// own: oformat (FreeBSD DTrace's structured output, here JSON lines),
// stackformat (folded stacks for flame graphs) and unwindsize (the room for
// ustack()'s unwind tables). A setter's numbers are in the option's range.
constexpr std::array kOptions = {
    OptionSpec{"aggpercpu", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"aggrate", Time::Dynamic, Syntax::Rate, Effect::Moot},
    // At the default, a keyed aggregation's map holds at least 65,536 keys
    // (CompileOptions::aggsize_given); given, what fits in it.
    OptionSpec{.name = "aggsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = kAllocation,
               .default_value = "4m",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->aggsize_given = true;
                   to.compile->aggsize = s.value.number;
                   return {};
               }},
    OptionSpec{.name = "aggsortkey",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->print.sort.by_key = s.value.set;
                   return {};
               }},
    OptionSpec{.name = "aggsortkeypos",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .default_value = "0",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->print.sort.key_position = size_t(s.value.number);
                   return {};
               }},
    OptionSpec{.name = "aggsortpos",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .default_value = "0",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->print.sort.aggregation_position = size_t(s.value.number);
                   return {};
               }},
    OptionSpec{.name = "aggsortrev",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->print.sort.reverse = s.value.set;
                   return {};
               }},
    OptionSpec{"amin", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{"argref", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"bpflog", Time::Runtime, Syntax::Toggle, Effect::Ignored},
    OptionSpec{"bpflogsize", Time::Runtime, Syntax::Size, Effect::Ignored},
    OptionSpec{.name = "bufpolicy",
               .time = Time::Runtime,
               .syntax = Syntax::Choice,
               .effect = Effect::Acts,
               .choices = "ring fill switch",
               .default_value = "switch",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->buffer_policy = s.text == "ring"   ? trace::BufferPolicy::Ring
                                                : s.text == "fill" ? trace::BufferPolicy::Fill
                                                                   : trace::BufferPolicy::Switch;
                   return {};
               }},
    OptionSpec{"bufresize", Time::Runtime, Syntax::Choice, Effect::Ignored, false, "auto manual"},
    // Rounded up to the ring buffer's size.
    OptionSpec{.name = "bufsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = OptionRange{1, codegen::kMaxRingBufferSize},
               .default_value = "4m",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->bufsize = s.value.number;
                   to.consumer->buffer_size = s.value.number;
                   return {};
               }},
    OptionSpec{"cleanrate", Time::Runtime, Syntax::Rate, Effect::Moot},
    OptionSpec{"core", Time::Compile, Syntax::Flag, Effect::Ignored},
    // A program's own `#pragma D option cpp` comes after its file was read:
    // it changes nothing, as in dtrace.
    OptionSpec{.name = "cpp",
               .time = Time::Compile,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->preprocess = true;
                   return {};
               }},
    OptionSpec{.name = "cppargs",
               .time = Time::Compile,
               .syntax = Syntax::Text,
               .effect = Effect::Acts,
               .outside_program = true,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   add_cpp_words(to.flags->cpp_args, *s.text);
                   return {};
               }},
    OptionSpec{.name = "cpphdrs",
               .time = Time::Compile,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .outside_program = true,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->cpp_args.emplace_back("-H");
                   return {};
               }},
    OptionSpec{"cpppath", Time::Compile, Syntax::Text, Effect::Ignored, true},
    // Clauses run only on this CPU (BEGIN and END run there).
    OptionSpec{.name = "cpu",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = OptionRange{0, 0, true},
               .set = [](const Targets &to, const Setting &s) -> Status {
                   if (!s.text)
                       return failure("option 'cpu' needs the number of a CPU, -x cpu=N");
                   to.compile->cpu =
                       s.value.set ? std::optional(uint32_t(s.value.number)) : std::nullopt;
                   return {};
               },
               .refusal = cpu_refusal},
    OptionSpec{"ctfpath", Time::Compile, Syntax::Text, Effect::Ignored, true},
    OptionSpec{"ctypes", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{"debug", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"debugassert", Time::Compile, Syntax::Choice, Effect::Ignored, false, "mutexes"},
    OptionSpec{.name = "defaultargs",
               .time = Time::Compile,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->defaultargs = true;
                   return {};
               }},
    OptionSpec{.name = "define",
               .time = Time::Compile,
               .syntax = Syntax::Text,
               .effect = Effect::Acts,
               .outside_program = true,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.flags->cpp_args.push_back("-D" + *s.text);
                   return {};
               }},
    OptionSpec{.name = "destructive",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.flags->destructive = s.value.set;
                   return {};
               }},
    OptionSpec{"disasm", Time::Compile, Syntax::Number, Effect::Ignored},
    // Any value, even none or "0", sets it, as dtrace reads it.
    OptionSpec{.name = "droptags",
               .time = Time::Compile,
               .syntax = Syntax::Ignored,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.consumer->drop_tags = true;
                   return {};
               }},
    OptionSpec{"dtypes", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{.name = "dynvarsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = kAllocation,
               .default_value = "1m",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->dynvarsize = s.value.number;
                   to.compile->dynvarsize_given = true;
                   return {};
               }},
    OptionSpec{"empty", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{.name = "errtags",
               .time = Time::Compile,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->errtags = true;
                   return {};
               }},
    OptionSpec{"evaltime", Time::Compile, Syntax::Choice, Effect::Ignored, false,
               "exec preinit postinit main"},
    OptionSpec{.name = "flowindent",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->flow_indent = s.value.set;
                   return {};
               }},
    OptionSpec{"grabanon", Time::Runtime, Syntax::Toggle, Effect::Ignored},
    OptionSpec{.name = "incdir",
               .time = Time::Compile,
               .syntax = Syntax::Text,
               .effect = Effect::Acts,
               .outside_program = true,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.flags->cpp_args.push_back("-I" + *s.text);
                   return {};
               }},
    OptionSpec{"iregs", Time::Compile, Syntax::Positive, Effect::Ignored},
    OptionSpec{.name = "jstackframes",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = kStackFrames,
               .default_value = "50",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->jstackframes = uint32_t(s.value.number);
                   return {};
               }},
    OptionSpec{"jstackstrsize", Time::Runtime, Syntax::Size, Effect::Ignored},
    OptionSpec{"kdefs", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"knodefs", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"late", Time::Compile, Syntax::Choice, Effect::Ignored, false, "dynamic static"},
    OptionSpec{"lazyload", Time::Compile, Syntax::Ignored, Effect::Ignored},
    OptionSpec{"ldpath", Time::Compile, Syntax::Text, Effect::Ignored, true},
    OptionSpec{"libdir", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{"linkmode", Time::Compile, Syntax::Choice, Effect::Ignored, false,
               "kernel dynamic static"},
    OptionSpec{"linknommap", Time::Compile, Syntax::Ignored, Effect::Ignored},
    OptionSpec{"linktype", Time::Compile, Syntax::Choice, Effect::Ignored, false, "elf dof"},
    OptionSpec{"lockmem", Time::Runtime, Syntax::Size, Effect::Ignored},
    OptionSpec{.name = "maxframes",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = kStackFrames,
               .default_value = "127",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->maxframes = uint32_t(s.value.number);
                   return {};
               }},
    OptionSpec{"modpath", Time::Compile, Syntax::Text, Effect::Ignored, true},
    OptionSpec{"nolibs", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{.name = "noresolve",
               .time = Time::Runtime,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->noresolve = true;
                   return {};
               }},
    OptionSpec{.name = "nspec",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = OptionRange{1, kMaxSpeculations},
               .default_value = "1",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   if (!s.value.set)
                       return failure("option 'nspec' needs a number from 1 to " +
                                      std::to_string(kMaxSpeculations) + ", not '" + *s.text + "'");
                   to.compile->nspec = uint32_t(s.value.number);
                   return {};
               }},
    // JSON shows each firing's timestamp: the records carry it.
    OptionSpec{.name = "oformat",
               .time = Time::Runtime,
               .syntax = Syntax::Choice,
               .effect = Effect::Acts,
               .choices = "text json",
               .default_value = "text",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   const bool json = s.text == "json";
                   to.consumer->output = json ? trace::OutputKind::Json : trace::OutputKind::Text;
                   to.compile->record_timestamps = json;
                   return {};
               }},
    // A dtx option: dtrace writes pcap() to the file freopen() named.
    OptionSpec{.name = "pcapfile",
               .time = Time::Runtime,
               .syntax = Syntax::Text,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->pcap_file = s.text.value_or("");
                   return {};
               }},
    // The record holds the packet's bytes with pcap()'s four words.
    OptionSpec{.name = "pcapsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = OptionRange{1, trace::kMaxRecordSize - trace::kRecordDataStart - 64},
               .default_value = "1514",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->pcapsize = uint32_t(s.value.number);
                   return {};
               }},
    OptionSpec{"pgmax", Time::Compile, Syntax::Number, Effect::Ignored},
    OptionSpec{"preallocate", Time::Compile, Syntax::Size, Effect::Ignored},
    OptionSpec{"printsize", Time::Dynamic, Syntax::Size, Effect::Ignored},
    OptionSpec{"procfspath", Time::Compile, Syntax::Text, Effect::Ignored, true},
    OptionSpec{"pspec", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{.name = "quiet",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->quiet = s.value.set;
                   return {};
               }},
    OptionSpec{"quietresize", Time::Dynamic, Syntax::Toggle, Effect::Moot},
    OptionSpec{.name = "rawbytes",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->raw_bytes = s.value.set;
                   return {};
               }},
    // Each clause that allocates has twice this in its scratch (the
    // verifier's bounds), which holds 32 KiB.
    OptionSpec{.name = "scratchsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = OptionRange{8, 8192},
               .default_value = "4096",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->scratchsize = uint32_t(s.value.number);
                   return {};
               }},
    OptionSpec{.name = "specsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = kAllocation,
               .default_value = "4m",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->speculation_size = s.value.number;
                   to.compile->specsize = s.value.number;
                   return {};
               }},
    OptionSpec{.name = "stackformat",
               .time = Time::Runtime,
               .syntax = Syntax::Choice,
               .effect = Effect::Acts,
               .choices = "default folded",
               .default_value = "default",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   const bool folded = s.text == "folded";
                   to.consumer->print.stack_format =
                       folded ? trace::StackFormat::Folded : trace::StackFormat::Default;
                   to.consumer->format.folded_stacks = folded;
                   return {};
               }},
    OptionSpec{.name = "stackframes",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = kStackFrames,
               .default_value = "20",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->stackframes = uint32_t(s.value.number);
                   return {};
               }},
    // In spaces.
    OptionSpec{.name = "stackindent",
               .time = Time::Dynamic,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = OptionRange{0, 1024},
               .default_value = "14",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.consumer->print.stack_indent = unsigned(s.value.number);
                   return {};
               }},
    OptionSpec{"statusrate", Time::Runtime, Syntax::Rate, Effect::Moot},
    OptionSpec{"stdc", Time::Compile, Syntax::Choice, Effect::Ignored, true, "a c t s"},
    OptionSpec{"strip", Time::Compile, Syntax::Flag, Effect::Ignored},
    // The characters a string holds, without its NUL (as in dtrace); the
    // string and its NUL must fit whole in one record.
    OptionSpec{.name = "strsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = OptionRange{1, trace::kMaxRecordSize - trace::kRecordDataStart - 1},
               .default_value = "256",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->strsize = s.value.number;
                   return {};
               }},
    OptionSpec{"switchrate", Time::Dynamic, Syntax::Rate, Effect::Moot},
    OptionSpec{"syslibdir", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{"sysslice", Time::Compile, Syntax::Text, Effect::Ignored},
    OptionSpec{"tree", Time::Compile, Syntax::Positive, Effect::Ignored},
    OptionSpec{"tregs", Time::Compile, Syntax::Positive, Effect::Ignored},
    OptionSpec{"udefs", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{.name = "undef",
               .time = Time::Compile,
               .syntax = Syntax::Text,
               .effect = Effect::Acts,
               .outside_program = true,
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.flags->cpp_args.push_back("-U" + *s.text);
                   return {};
               }},
    OptionSpec{"unodefs", Time::Compile, Syntax::Flag, Effect::Ignored},
    // One trace::UnwindRow at least; the rows map's entries fit 32 bits and
    // its memory is the kernel's (vmalloc).
    OptionSpec{.name = "unwindsize",
               .time = Time::Runtime,
               .syntax = Syntax::Size,
               .effect = Effect::Acts,
               .range = OptionRange{16, uint64_t{1} << 32},
               .default_value = "16m",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.flags->unwindsize = s.value.number;
                   return {};
               }},
    OptionSpec{"useruid", Time::Compile, Syntax::Number, Effect::Ignored},
    OptionSpec{.name = "ustackframes",
               .time = Time::Runtime,
               .syntax = Syntax::Toggle,
               .effect = Effect::Acts,
               .range = kStackFrames,
               .default_value = "100",
               .set = [](const Targets &to, const Setting &s) -> Status {
                   to.compile->ustackframes = uint32_t(s.value.number);
                   return {};
               }},
    OptionSpec{"verbose", Time::Compile, Syntax::Flag, Effect::Ignored},
    OptionSpec{"version", Time::Compile, Syntax::Version, Effect::Moot},
    OptionSpec{.name = "zdefs",
               .time = Time::Compile,
               .syntax = Syntax::Flag,
               .effect = Effect::Acts,
               .set = [](const Targets &to, const Setting &) -> Status {
                   to.flags->zero_matches_allowed = true;
                   return {};
               }},
};

} // namespace

const OptionSpec *find_option(std::string_view name) {
    auto found = std::lower_bound(
        kOptions.begin(), kOptions.end(), name,
        [](const OptionSpec &spec, std::string_view wanted) { return spec.name < wanted; });
    return found != kOptions.end() && found->name == name ? &*found : nullptr;
}

std::span<const OptionSpec> all_options() {
    return kOptions;
}

std::optional<OptionRange> range_of(const OptionSpec &spec) {
    if (spec.range && spec.range->most_is_last_cpu)
        return OptionRange{spec.range->least, uint64_t(machine_cpus() - 1)};
    if (spec.range)
        return spec.range;
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

Result<OptionValue> parse_option(const OptionSpec &spec, const std::optional<std::string> &value) {
    return read_option_value(spec.name, spec.syntax, spec.choices, value);
}

} // namespace dtx::session
