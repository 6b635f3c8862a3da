// Calls: D functions and actions through their descriptors (whose own type
// rules are in codegen/functions/), and aggregations with their keys and
// constant parameters.

#include "codegen/checker.h"

namespace dtx::sema {

using namespace ast;

namespace {

std::string expected_counts(const FunctionDescriptor &fn) {
    size_t required = fn.required_count();
    if (fn.variadic)
        return "at least " + count_words(required, "argument");
    if (required == fn.parameter_count)
        return count_words(required, "argument");
    return std::to_string(required) + " to " + count_words(fn.parameter_count, "argument");
}

// The DTrace tag family of the functions taking an aggregation argument.
std::string aggregation_code_prefix(std::string_view function) {
    if (function == "printa")
        return "D_PRINTA";
    if (function == "clear")
        return "D_CLEAR";
    if (function == "trunc")
        return "D_TRUNC";
    return "D_NORMALIZE"; // normalize and denormalize
}

} // namespace

const Type *Checker::check_call(Call &call, bool statement) {
    const FunctionDescriptor *fn = find_function(call.function);
    if (!fn) {
        Diagnostic &d = error("D_FUNC_UNDEF", call.function_range,
                              "undefined function '" + call.function + "'");
        std::vector<std::string> names;
        for (const FunctionDescriptor *f : functions())
            names.emplace_back(f->name);
        suggest(d, call.function, names);
        for (ExprPtr &arg : call.arguments)
            check(*arg);
        return nullptr;
    }
    out_.resolutions[&call] = {.kind = Resolution::Kind::Function, .function = fn};
    if (fn->function_class == FunctionClass::Aggregating) {
        Diagnostic &d =
            error("D_FUNC_IDKIND", call.range, call.function + "() is an aggregating function");
        d.hints.push_back("use it as @name[keys] = " + call.function + "(...)");
        return nullptr;
    }
    if (fn->destructive && !out_.destructive_allowed) {
        Diagnostic &d = error("D_ACT_DESTRUCTIVE", call.range,
                              call.function + "() is destructive and is not allowed");
        d.hints.push_back("run dtx with -w, or add '#pragma D option destructive'");
    }
    if (fn->function_class == FunctionClass::Action && fn->result == "void" && !statement) {
        error("D_CG_EXPR", call.range,
              call.function + "() is an action: it can only be used as a statement");
        return nullptr;
    }
    CallCheck check{*this, call, *fn};
    if (!(fn->check ? fn->check(check) : check_arguments(call, *fn, 0)))
        return nullptr;
    const Type *result = spelled(fn->result);
    if (fn->user && result == types_.stack_type())
        return types_.user_stack_type();
    if (result && result->symbolization != Symbolization::None)
        return types_.symbol_address(result->symbolization, fn->symbol_form);
    return result;
}

bool Checker::check_arguments(Call &call, const FunctionDescriptor &fn, size_t first) {
    const size_t given = call.arguments.size();
    const size_t required = fn.required_count();
    const bool too_many = !fn.variadic && given > fn.parameter_count;
    bool ok = true;
    if (given < required || too_many) {
        Diagnostic &d = error("D_PROTO_LEN", call.range,
                              call.function + "() takes " + expected_counts(fn) + ", " +
                                  std::to_string(given) + " given");
        d.hints.push_back("prototype: " + fn.signature());
        ok = false;
    }
    for (size_t i = first; i < given; ++i) {
        Expr &arg = *call.arguments[i];
        const Parameter *param = i < fn.parameter_count ? &fn.parameters[i] : nullptr;
        if (param && param->kind == ParameterKind::Aggregation) {
            ok &= aggregation_argument(arg, call.function,
                                       aggregation_code_prefix(call.function)) != nullptr;
            continue;
        }
        const Type *type = check(arg);
        if (!type) {
            ok = false;
            continue;
        }
        bool accepted = !is_void(type);
        if (param) {
            switch (param->kind) {
            case ParameterKind::Integer:
                accepted = is_integer(type);
                break;
            case ParameterKind::StringLike:
                // NULL is accepted too: strtok(NULL, ",") continues a scan.
                accepted = is_string_like(type) ||
                           (is_pointer(type) && is_void(resolve(type)->element)) ||
                           is_null_constant(arg);
                break;
            case ParameterKind::Pointer:
                accepted = is_pointer(type) || is_string_like(type) || is_array(type) ||
                           is_null_constant(arg);
                break;
            case ParameterKind::AllocaPointer:
                accepted = is_pointer(type) && is_alloca_pointer(arg);
                break;
            default:
                break;
            }
        }
        if (!accepted) {
            Diagnostic &d =
                error("D_PROTO_ARG", arg.range,
                      "argument #" + std::to_string(i + 1) + " of " + call.function +
                          "() has type " + quote(type) + ", which does not match " +
                          (param ? "'" + std::string(param->spelling) + "'" : std::string("'@'")));
            d.hints.push_back("prototype: " + fn.signature());
            ok = false;
        }
    }
    return ok;
}

AggregationInfo *Checker::aggregation_argument(Expr &arg, const std::string &function,
                                               const std::string &code_prefix) {
    auto *agg = arg.as<Aggregation>();
    if (!agg) {
        error((code_prefix + "_AGGARG").c_str(), arg.range,
              function + "() needs an aggregation (@name) here, without keys");
        return nullptr;
    }
    arg.type = types_.void_type();
    auto it = out_.aggregations.find(agg->name);
    if (it == out_.aggregations.end()) {
        Diagnostic &d = error((code_prefix + "_AGGBAD").c_str(), arg.range,
                              function + "(): aggregation @" + agg->name + " is not defined");
        std::vector<std::string> names;
        for (const auto &[name, info] : out_.aggregations)
            names.push_back(name);
        suggest(d, agg->name, names);
        return nullptr;
    }
    return &it->second;
}

void Checker::check_aggregation_assign(Assign &assign, Aggregation &agg,
                                       std::vector<ExprPtr> *keys) {
    const std::string shown = "@" + agg.name;
    std::optional<std::vector<const Type *>> key_list =
        keys ? key_types(*keys)
             : std::optional<std::vector<const Type *>>(std::vector<const Type *>{});
    Call *call = assign.value->as<Call>();
    const FunctionDescriptor *fn = call ? find_function(call->function) : nullptr;
    if (!fn || fn->function_class != FunctionClass::Aggregating) {
        if (call && !fn) {
            check(*assign.value);
            return;
        }
        Diagnostic &d = error("D_AGG_FUNC", assign.value->range,
                              shown + " must be assigned an aggregating function");
        d.hints.push_back("count, sum, avg, min, max, stddev, quantize, lquantize, llquantize");
        return;
    }
    out_.resolutions[call] = {.kind = Resolution::Kind::Function, .function = fn};
    call->type = types_.void_type();
    CallCheck check{*this, *call, *fn};
    const bool ok = fn->check ? fn->check(check) : check_arguments(*call, *fn, 0);
    std::vector<int64_t> parameters = std::move(check.parameters);
    if (ok && !call->arguments.empty()) {
        const Type *value = call->arguments[0]->type;
        if (value && !is_scalar(value)) {
            error("D_AGG_SCALAR", call->arguments[0]->range,
                  call->function + "() needs an integer value, not " + quote(value));
        }
    }
    if (!key_list)
        return;
    auto [it, inserted] = out_.aggregations.emplace(
        agg.name, AggregationInfo{agg.name, fn, *key_list, parameters, assign.range});
    if (inserted)
        return;
    AggregationInfo &existing = it->second;
    if (existing.function != fn) {
        Diagnostic &d = error("D_AGG_REDEF", assign.value->range,
                              shown + " is a " + std::string(existing.function->name) +
                                  "() aggregation; it cannot also be " + call->function + "()");
        d.hints.push_back(shown + " was first defined at line " +
                          std::to_string(existing.defined_at.begin.line));
        return;
    }
    static const std::vector<ExprPtr> no_keys;
    keys_match(existing.key_types, *key_list, keys ? *keys : no_keys, assign.target->range, shown);
    if (parameters.empty() || existing.parameters.empty())
        return;
    for (size_t i = 0; i < parameters.size() && i < existing.parameters.size(); ++i) {
        if (parameters[i] == existing.parameters[i])
            continue;
        const char *code =
            i < check.mismatch_codes.size() ? check.mismatch_codes[i] : "D_AGG_REDEF";
        error(code, call->arguments[i + 1]->range,
              shown + " was defined with argument #" + std::to_string(i + 2) + " = " +
                  std::to_string(existing.parameters[i]) + "; every use must repeat it");
        return;
    }
}

// One constant parameter of lquantize/llquantize: an integer constant within
// [min, max], reported with the function's own codes and words.
std::optional<int64_t> Checker::constant_parameter(Call &call, const ConstantParameter &p,
                                                   const char *function, int64_t min, int64_t max,
                                                   const char *expected) {
    Expr &arg = *call.arguments[p.index];
    const Type *type = check(arg);
    if (!type)
        return std::nullopt;
    if (!is_integer(type)) {
        error(p.type_code, arg.range,
              std::string(function) + " " + p.what + " must be an integer, not " + quote(type));
        return std::nullopt;
    }
    std::optional<int64_t> value = constant_value(arg);
    if (!value || *value < min || *value > max) {
        error(p.value_code, arg.range,
              std::string(function) + " " + p.what + " must be " + expected);
        return std::nullopt;
    }
    return value;
}

} // namespace dtx::sema
