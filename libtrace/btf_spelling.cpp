#include "libtrace/btf_spelling.h"

#include <bpf/btf.h>

#include <string_view>
#include <utility>

namespace dtx::trace {
namespace {

// GCC's names of the base integer types (what pahole writes) and D's.
constexpr std::pair<std::string_view, std::string_view> kIntegerSpellings[] = {
    {"long int", "long"},
    {"long unsigned int", "unsigned long"},
    {"long long int", "long long"},
    {"long long unsigned int", "unsigned long long"},
    {"short int", "short"},
    {"short unsigned int", "unsigned short"},
    {"__int128 unsigned", "unsigned __int128"},
};

std::string integer_spelling(std::string_view name) {
    for (auto [gcc, d] : kIntegerSpellings)
        if (name == gcc)
            return std::string(d);
    return std::string(name);
}

// "char" and "*" -> "char *"; "char" and "[16]" -> "char [16]", as dtrace spells types.
std::string with_declarator(std::string base, const std::string &declarator) {
    return declarator.empty() ? base : base + " " + declarator;
}

// Spells `id` around `declarator`, the part of a C declaration that the
// types outside it wrap: pointers go before it, arrays and parameter lists
// after it, in parentheses when a pointer is inside them.
std::string spell(const btf &types, uint32_t id, std::string declarator, int depth) {
    // A cycle needs a struct, which ends the walk; the bound is for corrupt BTF.
    if (depth > 64)
        return with_declarator("?", declarator);
    const btf_type *type = btf__type_by_id(&types, id);
    if (id == 0 || !type)
        return with_declarator("void", declarator);
    std::string_view name = btf__name_by_offset(&types, type->name_off);
    auto tagged = [&](std::string_view tag) {
        return with_declarator(std::string(tag) + " " +
                                   (name.empty() ? "<anonymous>" : std::string(name)),
                               declarator);
    };
    switch (btf_kind(type)) {
    case BTF_KIND_INT:
        return with_declarator(integer_spelling(name), declarator);
    case BTF_KIND_FLOAT:
    case BTF_KIND_TYPEDEF:
        return with_declarator(std::string(name), declarator);
    case BTF_KIND_STRUCT:
        return tagged("struct");
    case BTF_KIND_UNION:
        return tagged("union");
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
        return tagged("enum");
    case BTF_KIND_FWD:
        return tagged(btf_kflag(type) ? "union" : "struct");
    case BTF_KIND_PTR: {
        const btf_type *target = btf__type_by_id(&types, type->type);
        bool wraps = target && (btf_is_array(target) || btf_is_func_proto(target));
        std::string inner = "*" + declarator;
        return spell(types, type->type, wraps ? "(" + inner + ")" : inner, depth + 1);
    }
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT: {
        std::string_view qualifier = btf_is_const(type)      ? "const"
                                     : btf_is_volatile(type) ? "volatile"
                                                             : "restrict";
        const btf_type *target = btf__type_by_id(&types, type->type);
        // A qualified pointer is qualified after its '*': "char *const p".
        if (target && btf_is_ptr(target))
            return spell(types, type->type,
                         std::string(qualifier) + (declarator.empty() ? "" : " " + declarator),
                         depth + 1);
        return std::string(qualifier) + " " + spell(types, type->type, declarator, depth + 1);
    }
    case BTF_KIND_ARRAY: {
        const struct btf_array *array = btf_array(type);
        return spell(types, array->type, declarator + "[" + std::to_string(array->nelems) + "]",
                     depth + 1);
    }
    case BTF_KIND_FUNC_PROTO: {
        std::string parameters;
        const btf_param *param = btf_params(type);
        for (uint16_t i = 0; i < btf_vlen(type); i++, param++) {
            if (i > 0)
                parameters += ", ";
            // A variadic prototype ends with a parameter of type 0 and no name.
            parameters += param->type == 0 && i + 1 == btf_vlen(type)
                              ? "..."
                              : spell(types, param->type, "", depth + 1);
        }
        return spell(types, type->type,
                     declarator + "(" + (parameters.empty() ? "void" : parameters) + ")",
                     depth + 1);
    }
    case BTF_KIND_TYPE_TAG:
        return spell(types, type->type, std::move(declarator), depth + 1);
    default: // FUNC, VAR, DATASEC, DECL_TAG: not types of values
        return with_declarator(std::string(name), declarator);
    }
}

} // namespace

std::string btf_type_spelling(const btf &types, uint32_t id) {
    return spell(types, id, "", 0);
}

} // namespace dtx::trace
