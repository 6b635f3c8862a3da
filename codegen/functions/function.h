// One descriptor per D function and action. A descriptor holds all there is to
// know about one function, in one place:
//   - its signature (parameters, result) and kind (subroutine, data-recording
//     action, aggregating function), and whether it is destructive;
//   - its type rule beyond the parameter kinds, if it has one (`check`);
//   - its lowering to BPF (`lower`), or, for an aggregating function, its
//     AggregationFunction and the update of one key's data words;
//   - for an action that records data, how the consumer prints or performs
//     the record: its lowering puts that function in the ActionDescription.
// Descriptors are grouped by family, one file each (strings.cpp, actions.cpp,
// aggregations.cpp, memory.cpp, network.cpp, symbols.cpp, speculations.cpp,
// destructive.cpp, process.cpp, files.cpp, subroutines.cpp, locks.cpp,
// variables.cpp); table.cpp joins the families. A lowering sees the lowering
// only through builder.h's FunctionBuilder. Adding a function touches its
// family's file only (plus, where it needs one, a helper in the BPF run-time
// library's file of that family, codegen/runtime/*.c).
#pragma once

#include "codegen/types.h"
#include "libtrace/aggregation.h"
#include "libtrace/printf_format.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::ast {
struct Expr;
struct Call;
struct Subscript;
} // namespace dtx::ast

namespace dtx::codegen {
class FunctionBuilder;
struct ClauseState;
struct Value;
struct AggregationUpdate;
} // namespace dtx::codegen

namespace dtx::sema {

class Checker;
struct FunctionDescriptor;

enum class FunctionClass {
    Subroutine,  // computes a value in the probe: strlen, copyin ...
    Action,      // records data or acts: trace, printf, exit, stack ...
    Aggregating, // only as `@agg[keys] = f(args)`
};

enum class ParameterKind {
    Any,           // DTrace's "@": any value
    Integer,       // any integer (enums included)
    StringLike,    // const char *: a string, char array or char pointer
    Pointer,       // void *: any pointer (or a string, which is memory too)
    AllocaPointer, // void *: a pointer into alloca() memory (sema_alloca.cpp)
    Aggregation,   // an aggregation, @name
    Format,        // a printf-style format string constant
};

// What a call does to its clause, for the rules on where speculate(),
// commit() and aggregations may stand (dtrace's clause flags) and for whether
// the clause records anything.
enum class ClauseRole : uint8_t {
    None,      // a subroutine: computes a value
    Records,   // a data-recording action
    Exit,      // exit(): records, and may not follow speculate()
    Speculate, // speculate()
    Commit,    // commit()
    Discard,   // discard()
};

struct Parameter {
    ParameterKind kind = ParameterKind::Any;
    std::string_view spelling; // as shown in the signature: "uint32_t", "const char *"
    bool optional = false;
};

// What a type rule decides about one call.
struct CallCheck {
    Checker &checker;
    ast::Call &call;
    const FunctionDescriptor &function;
    // The call's type; preset from the descriptor's `result`.
    const Type *result = nullptr;
    // Aggregating functions: the constant parameters every use must repeat
    // (lquantize's bounds and step, llquantize's factor and magnitudes), and
    // the codes of the errors when a use differs, parameter by parameter.
    std::vector<int64_t> parameters = {};
    std::span<const char *const> mismatch_codes = {};
};

// Checks the call's arguments (each one exactly once) and reports what is
// wrong; false after an error.
using TypeRule = bool (*)(CallCheck &check);
// Lowers a call to IR. `statement`: the call is a whole statement, where an
// action records; elsewhere it is a value (stack() as an aggregation key).
using CallLowering = codegen::Value (*)(codegen::FunctionBuilder &builder, const ast::Call &call,
                                        codegen::ClauseState &state, bool statement);
// The AggregationFunction of an aggregating function, from the constant
// parameters its type rule found.
using AggregationShape = trace::AggregationFunction (*)(std::span<const int64_t> parameters);
// Adds one value to one key's data words.
using AggregationLowering = void (*)(codegen::FunctionBuilder &builder,
                                     const codegen::AggregationUpdate &update);

struct FunctionDescriptor {
    std::string_view name;
    FunctionClass function_class = FunctionClass::Subroutine;
    bool destructive = false; // needs -w or `#pragma D option destructive`
    std::string_view result;  // "void", "string", "int", "void *", "stack", "_symaddr" ...
    Parameter parameters[6] = {};
    uint8_t parameter_count = 0;
    bool variadic = false;              // further arguments of any type
    ClauseRole role = ClauseRole::None; // Records for actions unless given
    // A stack result holds the current process's frames (ustack), not the kernel's.
    bool user = false;
    // How a symbol-address result prints (sym: Function, mod: Module).
    SymbolForm symbol_form = SymbolForm::Address;
    TypeRule check = nullptr; // null: the parameter kinds alone
    CallLowering lower = nullptr;
    AggregationShape shape = nullptr;        // Aggregating
    AggregationLowering aggregate = nullptr; // Aggregating
    // The argument of an aggregating function that weights the update (the
    // quantize family's increment), counted from 0; -1 when none.
    int weight_argument = -1;

    std::span<const Parameter> params() const { return {parameters, parameter_count}; }
    size_t required_count() const;
    // The signature for messages: "string substr(const char *, int, [int])".
    std::string signature() const;
};

// Builds descriptors for the family tables.
struct Extra {
    bool variadic = false;
    std::optional<ClauseRole> role = std::nullopt;
    bool destructive = false;
    bool user = false;
    SymbolForm symbol_form = SymbolForm::Address;
    TypeRule check = nullptr;
    AggregationShape shape = nullptr;
    AggregationLowering aggregate = nullptr;
    int weight_argument = -1;
};

constexpr FunctionDescriptor describe(std::string_view name, FunctionClass function_class,
                                      std::string_view result,
                                      std::initializer_list<Parameter> params, CallLowering lower,
                                      Extra extra = {}) {
    FunctionDescriptor d;
    d.name = name;
    d.function_class = function_class;
    d.result = result;
    for (const Parameter &p : params)
        d.parameters[d.parameter_count++] = p;
    d.lower = lower;
    d.variadic = extra.variadic;
    d.role = extra.role                                ? *extra.role
             : function_class == FunctionClass::Action ? ClauseRole::Records
                                                       : ClauseRole::None;
    d.destructive = extra.destructive;
    d.user = extra.user;
    d.symbol_form = extra.symbol_form;
    d.check = extra.check;
    d.shape = extra.shape;
    d.aggregate = extra.aggregate;
    d.weight_argument = extra.weight_argument;
    return d;
}

constexpr Parameter any() {
    return {ParameterKind::Any, "@"};
}
constexpr Parameter integer(std::string_view spelling, bool optional = false) {
    return {ParameterKind::Integer, spelling, optional};
}
constexpr Parameter text(bool optional = false) {
    return {ParameterKind::StringLike, "const char *", optional};
}
constexpr Parameter pointer(std::string_view spelling = "void *", bool optional = false) {
    return {ParameterKind::Pointer, spelling, optional};
}
constexpr Parameter alloca_pointer() {
    return {ParameterKind::AllocaPointer, "alloca'd void *"};
}
constexpr Parameter aggregation() {
    return {ParameterKind::Aggregation, "@aggregation"};
}
constexpr Parameter format() {
    return {ParameterKind::Format, "string format"};
}

// Rules several families share: printf()'s (actions.cpp), and the type
// printf_format.h's checks see for a D type.
bool printf_rule(CallCheck &check);
// "1 argument", "3 keys": for messages.
std::string count_words(size_t n, const char *what);
trace::ArgumentType format_argument_type(const Type *type);

// The families (one file each), and every function by name.
std::span<const FunctionDescriptor> string_functions();
std::span<const FunctionDescriptor> action_functions();
std::span<const FunctionDescriptor> aggregation_functions();
std::span<const FunctionDescriptor> memory_functions();
std::span<const FunctionDescriptor> network_functions();
std::span<const FunctionDescriptor> symbol_functions();
std::span<const FunctionDescriptor> speculation_functions();
std::span<const FunctionDescriptor> destructive_functions();
std::span<const FunctionDescriptor> process_functions();
std::span<const FunctionDescriptor> file_functions();
std::span<const FunctionDescriptor> other_subroutines();
std::span<const FunctionDescriptor> lock_functions();

const FunctionDescriptor *find_function(std::string_view name);
// Every function, in alphabetical order.
std::span<const FunctionDescriptor *const> functions();

} // namespace dtx::sema
