// The D reference page (man/dtx-d.7) describes every function, action and
// built-in variable the compiler knows: adding one without documenting it
// fails here. Its generated reference (signatures, types, options,
// providers) is what the tables say now.
#include "codegen/builtins.h"
#include "libtrace/session/reference.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string reference_page() {
    std::ifstream in(std::string(DTX_SOURCE_DIR) + "/man/dtx-d.7");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
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

} // namespace
