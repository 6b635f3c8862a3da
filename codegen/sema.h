// Semantic analysis: resolves every name of a parsed D program and types every
// expression, reporting what DTrace's compiler would reject with a stable code
// (DTrace's own tag where it has one: D_OP_INCOMPAT, D_PROTO_ARG, ...). Each
// ast::Expr's `type` is set; what names resolved to is in CheckedProgram.
//
// D's rules that shape this pass:
//   - globals, self-> and this-> variables are declared by their first
//     assignment (in program order) and keep that type; an associative array's
//     key types are fixed by its first use;
//   - a global or this-> variable read before any assignment is an error, but a
//     self-> variable reads as int 0 (the usual "/self->ts/" predicate);
//   - aggregations are only written as `@a[keys] = aggfunc(args)` and keep
//     their function and key types;
//   - inlines are substituted, so their values are checked once, at definition.
#pragma once

#include "codegen/builtins.h"
#include "codegen/types.h"
#include "libtrace/probe.h"
#include "parser/ast.h"
#include "parser/diagnostics.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace dtx::sema {

// What args[] is in a clause: the typed arguments shared by every probe the
// clause enables.
struct ClauseArguments {
    // Empty when the probes' provider gives no types: args[N] is then argN.
    std::vector<trace::ProbeArgument> arguments;
    std::string probe;    // one of the probes, for messages: "sdt:sched::sched_switch"
    std::string conflict; // set when the probes' arguments differ: how
};

struct CheckOptions {
    // $1 .. $9 as given after the script: macro_arguments[0] is $1.
    std::vector<std::string> macro_arguments;
    std::optional<int64_t> target_pid; // $target: -p PID or the -c process
    // $pid, $ppid, $uid, $gid, $pgid, $sid: those of the dtx process.
    int64_t dtx_pid = 0, dtx_ppid = 0, dtx_uid = 0, dtx_gid = 0, dtx_pgid = 0, dtx_sid = 0;
    // As the options (-x, -w, #pragma D option) set them.
    bool defaultargs = false; // unset $N are 0 and $$N ""
    bool destructive = false; // destructive actions are allowed
    uint64_t strsize = 256;   // characters a string holds, its NUL not counted
    // The arguments of clause N's probes (program.clauses order); asked only
    // for clauses that use args[]. Unset: args[N] is argN in every clause.
    std::function<ClauseArguments(size_t clause)> clause_arguments;
};

enum class VariableScope { Global, Thread, Clause };

struct VariableInfo {
    std::string name;
    VariableScope scope = VariableScope::Global;
    const Type *type = nullptr; // the value type
    bool associative = false;
    std::vector<const Type *> key_types; // associative arrays
    bool declared = false;               // by a declaration, not a first assignment
    SourceRange defined_at;
};

struct AggregationInfo {
    std::string name; // "" for @
    const FunctionDescriptor *function = nullptr;
    std::vector<const Type *> key_types;
    // The constant parameters of lquantize (lower, upper, step) and llquantize
    // (factor, low, high, steps), which every use must repeat.
    std::vector<int64_t> parameters;
    SourceRange defined_at;
};

struct TranslatorInfo;

// What an identifier, macro argument, call or xlate resolved to.
struct Resolution {
    enum class Kind {
        Builtin,      // execname, arg0 ...: `builtin`
        Constant,     // enumerator, NULL, SIGKILL, macro argument: `value` (or `text`)
        Inline,       // `inline_definition`, substituted where used
        Variable,     // a global, self-> or this-> variable: `variable`
        KernelSymbol, // `sym or an extern declaration
        Function,     // a call: `function`
        // A parameter of an associative-array inline or a translator's input,
        // inside its definition: parameter `index` of `owner` (the
        // InlineDefinition or TranslatorDefinition), bound where it is used.
        Parameter,
        Translation, // an xlate: `translator`
        // args[N] of a probe whose provider computes it from argN: the
        // checked expression `substitute` (trace::ProbeArgument::expression).
        Substitute,
    };
    Kind kind = Kind::Builtin;
    const BuiltinVariable *builtin = nullptr;
    int64_t value = 0;
    std::optional<std::string> text = std::nullopt; // $$1 and non-numeric $1: the string value
    const ast::InlineDefinition *inline_definition = nullptr;
    const VariableInfo *variable = nullptr;
    const FunctionDescriptor *function = nullptr;
    const ast::Node *owner = nullptr; // Parameter
    size_t index = 0;                 // Parameter
    const TranslatorInfo *translator = nullptr;
    const ast::Expr *substitute = nullptr; // Substitute
};

// A translator the program defines: `translator output < input parameter >
// { member = expr; ... };`. Each member's expression is checked once, with
// the parameter typed as the input; an xlate evaluates only what it needs.
struct TranslatorInfo {
    const ast::TranslatorDefinition *definition = nullptr;
    const Type *output = nullptr; // a struct or union
    const Type *input = nullptr;
    std::map<std::string, const ast::Expr *> members; // by member name
};

struct ProviderProbeInfo {
    std::string name;
    const Type *native = nullptr;     // a Function type: void (int, char *)
    const Type *translated = nullptr; // the same unless the probe has `: (types)`
};

struct ProviderInfo {
    std::string name;
    std::vector<ProviderProbeInfo> probes;
};

struct CheckedProgram {
    // Owns every Type the AST annotations point to.
    std::unique_ptr<TypeTable> types;
    std::map<std::string, VariableInfo> globals, thread_locals, clause_locals;
    std::map<std::string, AggregationInfo> aggregations;
    std::map<std::string, const ast::InlineDefinition *> inlines;
    std::vector<ProviderInfo> providers;
    std::vector<std::unique_ptr<TranslatorInfo>> translators;
    // The types of each associative-array inline's parameters.
    std::map<const ast::InlineDefinition *, std::vector<const Type *>> inline_parameters;
    std::unordered_map<const ast::Expr *, Resolution> resolutions;
    // The parsed probe-argument expressions (Resolution::Substitute) and
    // their text, which their source ranges point into.
    std::vector<std::unique_ptr<SourceFile>> argument_sources;
    std::vector<ast::ExprPtr> argument_expressions;
    bool destructive_allowed = false;
    bool defaultargs = false;
};

CheckedProgram check_program(ast::Program &program, DiagnosticEngine &diags,
                             const CheckOptions &options = {});

// The value of a checked integer constant expression (literals, enumerators,
// integer inlines, numeric macro arguments, sizeof, offsetof, and operators
// and casts over them), wrapped to the expression's type; nullopt otherwise.
std::optional<int64_t> integer_constant(const ast::Expr &expr, const CheckedProgram &program);

} // namespace dtx::sema
