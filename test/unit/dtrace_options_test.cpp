// dtrace's option catalogue (session/option_table.h): names, tables and how
// values are read, checked against dtrace-utils' dt_options.c; the range each
// option's value must be in and what its setter writes (apply_option()).
#include "session/option_settings.h"
#include "session/option_table.h"

#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

namespace dtx::session {
namespace {

const OptionSpec &spec(std::string_view name) {
    const OptionSpec *found = find_option(name);
    EXPECT_NE(found, nullptr) << name;
    return *found;
}

OptionValue parsed(std::string_view name, std::optional<std::string> value) {
    Result<OptionValue> result = parse_option(spec(name), value);
    EXPECT_TRUE(result) << name << ": " << result.error().message;
    return result ? *result : OptionValue{};
}

// The error, with dtrace's words for it (dtrace_reason()) as its one detail.
Error refused(std::string_view name, std::optional<std::string> value) {
    Result<OptionValue> result = parse_option(spec(name), value);
    EXPECT_FALSE(result) << name;
    return result ? option_error("", "") : result.error();
}

TEST(DtraceOptions, EveryTableOfDtOptionsIsKnown) {
    for (std::string_view name :
         {"aggpercpu",   "amin",       "cpp",        "cpppath", "errtags",     "evaltime",
          "linkmode",    "version",    "zdefs",      "aggsize", "bpflog",      "bufsize",
          "bufpolicy",   "cpu",        "lockmem",    "nspec",   "noresolve",   "strsize",
          "aggrate",     "aggsortkey", "flowindent", "quiet",   "quietresize", "rawbytes",
          "stackindent", "switchrate", "printsize"})
        EXPECT_NE(find_option(name), nullptr) << name;
    EXPECT_EQ(find_option("nosuch"), nullptr);
    EXPECT_EQ(find_option(""), nullptr);
}

TEST(DtraceOptions, TablesDecideWhenAnOptionMayChange) {
    EXPECT_EQ(spec("zdefs").time, OptionTime::Compile);
    EXPECT_EQ(spec("bufsize").time, OptionTime::Runtime);
    EXPECT_EQ(spec("quiet").time, OptionTime::Dynamic);
    EXPECT_EQ(spec("aggsortkeypos").time, OptionTime::Dynamic);
    EXPECT_EQ(spec("switchrate").time, OptionTime::Dynamic);
    EXPECT_EQ(spec("statusrate").time, OptionTime::Runtime);
}

TEST(DtraceOptions, ToggleReadsDtraceWordsAndNumbers) {
    EXPECT_TRUE(parsed("quiet", std::nullopt).set);
    EXPECT_FALSE(parsed("quiet", "").set);
    for (const char *word : {"yes", "Enable", "enabled", "TRUE", "on", "set"})
        EXPECT_TRUE(parsed("quiet", word).set) << word;
    for (const char *word : {"no", "disable", "Disabled", "false", "OFF", "unset"})
        EXPECT_FALSE(parsed("quiet", word).set) << word;
    EXPECT_EQ(parsed("aggsortkeypos", "2").number, 2u);
    EXPECT_EQ(parsed("aggsortkeypos", "0x10").number, 16u);
    EXPECT_TRUE(parsed("quiet", "0").set); // 0 is a value, not "unset"
    EXPECT_EQ(dtrace_reason(refused("quiet", "um, no")), "Invalid value for specified option");
    refused("aggsortpos", "-1");
    refused("aggsortpos", "2x");
}

TEST(DtraceOptions, SizesTakeBinarySuffixes) {
    EXPECT_EQ(parsed("bufsize", "4m").number, 4u << 20);
    EXPECT_EQ(parsed("bufsize", "16K").number, 16u << 10);
    EXPECT_EQ(parsed("bufsize", "1g").number, 1ull << 30);
    EXPECT_EQ(parsed("bufsize", "2t").number, 2ull << 40);
    EXPECT_EQ(parsed("bufsize", "100").number, 100u);
    EXPECT_EQ(parsed("bufsize", std::nullopt).number, 0u);
    EXPECT_EQ(parsed("bufsize", "0x10k").number, 16u << 10);
    refused("bufsize", "4mb");
    refused("bufsize", "-4m");
    refused("bufsize", "");
    refused("bufsize", "16 ");
    refused("bufsize", " 16");
    EXPECT_NE(refused("bufsize", "x").message.find("'x'"), std::string::npos);
}

// Too large for 64 bits, as written or once scaled: above every range, which
// apply_option() checks.
TEST(DtraceOptions, NumbersBeyond64BitsReadAsTheLargest) {
    EXPECT_EQ(parsed("bufsize", "99999999999999999999").number, UINT64_MAX);
    EXPECT_EQ(parsed("bufsize", "16777216t").number, UINT64_MAX);
    EXPECT_EQ(parsed("bufsize", "16777215t").number, uint64_t{16777215} << 40);
    EXPECT_EQ(parsed("switchrate", "999999999999d").number, UINT64_MAX);
    EXPECT_EQ(parsed("aggsortpos", "0x10000000000000000").number, UINT64_MAX);
    EXPECT_EQ(parsed("pgmax", "99999999999999999999").number, UINT64_MAX);
}

TEST(DtraceOptions, RatesAreNanosecondsBetweenEvents) {
    EXPECT_EQ(parsed("switchrate", "10hz").number, 100000000u);
    EXPECT_EQ(parsed("switchrate", "10Hz").number, 100000000u);
    EXPECT_EQ(parsed("aggrate", "1s").number, 1000000000u);
    EXPECT_EQ(parsed("aggrate", "5ms").number, 5000000u);
    EXPECT_EQ(parsed("aggrate", "2min").number, 120000000000u);
    EXPECT_EQ(parsed("aggrate", "250").number, 250u);
    refused("aggrate", "0.5hz");
    refused("aggrate", "1fortnight");
}

TEST(DtraceOptions, FlagsTakeNoValue) {
    parsed("zdefs", std::nullopt);
    EXPECT_NE(refused("zdefs", "1").message.find("takes no value"), std::string::npos);
    refused("errtags", "");
}

TEST(DtraceOptions, ChoicesAreTheWordsDtraceKnows) {
    parsed("linkmode", "dynamic");
    parsed("linktype", "ELF"); // without regard to case, as dtrace
    refused("bufpolicy", "Ring");
    EXPECT_NE(refused("evaltime", "later").message.find("exec, preinit, postinit, main"),
              std::string::npos);
}

TEST(DtraceOptions, VersionsAreThoseDtraceDefines) {
    parsed("version", "1.0");
    parsed("version", "2");
    parsed("version", "2.0.0");
    parsed("version", "1.6.4");
    parsed("version", "2.0.6");
    EXPECT_EQ(dtrace_reason(refused("version", "3.0")),
              "Requested version is not supported by compiler");
    EXPECT_EQ(dtrace_reason(refused("version", "1.7")),
              "Requested version is not supported by compiler");
    EXPECT_EQ(dtrace_reason(refused("version", "2.x")),
              "Version is not properly formatted or is too large");
    EXPECT_EQ(dtrace_reason(refused("version", "1.2.3.4")),
              "Version is not properly formatted or is too large");
    refused("version", std::nullopt);
    EXPECT_EQ(d_versions().front(), "1.0");
}

TEST(DtraceOptions, NumbersAndTextAreRequired) {
    EXPECT_EQ(parsed("tree", "3").number, 3u);
    refused("tree", "0");
    parsed("pgmax", "0");
    refused("pgmax", std::nullopt);
    parsed("cpppath", "/usr/bin/cpp");
    refused("cpppath", std::nullopt);
    parsed("droptags", std::nullopt);
    parsed("droptags", "anything");
}

TEST(DtraceOptions, NoticeNamesTheOption) {
    EXPECT_EQ(no_effect_notice("cpu"), "option 'cpu' has no effect in dtx");
}

// apply_option() from -x, #pragma or setopt() into fresh settings.
class OptionRanges : public ::testing::Test {
protected:
    // "" when set, else the error's message.
    std::string set(const std::string &name, std::optional<std::string> value,
                    OptionSource source = OptionSource::CommandLine) {
        OptionTargets targets{&compile, &flags, &consumer};
        if (source == OptionSource::Setopt)
            targets = {nullptr, nullptr, &consumer};
        Result<std::string> applied = apply_option(targets, noticed, source, name, value);
        return applied ? *applied : applied.error().message;
    }

    codegen::CompileOptions compile;
    SessionFlags flags;
    trace::ConsumerOptions consumer;
    std::set<std::string> noticed;
};

TEST_F(OptionRanges, SizesDtxAllocatesAreFromOneByte) {
    EXPECT_EQ(set("bufsize", "512m"), "");
    EXPECT_EQ(compile.bufsize, 512u << 20);
    EXPECT_EQ(set("bufsize", "1"), "");
    EXPECT_EQ(set("bufsize", "1g"), "option 'bufsize' needs a size from 1 byte to 512m, not '1g'");
    EXPECT_EQ(set("bufsize", "0"), "option 'bufsize' needs a size from 1 byte to 512m, not '0'");
    EXPECT_EQ(set("bufsize", "99999999999999999999"),
              "option 'bufsize' needs a size from 1 byte to 512m, not '99999999999999999999'");
    EXPECT_EQ(compile.bufsize, 1u);
    EXPECT_EQ(set("aggsize", "8388607t"), "");
    EXPECT_EQ(compile.aggsize, uint64_t{8388607} << 40);
    EXPECT_EQ(set("dynvarsize", "8388608t"),
              "option 'dynvarsize' needs a size from 1 byte to 8388607t, not '8388608t'");
    EXPECT_EQ(set("specsize", std::nullopt),
              "option 'specsize' needs a size from 1 byte to 8388607t, not nothing");
}

TEST_F(OptionRanges, StrsizeIsWhatOneRecordHolds) {
    EXPECT_EQ(set("strsize", "16367"), "");
    EXPECT_EQ(compile.strsize, 16367u);
    EXPECT_EQ(set("strsize", "16k"),
              "option 'strsize' needs a size from 1 byte to 16367 bytes, not '16k'");
}

TEST_F(OptionRanges, FramesAndSpeculationsHaveTheirLimits) {
    EXPECT_EQ(set("stackframes", "127"), "");
    EXPECT_EQ(compile.stackframes, 127u);
    EXPECT_EQ(set("ustackframes", "128"),
              "option 'ustackframes' needs a number from 1 to 127, not '128'");
    EXPECT_EQ(set("stackframes", "0"),
              "option 'stackframes' needs a number from 1 to 127, not '0'");
    EXPECT_EQ(set("stackframes", "no"), ""); // unset: the default
    EXPECT_EQ(compile.stackframes, codegen::CompileOptions{}.stackframes);
    EXPECT_EQ(set("nspec", "1024"), "");
    EXPECT_EQ(set("nspec", "1025"), "option 'nspec' needs a number from 1 to 1024, not '1025'");
    EXPECT_EQ(set("nspec", "no"), "option 'nspec' needs a number from 1 to 1024, not 'no'");
}

TEST_F(OptionRanges, RatesAndNumbersFitDtracesSigned64Bits) {
    EXPECT_EQ(set("switchrate", "106751d"), "");
    EXPECT_EQ(set("switchrate", "106752d"),
              "option 'switchrate' needs a rate from 0 to 106751d, not '106752d'");
    EXPECT_EQ(set("aggsortpos", "9223372036854775807"), "");
    EXPECT_EQ(set("aggsortpos", "9223372036854775808"),
              "option 'aggsortpos' needs a number from 0 to 9223372036854775807, not "
              "'9223372036854775808'");
    // Options dtx does not act on are checked as well.
    EXPECT_EQ(set("pgmax", "99999999999999999999"),
              "option 'pgmax' needs a number from 0 to 9223372036854775807, not "
              "'99999999999999999999'");
    EXPECT_EQ(set("jstackstrsize", "16777216t"),
              "option 'jstackstrsize' needs a size from 0 to 8388607t, not '16777216t'");
}

TEST_F(OptionRanges, CpuNamesACpuOfThisMachine) {
    const int count = libbpf_num_possible_cpus();
    const std::string cpus = std::to_string(count);
    const std::string must = "option 'cpu' must be a CPU number from 0 to " +
                             std::to_string(count - 1) + " (this machine has " + cpus + " CPU" +
                             (count == 1 ? "" : "s") + "), not ";
    EXPECT_EQ(set("cpu", "0"), "");
    EXPECT_EQ(set("cpu", std::to_string(count - 1)), "");
    EXPECT_EQ(set("cpu", cpus), must + "'" + cpus + "'");
    EXPECT_EQ(set("cpu", "-1"), must + "'-1'");
    EXPECT_EQ(set("cpu", "first"), must + "'first'");
    EXPECT_EQ(set("cpu", "no"), ""); // unset: every CPU
}

TEST_F(OptionRanges, SetoptSaysDtracesWordsAndTheRange) {
    EXPECT_EQ(set("stackindent", "1024", OptionSource::Setopt), "");
    EXPECT_EQ(consumer.print.stack_indent, 1024u);
    EXPECT_EQ(set("stackindent", "5000", OptionSource::Setopt),
              "Invalid value for specified option (from 0 to 1024)");
    EXPECT_EQ(set("stackindent", "5000", OptionSource::Program),
              "option 'stackindent' needs a number from 0 to 1024, not '5000'");
    EXPECT_EQ(set("quiet", "um", OptionSource::Setopt), "Invalid value for specified option");
}

// Each row's setter writes its own field, and only a row that acts has one.
TEST(OptionTable, RowsThatActHaveSetters) {
    for (const OptionSpec &option : all_options())
        EXPECT_EQ(option.set != nullptr, option.effect == OptionSpec::Effect::Acts) << option.name;
}

// The defaults the man page gives are the values dtx starts with.
TEST_F(OptionRanges, DefaultsAreTheStartingValues) {
    const codegen::CompileOptions fresh;
    const trace::ConsumerOptions fresh_consumer;
    auto default_of = [](std::string_view name) {
        const OptionSpec &row = spec(name);
        Result<OptionValue> value = parse_option(row, std::string(row.default_value));
        EXPECT_TRUE(value) << name;
        return value ? value->number : 0;
    };
    EXPECT_EQ(default_of("aggsize"), fresh.aggsize);
    EXPECT_EQ(default_of("bufsize"), fresh.bufsize);
    EXPECT_EQ(default_of("dynvarsize"), fresh.dynvarsize);
    EXPECT_EQ(default_of("strsize"), fresh.strsize);
    EXPECT_EQ(default_of("stackframes"), fresh.stackframes);
    EXPECT_EQ(default_of("ustackframes"), fresh.ustackframes);
    EXPECT_EQ(default_of("jstackframes"), fresh.jstackframes);
    EXPECT_EQ(default_of("nspec"), fresh.nspec);
    EXPECT_EQ(default_of("specsize"), fresh_consumer.speculation_size);
    EXPECT_EQ(default_of("stackindent"), fresh_consumer.print.stack_indent);
    EXPECT_EQ(default_of("aggsortpos"), fresh_consumer.print.sort.aggregation_position);
    EXPECT_EQ(default_of("aggsortkeypos"), fresh_consumer.print.sort.key_position);
    EXPECT_EQ(default_of("unwindsize"), SessionFlags{}.unwindsize);
    // Every default reads and is in its range.
    for (const OptionSpec &option : all_options()) {
        if (!option.default_value.empty()) {
            EXPECT_EQ(set(std::string(option.name), std::string(option.default_value)), "")
                << option.name;
        }
    }
    EXPECT_EQ(compile.aggsize, fresh.aggsize);
    EXPECT_EQ(consumer.output, fresh_consumer.output);
    EXPECT_EQ(consumer.print.stack_format, fresh_consumer.print.stack_format);
}

// setopt() reaches only the consumer's fields: every dynamic option that
// acts can be set with nothing else to write.
TEST_F(OptionRanges, DynamicOptionsWriteOnlyTheConsumer) {
    for (const OptionSpec &option : all_options()) {
        if (option.time == OptionTime::Dynamic && option.set) {
            EXPECT_EQ(set(std::string(option.name), "1", OptionSource::Setopt), "") << option.name;
        }
    }
    EXPECT_TRUE(consumer.quiet);
    EXPECT_EQ(consumer.print.stack_indent, 1u);
}

TEST_F(OptionRanges, FlagsAndPreprocessorOptionsSetTheSession) {
    EXPECT_EQ(set("zdefs", std::nullopt), "");
    EXPECT_EQ(set("destructive", std::nullopt), "");
    EXPECT_EQ(set("cpp", std::nullopt), "");
    EXPECT_EQ(set("define", "A=1"), "");
    EXPECT_EQ(set("cppargs", " -DC  -DD=2 "), "");
    EXPECT_EQ(set("cpphdrs", std::nullopt), "");
    EXPECT_EQ(set("incdir", "/inc"), "");
    EXPECT_EQ(set("undef", "B"), "");
    EXPECT_TRUE(flags.zero_matches_allowed);
    EXPECT_TRUE(flags.destructive);
    EXPECT_TRUE(flags.preprocess);
    EXPECT_EQ(flags.cpp_args,
              (std::vector<std::string>{"-DA=1", "-DC", "-DD=2", "-H", "-I/inc", "-UB"}));
    EXPECT_EQ(set("define", "X", OptionSource::Program),
              "option 'define' cannot be set in a D program (Option cannot be used from within "
              "a D program): give it on the command line, -x define");
}

TEST_F(OptionRanges, IgnoredOptionsAreNoticedOnce) {
    EXPECT_EQ(set("lockmem", "1g"), "option 'lockmem' has no effect in dtx");
    EXPECT_EQ(set("lockmem", "2g"), "");
    EXPECT_EQ(set("switchrate", "10hz"), ""); // moot: nothing to say
}

} // namespace
} // namespace dtx::session
