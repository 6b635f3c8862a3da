// Every D function, from the families' tables, found by name.
#include "codegen/functions/function.h"

#include <algorithm>
#include <vector>

namespace dtx::sema {

namespace {

struct FunctionTable {
    std::vector<const FunctionDescriptor *> by_name;

    FunctionTable() {
        for (auto family : {string_functions(), action_functions(), aggregation_functions(),
                            memory_functions(), network_functions(), symbol_functions(),
                            speculation_functions(), destructive_functions(), process_functions(),
                            file_functions(), other_subroutines(), lock_functions()})
            for (const FunctionDescriptor &function : family)
                by_name.push_back(&function);
        std::sort(by_name.begin(), by_name.end(),
                  [](auto *a, auto *b) { return a->name < b->name; });
    }
};

const FunctionTable &table() {
    static const FunctionTable functions;
    return functions;
}

} // namespace

const FunctionDescriptor *find_function(std::string_view name) {
    const std::vector<const FunctionDescriptor *> &all = table().by_name;
    auto it = std::lower_bound(
        all.begin(), all.end(), name,
        [](const FunctionDescriptor *f, std::string_view n) { return f->name < n; });
    return it != all.end() && (*it)->name == name ? *it : nullptr;
}

std::span<const FunctionDescriptor *const> functions() {
    return table().by_name;
}

size_t FunctionDescriptor::required_count() const {
    size_t count = 0;
    for (const Parameter &p : params())
        count += !p.optional;
    return count;
}

std::string FunctionDescriptor::signature() const {
    std::string out = std::string(result) + " " + std::string(name) + "(";
    const bool printa = name == "printa";
    if (printa)
        out += "[string format, ] @aggregation, ...";
    for (size_t i = 0; i < parameter_count; ++i) {
        if (i)
            out += ", ";
        const Parameter &p = parameters[i];
        out += p.optional ? "[" + std::string(p.spelling) + "]" : std::string(p.spelling);
    }
    if (variadic && !printa)
        out += parameter_count ? ", ..." : "...";
    return out + ")";
}

std::string count_words(size_t n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

trace::ArgumentType format_argument_type(const Type *type) {
    const Type *t = resolve(type);
    using K = trace::ArgumentTypeKind;
    switch (t->kind) {
    case TypeKind::Integer:
        if (t->symbolization == Symbolization::Kernel)
            return {K::KernelSymbolAddress, uint32_t(t->size), false};
        if (t->symbolization == Symbolization::User)
            return {K::UserSymbolAddress, uint32_t(t->size), false};
        return {K::Integer, uint32_t(t->size), t->is_signed};
    case TypeKind::Enum:
        return {K::Integer, 4, true};
    case TypeKind::Pointer:
        return {K::Pointer, 8, false};
    case TypeKind::Float:
        return {K::Float, uint32_t(t->size), true};
    case TypeKind::String:
        return {K::String, uint32_t(t->size), false};
    case TypeKind::Array:
        if (is_char_array(t))
            return {K::CharArray, uint32_t(t->size), false};
        return {K::Other, uint32_t(t->size), false};
    case TypeKind::Stack:
        return {K::Stack, 8, false};
    default:
        return {K::Other, uint32_t(t->size), false};
    }
}

} // namespace dtx::sema
