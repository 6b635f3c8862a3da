#include "parser/parse_support.h"

namespace dtx::parser {

using ast::TypeExpr;
using ast::TypeExprPtr;

void add_type_word(DeclSpecs &specs, const std::string &word, const SourceRange &at,
                   DiagnosticEngine &diags) {
    if (word == "signed" || word == "unsigned") {
        int &same = word == "signed" ? specs.signed_words : specs.unsigned_words;
        int other = word == "signed" ? specs.unsigned_words : specs.signed_words;
        if (other)
            diags.error("D_DECL_COMBO", at,
                        "both 'signed' and 'unsigned' in declaration specifiers");
        ++same;
        return;
    }
    if (word == "short") {
        ++specs.short_words;
        return;
    }
    if (word == "long") {
        if (++specs.long_words > 2)
            diags.error("D_DECL_COMBO", at, "'long long long' is too long for D");
        return;
    }
    if (specs.base_seen()) {
        diags.error("D_DECL_COMBO", at, "two or more data types in declaration specifiers");
        return;
    }
    specs.base = word;
}

void add_named_type(DeclSpecs &specs, TypeExprPtr type, const SourceRange &at,
                    DiagnosticEngine &diags) {
    if (specs.base_seen() || specs.signed_words || specs.unsigned_words || specs.short_words ||
        specs.long_words) {
        diags.error("D_DECL_COMBO", at, "two or more data types in declaration specifiers");
        return;
    }
    specs.named = std::move(type);
}

void add_storage_class(DeclSpecs &specs, ast::StorageClass storage, const SourceRange &at,
                       DiagnosticEngine &diags) {
    if (specs.storage != ast::StorageClass::None && storage != ast::StorageClass::None) {
        diags.error("D_DECL_CLASS", at, "more than one storage class in declaration specifiers");
        return;
    }
    if (storage != ast::StorageClass::None)
        specs.storage = storage;
}

void merge_specs(DeclSpecs &into, DeclSpecs &&from, DiagnosticEngine &diags) {
    into.range.end = from.range.end;
    add_storage_class(into, from.storage, from.range, diags);
    into.qualifiers |= from.qualifiers;
    for (int i = 0; i < from.signed_words; ++i)
        add_type_word(into, "signed", from.range, diags);
    for (int i = 0; i < from.unsigned_words; ++i)
        add_type_word(into, "unsigned", from.range, diags);
    for (int i = 0; i < from.short_words; ++i)
        add_type_word(into, "short", from.range, diags);
    for (int i = 0; i < from.long_words; ++i)
        add_type_word(into, "long", from.range, diags);
    if (!from.base.empty())
        add_type_word(into, from.base, from.range, diags);
    if (from.named && into.storage == ast::StorageClass::Typedef &&
        from.named->kind == ast::TypeExpr::Kind::Named && into.redeclared_name.empty() &&
        (into.base_seen() || into.signed_words || into.unsigned_words || into.short_words ||
         into.long_words)) {
        into.redeclared_name = from.named->name;
        into.redeclared_range = from.range;
        return;
    }
    if (from.named)
        add_named_type(into, std::move(from.named), from.range, diags);
}

TypeExprPtr make_named_type(std::string name, const SourceRange &range) {
    auto type = std::make_shared<TypeExpr>();
    type->kind = TypeExpr::Kind::Named;
    type->name = std::move(name);
    type->range = range;
    return type;
}

TypeExprPtr specs_to_type(const DeclSpecs &specs, DiagnosticEngine &diags) {
    if (specs.named) {
        specs.named->qualifiers |= specs.qualifiers;
        return specs.named;
    }
    const std::string &base = specs.base;
    bool modified =
        specs.signed_words || specs.unsigned_words || specs.short_words || specs.long_words;
    if (modified && !base.empty() && base != "int" && base != "char" &&
        !(base == "double" && specs.long_words == 1 && !specs.signed_words &&
          !specs.unsigned_words && !specs.short_words)) {
        diags.error("D_DECL_COMBO", specs.range,
                    "'" + base + "' cannot be combined with size or sign words");
    }
    if (specs.short_words && specs.long_words)
        diags.error("D_DECL_COMBO", specs.range,
                    "both 'short' and 'long' in declaration specifiers");
    if (base == "char" && (specs.short_words || specs.long_words))
        diags.error("D_DECL_COMBO", specs.range, "'char' cannot be 'short' or 'long'");

    // The canonical C spelling, e.g. "unsigned long long" or "signed char".
    std::string name;
    if (base == "char") {
        name = specs.unsigned_words ? "unsigned char" : specs.signed_words ? "signed char" : "char";
    } else if (base == "double" && specs.long_words) {
        name = "long double";
    } else if (!base.empty() && base != "int") {
        name = base;
    } else if (!modified && base.empty()) {
        // Only a storage class or qualifier: D, like old C, defaults to int.
        name = "int";
    } else {
        name = specs.unsigned_words ? "unsigned " : "";
        if (specs.short_words)
            name += "short";
        else if (specs.long_words == 1)
            name += "long";
        else if (specs.long_words == 2)
            name += "long long";
        else
            name += "int";
    }
    TypeExprPtr type = make_named_type(std::move(name), specs.range);
    type->qualifiers = specs.qualifiers;
    return type;
}

TypeExprPtr apply_declarator(TypeExprPtr base, Declarator &&declarator) {
    TypeExprPtr type = std::move(base);
    for (DeclaratorPart &part : declarator.parts) {
        auto wrapped = std::make_shared<TypeExpr>();
        wrapped->range = part.range;
        wrapped->element = std::move(type);
        switch (part.kind) {
        case DeclaratorPart::Kind::Pointer:
            wrapped->kind = TypeExpr::Kind::Pointer;
            wrapped->qualifiers = part.qualifiers;
            break;
        case DeclaratorPart::Kind::Array:
            wrapped->kind = TypeExpr::Kind::Array;
            wrapped->array_size = std::move(part.array_size);
            wrapped->array_keys = std::move(part.keys);
            break;
        case DeclaratorPart::Kind::Function:
            wrapped->kind = TypeExpr::Kind::Function;
            wrapped->parameters = std::move(part.parameters);
            wrapped->parameter_names = std::move(part.parameter_names);
            wrapped->variadic = part.variadic;
            break;
        }
        type = std::move(wrapped);
    }
    return type;
}

} // namespace dtx::parser
