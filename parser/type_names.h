// The names the lexer must return as type names rather than identifiers, so that
// `(foo_t)x` parses as a cast. D's built-in typedefs are known from the start;
// `typedef` declarations add to the table as the parser reduces them.
//
// Other typedefs (the kernel's, from its BTF) are asked of the lookup given
// to set_lookup(), and only for a word in a place where a type name fits:
// `(word)` and `(word *)` (but not a call's `f(word)`), or `word name` that
// begins a declaration at the outer scope. So the kernel's BTF is read only
// by scripts that seem to use its typedefs. A word the lookup accepts joins
// the table.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace dtx::parser {

class TypeNames {
public:
    TypeNames(); // with D's built-in typedefs
    bool contains(std::string_view name) const;
    void add(std::string name) { names_.insert(std::move(name)); }

    using Lookup = std::function<bool(std::string_view name)>;
    void set_lookup(Lookup lookup) { lookup_ = std::move(lookup); }
    // Whether the lookup knows `name` (adding it if so); false without one.
    bool look_up(std::string_view name);

private:
    std::unordered_set<std::string> names_;
    Lookup lookup_;
};

} // namespace dtx::parser
