// The checker behind sema::check_program, shared by its implementation files:
// sema.cpp (program order, declarations, types as written, constants),
// sema_expr.cpp (operators, assignment, members, casts), sema_names.cpp
// (identifiers, variables, macro arguments, stores, associative arrays) and
// sema_calls.cpp (functions, actions, aggregations, printf formats). Not part
// of codegen's interface.
#pragma once

#include "codegen/kernel_types.h"
#include "codegen/sema.h"

#include <memory>
#include <set>

namespace dtx::sema {

// A constant parameter of lquantize/llquantize and the codes its errors carry.
struct ConstantParameter {
    size_t index; // in the call's arguments
    const char *type_code;
    const char *value_code;
    const char *what;
};

class Checker {
public:
    Checker(ast::Program &program, DiagnosticEngine &diags, const CheckOptions &options,
            CheckedProgram &out);
    void run();

private:
    // --- sema.cpp: outer scope -------------------------------------------
    void declare(const ast::Declaration &decl);
    void define_inline(ast::InlineDefinition &def);
    static bool from_library(const ast::Node &node);
    // The D library's inline `name`, defined now if the program uses it
    // first; false if the library has no such inline (pending).
    bool define_library_inline(const std::string &name);
    // The D library's translators to `output` (a resolved struct), defined
    // when an xlate first asks for one.
    void define_library_translators(const Type *output);
    void define_translator(const ast::TranslatorDefinition &def);
    void define_provider(const ast::ProviderDefinition &def);
    // The clause at clause_index_ in program.clauses.
    void check_clause(ast::Clause &clause);
    void check_clause_roles(const ast::Clause &clause);
    void find_first_assignments();
    // Declares the global `name` from its first assignment, later in the
    // program, typed as that assignment will type it; false if it has none.
    bool declare_early(const std::string &name);
    void check_statement(ast::Stmt &stmt);

    // A type as written; null (after a diagnostic) if it names nothing valid.
    const Type *resolve_type(const ast::TypeExpr &type);
    const Type *resolve_record(const ast::TypeExpr &type);
    const Type *resolve_enum(const ast::TypeExpr &type);
    // `struct tag`, `union tag` or `enum tag` named without a body: the
    // script's own (declared or defined before), else the kernel's from BTF;
    // null after an error naming it (with a "did you mean" among both).
    const Type *named_tag(const ast::TypeExpr &type, TypeKind kind);

    // Checks `expr` and requires an integer constant: reports `code` otherwise.
    std::optional<int64_t> require_constant(ast::Expr &expr, const char *code,
                                            const std::string &what);

public:
    // --- what the functions' type rules use (codegen/functions/) ---------
    // Types `expr`, annotates it and returns its type; null after an error
    // (so one mistake is reported once). `statement` is whether the
    // expression is a whole statement, where actions may appear.
    const Type *check(ast::Expr &expr, bool statement = false);
    Diagnostic &error(const char *code, const SourceRange &at, std::string message);
    TypeTable &types() { return types_; }
    const CheckOptions &options() const { return options_; }
    // The value of an integer constant expression that check() has typed.
    std::optional<int64_t> constant_value(const ast::Expr &expr) const;
    // The arguments from `first` on against the descriptor's parameters.
    bool check_arguments(ast::Call &call, const FunctionDescriptor &fn, size_t first);
    // Whether `expr` is the constant 0 (NULL), which any pointer takes.
    bool is_null_constant(const ast::Expr &expr) const;
    // An argument that must name an aggregation of the program; errors carry
    // `code_prefix` (D_PRINTA_AGGARG ...).
    AggregationInfo *aggregation_argument(ast::Expr &arg, const std::string &function,
                                          const std::string &code_prefix);
    // One constant parameter of lquantize/llquantize: an integer constant
    // within [min, max], reported with the function's own codes and words.
    std::optional<int64_t> constant_parameter(ast::Call &call, const ConstantParameter &p,
                                              const char *function, int64_t min, int64_t max,
                                              const char *expected);
    bool is_bit_field(const ast::Expr &expr) const { return bit_fields_.count(&expr) != 0; }
    // A kernel struct's members, imported so that a value of it can be shown.
    void complete_by_value(const Type *type);
    static std::string quote(const Type *type);

private:
    // --- sema_expr.cpp and sema_names.cpp: expressions -------------------
    const Type *check_node(ast::Expr &expr, bool statement);
    const Type *check_identifier(ast::Identifier &id);
    const Type *check_variable(ast::Variable &var);
    const Type *check_macro(ast::MacroArgument &macro);
    const Type *check_integer(ast::IntegerLiteral &literal);
    const Type *check_unary(ast::Unary &unary);
    const Type *check_binary(ast::Binary &binary);
    // C's decay: an array in arithmetic, a comparison of addresses or a cast
    // to an integer is the address of its first element.
    const Type *decayed(const Type *type);
    const Type *check_assign(ast::Assign &assign);
    const Type *check_conditional(ast::Conditional &cond, bool statement);
    const Type *check_subscript(ast::Subscript &subscript);
    const Type *check_member(ast::Member &member);
    const Type *check_cast(ast::Cast &cast);
    // The translator whose one member `expr.m` would lower, if any.
    const TranslatorInfo *translator_behind(const ast::Expr &expr) const;
    const Type *check_xlate(ast::Xlate &xlate);
    // A parameter in scope named `name`, resolved; null if none is.
    const Type *check_parameter(ast::Identifier &id);
    // inline T f[K a, ...] used as f[x, ...].
    const Type *check_inline_call(ast::Subscript &subscript, const ast::InlineDefinition &def);
    // args[index] in the current clause, typed by its probes' provider.
    const Type *check_probe_argument(ast::Subscript &subscript);
    // The provider's expression for an argument it translates, parsed once.
    ast::Expr *probe_argument_expression(const trace::ProbeArgument &argument,
                                         const ast::Subscript &at);
    const Type *check_sizeof(ast::Expr &expr, const Type *type, const SourceRange &at);
    // A type spelled in the built-ins tables: "uint64_t", "void *", "stack".
    const Type *spelled(std::string_view spelling);

    // Where an assignment or ++/-- stores: finds or creates the variable and
    // checks `value` against its type. `value` null means read-modify-write.
    const Type *check_store(ast::Expr &target, const Type *value, bool value_is_null,
                            const SourceRange &at, const std::string &op);
    // A new variable gets the type `created`.
    const Type *store_variable(std::map<std::string, VariableInfo> &scope, VariableScope kind,
                               const std::string &name, const std::string &shown,
                               const ast::Expr &target, const Type *value, bool value_is_null,
                               const SourceRange &at, const Type *created);
    // Finds (or, for a store or a self-> read, creates) the associative array
    // `name` and checks the subscript's keys against its key types.
    VariableInfo *associative_array(std::map<std::string, VariableInfo> &scope, VariableScope kind,
                                    const std::string &shown, const std::string &name,
                                    ast::Subscript &subscript, const Type *created_type);
    // The types of keys as they are stored (char arrays as strings); nullopt
    // after an error.
    std::optional<std::vector<const Type *>> key_types(std::vector<ast::ExprPtr> &indices);
    bool keys_match(const std::vector<const Type *> &expected,
                    const std::vector<const Type *> &actual,
                    const std::vector<ast::ExprPtr> &indices, const SourceRange &at,
                    const std::string &shown);

    // --- sema_alloca.cpp: which pointers point into alloca() memory ------
    bool is_alloca_pointer(const ast::Expr &expr) const;
    // The D variable (global, self->, this->) an identifier names, if any.
    const VariableInfo *variable_of(const ast::Expr &expr) const;
    // Called on every expression once checked.
    void note_alloca(ast::Expr &expr);
    bool note_alloca_store(const ast::Assign &assign);

    // --- sema_calls.cpp: functions and aggregations -----------------------
    const Type *check_call(ast::Call &call, bool statement);
    void check_aggregation_assign(ast::Assign &assign, ast::Aggregation &agg,
                                  std::vector<ast::ExprPtr> *keys);

    // --- helpers ------------------------------------------------------------
    // "did you mean 'execname'?" among every name a bare identifier could be.
    void suggest(Diagnostic &d, const std::string &name, const std::vector<std::string> &known);
    // The name of `known` closest to `name`, if one is close enough to be a typo.
    static const std::string *closest(const std::string &name,
                                      const std::vector<std::string> &known);
    std::vector<std::string> identifier_names() const;
    const Type *value_type(const Type *type); // char arrays read as string values
    KernelTypes &kernel_types();
    // A record's members, imported from kernel BTF first if it came from there.
    const Type *with_members(const Type *record);
    // A probe argument's type as its provider spells it; null if D cannot
    // resolve the spelling.
    const Type *probe_argument_type(const trace::ProbeArgument &argument);

    ast::Program &program_;
    DiagnosticEngine *diags_; // swapped while a later assignment is looked at early
    const CheckOptions &options_;
    CheckedProgram &out_;
    TypeTable &types_;

    std::map<std::string, std::pair<const Type *, int64_t>> enumerators_;
    std::map<std::string, const Type *> externs_; // extern declarations of kernel symbols
    std::map<const ast::TypeExpr *, const Type *> defined_records_; // bodies laid out once
    // Parameters in scope while an inline's value or a translator's member
    // is checked: innermost last.
    struct ParameterScope {
        const ast::Node *owner;
        std::vector<std::pair<std::string, const Type *>> parameters;
    };
    std::vector<ParameterScope> parameter_scopes_;
    // The D library's definitions not used yet (codegen/d_library.h).
    std::map<std::string, ast::InlineDefinition *> library_inlines_;
    std::vector<const ast::TranslatorDefinition *> library_translators_;
    std::map<std::string, const Type *> inline_types_;
    std::set<const ast::Expr *> bit_fields_; // member expressions naming a bit-field
    std::set<const ast::Expr *> alloca_pointers_;
    std::map<const VariableInfo *, bool> alloca_variables_; // whether it holds alloca() pointers
    std::unique_ptr<KernelTypes> kernel_types_;
    // Globals are declared by their first assignment anywhere in the
    // program: each global's first assignment and its clause, found before
    // the clauses are checked, so that a clause may read a global only a
    // later clause assigns (declare_early()).
    struct FirstAssignment {
        ast::Expr *store = nullptr; // an Assign, or a ++/-- Unary
        size_t clause = 0;
    };
    std::map<std::string, FirstAssignment> first_assignments_;
    std::set<std::string> declaring_early_; // against cycles: x = y; y = x;
    size_t clause_index_ = 0;               // of the clause being checked, in program.clauses
    std::optional<ClauseArguments> clause_arguments_; // fetched on its first args[]
    std::map<std::string, ast::Expr *, std::less<>> argument_expressions_; // by text
};

} // namespace dtx::sema
