// The D abstract syntax tree. Nodes own their children (unique_ptr) and carry
// the SourceRange they were parsed from; later passes annotate, never re-parse.
// Node kinds are closed enums so passes switch over them and `as<T>()` downcasts.
#pragma once

#include "parser/source.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtx::sema {
struct Type; // codegen/types.h: the checker annotates expressions with their type
}

namespace dtx::ast {

struct Node {
    SourceRange range;
    virtual ~Node() = default;
};

// `node.as<Binary>()`: a downcast checked against the `kind` tag of a node
// family (Expr, Stmt); null when the node is of another kind.
template <typename Family>
struct KindCast {
    template <typename T>
    T *as() {
        auto *self = static_cast<Family *>(this);
        return self->kind == T::kKind ? static_cast<T *>(self) : nullptr;
    }
    template <typename T>
    const T *as() const {
        auto *self = static_cast<const Family *>(this);
        return self->kind == T::kKind ? static_cast<const T *>(self) : nullptr;
    }
};

// ---------------------------------------------------------------------------
// Types as written: declaration specifiers plus declarators, folded into a tree.

struct Expr;
struct TypeExpr;
using ExprPtr = std::unique_ptr<Expr>;
// Types are immutable once parsed and shared: in `int a, *b;` both declarations
// share the `int` node.
using TypeExprPtr = std::shared_ptr<TypeExpr>;

enum class TypeQualifier : uint8_t { None = 0, Const = 1, Volatile = 2, Restrict = 4 };

struct StructMember {
    SourceRange range;
    std::string name; // empty for an anonymous struct/union member
    TypeExprPtr type;
    ExprPtr bit_width; // null unless a bit-field
};

struct Enumerator {
    SourceRange range;
    std::string name;
    ExprPtr value; // null: previous + 1
};

struct TypeExpr : Node {
    enum class Kind {
        Named,    // int, unsigned long long, string, uint64_t, a typedef name, vmlinux`task_struct
        Struct,   // struct tag, optionally with members
        Union,    // union tag, optionally with members
        Enum,     // enum tag, optionally with enumerators
        Pointer,  // element *
        Array,    // element [size] or element [key types] (associative)
        Function, // element (parameters)
    };
    Kind kind = Kind::Named;
    uint8_t qualifiers = 0; // TypeQualifier bits

    std::string name;    // Named: the canonical spelling; Struct/Union/Enum: the tag (may be empty)
    TypeExprPtr element; // Pointer/Array/Function: pointee, element or return type

    bool has_body = false;               // Struct/Union/Enum defined here with { }
    std::vector<StructMember> members;   // Struct/Union
    std::vector<Enumerator> enumerators; // Enum
    ExprPtr array_size;                  // Array: null for [] and for associative arrays
    std::vector<TypeExprPtr> array_keys; // Array: associative key types [string, int]
    std::vector<TypeExprPtr> parameters; // Function
    std::vector<std::string> parameter_names;
    bool variadic = false; // Function: (...)
};

// ---------------------------------------------------------------------------
// Expressions.

enum class UnaryOp {
    Negate,
    Plus,
    BitNot,
    LogicalNot,
    Deref,
    AddressOf,
    PreIncrement,
    PreDecrement,
    PostIncrement,
    PostDecrement,
    SizeofExpr,
    Stringof,
};

enum class BinaryOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogicalAnd,
    LogicalXor,
    LogicalOr,
    Comma,
};

enum class AssignOp { Assign, Mul, Div, Mod, Add, Sub, Shl, Shr, And, Xor, Or };

enum class VariableScope { Global, Thread /* self-> */, Clause /* this-> */ };

struct Expr : Node, KindCast<Expr> {
    enum class Kind {
        IntegerLiteral,
        StringLiteral,
        Identifier,
        Variable,
        Aggregation,
        MacroArgument,
        Unary,
        Binary,
        Assign,
        Conditional,
        Call,
        Subscript,
        Member,
        Cast,
        SizeofType,
        Offsetof,
        Xlate,
    };
    explicit Expr(Kind k) : kind(k) {}
    const Kind kind;
    const sema::Type *type = nullptr; // set by the semantic checker
};

struct IntegerLiteral : Expr {
    static constexpr Kind kKind = Kind::IntegerLiteral;
    IntegerLiteral() : Expr(kKind) {}
    uint64_t value = 0;
    bool is_unsigned = false;  // u suffix
    uint8_t long_count = 0;    // l / ll suffix
    bool is_character = false; // 'c' constant
    uint8_t base = 10;
};

struct StringLiteral : Expr {
    static constexpr Kind kKind = Kind::StringLiteral;
    StringLiteral() : Expr(kKind) {}
    std::string value; // escapes decoded
};

// A bare name: a global variable, a built-in (execname, arg0), an inline, an
// enumerator, or a kernel symbol (`jiffies, vmlinux`jiffies).
struct Identifier : Expr {
    static constexpr Kind kKind = Kind::Identifier;
    Identifier() : Expr(kKind) {}
    std::string name;
    std::string module; // from mod`name; "`name" gives an empty module and scoped = true
    bool scoped = false;
};

// self->name and this->name
struct Variable : Expr {
    static constexpr Kind kKind = Kind::Variable;
    Variable() : Expr(kKind) {}
    VariableScope scope = VariableScope::Thread;
    std::string name;
};

// @name or @ (name empty)
struct Aggregation : Expr {
    static constexpr Kind kKind = Kind::Aggregation;
    Aggregation() : Expr(kKind) {}
    std::string name;
};

// $1, $target, $pid ... and $$1 (the argument as a string)
struct MacroArgument : Expr {
    static constexpr Kind kKind = Kind::MacroArgument;
    MacroArgument() : Expr(kKind) {}
    std::string name;
    bool as_string = false;
};

struct Unary : Expr {
    static constexpr Kind kKind = Kind::Unary;
    Unary() : Expr(kKind) {}
    UnaryOp op = UnaryOp::Negate;
    ExprPtr operand;
};

struct Binary : Expr {
    static constexpr Kind kKind = Kind::Binary;
    Binary() : Expr(kKind) {}
    BinaryOp op = BinaryOp::Add;
    ExprPtr lhs, rhs;
};

struct Assign : Expr {
    static constexpr Kind kKind = Kind::Assign;
    Assign() : Expr(kKind) {}
    AssignOp op = AssignOp::Assign;
    ExprPtr target, value;
};

struct Conditional : Expr {
    static constexpr Kind kKind = Kind::Conditional;
    Conditional() : Expr(kKind) {}
    ExprPtr condition, if_true, if_false;
};

// name(args): D functions and actions are always called by name.
struct Call : Expr {
    static constexpr Kind kKind = Kind::Call;
    Call() : Expr(kKind) {}
    std::string function;
    SourceRange function_range;
    std::vector<ExprPtr> arguments;
};

// base[i, j, ...]: arrays, associative arrays and aggregation keys.
struct Subscript : Expr {
    static constexpr Kind kKind = Kind::Subscript;
    Subscript() : Expr(kKind) {}
    ExprPtr base;
    std::vector<ExprPtr> indices;
};

struct Member : Expr {
    static constexpr Kind kKind = Kind::Member;
    Member() : Expr(kKind) {}
    ExprPtr base;
    std::string member;
    bool arrow = false;
};

struct Cast : Expr {
    static constexpr Kind kKind = Kind::Cast;
    Cast() : Expr(kKind) {}
    TypeExprPtr type;
    ExprPtr operand;
};

struct SizeofType : Expr {
    static constexpr Kind kKind = Kind::SizeofType;
    SizeofType() : Expr(kKind) {}
    TypeExprPtr type;
};

struct Offsetof : Expr {
    static constexpr Kind kKind = Kind::Offsetof;
    Offsetof() : Expr(kKind) {}
    TypeExprPtr type;
    std::string member;
};

struct Xlate : Expr {
    static constexpr Kind kKind = Kind::Xlate;
    Xlate() : Expr(kKind) {}
    TypeExprPtr type;
    ExprPtr operand;
};

// ---------------------------------------------------------------------------
// Statements (inside clause bodies).

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt : Node, KindCast<Stmt> {
    enum class Kind { Expression, If, Block, Empty };
    explicit Stmt(Kind k) : kind(k) {}
    const Kind kind;
};

struct ExpressionStmt : Stmt {
    static constexpr Kind kKind = Kind::Expression;
    ExpressionStmt() : Stmt(kKind) {}
    ExprPtr expr;
};

struct IfStmt : Stmt {
    static constexpr Kind kKind = Kind::If;
    IfStmt() : Stmt(kKind) {}
    ExprPtr condition;
    StmtPtr then_branch;
    StmtPtr else_branch; // may be null
};

struct BlockStmt : Stmt {
    static constexpr Kind kKind = Kind::Block;
    BlockStmt() : Stmt(kKind) {}
    std::vector<StmtPtr> statements;
};

struct EmptyStmt : Stmt {
    static constexpr Kind kKind = Kind::Empty;
    EmptyStmt() : Stmt(kKind) {}
};

// ---------------------------------------------------------------------------
// Outer-scope declarations and clauses.

// provider:module:function:name as written, macros ($target, $1) unexpanded.
// Fewer than four fields fill from the right: "BEGIN" is name only,
// "read:entry" is function:name.
struct ProbeDescription {
    SourceRange range;
    std::string text;
    std::string provider, module, function, name;
};

struct Clause : Node {
    std::vector<ProbeDescription> probes;
    ExprPtr predicate; // may be null
    std::vector<StmtPtr> statements;
    bool has_body = false; // false: a bare description (-n 'syscall::read:entry')
};

enum class StorageClass { None, Auto, Register, Static, Extern, Typedef, Self, This };

// One declarator of a declaration: `int a, *b;` gives two.
struct Declaration : Node {
    StorageClass storage = StorageClass::None;
    std::string name; // empty for a bare `struct foo { ... };`
    TypeExprPtr type;
};

struct InlineParameter {
    std::string name;
    TypeExprPtr type;
};

// inline T name = expr; or, for an associative-array inline,
// inline T name[K1 a, K2 b] = expr (in a, b), used as name[x, y].
struct InlineDefinition : Node {
    std::string name;
    TypeExprPtr type;
    std::vector<InlineParameter> parameters;
    ExprPtr value;
};

struct TranslatorMember {
    SourceRange range;
    std::string name;
    ExprPtr value;
};

// translator output-type < input-type parameter > { member = expr; ... };
struct TranslatorDefinition : Node {
    TypeExprPtr output_type;
    TypeExprPtr input_type;
    std::string parameter;
    std::vector<TranslatorMember> members;
};

struct ProviderProbe {
    SourceRange range;
    std::string name;
    std::vector<TypeExprPtr> native_types;     // probe foo(int, char *)
    std::vector<std::string> native_names;     // probe foo(int fd): "fd"; "" where unnamed
    std::vector<TypeExprPtr> translated_types; // : (int, string)
};

struct ProviderDefinition : Node {
    std::string name;
    std::vector<ProviderProbe> probes;
};

// #pragma D option name=value and the other #pragma D forms, split into words.
struct Pragma {
    SourceRange range;
    std::vector<std::string> words; // without the leading "D"
};

struct Program {
    std::vector<std::unique_ptr<Clause>> clauses;
    std::vector<std::unique_ptr<Declaration>> declarations;
    std::vector<std::unique_ptr<InlineDefinition>> inlines;
    std::vector<std::unique_ptr<TranslatorDefinition>> translators;
    std::vector<std::unique_ptr<ProviderDefinition>> providers;
    std::vector<Pragma> pragmas;
    // Every outer-scope item in source order, for passes that care about order.
    std::vector<const Node *> items;
    // A clause past parser::kMaxProgramClauses was refused: no more is read.
    bool clause_limit_reached = false;
};

// Calls `visit` with each direct operand of `expr`, in evaluation order (a
// call's arguments, an assignment's value before its target's keys).
void for_each_operand(const Expr &expr, const std::function<void(const Expr &)> &visit);
// Calls `visit` with every expression of `stmt` and its sub-statements, each
// before its operands, in program order.
void for_each_expression(const Stmt &stmt, const std::function<void(const Expr &)> &visit);
void for_each_expression(const Expr &expr, const std::function<void(const Expr &)> &visit);

} // namespace dtx::ast
