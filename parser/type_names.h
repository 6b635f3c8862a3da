// The names the lexer must return as type names rather than identifiers, so that
// `(foo_t)x` parses as a cast. D's built-in typedefs are known from the start;
// `typedef` declarations add to the table as the parser reduces them.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

namespace dtx::parser {

class TypeNames {
public:
    TypeNames(); // with D's built-in typedefs
    bool contains(std::string_view name) const;
    void add(std::string name) { names_.insert(std::move(name)); }

private:
    std::unordered_set<std::string> names_;
};

} // namespace dtx::parser
