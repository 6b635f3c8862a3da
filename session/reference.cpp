#include "session/reference.h"

#include "codegen/builtins.h"
#include "codegen/functions/function.h"
#include "providers/provider.h"
#include "session/option_table.h"

#include <algorithm>
#include <string>
#include <vector>

namespace dtx::session {

namespace {

// roff reads a leading '.' or '\'' as a request and '\' as an escape.
std::string roff_line(std::string_view text) {
    std::string out;
    if (!text.empty() && (text.front() == '.' || text.front() == '\''))
        out += "\\&";
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out + "\n";
}

std::string_view syntax_words(OptionSyntax syntax) {
    using S = OptionSyntax;
    switch (syntax) {
    case S::Flag:
        return "no value";
    case S::Toggle:
        return "toggle or number";
    case S::Size:
        return "size (k, m, g, t)";
    case S::Rate:
        return "time or rate (ns us ms s m h d, hz)";
    case S::Text:
        return "text";
    case S::Choice:
        return "one of:";
    case S::Number:
        return "number";
    case S::Positive:
        return "number from 1";
    case S::Version:
        return "D version";
    case S::Ignored:
        return "any value";
    }
    return "";
}

std::string_view time_words(OptionTime time) {
    switch (time) {
    case OptionTime::Compile:
        return "compile time";
    case OptionTime::Runtime:
        return "run time";
    case OptionTime::Dynamic:
        return "dynamic";
    }
    return "";
}

} // namespace

std::string d_reference_roff() {
    std::string out = ".SH REFERENCE\n"
                      "What the compiler knows, listed from its own tables.\n";

    using sema::FunctionClass;
    const std::pair<FunctionClass, const char *> classes[] = {
        {FunctionClass::Subroutine, "Subroutines"},
        {FunctionClass::Action, "Actions"},
        {FunctionClass::Aggregating, "Aggregating functions"},
    };
    std::vector<const sema::FunctionDescriptor *> functions(sema::functions().begin(),
                                                            sema::functions().end());
    std::sort(functions.begin(), functions.end(),
              [](auto *a, auto *b) { return a->name < b->name; });
    for (const auto &[function_class, title] : classes) {
        out += ".SS " + std::string(title) + "\n.nf\n";
        for (const sema::FunctionDescriptor *function : functions)
            if (function->function_class == function_class && !function->name.starts_with("_"))
                out += roff_line(function->signature() +
                                 (function->destructive ? "    (destructive)" : ""));
        out += ".fi\n";
    }

    std::vector<const sema::BuiltinVariable *> variables;
    for (const sema::BuiltinVariable &variable : sema::builtin_variables())
        variables.push_back(&variable);
    std::sort(variables.begin(), variables.end(),
              [](auto *a, auto *b) { return a->name < b->name; });
    out += ".SS Built-in variables\n.nf\n";
    for (const sema::BuiltinVariable *variable : variables) {
        std::string type(variable->type);
        std::string name(variable->name);
        if (variable->is_array)
            name += "[]";
        out += roff_line(type + (type.ends_with('*') ? "" : " ") + name);
    }
    out += ".fi\n";

    out += ".SS Options\n"
           "Set with \\-x, #pragma D option or setopt(); when each may be set, and its value.\n"
           ".nf\n";
    for (const OptionSpec &option : all_options()) {
        std::string line = std::string(option.name) + "    " +
                           std::string(time_words(option.time)) + ", " +
                           std::string(syntax_words(option.syntax));
        if (!option.choices.empty())
            line += " " + std::string(option.choices);
        if (!option.default_value.empty())
            line += "; default " + std::string(option.default_value);
        if (option.effect == OptionSpec::Effect::Ignored)
            line += "; accepted, no effect in dtx";
        out += roff_line(line);
    }
    out += ".fi\n";

    out += ".SS Providers\n"
           "Described in dtx(1); dtx \\-l lists their probes.\n.nf\n";
    for (const auto &provider : providers::make_providers(providers::ProviderContext{}))
        out += roff_line(provider->name());
    out += ".fi\n";
    return out;
}

} // namespace dtx::session
