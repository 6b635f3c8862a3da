// dtrace's option catalogue (libtrace/options): names, tables and how values
// are read, checked against dtrace-utils' dt_options.c.
#include "libtrace/options.h"

#include <gtest/gtest.h>

namespace dtx::trace {
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
    refused("bufsize", "4mb");
    refused("bufsize", "-4m");
    refused("bufsize", "");
    EXPECT_NE(refused("bufsize", "x").message.find("'x'"), std::string::npos);
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
    EXPECT_EQ(no_effect_notice(spec("cpu")), "option 'cpu' has no effect in dtx");
}

} // namespace
} // namespace dtx::trace
