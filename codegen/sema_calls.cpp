// Calls: D functions and actions through their descriptors, aggregations and
// their parameters, and printf/printa formats against argument types.

#include "codegen/checker.h"
#include "libtrace/aggregation.h"
#include "libtrace/printf_format.h"
#include "libtrace/program_description.h"

namespace dtx::sema {

using namespace ast;

namespace {

trace::ArgumentType argument_type(const Type *type) {
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

std::string count_words(size_t n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

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
        for (const FunctionDescriptor &f : functions())
            names.emplace_back(f.name);
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
    switch (fn->rule) {
    case TypeRule::Printf:
        check_printf(call, *fn);
        break;
    case TypeRule::Printa:
        check_printa(call);
        break;
    case TypeRule::Print:
        check_print(call, *fn);
        break;
    default:
        check_arguments(call, *fn, 0);
        break;
    }
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
                accepted =
                    is_string_like(type) || (is_pointer(type) && is_void(resolve(type)->element));
                break;
            case ParameterKind::Pointer:
                accepted = is_pointer(type) || is_string_like(type) || is_array(type);
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
    std::vector<int64_t> parameters;
    bool ok = true;
    if (fn->rule == TypeRule::Lquantize)
        parameters = check_lquantize(*call);
    else if (fn->rule == TypeRule::Llquantize)
        parameters = check_llquantize(*call);
    else
        ok = check_arguments(*call, *fn, 0);
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
    static constexpr const char *kLquantizeCodes[] = {"D_LQUANT_MATCHBASE", "D_LQUANT_MATCHLIM",
                                                      "D_LQUANT_MATCHSTEP"};
    static constexpr const char *kLlquantizeCodes[] = {"D_LLQUANT_MATCHFACTOR",
                                                       "D_LLQUANT_MATCHLMAG", "D_LLQUANT_MATCHHMAG",
                                                       "D_LLQUANT_MATCHSTEPS"};
    for (size_t i = 0; i < parameters.size() && i < existing.parameters.size(); ++i) {
        if (parameters[i] == existing.parameters[i])
            continue;
        const char *code =
            fn->rule == TypeRule::Lquantize ? kLquantizeCodes[i] : kLlquantizeCodes[i];
        error(code, call->arguments[i + 1]->range,
              shown + " was defined with argument #" + std::to_string(i + 2) + " = " +
                  std::to_string(existing.parameters[i]) + "; every use must repeat it");
        return;
    }
}

// print(value): any value but a stack, with every byte of it known (its
// records complete) and small enough for one record.
void Checker::check_print(Call &call, const FunctionDescriptor &fn) {
    if (!check_arguments(call, fn, 0))
        return;
    Expr &arg = *call.arguments[0];
    const Type *type = resolve(arg.type);
    if (!type)
        return;
    if (type->kind == TypeKind::Stack || type->kind == TypeKind::Function) {
        error("D_PRINT_TYPE", arg.range, "print() cannot show a value of type " + quote(arg.type))
            .hints.push_back(type->kind == TypeKind::Stack ? "use stack() or ustack() as an action"
                                                           : "print a pointer to it");
        return;
    }
    if (bit_fields_.count(&arg)) {
        error("D_PRINT_TYPE", arg.range, "print() cannot show a bit-field; use trace()");
        return;
    }
    if (kernel_types_)
        kernel_types_->complete_by_value(arg.type);
    if (is_struct_or_union(type) && !type->complete) {
        error("D_PRINT_TYPE", arg.range,
              "print() cannot show " + quote(arg.type) + ": its members are not known");
        return;
    }
    const uint64_t size = is_string(type) ? options_.strsize : type->size;
    constexpr uint64_t kLargest = trace::kMaxRecordSize - trace::kRecordDataStart;
    if (size == 0 || size > kLargest)
        error("D_PRINT_SIZE", arg.range,
              "print() cannot record " + quote(arg.type) + " of " + std::to_string(size) +
                  " bytes: " +
                  (size ? "a record holds at most " + std::to_string(kLargest) + " bytes"
                        : std::string("it has no bytes to show")))
            .hints.push_back(size ? "print a member of it, or a pointer to it"
                                  : "print a pointer to it");
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

// lquantize(value, lower, upper [, step [, increment]]): the bounds and step
// are constants that fix the histogram's buckets.
std::vector<int64_t> Checker::check_lquantize(Call &call) {
    const size_t given = call.arguments.size();
    if (given < 3 || given > 5) {
        Diagnostic &d =
            error("D_PROTO_LEN", call.range,
                  "lquantize() takes 3 to 5 arguments, " + std::to_string(given) + " given");
        d.hints.push_back("prototype: void lquantize(@, int32_t lower, int32_t upper, "
                          "[int32_t step], [int64_t increment])");
        for (ExprPtr &arg : call.arguments)
            check(*arg);
        return {};
    }
    check(*call.arguments[0]);
    auto parameter = [&](const ConstantParameter &p) {
        return constant_parameter(call, p, "lquantize()", INT32_MIN, INT32_MAX,
                                  "a constant 32-bit integer");
    };
    std::optional<int64_t> lower =
        parameter({1, "D_LQUANT_BASETYPE", "D_LQUANT_BASEVAL", "lower bound (argument #2)"});
    std::optional<int64_t> upper =
        parameter({2, "D_LQUANT_LIMTYPE", "D_LQUANT_LIMVAL", "upper bound (argument #3)"});
    std::optional<int64_t> step = int64_t(1);
    if (given >= 4)
        step = parameter({3, "D_LQUANT_STEPTYPE", "D_LQUANT_STEPVAL", "step (argument #4)"});
    if (given == 5) {
        const Type *increment = check(*call.arguments[4]);
        if (increment && !is_integer(increment))
            error("D_PROTO_ARG", call.arguments[4]->range,
                  "lquantize() increment (argument #5) must be an integer, not " +
                      quote(increment));
    }
    if (!lower || !upper || !step)
        return {};
    if (*upper <= *lower) {
        error("D_LQUANT_MISMATCH", call.arguments[2]->range,
              "lquantize() upper bound " + std::to_string(*upper) +
                  " must be greater than the lower bound " + std::to_string(*lower));
        return {};
    }
    const Expr &step_at = given >= 4 ? *call.arguments[3] : call;
    if (*step <= 0 || *step > UINT16_MAX) {
        error("D_LQUANT_STEPVAL", step_at.range,
              "lquantize() step must be between 1 and 65535, not " + std::to_string(*step));
        return {};
    }
    if (*step > *upper - *lower) {
        error("D_LQUANT_STEPLARGE", step_at.range,
              "lquantize() step " + std::to_string(*step) + " is larger than the range " +
                  std::to_string(*lower) + ".." + std::to_string(*upper));
        return {};
    }
    if ((*upper - *lower) / *step > UINT16_MAX) {
        error("D_LQUANT_STEPSMALL", step_at.range,
              "lquantize() step " + std::to_string(*step) + " gives more than 65535 buckets");
        return {};
    }
    return {*lower, *upper, *step};
}

// llquantize(value, factor, low magnitude, high magnitude, steps [, increment]).
std::vector<int64_t> Checker::check_llquantize(Call &call) {
    const size_t given = call.arguments.size();
    if (given < 5 || given > 6) {
        Diagnostic &d =
            error("D_PROTO_LEN", call.range,
                  "llquantize() takes 5 or 6 arguments, " + std::to_string(given) + " given");
        d.hints.push_back("prototype: void llquantize(@, int32_t factor, int32_t low, "
                          "int32_t high, int32_t steps, [int64_t increment])");
        for (ExprPtr &arg : call.arguments)
            check(*arg);
        return {};
    }
    check(*call.arguments[0]);
    auto parameter = [&](const ConstantParameter &p) {
        return constant_parameter(call, p, "llquantize()", 0, UINT16_MAX,
                                  "a constant from 0 to 65535");
    };
    std::optional<int64_t> factor =
        parameter({1, "D_LLQUANT_FACTORTYPE", "D_LLQUANT_FACTORVAL", "factor (argument #2)"});
    std::optional<int64_t> low =
        parameter({2, "D_LLQUANT_LMAGTYPE", "D_LLQUANT_LMAGVAL", "low magnitude (argument #3)"});
    std::optional<int64_t> high =
        parameter({3, "D_LLQUANT_HMAGTYPE", "D_LLQUANT_HMAGVAL", "high magnitude (argument #4)"});
    std::optional<int64_t> steps =
        parameter({4, "D_LLQUANT_STEPTYPE", "D_LLQUANT_STEPVAL", "steps (argument #5)"});
    if (given == 6) {
        const Type *increment = check(*call.arguments[5]);
        if (increment && !is_integer(increment))
            error("D_PROTO_ARG", call.arguments[5]->range,
                  "llquantize() increment (argument #6) must be an integer, not " +
                      quote(increment));
    }
    if (!factor || !low || !high || !steps)
        return {};
    if (*factor < 2) {
        error("D_LLQUANT_FACTORVAL", call.arguments[1]->range,
              "llquantize() factor must be at least 2");
        return {};
    }
    if (*high < *low) {
        error("D_LLQUANT_HMAGVAL", call.arguments[3]->range,
              "llquantize() high magnitude " + std::to_string(*high) +
                  " is below the low magnitude " + std::to_string(*low));
        return {};
    }
    // factor^(high + 1) is the top bucket's limit; it must fit in 64 bits.
    unsigned __int128 limit = 1;
    for (int64_t i = 0; i <= *high; ++i) {
        limit *= uint64_t(*factor);
        if (limit > INT64_MAX) {
            error("D_LLQUANT_HMAGVAL", call.arguments[3]->range,
                  "llquantize() factor " + std::to_string(*factor) + " to the power " +
                      std::to_string(*high + 1) + " overflows 64 bits");
            return {};
        }
    }
    // Each order of magnitude is split into `steps` equal buckets.
    unsigned __int128 first_magnitude = 1;
    for (int64_t i = 0; i <= *low; ++i)
        first_magnitude *= uint64_t(*factor);
    if (*steps < 1 || (*steps % *factor != 0 && first_magnitude % uint64_t(*steps) != 0)) {
        error("D_LLQUANT_STEPVAL", call.arguments[4]->range,
              "llquantize() steps " + std::to_string(*steps) + " must be a multiple of factor " +
                  std::to_string(*factor) + " or divide factor^(low magnitude + 1)");
        return {};
    }
    // What remains is libtrace's bucket layout, which the code generator and
    // the consumer build with: accept nothing it rejects.
    if (std::string problem = trace::llquantize_argument_error(*factor, *low, *high, *steps);
        !problem.empty()) {
        error("D_LLQUANT_STEPVAL", call.arguments[4]->range, problem);
        return {};
    }
    return {*factor, *low, *high, *steps};
}

void Checker::check_printf(Call &call, const FunctionDescriptor &fn) {
    if (call.arguments.empty()) {
        Diagnostic &d =
            error("D_PROTO_LEN", call.range, call.function + "() needs a format string");
        d.hints.push_back("prototype: " + fn.signature());
        return;
    }
    std::vector<const Type *> types;
    for (ExprPtr &arg : call.arguments)
        types.push_back(check(*arg));
    const auto *literal = call.arguments[0]->as<StringLiteral>();
    if (!literal) {
        error("D_PRINTF_ARG_FMT", call.arguments[0]->range,
              call.function + "() format must be a string constant");
        return;
    }
    if (literal->value.empty()) {
        error("D_PRINTF_FMT_EMPTY", literal->range, call.function + "() format string is empty");
        return;
    }
    trace::FormatParseResult parsed = trace::parse_format(literal->value);
    if (!parsed.ok()) {
        error("D_PRINTF_FMT", literal->range,
              call.function + "() format: " + parsed.error->message);
        return;
    }
    const bool target_bound = options_.target_pid.has_value();
    size_t next = 1;
    for (const trace::FormatPiece &piece : parsed.format.pieces) {
        const auto *spec = std::get_if<trace::ConversionSpec>(&piece);
        if (!spec)
            continue;
        const std::string conversion = "conversion #" + std::to_string(spec->number) + " '" +
                                       literal->value.substr(spec->offset, spec->length) + "'";
        if (spec->aggregation_value) {
            error("D_PRINTF_AGG_CONV", literal->range,
                  conversion + ": %@ formats an aggregation's value and only printa() has one");
            continue;
        }
        // Once an argument is missing, every later conversion lacks one too:
        // report the first.
        bool missing = false;
        for (bool dynamic : {spec->dynamic_width, spec->dynamic_precision}) {
            if (!dynamic || missing)
                continue;
            if (next >= call.arguments.size()) {
                error("D_PRINTF_DYN_PROTO", literal->range,
                      "the '*' of " + conversion + " has no argument");
                missing = true;
                continue;
            }
            const Type *type = types[next];
            if (type && !trace::dynamic_argument_accepts(argument_type(type)))
                error("D_PRINTF_DYN_TYPE", call.arguments[next]->range,
                      "the '*' of " + conversion + " needs an integer, not " + quote(type));
            ++next;
        }
        if (!missing && next >= call.arguments.size()) {
            error("D_PRINTF_ARG_PROTO", literal->range, conversion + " has no argument");
            missing = true;
        }
        if (missing)
            return;
        const size_t index = next++;
        const Type *type = types[index];
        if (type && !trace::argument_accepts(*spec, argument_type(type), target_bound)) {
            Diagnostic &d = error("D_PRINTF_ARG_TYPE", call.arguments[index]->range,
                                  "argument #" + std::to_string(index + 1) + " has type " +
                                      quote(type) + ", which does not fit " + conversion);
            d.hints.push_back(conversion + " takes " + std::string(spec->info->prototype));
        }
    }
    if (next < call.arguments.size())
        error("D_PRINTF_ARG_EXTRA", call.arguments[next]->range,
              call.function + "() has " + count_words(call.arguments.size() - next, "argument") +
                  " more than its format uses");
}

void Checker::check_printa(Call &call) {
    size_t first = 0;
    const StringLiteral *literal =
        call.arguments.empty() ? nullptr : call.arguments[0]->as<StringLiteral>();
    if (literal) {
        call.arguments[0]->type = types_.string_type();
        first = 1;
    }
    if (call.arguments.size() <= first) {
        Diagnostic &d = error("D_PRINTA_PROTO", call.range, "printa() needs an aggregation");
        d.hints.push_back("prototype: void printa([string format, ] @aggregation, ...)");
        return;
    }
    std::vector<const AggregationInfo *> aggregations;
    for (size_t i = first; i < call.arguments.size(); ++i) {
        AggregationInfo *info = aggregation_argument(*call.arguments[i], "printa", "D_PRINTA");
        if (!info)
            return;
        aggregations.push_back(info);
    }
    const std::vector<const Type *> &keys = aggregations[0]->key_types;
    for (size_t i = 1; i < aggregations.size(); ++i) {
        const std::vector<const Type *> &other = aggregations[i]->key_types;
        bool same = other.size() == keys.size();
        for (size_t k = 0; same && k < keys.size(); ++k)
            same = assignable(keys[k], other[k]);
        if (!same) {
            error("D_PRINTA_AGGPROTO", call.arguments[first + i]->range,
                  "printa() aggregations must have the same keys; @" + aggregations[i]->name +
                      "'s differ from @" + aggregations[0]->name + "'s");
            return;
        }
    }
    if (!literal)
        return;
    trace::FormatParseResult parsed = trace::parse_format(literal->value);
    if (!parsed.ok()) {
        error("D_PRINTF_FMT", literal->range, "printa() format: " + parsed.error->message);
        return;
    }
    const bool target_bound = options_.target_pid.has_value();
    size_t key = 0;
    for (const trace::FormatPiece &piece : parsed.format.pieces) {
        const auto *spec = std::get_if<trace::ConversionSpec>(&piece);
        if (!spec || spec->aggregation_value)
            continue;
        const std::string conversion = "conversion #" + std::to_string(spec->number) + " '" +
                                       literal->value.substr(spec->offset, spec->length) + "'";
        if (key >= keys.size()) {
            error("D_PRINTA_AGGKEY", literal->range,
                  conversion + " has no key to print: @" + aggregations[0]->name + " has " +
                      count_words(keys.size(), "key"));
            return;
        }
        const Type *type = keys[key++];
        if (!trace::argument_accepts(*spec, argument_type(type), target_bound)) {
            Diagnostic &d =
                error("D_PRINTA_AGGKEY", literal->range,
                      "key #" + std::to_string(key) + " of @" + aggregations[0]->name +
                          " has type " + quote(type) + ", which does not fit " + conversion);
            d.hints.push_back(conversion + " takes " + std::string(spec->info->prototype));
        }
    }
}

} // namespace dtx::sema
