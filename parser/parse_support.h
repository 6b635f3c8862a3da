// Values the grammar builds on its way to AST nodes: C declaration specifiers
// and declarators, integer tokens, and the functions that fold them into
// TypeExpr trees. Kept out of grammar.yy so the grammar reads as a grammar.
#pragma once

#include "parser/ast.h"
#include "parser/diagnostics.h"

#include <string>
#include <vector>

namespace dtx::parser {

struct IntegerToken {
    uint64_t value = 0;
    bool is_unsigned = false;
    uint8_t long_count = 0;
    uint8_t base = 10;
    bool is_character = false;
};

// `unsigned long long`, `const struct foo`, `self int` ... accumulated word by word.
struct DeclSpecs {
    SourceRange range;
    ast::StorageClass storage = ast::StorageClass::None;
    uint8_t qualifiers = 0;
    int signed_words = 0, unsigned_words = 0, short_words = 0, long_words = 0;
    // The base type word: "int", "char", "void", "float", "double", "string", or
    // empty when `named` holds a typedef name or a struct/union/enum.
    std::string base;
    ast::TypeExprPtr named;
    // `typedef __uint32_t uint32_t;` where uint32_t is a type name already
    // (D's own, or a header's repeated typedef): the name after a complete
    // type in a typedef is the name being declared, as in dtrace's scanner.
    std::string redeclared_name;
    SourceRange redeclared_range;
    bool base_seen() const { return !base.empty() || named != nullptr; }
};

// One step of a declarator, applied to the type built so far (see apply_declarator).
struct DeclaratorPart {
    enum class Kind { Pointer, Array, Function } kind = Kind::Pointer;
    SourceRange range;
    uint8_t qualifiers = 0;                   // Pointer
    ast::ExprPtr array_size;                  // Array
    std::vector<ast::TypeExprPtr> keys;       // Array: associative array keys
    std::vector<std::string> key_names;       // their names ("" if unnamed): inline arrays
    std::vector<ast::TypeExprPtr> parameters; // Function
    std::vector<std::string> parameter_names;
    bool variadic = false;
};

struct Declarator {
    SourceRange range;
    std::string name; // empty for abstract declarators
    // Applied in order to the base type: `*a[10]` is {Pointer, Array}, giving
    // an array of ten pointers.
    std::vector<DeclaratorPart> parts;
};

struct MemberDeclarator {
    SourceRange range;
    Declarator declarator; // unnamed for a padding bit-field `int : 3;`
    ast::ExprPtr bit_width;
};

struct ParameterList {
    std::vector<ast::TypeExprPtr> types;
    std::vector<std::string> names;
    bool variadic = false;
};

struct KeyList {
    std::vector<ast::TypeExprPtr> types;
    std::vector<std::string> names; // "" where a key is not named
};

// Adds one specifier word; reports contradictions ("signed unsigned").
void add_type_word(DeclSpecs &specs, const std::string &word, const SourceRange &at,
                   DiagnosticEngine &diags);
void add_named_type(DeclSpecs &specs, ast::TypeExprPtr type, const SourceRange &at,
                    DiagnosticEngine &diags);
void add_storage_class(DeclSpecs &specs, ast::StorageClass storage, const SourceRange &at,
                       DiagnosticEngine &diags);
void merge_specs(DeclSpecs &into, DeclSpecs &&from, DiagnosticEngine &diags);

// The TypeExpr the specifiers denote: "unsigned long long", "int" for a lone
// "unsigned", the struct or typedef name ...
ast::TypeExprPtr specs_to_type(const DeclSpecs &specs, DiagnosticEngine &diags);
ast::TypeExprPtr apply_declarator(ast::TypeExprPtr base, Declarator &&declarator);

ast::TypeExprPtr make_named_type(std::string name, const SourceRange &range);

} // namespace dtx::parser
