// Names and storage: identifiers, self->/this-> variables, macro arguments,
// what an assignment stores into (declaring variables on first assignment),
// and associative arrays with their key types.

#include "codegen/checker.h"
#include "parser/parser.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>

namespace dtx::sema {

using namespace ast;

namespace {

// A key may be any scalar, string, stack, or complete struct, union or array
// (its bytes); not void or a function.
bool valid_key(const Type *type) {
    const Type *t = resolve(type);
    return is_scalar(t) || is_string(t) || t->kind == TypeKind::Stack ||
           ((is_struct_or_union(t) || is_array(t)) && t->complete && t->size > 0);
}

// A macro argument's text as a D integer constant: an optional sign, then
// decimal, octal (0...) or hexadecimal (0x...) digits, then an optional
// u / l / ll suffix.
struct MacroInteger {
    uint64_t magnitude = 0;
    bool negative = false;
    bool overflow = false;
    bool is_unsigned = false;
    uint8_t long_count = 0;
    uint8_t base = 10;
};

std::optional<MacroInteger> parse_macro_integer(std::string_view text) {
    MacroInteger integer;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        integer.negative = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || !std::isdigit(uint8_t(text[0])))
        return std::nullopt;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        integer.base = 16;
        text.remove_prefix(2);
    } else if (text[0] == '0') {
        integer.base = 8;
    }
    const char *begin = text.data(), *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(begin, end, integer.magnitude, integer.base);
    if (stop == begin)
        return std::nullopt;
    integer.overflow = error == std::errc::result_out_of_range;
    for (std::string_view suffix(stop, size_t(end - stop)); !suffix.empty();
         suffix.remove_prefix(1)) {
        if ((suffix[0] == 'u' || suffix[0] == 'U') && !integer.is_unsigned)
            integer.is_unsigned = true;
        else if ((suffix[0] == 'l' || suffix[0] == 'L') && integer.long_count < 2)
            integer.long_count++;
        else
            return std::nullopt;
    }
    return integer;
}

// [A-Za-z_][A-Za-z0-9_]*: a name D could look up.
bool is_identifier(std::string_view text) {
    if (text.empty() || std::isdigit(uint8_t(text[0])))
        return false;
    for (char c : text)
        if (!std::isalnum(uint8_t(c)) && c != '_')
            return false;
    return true;
}

// DTrace's built-in variables that dtx does not provide, and why.
const char *unavailable_builtin(std::string_view name) {
    static constexpr std::pair<std::string_view, const char *> kUnavailable[] = {
        {"ipl", "Linux has no interrupt priority level"},
    };
    for (const auto &[variable, why] : kUnavailable)
        if (variable == name)
            return why;
    return nullptr;
}

} // namespace

const Type *Checker::check_identifier(Identifier &id) {
    if (id.scoped || !id.module.empty()) {
        auto it = externs_.find(id.name);
        if (it != externs_.end()) {
            out_.resolutions[&id] = {.kind = Resolution::Kind::KernelSymbol};
            return it->second;
        }
        if (const Type *type = kernel_types().variable(id.name)) {
            out_.resolutions[&id] = {.kind = Resolution::Kind::KernelSymbol};
            return type;
        }
        error("D_SYM_NOTYPES", id.range,
              "no type information for kernel symbol '" + id.name +
                  "': the kernel's BTF does not declare it; declare it with extern")
            .hints.push_back("extern unsigned long " + id.name + ";");
        return nullptr;
    }
    if (const BuiltinVariable *builtin = find_builtin_variable(id.name)) {
        if (builtin->is_array) {
            error("D_IDENT_BADREF", id.range,
                  "'" + id.name + "' is an array; index it: " + id.name + "[0]");
            return nullptr;
        }
        out_.resolutions[&id] = {.kind = Resolution::Kind::Builtin, .builtin = builtin};
        // curthread points to the current task, a struct task_struct where the
        // kernel's BTF says what that is; without BTF it is only an address.
        if (id.name == "curthread")
            if (const Type *task = kernel_types().by_tag(TypeKind::Struct, "task_struct"))
                return types_.pointer_to(task);
        return spelled(builtin->type);
    }
    if (!id.scoped && id.module.empty())
        if (const Type *parameter = check_parameter(id))
            return parameter;
    // The D library's inlines stand behind the program's own names.
    if (!out_.inlines.count(id.name) && !out_.globals.count(id.name) &&
        !enumerators_.count(id.name))
        define_library_inline(id.name);
    if (auto it = out_.inlines.find(id.name); it != out_.inlines.end()) {
        if (!it->second->parameters.empty()) {
            error("D_IDENT_BADREF", id.range,
                  "inline '" + id.name + "' takes " +
                      std::to_string(it->second->parameters.size()) + " key(s): index it");
            return nullptr;
        }
        Resolution r{.kind = Resolution::Kind::Inline, .inline_definition = it->second};
        if (std::optional<int64_t> value = constant_value(*it->second->value))
            r.value = *value;
        out_.resolutions[&id] = r;
        return inline_types_[id.name];
    }
    if (auto it = enumerators_.find(id.name); it != enumerators_.end()) {
        out_.resolutions[&id] = {.kind = Resolution::Kind::Constant, .value = it->second.second};
        return it->second.first;
    }
    if (const BuiltinConstant *constant = find_builtin_constant(id.name)) {
        out_.resolutions[&id] = {.kind = Resolution::Kind::Constant, .value = constant->value};
        return spelled(constant->type);
    }
    if (auto it = out_.globals.find(id.name); it != out_.globals.end()) {
        if (it->second.associative) {
            error("D_IDENT_BADREF", id.range,
                  "'" + id.name + "' is an associative array; index it with its keys");
            return nullptr;
        }
        out_.resolutions[&id] = {.kind = Resolution::Kind::Variable, .variable = &it->second};
        return it->second.type;
    }
    if (auto it = externs_.find(id.name); it != externs_.end()) {
        out_.resolutions[&id] = {.kind = Resolution::Kind::KernelSymbol};
        return it->second;
    }
    // Last, the enumerators of the kernel's enums (TASK_RUNNING, TASK_COMM_LEN).
    if (auto kernel = kernel_types().enumerator(id.name)) {
        out_.resolutions[&id] = {.kind = Resolution::Kind::Constant, .value = kernel->second};
        return kernel->first;
    }
    if (declare_early(id.name))
        return check_identifier(id);
    if (const char *why = unavailable_builtin(id.name)) {
        error("D_IDENT_UNSUPPORTED", id.range,
              "the built-in variable '" + id.name + "' is not available: " + why);
        return nullptr;
    }
    Diagnostic &d = error("D_IDENT_UNDEF", id.range,
                          "undefined identifier '" + id.name +
                              "': a variable must be assigned before it is read");
    suggest(d, id.name, identifier_names());
    return nullptr;
}

const Type *Checker::check_parameter(Identifier &id) {
    for (auto scope = parameter_scopes_.rbegin(); scope != parameter_scopes_.rend(); ++scope)
        for (size_t i = 0; i < scope->parameters.size(); i++)
            if (scope->parameters[i].first == id.name) {
                out_.resolutions[&id] = {
                    .kind = Resolution::Kind::Parameter, .owner = scope->owner, .index = i};
                return scope->parameters[i].second;
            }
    return nullptr;
}

const Type *Checker::check_inline_call(Subscript &subscript, const InlineDefinition &def) {
    out_.resolutions[subscript.base.get()] = {.kind = Resolution::Kind::Inline,
                                              .inline_definition = &def};
    const std::vector<const Type *> &parameters = out_.inline_parameters[&def];
    if (subscript.indices.size() != parameters.size()) {
        for (ExprPtr &index : subscript.indices)
            check(*index);
        error("D_PROTO_LEN", subscript.range,
              "inline '" + def.name + "' takes " + std::to_string(parameters.size()) + " key(s), " +
                  std::to_string(subscript.indices.size()) + " given");
        return nullptr;
    }
    bool ok = true;
    for (size_t i = 0; i < parameters.size(); i++) {
        Expr &index = *subscript.indices[i];
        const Type *type = check(index);
        if (!type || !parameters[i]) {
            ok = false;
            continue;
        }
        if (!assignable(parameters[i], type, is_null_constant(index))) {
            error("D_PROTO_ARG", index.range,
                  "key #" + std::to_string(i + 1) + " of inline '" + def.name + "' has type " +
                      quote(type) + ", which does not match " + quote(parameters[i]));
            ok = false;
        }
    }
    return ok ? inline_types_[def.name] : nullptr;
}

const Type *Checker::check_variable(Variable &var) {
    const bool thread = var.scope == ast::VariableScope::Thread;
    auto &scope = thread ? out_.thread_locals : out_.clause_locals;
    const std::string shown = (thread ? "self->" : "this->") + var.name;
    auto it = scope.find(var.name);
    if (it == scope.end()) {
        if (!thread) {
            Diagnostic &d =
                error("D_VAR_UNDEF", var.range, shown + " is read before any clause assigns it");
            std::vector<std::string> known;
            for (const auto &[name, info] : scope)
                known.push_back(name);
            suggest(d, var.name, known);
            return nullptr;
        }
        // An unassigned thread-local reads as 0; it is an int until assigned.
        it = scope
                 .emplace(var.name, VariableInfo{var.name,
                                                 VariableScope::Thread,
                                                 types_.int_type(),
                                                 false,
                                                 {},
                                                 false,
                                                 var.range})
                 .first;
    }
    if (it->second.associative) {
        error("D_IDENT_BADREF", var.range, shown + " is an associative array; index it");
        return nullptr;
    }
    out_.resolutions[&var] = {.kind = Resolution::Kind::Variable, .variable = &it->second};
    return it->second.type;
}

const Type *Checker::check_macro(MacroArgument &macro) {
    const std::string shown = (macro.as_string ? "$$" : "$") + macro.name;
    const bool numbered = !macro.name.empty() && std::isdigit(uint8_t(macro.name[0]));
    std::optional<std::string> text;
    if (numbered) {
        // A number too large for any argument names none.
        size_t index = 0;
        std::from_chars(macro.name.data(), macro.name.data() + macro.name.size(), index);
        if (index >= 1 && index <= options_.macro_arguments.size())
            text = options_.macro_arguments[index - 1];
        else if (out_.defaultargs)
            text = macro.as_string ? "" : "0";
    } else {
        std::optional<int64_t> value;
        // As in dtrace, $target is 0 when no -c or -p gave a process.
        if (macro.name == "target")
            value = options_.target_pid.value_or(0);
        else if (macro.name == "pid")
            value = options_.dtx_pid;
        else if (macro.name == "ppid")
            value = options_.dtx_ppid;
        else if (macro.name == "uid")
            value = options_.dtx_uid;
        else if (macro.name == "gid")
            value = options_.dtx_gid;
        else if (macro.name == "pgid")
            value = options_.dtx_pgid;
        else if (macro.name == "sid")
            value = options_.dtx_sid;
        if (value)
            text = std::to_string(*value);
    }
    if (!text) {
        Diagnostic &d = error("D_MACRO_UNDEF", macro.range,
                              std::string(numbered ? "macro argument " : "macro variable ") +
                                  shown + " is not defined");
        if (numbered)
            d.hints.push_back("pass it after the script, or use -x defaultargs");
        return nullptr;
    }
    auto string_constant = [&](std::string value) {
        out_.resolutions[&macro] = {.kind = Resolution::Kind::Constant, .text = std::move(value)};
        return types_.string_type();
    };
    if (macro.as_string)
        return string_constant(*text);

    // $N is typed by its text, as dtrace's lexer does: an integer constant
    // is an integer, an identifier is that name, anything else a string
    // (whose surrounding double quotes, if any, are not part of it).
    if (std::optional<MacroInteger> integer = parse_macro_integer(*text)) {
        if (integer->overflow) {
            error("D_MACRO_OFLOW", macro.range,
                  "macro argument " + shown + " constant " + *text +
                      " results in integer overflow");
            return nullptr;
        }
        IntegerLiteral literal;
        literal.value = integer->magnitude;
        literal.is_unsigned = integer->is_unsigned;
        literal.long_count = integer->long_count;
        literal.base = integer->base;
        const Type *type = check_integer(literal);
        int64_t value = int64_t(integer->magnitude);
        if (integer->negative)
            value = wrap_to(int64_t(uint64_t(0) - integer->magnitude), type);
        out_.resolutions[&macro] = {.kind = Resolution::Kind::Constant, .value = value};
        return type;
    }
    if (is_identifier(*text)) {
        // dtrace substitutes the identifier; one that names nothing would
        // be an error there, and is the string it spells here.
        Identifier substitute;
        substitute.range = macro.range;
        substitute.name = *text;
        DiagnosticEngine attempt;
        DiagnosticEngine *saved = std::exchange(diags_, &attempt);
        const Type *type = check(substitute);
        diags_ = saved;
        const std::vector<Diagnostic> &found = attempt.diagnostics();
        if (!type && found.size() == 1 && found[0].code == "D_IDENT_UNDEF")
            return string_constant(*text);
        for (const Diagnostic &d : found) {
            Diagnostic &copy = d.severity == Severity::Error
                                   ? diags_->error(d.code, d.range, d.message)
                                   : diags_->warning(d.code, d.range, d.message);
            copy.hints = d.hints;
        }
        if (auto it = out_.resolutions.find(&substitute); it != out_.resolutions.end()) {
            out_.resolutions[&macro] = it->second;
            out_.resolutions.erase(it);
        }
        return type;
    }
    if (text->size() >= 2 && text->front() == '"' && text->back() == '"')
        return string_constant(text->substr(1, text->size() - 2));
    return string_constant(*text);
}

const Type *Checker::store_variable(std::map<std::string, VariableInfo> &scope, VariableScope kind,
                                    const std::string &name, const std::string &shown,
                                    const Expr &target, const Type *value, bool value_is_null,
                                    const SourceRange &at, const Type *created) {
    auto it = scope.find(name);
    if (it == scope.end())
        it = scope.emplace(name, VariableInfo{name, kind, created, false, {}, false, target.range})
                 .first;
    VariableInfo &var = it->second;
    out_.resolutions[&target] = {.kind = Resolution::Kind::Variable, .variable = &var};
    if (var.associative) {
        error("D_IDENT_BADREF", target.range, shown + " is an associative array; index it");
        return nullptr;
    }
    // 0 frees a struct- or union-typed thread-local, as it frees any.
    const bool frees =
        value_is_null && kind == VariableScope::Thread && is_struct_or_union(resolve(var.type));
    if (value && !frees && !assignable(var.type, value, value_is_null)) {
        Diagnostic &d = error("D_OP_INCOMPAT", at,
                              "cannot assign " + quote(value) + " to " + shown +
                                  ", which has type " + quote(var.type));
        if (var.defined_at.valid())
            d.hints.push_back(shown + " got its type at line " +
                              std::to_string(var.defined_at.begin.line) + ", column " +
                              std::to_string(var.defined_at.begin.column));
        return nullptr;
    }
    return var.type;
}

const Type *Checker::check_store(Expr &target, const Type *value, bool value_is_null,
                                 const SourceRange &at, const std::string &op) {
    // The first assignment declares a variable with the value's type; ++ and
    // -- on a new variable start it as an int64_t 0, as in dtrace, and op= as
    // an int 0.
    const Type *created = value                      ? value_type(value)
                          : op == "++" || op == "--" ? types_.lookup("int64_t")
                                                     : types_.int_type();
    auto check_value = [&](const Type *type, const std::string &shown) -> const Type * {
        if (type && value && !assignable(type, value, value_is_null)) {
            error("D_OP_INCOMPAT", at,
                  "cannot assign " + quote(value) + " to " + shown + " of type " + quote(type));
            return nullptr;
        }
        return type;
    };
    switch (target.kind) {
    case Expr::Kind::Identifier: {
        auto &id = *target.as<Identifier>();
        const char *what = id.scoped || !id.module.empty()  ? "kernel symbol"
                           : find_builtin_variable(id.name) ? "built-in variable"
                           : out_.inlines.count(id.name)    ? "inline"
                           : enumerators_.count(id.name)    ? "enumerator"
                           : find_builtin_constant(id.name) ? "constant"
                           : externs_.count(id.name)        ? "kernel symbol"
                                                            : nullptr;
        if (what) {
            error("D_OP_WRITE", target.range,
                  std::string("cannot modify ") + what + " '" + id.name + "'");
            return nullptr;
        }
        return store_variable(out_.globals, VariableScope::Global, id.name, id.name, target, value,
                              value_is_null, at, created);
    }
    case Expr::Kind::Variable: {
        auto &var = *target.as<Variable>();
        const bool thread = var.scope == ast::VariableScope::Thread;
        return store_variable(thread ? out_.thread_locals : out_.clause_locals,
                              thread ? VariableScope::Thread : VariableScope::Clause, var.name,
                              (thread ? "self->" : "this->") + var.name, target, value,
                              value_is_null, at, created);
    }
    case Expr::Kind::Subscript: {
        auto &subscript = *target.as<Subscript>();
        std::map<std::string, VariableInfo> *scope = nullptr;
        VariableScope kind = VariableScope::Global;
        std::string name, shown;
        if (auto *id = subscript.base->as<Identifier>(); id && !id->scoped) {
            if (find_builtin_variable(id->name)) {
                error("D_OP_WRITE", target.range,
                      "cannot modify built-in variable '" + id->name + "'");
                return nullptr;
            }
            auto it = out_.globals.find(id->name);
            if (it == out_.globals.end() || it->second.associative) {
                scope = &out_.globals;
                name = shown = id->name;
            }
        } else if (auto *var = subscript.base->as<Variable>()) {
            const bool thread = var->scope == ast::VariableScope::Thread;
            auto &locals = thread ? out_.thread_locals : out_.clause_locals;
            auto it = locals.find(var->name);
            if (it == locals.end() || it->second.associative) {
                if (!thread) {
                    error("D_ARR_LOCAL", target.range,
                          "clause-local variable this->" + var->name +
                              " cannot be an associative array");
                    return nullptr;
                }
                scope = &locals;
                kind = VariableScope::Thread;
                name = var->name;
                shown = "self->" + var->name;
            }
        }
        if (scope) {
            VariableInfo *array = associative_array(*scope, kind, shown, name, subscript, created);
            if (!array)
                return nullptr;
            // 0 frees an element, a struct or union as any other.
            if (value && value_is_null && is_struct_or_union(resolve(array->type)))
                return array->type;
            return check_value(array->type, shown + "[]");
        }
        return check_value(check(target), "the array element");
    }
    case Expr::Kind::Member:
        return check_value(check(target), "member '" + target.as<ast::Member>()->member + "'");
    case Expr::Kind::Unary:
        if (target.as<Unary>()->op == UnaryOp::Deref)
            return check_value(check(target), "the pointed-to object");
        break;
    case Expr::Kind::Aggregation:
        error("D_AGG_FUNC", target.range,
              "aggregations can only be assigned with '=' from an aggregating function");
        return nullptr;
    default:
        break;
    }
    error("D_OP_LVAL", target.range,
          "operator " + op + " needs a variable, array element, member or dereference on its left");
    return nullptr;
}

std::optional<std::vector<const Type *>> Checker::key_types(std::vector<ExprPtr> &indices) {
    std::vector<const Type *> types;
    bool ok = true;
    for (ExprPtr &index : indices) {
        const Type *type = check(*index);
        if (!type) {
            ok = false;
            continue;
        }
        type = value_type(type);
        if (!valid_key(type)) {
            error("D_KEY_TYPE", index->range, quote(type) + " cannot be used as a key");
            ok = false;
        }
        types.push_back(type);
    }
    if (!ok)
        return std::nullopt;
    return types;
}

bool Checker::keys_match(const std::vector<const Type *> &expected,
                         const std::vector<const Type *> &actual,
                         const std::vector<ExprPtr> &indices, const SourceRange &at,
                         const std::string &shown) {
    auto signature = [&] {
        std::string out;
        for (size_t i = 0; i < expected.size(); ++i)
            out += (i ? ", " : "") + expected[i]->name;
        return "[" + out + "]";
    };
    if (expected.size() != actual.size()) {
        error("D_PROTO_LEN", at,
              shown + " is keyed by " + std::to_string(expected.size()) + " key" +
                  (expected.size() == 1 ? "" : "s") + " " + signature() + ", but " +
                  std::to_string(actual.size()) + " given");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < expected.size(); ++i) {
        if (assignable(expected[i], actual[i]) || (resolve(expected[i]) == resolve(actual[i])))
            continue;
        error("D_PROTO_ARG", indices[i]->range,
              "key #" + std::to_string(i + 1) + " of " + shown + " has type " + quote(actual[i]) +
                  ", but " + shown + " is keyed by " + signature());
        ok = false;
    }
    return ok;
}

VariableInfo *Checker::associative_array(std::map<std::string, VariableInfo> &scope,
                                         VariableScope kind, const std::string &shown,
                                         const std::string &name, Subscript &subscript,
                                         const Type *created_type) {
    std::optional<std::vector<const Type *>> keys = key_types(subscript.indices);
    if (!keys)
        return nullptr;
    auto it = scope.find(name);
    if (it == scope.end()) {
        if (!created_type)
            return nullptr;
        it = scope
                 .emplace(name, VariableInfo{name, kind, created_type, true, *keys, false,
                                             subscript.range})
                 .first;
    }
    VariableInfo &var = it->second;
    out_.resolutions[subscript.base.get()] = {.kind = Resolution::Kind::Variable, .variable = &var};
    subscript.base->type = var.type;
    if (!keys_match(var.key_types, *keys, subscript.indices, subscript.range, shown))
        return nullptr;
    return &var;
}

const Type *Checker::check_subscript(Subscript &subscript) {
    Expr &base = *subscript.base;
    if (base.kind == Expr::Kind::Aggregation) {
        error("D_AGG_VALUE", subscript.range,
              "aggregation @" + base.as<Aggregation>()->name +
                  " cannot be used as a value; print it with printa()");
        return nullptr;
    }
    if (auto *id = base.as<Identifier>(); id && !id->scoped && id->module.empty()) {
        if (const BuiltinVariable *builtin = find_builtin_variable(id->name);
            builtin && builtin->is_array) {
            out_.resolutions[id] = {.kind = Resolution::Kind::Builtin, .builtin = builtin};
            if (subscript.indices.size() != 1) {
                error("D_ARR_BADREF", subscript.range, id->name + "[] takes one index");
                return nullptr;
            }
            if (id->name == "args")
                return check_probe_argument(subscript);
            const Type *index = check(*subscript.indices[0]);
            if (index && !is_integer(index)) {
                error("D_OP_INT", subscript.indices[0]->range,
                      id->name + "[] needs an integer index, not " + quote(index));
                return nullptr;
            }
            if (std::optional<int64_t> constant = constant_value(*subscript.indices[0]);
                index && id->name == "uregs" && constant &&
                (*constant < 0 || *constant >= kUserRegisterCount)) {
                error("D_UREGS_IDX", subscript.range,
                      "uregs[" + std::to_string(*constant) +
                          "] does not exist: uregs[0] to uregs[" +
                          std::to_string(kUserRegisterCount - 1) + "] do")
                    .hints.push_back("the R_* constants name them: R_PC, R_SP, R_RDI ...");
                return nullptr;
            }
            return index ? spelled(builtin->type) : nullptr;
        }
        if (!out_.inlines.count(id->name) && !out_.globals.count(id->name))
            define_library_inline(id->name);
        if (auto inline_it = out_.inlines.find(id->name);
            inline_it != out_.inlines.end() && !inline_it->second->parameters.empty())
            return check_inline_call(subscript, *inline_it->second);
        auto it = out_.globals.find(id->name);
        const bool other_name = find_builtin_variable(id->name) || out_.inlines.count(id->name) ||
                                externs_.count(id->name);
        if ((it == out_.globals.end() && !other_name) ||
            (it != out_.globals.end() && it->second.associative)) {
            if (it == out_.globals.end() && declare_early(id->name))
                return check_subscript(subscript);
            if (it == out_.globals.end()) {
                key_types(subscript.indices);
                Diagnostic &d = error("D_IDENT_UNDEF", id->range,
                                      "undefined associative array '" + id->name +
                                          "': it must be assigned before it is read");
                suggest(d, id->name, identifier_names());
                return nullptr;
            }
            VariableInfo *array = associative_array(out_.globals, VariableScope::Global, id->name,
                                                    id->name, subscript, nullptr);
            return array ? array->type : nullptr;
        }
    } else if (auto *var = base.as<Variable>()) {
        const bool thread = var->scope == ast::VariableScope::Thread;
        auto &locals = thread ? out_.thread_locals : out_.clause_locals;
        auto it = locals.find(var->name);
        if (it == locals.end() || it->second.associative) {
            if (!thread) {
                error("D_ARR_LOCAL", subscript.range,
                      "clause-local variable this->" + var->name +
                          " cannot be an associative array");
                return nullptr;
            }
            // Like a scalar self-> variable, an unassigned element reads as 0.
            VariableInfo *array =
                associative_array(locals, VariableScope::Thread, "self->" + var->name, var->name,
                                  subscript, types_.int_type());
            return array ? array->type : nullptr;
        }
    }
    const Type *base_type = check(base);
    if (!base_type)
        return nullptr;
    if (subscript.indices.size() != 1) {
        error("D_ARR_BADREF", subscript.range,
              quote(base_type) + " is not an associative array; it takes one index");
        return nullptr;
    }
    const Type *index = check(*subscript.indices[0]);
    if (!index)
        return nullptr;
    if (!is_integer(index)) {
        error("D_OP_INT", subscript.indices[0]->range,
              "an array index must be an integer, not " + quote(index));
        return nullptr;
    }
    const Type *resolved = resolve(base_type);
    if (resolved->kind == TypeKind::Array)
        return resolved->element;
    // A string is an array of char, as in dtrace: s[i] is its i-th char.
    if (is_string(resolved))
        return types_.char_type();
    if (resolved->kind == TypeKind::Pointer) {
        if (is_void(resolved->element)) {
            error("D_DEREF_VOID", subscript.range,
                  "cannot index " + quote(base_type) + "; cast it to a typed pointer first");
            return nullptr;
        }
        return resolved->element;
    }
    error("D_ARR_BADREF", subscript.range, "cannot index a value of type " + quote(base_type));
    return nullptr;
}

KernelTypes &Checker::kernel_types() {
    if (!kernel_types_)
        kernel_types_ = std::make_unique<KernelTypes>(types_);
    return *kernel_types_;
}

void Checker::complete_by_value(const Type *type) {
    if (kernel_types_)
        kernel_types_->complete_by_value(type);
}

const Type *Checker::with_members(const Type *record) {
    if (kernel_types_ && record)
        kernel_types_->complete_members(record);
    return record;
}

// "int", "const char *", "char [16]", "struct task_struct *", "string".
const Type *Checker::probe_argument_type(const trace::ProbeArgument &argument) {
    if (argument.btf_id)
        if (const Type *type = kernel_types().by_id(argument.btf_id))
            return type;
    std::string_view spelling = argument.type;
    if (spelling.ends_with("*")) {
        std::string_view pointee = spelling.substr(0, spelling.size() - 1);
        while (pointee.ends_with(" "))
            pointee.remove_suffix(1);
        bool to_const = pointee.starts_with("const ");
        if (to_const)
            pointee.remove_prefix(6);
        const Type *type = probe_argument_type({std::string(pointee), 0, {}});
        return type ? types_.pointer_to(type, to_const) : nullptr;
    }
    if (spelling.ends_with("]")) {
        size_t open = spelling.rfind('[');
        if (open == std::string_view::npos)
            return nullptr;
        uint64_t count = std::strtoull(std::string(spelling.substr(open + 1)).c_str(), nullptr, 10);
        std::string_view element = spelling.substr(0, open);
        while (element.ends_with(" "))
            element.remove_suffix(1);
        const Type *type = probe_argument_type({std::string(element), 0, {}});
        return type && count ? types_.array_of(type, count) : nullptr;
    }
    if (spelling.starts_with("const "))
        spelling.remove_prefix(6);
    for (auto [keyword, kind] : {std::pair<std::string_view, TypeKind>{"struct ", TypeKind::Struct},
                                 {"union ", TypeKind::Union},
                                 {"enum ", TypeKind::Enum}})
        if (spelling.starts_with(keyword)) {
            std::string tag(spelling.substr(keyword.size()));
            if (const Type *kernel = kernel_types().by_tag(kind, tag))
                return kernel;
            return types_.tagged(kind, tag);
        }
    if (const Type *type = types_.lookup(spelling))
        return type;
    return kernel_types().by_typedef(spelling);
}

ast::Expr *Checker::probe_argument_expression(const trace::ProbeArgument &argument,
                                              const ast::Subscript &at) {
    if (auto it = argument_expressions_.find(argument.expression);
        it != argument_expressions_.end())
        return it->second;
    auto source = std::make_unique<SourceFile>("<probe argument>", argument.expression);
    source->set_library(true);
    parser::TypeNames names;
    names.set_lookup([this](std::string_view name) {
        return types_.lookup(name) != nullptr || kernel_types().by_typedef(name) != nullptr;
    });
    // The type names it casts and translates to (psinfo_t), known up front:
    // the lexer asks the lookup only where a declaration could start.
    const std::string &text = argument.expression;
    for (size_t i = 0; i < text.size();) {
        if (!std::isalpha(uint8_t(text[i])) && text[i] != '_') {
            i++;
            continue;
        }
        size_t end = i;
        while (end < text.size() && (std::isalnum(uint8_t(text[end])) || text[end] == '_'))
            end++;
        if (text.substr(i, end - i).ends_with("_t"))
            names.look_up(std::string_view(text).substr(i, end - i));
        i = end;
    }
    DiagnosticEngine diags;
    ast::ExprPtr parsed = parser::parse_expression(*source, names, diags);
    if (!parsed) {
        error("D_ARGS_TYPE", at.range,
              "internal error: this probe's argument '" + argument.expression + "' does not parse");
        return nullptr;
    }
    ast::Expr *expr = parsed.get();
    out_.argument_sources.push_back(std::move(source));
    out_.argument_expressions.push_back(std::move(parsed));
    argument_expressions_.emplace(argument.expression, expr);
    return expr;
}

const Type *Checker::check_probe_argument(Subscript &subscript) {
    Expr &index_expr = *subscript.indices[0];
    const Type *index = check(index_expr);
    if (!index)
        return nullptr;
    if (!is_integer(index)) {
        error("D_OP_INT", index_expr.range, "args[] needs an integer index, not " + quote(index));
        return nullptr;
    }
    if (!clause_arguments_)
        clause_arguments_ = options_.clause_arguments ? options_.clause_arguments(clause_index_)
                                                      : ClauseArguments{};
    const ClauseArguments &probes = *clause_arguments_;
    if (!probes.conflict.empty()) {
        error("D_ARGS_MULTI", subscript.range,
              "args[] cannot be used here: the clause's probes have different arguments (" +
                  probes.conflict + ")")
            .hints.push_back("use argN, or split the clause by probe");
        return nullptr;
    }
    std::optional<int64_t> constant = constant_value(index_expr);
    if (probes.arguments.empty()) {
        if (constant && (*constant < 0 || *constant > 9)) {
            error("D_ARGS_IDX", subscript.range,
                  "args[" + std::to_string(*constant) + "] does not exist: args[0] to args[9] do");
            return nullptr;
        }
        return spelled("int64_t");
    }
    auto known = [&] {
        std::string list;
        for (size_t i = 0; i < probes.arguments.size(); i++) {
            const trace::ProbeArgument &a = probes.arguments[i];
            list += (i ? ", " : "") + std::string("args[") + std::to_string(i) + "] " + a.type +
                    (a.name.empty() ? "" : " (" + a.name + ")");
        }
        return list;
    };
    if (!constant) {
        error("D_ARGS_IDX", index_expr.range,
              "the index of args[] must be a constant: the arguments of " + probes.probe +
                  " are typed one by one")
            .hints.push_back("they are " + known());
        return nullptr;
    }
    if (*constant < 0 || uint64_t(*constant) >= probes.arguments.size()) {
        size_t count = probes.arguments.size();
        error("D_ARGS_IDX", subscript.range,
              "args[" + std::to_string(*constant) + "] does not exist: " + probes.probe + " has " +
                  std::to_string(count) + " argument" + (count == 1 ? "" : "s"))
            .hints.push_back("they are " + known());
        return nullptr;
    }
    const trace::ProbeArgument &argument = probes.arguments[size_t(*constant)];
    if (!argument.expression.empty()) {
        ast::Expr *substitute = probe_argument_expression(argument, subscript);
        const Type *type = substitute ? check(*substitute) : nullptr;
        if (type)
            out_.resolutions[&subscript] = {.kind = Resolution::Kind::Substitute,
                                            .substitute = substitute};
        return type;
    }
    const Type *type = probe_argument_type(argument);
    if (!type) {
        error("D_ARGS_TYPE", subscript.range,
              "args[" + std::to_string(*constant) + "] of " + probes.probe + " has type '" +
                  argument.type + "', which D cannot represent")
            .hints.push_back("use arg" + std::to_string(*constant) + " for its raw value");
        return nullptr;
    }
    return type;
}

} // namespace dtx::sema
