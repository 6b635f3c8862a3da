// The D reference page (man/dtx-d.7) describes every function, action and
// built-in variable the compiler knows: adding one without documenting it
// fails here.
#include "codegen/builtins.h"

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

} // namespace
