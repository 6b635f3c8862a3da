#include "cmd/options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <ostream>

namespace dtx::cmd {

// Readable failure messages for source lists.
void PrintTo(const ProgramSource &source, std::ostream *out) {
    *out << "{kind " << static_cast<int>(source.kind) << ", \"" << source.text << "\"}";
}

} // namespace dtx::cmd

namespace {

using dtx::cmd::command_line_options;
using dtx::cmd::CommandLineOption;
using dtx::cmd::Options;
using dtx::cmd::parse_options;
using dtx::cmd::ProgramSource;
using dtx::cmd::usage_text;
using dtx::cmd::UsageError;
using Kind = ProgramSource::Kind;
using Strings = std::vector<std::string>;
using Xopts = std::vector<std::pair<std::string, std::optional<std::string>>>;

// Whether `options` sets the D option `name` with no value (-q is -x quiet).
bool sets(const Options &options, std::string_view name) {
    return std::ranges::count(options.xopts, std::pair<std::string, std::optional<std::string>>(
                                                 std::string(name), std::nullopt)) > 0;
}

std::variant<Options, UsageError> parse(std::initializer_list<const char *> args) {
    std::vector<const char *> argv{"dtx"};
    argv.insert(argv.end(), args);
    return parse_options(argv);
}

Options parse_ok(std::initializer_list<const char *> args) {
    auto result = parse(args);
    if (const auto *error = std::get_if<UsageError>(&result)) {
        ADD_FAILURE() << "unexpected usage error: " << error->message;
        return {};
    }
    return std::get<Options>(std::move(result));
}

std::string parse_error(std::initializer_list<const char *> args) {
    auto result = parse(args);
    if (const auto *error = std::get_if<UsageError>(&result)) {
        return error->message;
    }
    ADD_FAILURE() << "expected a usage error";
    return {};
}

// --- program sources ---

TEST(Options, ProbeDescriptionAsSeparateArgument) {
    Options options = parse_ok({"-n", "BEGIN { exit(0); }"});
    EXPECT_EQ(options.sources,
              (std::vector<ProgramSource>{{Kind::ProbeDescription, "BEGIN { exit(0); }"}}));
}

TEST(Options, ProbeDescriptionAttached) {
    Options options = parse_ok({"-nBEGIN"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ProbeDescription, "BEGIN"}}));
}

TEST(Options, ScriptFile) {
    Options options = parse_ok({"-s", "iosnoop.d"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ScriptFile, "iosnoop.d"}}));
}

TEST(Options, ScriptsAndDescriptionsKeepCommandLineOrder) {
    Options options = parse_ok({"-s", "a.d", "-n", "BEGIN", "-sb.d", "-n", "END"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ScriptFile, "a.d"},
                                                           {Kind::ProbeDescription, "BEGIN"},
                                                           {Kind::ScriptFile, "b.d"},
                                                           {Kind::ProbeDescription, "END"}}));
}

TEST(Options, ProbeFieldOptionsGiveTheirKinds) {
    Options options = parse_ok({"-P", "syscall", "-m", "vmlinux", "-f", "vfs_read", "-i", "42"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::Provider, "syscall"},
                                                           {Kind::Module, "vmlinux"},
                                                           {Kind::Function, "vfs_read"},
                                                           {Kind::ProbeId, "42"}}));
}

TEST(Options, FunctionOptionKeepsPredicateAndAction) {
    Options options = parse_ok({"-f", "fbt::vfs_read /pid == 1/ { trace(arg2); }"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{
                                   {Kind::Function, "fbt::vfs_read /pid == 1/ { trace(arg2); }"}}));
}

TEST(Options, SourceTextIsTakenVerbatimEvenIfItLooksLikeAnOption) {
    Options options = parse_ok({"-n", "-q"});
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ProbeDescription, "-q"}}));
    EXPECT_FALSE(sets(options, "quiet"));
}

// --- grouping ---

TEST(Options, FlagsGroupedBeforeOptionWithSeparateArgument) {
    Options options = parse_ok({"-qn", "BEGIN{}"});
    EXPECT_TRUE(sets(options, "quiet"));
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ProbeDescription, "BEGIN{}"}}));
}

TEST(Options, FlagsGroupedBeforeOptionWithAttachedArgument) {
    Options options = parse_ok({"-lvnsyscall::read:entry"});
    EXPECT_TRUE(options.list);
    EXPECT_TRUE(options.verbose);
    EXPECT_EQ(options.sources,
              (std::vector<ProgramSource>{{Kind::ProbeDescription, "syscall::read:entry"}}));
}

TEST(Options, RestOfGroupAfterOptionWithArgumentIsItsArgument) {
    Options options = parse_ok({"-nq"});
    EXPECT_FALSE(sets(options, "quiet"));
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ProbeDescription, "q"}}));
}

TEST(Options, ShebangLineGroupsQuietAndScript) {
    // `#!/usr/sbin/dtx -qs` runs as: dtx -qs ./script.d arg...
    Options options = parse_ok({"-qs", "./script.d", "1234", "foo"});
    EXPECT_TRUE(sets(options, "quiet"));
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::ScriptFile, "./script.d"}}));
    EXPECT_EQ(options.macro_args, (Strings{"1234", "foo"}));
}

// --- flags ---

struct FlagCase {
    const char *option;
    bool Options::*field;
};

class FlagTest : public testing::TestWithParam<FlagCase> {};

TEST_P(FlagTest, SetsOnlyItsField) {
    Options options = parse_ok({GetParam().option, "-n", "BEGIN"});
    EXPECT_TRUE(options.*GetParam().field);
    for (bool Options::*other :
         {&Options::list, &Options::compile_only, &Options::verbose, &Options::version,
          &Options::help, &Options::usdt_header, &Options::usdt_object}) {
        if (other != GetParam().field) {
            EXPECT_FALSE(options.*other);
        }
    }
    EXPECT_TRUE(options.xopts.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Options, FlagTest,
    testing::Values(FlagCase{"-l", &Options::list}, FlagCase{"-e", &Options::compile_only},
                    FlagCase{"-v", &Options::verbose}, FlagCase{"-V", &Options::version},
                    FlagCase{"--help", &Options::help}, FlagCase{"--version", &Options::version},
                    FlagCase{"-h", &Options::usdt_header}, FlagCase{"-G", &Options::usdt_object}));

// As in dtrace, these letters set D options: the session applies them as -x.
TEST(Options, FlagsThatStandForOptions) {
    for (auto [letter, name] :
         std::initializer_list<std::pair<const char *, const char *>>{{"-q", "quiet"},
                                                                      {"-w", "destructive"},
                                                                      {"-Z", "zdefs"},
                                                                      {"-F", "flowindent"},
                                                                      {"-C", "cpp"}}) {
        Options options = parse_ok({letter, "-n", "BEGIN"});
        EXPECT_EQ(options.xopts, (Xopts{{name, std::nullopt}})) << letter;
    }
}

TEST(Options, RepeatedFlagIsHarmless) {
    Options options = parse_ok({"-vv", "-q", "-q", "-n", "BEGIN"});
    EXPECT_TRUE(options.verbose);
    EXPECT_TRUE(sets(options, "quiet"));
}

// --- modes that need no program ---

TEST(Options, ListAloneListsEverything) {
    Options options = parse_ok({"-l"});
    EXPECT_TRUE(options.list);
    EXPECT_TRUE(options.sources.empty());
}

TEST(Options, ListProviderOfGrabbedProcess) {
    Options options = parse_ok({"-l", "-P", "pid", "-p", "1234"});
    EXPECT_TRUE(options.list);
    EXPECT_EQ(options.sources, (std::vector<ProgramSource>{{Kind::Provider, "pid"}}));
    EXPECT_EQ(options.pids, (std::vector<int>{1234}));
}

TEST(Options, VersionAlone) {
    EXPECT_TRUE(parse_ok({"-V"}).version);
}

TEST(Options, LongHelp) {
    EXPECT_TRUE(parse_ok({"--help"}).help);
}

TEST(Options, LongVersionIsV) {
    Options options = parse_ok({"--version"});
    EXPECT_TRUE(options.version);
    EXPECT_EQ(parse_error({"--version=2"}), "option '--version' doesn't allow an argument");
}

TEST(Options, HelpNeedsNoProgramAndOverridesModeConflicts) {
    Options options = parse_ok({"--help", "-l", "-V", "-e", "-h", "-G"});
    EXPECT_TRUE(options.help);
}

TEST(Options, ModesConflict) {
    const std::string message = "only one of the [-GhlV] options can be specified at a time";
    EXPECT_EQ(parse_error({"-l", "-V"}), message);
    EXPECT_EQ(parse_error({"-h", "-G", "-s", "p.d"}), message);
    EXPECT_EQ(parse_error({"-h", "-l", "-s", "p.d"}), message);
    EXPECT_EQ(parse_error({"-G", "-V"}), message);
}

// dtrace -h and -G: the provider script, -o, and for -G the objects as operands.
TEST(Options, HeaderAndObjectModes) {
    Options header = parse_ok({"-h", "-s", "prov.d", "-o", "prov.h"});
    EXPECT_TRUE(header.usdt_header);
    EXPECT_EQ(header.output_file, "prov.h");
    Options object = parse_ok({"-G", "-s", "prov.d", "-o", "prov.o", "a.o", "b.o"});
    EXPECT_TRUE(object.usdt_object);
    EXPECT_EQ(object.macro_args, (Strings{"a.o", "b.o"}));
    EXPECT_EQ(parse_error({"-h"}), "-h requires one or more scripts or enabling options");
    EXPECT_EQ(parse_error({"-G", "-o", "x.o", "a.o"}),
              "-G requires one or more scripts or enabling options");
}

// --- preprocessor ---

TEST(Options, CppArgumentsKeepOrderAndSpelling) {
    Options options =
        parse_ok({"-C", "-D", "FOO=1", "-UBAR", "-I", "/usr/include/dtx", "-DDEBUG", "-s", "a.d"});
    EXPECT_EQ(options.xopts, (Xopts{{"cpp", std::nullopt},
                                    {"define", "FOO=1"},
                                    {"undef", "BAR"},
                                    {"incdir", "/usr/include/dtx"},
                                    {"define", "DEBUG"}}));
}

TEST(Options, EmptyCppArgumentsAreRejected) {
    EXPECT_EQ(parse_error({"-D", "", "-n", "BEGIN"}), "empty macro name for -D");
    EXPECT_EQ(parse_error({"-U", "", "-n", "BEGIN"}), "empty macro name for -U");
    EXPECT_EQ(parse_error({"-I", "", "-n", "BEGIN"}), "empty directory for -I");
}

// --- target processes ---

TEST(Options, CommandsAreRepeatable) {
    Options options = parse_ok({"-c", "ls -l /", "-n", "BEGIN", "-c", "date"});
    EXPECT_EQ(options.commands, (Strings{"ls -l /", "date"}));
}

TEST(Options, EmptyCommandIsRejected) {
    EXPECT_EQ(parse_error({"-c", "", "-n", "BEGIN"}), "empty command for -c");
}

TEST(Options, PidsAreRepeatable) {
    Options options = parse_ok({"-p", "1234", "-p5678", "-n", "BEGIN"});
    EXPECT_EQ(options.pids, (std::vector<int>{1234, 5678}));
}

TEST(Options, CommandAndPidCombine) {
    Options options = parse_ok({"-c", "sleep 1", "-p", "1", "-n", "BEGIN"});
    EXPECT_EQ(options.commands, (Strings{"sleep 1"}));
    EXPECT_EQ(options.pids, (std::vector<int>{1}));
}

TEST(Options, PidMayHaveWhiteSpaceAround) {
    Options options = parse_ok({"-p", " 123", "-p", "456 ", "-p", "\t789\n", "-n", "BEGIN"});
    EXPECT_EQ(options.pids, (std::vector<int>{123, 456, 789}));
}

TEST(Options, SeveralPidsNeedSeveralOptions) {
    // dtrace takes one pid per -p ("invalid pid: 123,456"); so does dtx, and says how.
    for (const char *list : {"123,456", "123 456", "123, 456"}) {
        EXPECT_EQ(parse_error({"-p", list, "-n", "BEGIN"}),
                  "invalid pid '" + std::string(list) +
                      "' for -p: one process per -p; grab several with -p PID -p PID")
            << "pid " << list;
    }
}

TEST(Options, PidMustBeAPositiveInteger) {
    for (const char *bad : {"abc", "0", "-5", "12x", "", " ", "1 2x", "+12", "99999999999"}) {
        EXPECT_EQ(parse_error({"-p", bad, "-n", "BEGIN"}),
                  "invalid pid '" + std::string(bad) + "' for -p: expected a positive integer")
            << "pid " << bad;
    }
}

// --- output and -x ---

TEST(Options, OutputFileLastOneWins) {
    EXPECT_EQ(parse_ok({"-o", "first.txt", "-oout.txt", "-n", "BEGIN"}).output_file, "out.txt");
}

TEST(Options, OutputFileMayNotBeEmpty) {
    EXPECT_EQ(parse_error({"-o", "", "-n", "BEGIN"}), "empty file name for -o");
}

TEST(Options, XoptsAttachedSeparateAndGrouped) {
    Options options =
        parse_ok({"-xbufsize=4m", "-x", "quiet", "-qxstrsize=", "-x", "a=b=c", "-n", "BEGIN"});
    EXPECT_EQ(options.xopts, (Xopts{{"bufsize", "4m"},
                                    {"quiet", std::nullopt},
                                    {"quiet", std::nullopt},
                                    {"strsize", ""},
                                    {"a", "b=c"}}));
}

TEST(Options, XoptNeedsAName) {
    EXPECT_EQ(parse_error({"-x", "=4m", "-n", "BEGIN"}), "missing option name in -x '=4m'");
    EXPECT_EQ(parse_error({"-x", "", "-n", "BEGIN"}), "missing option name in -x ''");
}

// --- --dump ---

TEST(Options, DumpOneStage) {
    EXPECT_EQ(parse_ok({"--dump=ast", "-n", "BEGIN"}).dump_stages, (Strings{"ast"}));
}

TEST(Options, DumpStageListAsSeparateArgumentAndRepeated) {
    Options options = parse_ok({"--dump", "ast,ast", "--dump=ast", "-n", "BEGIN"});
    EXPECT_EQ(options.dump_stages, (Strings{"ast"}));
}

TEST(Options, DumpAcceptsEveryKnownStage) {
    for (std::string_view stage : dtx::cmd::known_dump_stages) {
        std::string option = "--dump=" + std::string(stage);
        EXPECT_EQ(parse_ok({option.c_str(), "-n", "BEGIN"}).dump_stages,
                  (Strings{std::string(stage)}));
    }
}

TEST(Options, DumpRejectsUnknownAndEmptyStages) {
    EXPECT_EQ(parse_error({"--dump=ast,asm", "-n", "BEGIN"}),
              "unknown --dump stage 'asm' (known: ast, ir, bpf)");
    EXPECT_EQ(parse_error({"--dump=ast,", "-n", "BEGIN"}),
              "unknown --dump stage '' (known: ast, ir, bpf)");
}

TEST(Options, DumpNeedsAnArgument) {
    EXPECT_EQ(parse_error({"-n", "BEGIN", "--dump"}), "option '--dump' requires an argument");
}

// --- operands ---

TEST(Options, OperandsBecomeMacroArguments) {
    Options options = parse_ok({"-s", "script.d", "1234", "/tmp/x"});
    EXPECT_EQ(options.macro_args, (Strings{"1234", "/tmp/x"}));
}

TEST(Options, OptionsAfterOperandsAreStillOptions) {
    // dtrace resumes option parsing after each operand.
    Options options = parse_ok({"-n", "BEGIN", "one", "-q", "two"});
    EXPECT_TRUE(sets(options, "quiet"));
    EXPECT_EQ(options.macro_args, (Strings{"one", "two"}));
}

TEST(Options, DoubleDashEndsOptions) {
    Options options = parse_ok({"-n", "BEGIN", "--", "-q", "-5", "--help"});
    EXPECT_FALSE(sets(options, "quiet"));
    EXPECT_FALSE(options.help);
    EXPECT_EQ(options.macro_args, (Strings{"-q", "-5", "--help"}));
}

TEST(Options, LoneDashAndEmptyStringAreOperands) {
    Options options = parse_ok({"-n", "BEGIN", "-", ""});
    EXPECT_EQ(options.macro_args, (Strings{"-", ""}));
}

TEST(Options, AnyNumberOfMacroArguments) {
    Options options =
        parse_ok({"-n", "BEGIN", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"});
    EXPECT_EQ(options.macro_args.size(), 12u);
    EXPECT_EQ(options.macro_args.back(), "12");
}

// --- errors ---

TEST(Options, NoArgumentsIsUsageError) {
    EXPECT_EQ(parse_error({}), "no arguments given");
}

TEST(Options, UnknownShortOption) {
    EXPECT_EQ(parse_error({"-k"}), "invalid option -- 'k'");
    EXPECT_EQ(parse_error({"-qk", "-n", "BEGIN"}), "invalid option -- 'k'");
    // dtrace options that dtx does not offer
    EXPECT_EQ(parse_error({"-H", "-s", "a.d"}), "invalid option -- 'H'");
}

TEST(Options, MissingArgument) {
    EXPECT_EQ(parse_error({"-n"}), "option requires an argument -- 'n'");
    EXPECT_EQ(parse_error({"-n", "BEGIN", "-qx"}), "option requires an argument -- 'x'");
}

TEST(Options, UnknownLongOption) {
    EXPECT_EQ(parse_error({"--quiet", "-n", "BEGIN"}), "unrecognized option '--quiet'");
    EXPECT_EQ(parse_error({"--dumpx=ast", "-n", "BEGIN"}), "unrecognized option '--dumpx=ast'");
}

TEST(Options, HelpTakesNoArgument) {
    EXPECT_EQ(parse_error({"--help=all"}), "option '--help' doesn't allow an argument");
}

TEST(Options, NoProgramIsUsageError) {
    const std::string message = "no probes specified: give -n, -s, -P, -m, -f or -i, or -l to list";
    EXPECT_EQ(parse_error({"-q"}), message);
    EXPECT_EQ(parse_error({"-c", "ls"}), message);
    EXPECT_EQ(parse_error({"one", "two"}), message);
}

TEST(Options, CompileOnlyNeedsSomethingToCompile) {
    EXPECT_EQ(parse_error({"-e"}), "-e given but nothing to compile: no -n, -s, -P, -m, -f or -i");
    EXPECT_TRUE(parse_ok({"-e", "-s", "a.d"}).compile_only);
}

// --- usage text ---

TEST(Options, UsageTextNamesTheProgramAndEveryOption) {
    std::string text = usage_text("dtx");
    EXPECT_EQ(text.rfind("Usage: dtx [-CeFGhlqvVwZ] ", 0), 0u) << text;
    const std::vector<std::string> expected = {
        "-c", "-C", "-D", "-e", "-f", "-F", "-G",      "-h",     "-i",
        "-I", "-l", "-m", "-n", "-o", "-p", "-P",      "-q",     "-s",
        "-U", "-v", "-V", "-w", "-x", "-Z", "--dump=", "--help", "--version"};
    std::vector<std::string> listed;
    for (const CommandLineOption &option : command_line_options())
        listed.push_back(option.spelling);
    EXPECT_EQ(listed, expected);
    for (const std::string &option : expected) {
        EXPECT_NE(text.find("\n\t" + option), std::string::npos) << "no help line for " << option;
    }
}

} // namespace
