// The D reference page (man/dtx-d.7) describes every function, action and
// built-in variable the compiler knows, and dtx(1) every option of the
// command line: adding one without documenting it fails here. dtx-d(7)'s
// generated reference (signatures, types, options, providers) is what the
// tables say now.
#include "cmd/options.h"
#include "codegen/builtins.h"
#include "session/reference.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_page(const std::string &name) {
    std::ifstream in(std::string(DTX_SOURCE_DIR) + "/man/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string reference_page() {
    return read_page("dtx-d.7");
}

// Whether `name` appears as a word of the page (roff escapes aside).
bool mentions(const std::string &page, std::string_view name) {
    for (size_t at = page.find(name); at != std::string::npos; at = page.find(name, at + 1)) {
        auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        bool starts = at == 0 || !word(page[at - 1]);
        bool ends = at + name.size() >= page.size() || !word(page[at + name.size()]);
        if (starts && ends)
            return true;
    }
    return false;
}

TEST(ReferencePage, DescribesEveryFunction) {
    const std::string page = reference_page();
    ASSERT_FALSE(page.empty());
    for (const dtx::sema::FunctionDescriptor *function : dtx::sema::functions())
        EXPECT_TRUE(mentions(page, function->name)) << function->name;
}

TEST(ReferencePage, DescribesEveryBuiltinVariable) {
    const std::string page = reference_page();
    for (const dtx::sema::BuiltinVariable &variable : dtx::sema::builtin_variables())
        EXPECT_TRUE(mentions(page, variable.name)) << variable.name;
}

TEST(ReferencePage, GeneratedReferenceIsCurrent) {
    const std::string page = reference_page();
    const size_t begin = page.find(dtx::session::kReferenceBegin);
    const size_t end = page.find(dtx::session::kReferenceEnd);
    ASSERT_NE(begin, std::string::npos) << "no generated reference in man/dtx-d.7";
    ASSERT_NE(end, std::string::npos);
    const size_t from = begin + dtx::session::kReferenceBegin.size();
    EXPECT_EQ(page.substr(from, end - from), dtx::session::d_reference_roff())
        << "man/dtx-d.7 is stale: run scripts/regen-man-reference";
}

// Each option heads an entry of OPTIONS: the line after a .TP spells it
// (roff's "\-c", "\-\-dump=", "\-V ", " \-\-version").
TEST(CommandPage, DescribesEveryOption) {
    const std::string page = read_page("dtx.1");
    ASSERT_FALSE(page.empty());
    std::vector<std::string> headings;
    for (size_t at = page.find("\n.TP\n"); at != std::string::npos;
         at = page.find("\n.TP\n", at + 1)) {
        size_t start = at + 5;
        headings.push_back(page.substr(start, page.find('\n', start) - start));
    }
    for (const dtx::cmd::CommandLineOption &option : dtx::cmd::command_line_options()) {
        std::string roff;
        for (char c : option.spelling)
            roff += c == '-' ? std::string("\\-") : std::string(1, c);
        bool found = false;
        for (const std::string &heading : headings)
            for (size_t at = heading.find(roff); at != std::string::npos && !found;
                 at = heading.find(roff, at + 1)) {
                size_t end = at + roff.size();
                found = heading[at - 1] == ' ' &&
                        (end == heading.size() || !std::isalnum((unsigned char)heading[end]));
            }
        EXPECT_TRUE(found) << option.spelling << " has no entry in man/dtx.1's OPTIONS";
    }
}

} // namespace
