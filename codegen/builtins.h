// What D provides without a declaration: built-in variables (execname, arg0 ..),
// the constants of DTrace's D library (NULL, SIGKILL, uregs[] indexes), and one
// descriptor per D function and action, found by name through one table. A
// descriptor carries the signature, what kind of function it is (subroutine,
// data-recording action, aggregating function), whether it is destructive,
// and which extra type rule the checker applies to its arguments.
#pragma once

#include "codegen/types.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dtx::sema {

struct BuiltinVariable {
    std::string_view name;
    // The type's spelling, resolved through the TypeTable; "T *" for pointers.
    std::string_view type;
    // args[] and uregs[] are arrays indexed by an integer.
    bool is_array = false;
};

// args[] is typed per probe by its provider; until then it is int64_t[] like
// arg0..arg9. curthread is a void * here; the checker makes it a struct
// task_struct * when the kernel has BTF.
const BuiltinVariable *find_builtin_variable(std::string_view name);
std::span<const BuiltinVariable> builtin_variables();

// uregs[] has the slots of x86-64's struct pt_regs, r15 (0) to ss (20), as the
// R_* constants name them.
inline constexpr int64_t kUserRegisterCount = 21;

struct BuiltinConstant {
    std::string_view name;
    std::string_view type; // "int", or "void *" for NULL
    int64_t value;
};

// NULL, the Linux signal numbers (signal.d) and the x86-64 uregs[] indexes
// (regs.d), which DTrace scripts use without declaring.
const BuiltinConstant *find_builtin_constant(std::string_view name);

enum class FunctionClass {
    Subroutine,  // computes a value in the probe: strlen, copyin ...
    Action,      // records data or acts: trace, printf, exit, stack ...
    Aggregating, // only as `@agg[keys] = f(args)`
};

enum class ParameterKind {
    Any,         // DTrace's "@": any value
    Integer,     // any integer (enums included)
    StringLike,  // const char *: a string, char array or char pointer
    Pointer,     // void *: any pointer (or a string, which is memory too)
    Aggregation, // an aggregation, @name
    Format,      // a printf-style format string constant
};

struct Parameter {
    ParameterKind kind = ParameterKind::Any;
    std::string_view spelling; // as shown in the signature: "uint32_t", "const char *"
    bool optional = false;
};

// Argument rules beyond the parameter kinds.
enum class TypeRule {
    None,
    Printf,     // format, then arguments checked against its conversions
    Printa,     // [format,] one or more aggregations
    Lquantize,  // value, constant lower, upper, [step], [increment]
    Llquantize, // value, constant factor, low, high, steps, [increment]
    Print,      // a value whose type says how to show it, small enough to record
};

struct FunctionDescriptor {
    std::string_view name;
    FunctionClass function_class = FunctionClass::Subroutine;
    bool destructive = false; // needs -w or `#pragma D option destructive`
    std::string_view result;  // "void", "string", "int", "void *", "stack", "_symaddr" ...
    Parameter parameters[5] = {};
    uint8_t parameter_count = 0;
    bool variadic = false; // further arguments of any type
    TypeRule rule = TypeRule::None;
    // A stack result holds the current process's frames (ustack), not the kernel's.
    bool user = false;
    // How a symbol-address result prints (sym: Function, mod: Module).
    SymbolForm symbol_form = SymbolForm::Address;

    std::span<const Parameter> params() const { return {parameters, parameter_count}; }
    size_t required_count() const;
    // The signature for messages: "string substr(const char *, int, [int])".
    std::string signature() const;
};

const FunctionDescriptor *find_function(std::string_view name);
std::span<const FunctionDescriptor> functions();

} // namespace dtx::sema
