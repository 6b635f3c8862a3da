#include "session/usdt_header.h"

#include "libtrace/usdt_note.h"

#include <cctype>
#include <map>
#include <optional>

namespace dtx::session {

namespace {

using ast::TypeExpr;

std::string upper_case(std::string_view text) {
    std::string upper(text);
    for (char &c : upper)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return upper;
}

// dtrace -h's macro name: PROVIDER_PROBE, each "__" of the probe's name "_".
std::string macro_name(std::string_view provider, std::string_view probe) {
    std::string name = upper_case(provider) + "_";
    for (size_t i = 0; i < probe.size(); i++) {
        name += char(std::toupper(static_cast<unsigned char>(probe[i])));
        if (probe[i] == '_' && i + 1 < probe.size() && probe[i + 1] == '_')
            i++;
    }
    return name;
}

std::string qualifier_words(uint8_t qualifiers) {
    std::string words;
    if (qualifiers & uint8_t(ast::TypeQualifier::Const))
        words += "const ";
    if (qualifiers & uint8_t(ast::TypeQualifier::Volatile))
        words += "volatile ";
    if (qualifiers & uint8_t(ast::TypeQualifier::Restrict))
        words += "restrict ";
    return words;
}

// C's spelling of a type written in D, around the declarator text `inner`
// ("" for a type name, "*" for a pointer to it...). Nullopt, with `why_not`
// said, for what C cannot spell.
std::optional<std::string> c_spelling(const TypeExpr &type, const std::string &inner,
                                      std::string &why_not) {
    auto around = [&](std::string base) { return inner.empty() ? base : base + " " + inner; };
    switch (type.kind) {
    case TypeExpr::Kind::Named:
        if (type.name.find('`') != std::string::npos) {
            why_not = "type '" + type.name + "' names a module, which C cannot";
            return std::nullopt;
        }
        // D's string is a char * in C, as dtrace -h spells it.
        if (type.name == "string")
            return qualifier_words(type.qualifiers) + "char " + "*" + inner;
        return around(qualifier_words(type.qualifiers) + type.name);
    case TypeExpr::Kind::Struct:
    case TypeExpr::Kind::Union:
    case TypeExpr::Kind::Enum: {
        const char *keyword = type.kind == TypeExpr::Kind::Struct  ? "struct"
                              : type.kind == TypeExpr::Kind::Union ? "union"
                                                                   : "enum";
        if (type.has_body || type.name.empty()) {
            why_not = std::string("a ") + keyword + " defined in a probe's declaration";
            return std::nullopt;
        }
        return around(qualifier_words(type.qualifiers) + keyword + " " + type.name);
    }
    case TypeExpr::Kind::Pointer: {
        std::string pointer = "*" + qualifier_words(type.qualifiers);
        if (!pointer.empty() && pointer.back() == ' ' && inner.empty())
            pointer.pop_back();
        pointer += inner;
        TypeExpr::Kind pointee = type.element->kind;
        if (pointee == TypeExpr::Kind::Array || pointee == TypeExpr::Kind::Function)
            pointer = "(" + pointer + ")";
        return c_spelling(*type.element, pointer, why_not);
    }
    case TypeExpr::Kind::Array: {
        if (!type.array_keys.empty()) {
            why_not = "an associative array";
            return std::nullopt;
        }
        std::string size;
        if (type.array_size) {
            const auto *literal = type.array_size->as<ast::IntegerLiteral>();
            if (!literal) {
                why_not = "an array whose size is not a number";
                return std::nullopt;
            }
            size = std::to_string(literal->value);
        }
        return c_spelling(*type.element, inner + "[" + size + "]", why_not);
    }
    case TypeExpr::Kind::Function: {
        std::string parameters;
        for (const ast::TypeExprPtr &parameter : type.parameters) {
            std::optional<std::string> spelled = c_spelling(*parameter, "", why_not);
            if (!spelled)
                return std::nullopt;
            parameters += (parameters.empty() ? "" : ", ") + *spelled;
        }
        if (type.variadic)
            parameters += parameters.empty() ? "..." : ", ...";
        return c_spelling(*type.element, inner + "(" + parameters + ")", why_not);
    }
    }
    return std::nullopt;
}

bool is_void(const TypeExpr &type) {
    return type.kind == TypeExpr::Kind::Named && type.name == "void";
}

// The C type a probe's argument is cast to: what C passes for a parameter of
// the declared type (arrays and functions as pointers), or nullopt with the
// reason <sys/sdt.h> cannot take it.
std::optional<std::string> argument_spelling(const ast::TypeExprPtr &declared_type,
                                             std::string &why_not) {
    const TypeExpr &declared = *declared_type;
    switch (declared.kind) {
    case TypeExpr::Kind::Struct:
    case TypeExpr::Kind::Union:
        why_not = "a struct or union passed by value; pass a pointer to it";
        return std::nullopt;
    case TypeExpr::Kind::Array: {
        TypeExpr pointer;
        pointer.kind = TypeExpr::Kind::Pointer;
        pointer.element = declared.element;
        return c_spelling(pointer, "", why_not);
    }
    case TypeExpr::Kind::Function: {
        TypeExpr pointer;
        pointer.kind = TypeExpr::Kind::Pointer;
        pointer.element = declared_type;
        return c_spelling(pointer, "", why_not);
    }
    default:
        if (is_void(declared)) {
            why_not = "void, which has no value";
            return std::nullopt;
        }
        return c_spelling(declared, "", why_not);
    }
}

std::string include_guard(std::string_view header_name) {
    size_t slash = header_name.rfind('/');
    if (slash != std::string_view::npos)
        header_name.remove_prefix(slash + 1);
    std::string guard = "_";
    for (char c : header_name)
        guard += std::isalnum(static_cast<unsigned char>(c))
                     ? char(std::toupper(static_cast<unsigned char>(c)))
                     : '_';
    return guard;
}

} // namespace

std::vector<UsdtProbeDefinition> usdt_probe_definitions(const ast::Program &program,
                                                        DiagnosticEngine &diagnostics) {
    std::vector<UsdtProbeDefinition> definitions;
    std::map<std::string, std::string> probe_of_macro; // macro -> provider:::probe
    for (const auto &provider : program.providers) {
        for (const ast::ProviderProbe &probe : provider->probes) {
            UsdtProbeDefinition definition;
            definition.provider = provider->name;
            definition.probe = probe.name;
            definition.macro = macro_name(provider->name, probe.name);
            definition.semaphore = provider->name + "_" + probe.name + "_semaphore";
            const std::string described = provider->name + ":::" + probe.name;
            std::vector<ast::TypeExprPtr> types = probe.native_types;
            // probe p(void) takes no arguments, as in C.
            if (types.size() == 1 && is_void(*types[0]) &&
                (probe.native_names.empty() || probe.native_names[0].empty()))
                types.clear();
            bool expressible = true;
            if (types.size() > kMaxUsdtArguments) {
                diagnostics.error("D_PROV_ARG", probe.range,
                                  "probe '" + described + "' has " + std::to_string(types.size()) +
                                      " arguments; a USDT probe takes at most " +
                                      std::to_string(kMaxUsdtArguments));
                expressible = false;
            }
            for (size_t i = 0; i < types.size() && expressible; i++) {
                std::string why_not;
                std::optional<std::string> spelled = argument_spelling(types[i], why_not);
                if (!spelled) {
                    diagnostics.error("D_PROV_ARG",
                                      types[i]->range.valid() ? types[i]->range : probe.range,
                                      "probe '" + described + "' argument " + std::to_string(i) +
                                          " cannot be a USDT argument: " + why_not);
                    expressible = false;
                    break;
                }
                definition.argument_types.push_back(*spelled);
                definition.argument_names.push_back(
                    i < probe.native_names.size() ? probe.native_names[i] : "");
            }
            if (!expressible)
                continue;
            auto [at, added] = probe_of_macro.emplace(definition.macro, described);
            if (!added) {
                diagnostics.error("D_PROV_DUP", probe.range,
                                  "probe '" + described + "' has the macro name " +
                                      definition.macro + " of probe '" + at->second + "'");
                continue;
            }
            definitions.push_back(std::move(definition));
        }
    }
    return definitions;
}

std::string usdt_header_text(std::span<const UsdtProbeDefinition> probes,
                             std::string_view header_name, std::string_view source_name) {
    const std::string guard = include_guard(header_name);
    std::string text;
    text += "/*\n * Generated by dtx -h from " + std::string(source_name) + ".\n";
    text += " * USDT probes over <sys/sdt.h> (.note.stapsdt); their semaphores are\n";
    text += " * defined by the object dtx -G makes, which the program links.\n */\n\n";
    text += "#ifndef " + guard + "\n#define " + guard + "\n\n";
    text += "#define _SDT_HAS_SEMAPHORES 1\n";
    text += "#include <stdint.h>\n#include <sys/sdt.h>\n\n";
    text += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    for (const UsdtProbeDefinition &probe : probes) {
        std::string declared;
        for (size_t i = 0; i < probe.argument_types.size(); i++) {
            declared += i == 0 ? "" : ", ";
            declared += probe.argument_types[i];
            if (!probe.argument_names[i].empty())
                declared += (declared.back() == '*' ? "" : " ") + probe.argument_names[i];
        }
        // The probe as D names it: myprov:::query-start.
        text += "/* " + probe.provider + ":::" + trace::usdt_probe_name_in_d(probe.probe) + "(" +
                declared + ") */\n";
        std::string parameters, arguments;
        for (size_t i = 0; i < probe.argument_types.size(); i++) {
            std::string name = "arg" + std::to_string(i);
            parameters += (i == 0 ? "" : ", ") + name;
            arguments += ", (" + probe.argument_types[i] + ")(" + name + ")";
        }
        const std::string count =
            probe.argument_types.empty() ? "" : std::to_string(probe.argument_types.size());
        text += "#define " + probe.macro + "(" + parameters + ") \\\n";
        text += "\tDTRACE_PROBE" + count + "(" + probe.provider + ", " + probe.probe + arguments +
                ")\n";
        text += "#define " + probe.macro + "_ENABLED() \\\n";
        text += "\t__builtin_expect(" + probe.semaphore + ", 0)\n";
        text += "__extension__ extern unsigned short " + probe.semaphore +
                " __attribute__((unused)) __attribute__((section(\".probes\")));\n\n";
    }
    text += "#ifdef __cplusplus\n}\n#endif\n\n";
    text += "#endif /* " + guard + " */\n";
    return text;
}

} // namespace dtx::session
