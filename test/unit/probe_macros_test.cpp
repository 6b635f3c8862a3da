#include "libtrace/probe_macros.h"

#include <gtest/gtest.h>

namespace {

using dtx::trace::expand_probe_macros;
using dtx::trace::MacroValues;

// The expanded field, or "error: MESSAGE".
std::string expand(std::string_view field, const MacroValues &values) {
    dtx::Result<std::string> out = expand_probe_macros(field, values);
    return out ? *out : "error: " + out.error().message;
}

MacroValues values(std::vector<std::string> arguments, std::optional<pid_t> target = {}) {
    MacroValues v;
    v.arguments = std::move(arguments);
    v.target_pid = target;
    v.pid = 77;
    v.uid = 5;
    return v;
}

TEST(ProbeMacros, ArgumentsAreSubstitutedAsTheyAre) {
    MacroValues v = values({"read", "\"q\"", "a b", "12"});
    EXPECT_EQ(expand("$1", v), "read");
    EXPECT_EQ(expand("$2", v), "\"q\"");
    EXPECT_EQ(expand("x$3y", v), "xa by");
    EXPECT_EQ(expand("pid$4", v), "pid12");
    EXPECT_EQ(expand("$$1", v), "read"); // $$ is $ in a description
    EXPECT_EQ(expand("$1$4", v), "read12");
    EXPECT_EQ(expand("sys_*", v), "sys_*");
}

TEST(ProbeMacros, MissingArgumentIsAnError) {
    EXPECT_EQ(expand("$2", values({"read"})), "error: macro argument $2 is not defined");
    EXPECT_EQ(expand("$0", values({"read"})), "error: macro argument $0 is not defined");
    EXPECT_EQ(expand("$$3", values({})), "error: macro argument $3 is not defined");
}

TEST(ProbeMacros, TargetIsZeroWithoutAProcess) {
    EXPECT_EQ(expand("pid$target", values({})), "pid0");
    EXPECT_EQ(expand("pid$target", values({}, 4321)), "pid4321");
}

TEST(ProbeMacros, ProcessVariables) {
    EXPECT_EQ(expand("pid$pid", values({})), "pid77");
    EXPECT_EQ(expand("u$uid", values({})), "u5");
    EXPECT_EQ(expand("$nosuch", values({})), "error: macro variable $nosuch is not defined");
    EXPECT_EQ(expand("a$", values({})), "error: '$' without a macro variable name");
}

} // namespace
