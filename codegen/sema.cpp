#include "codegen/checker.h"

#include <algorithm>
#include <unordered_map>

namespace dtx::sema {

using namespace ast;

CheckedProgram check_program(Program &program, DiagnosticEngine &diags,
                             const CheckOptions &options) {
    CheckedProgram out;
    out.types = std::make_unique<TypeTable>(string_bytes(options.strsize));
    Checker checker(program, diags, options, out);
    checker.run();
    return out;
}

Checker::Checker(Program &program, DiagnosticEngine &diags, const CheckOptions &options,
                 CheckedProgram &out)
    : program_(program), diags_(&diags), options_(options), out_(out), types_(*out.types) {}

void Checker::run() {
    // The session has applied the program's option pragmas to these.
    out_.destructive_allowed = options_.destructive;
    out_.defaultargs = options_.defaultargs;
    find_first_assignments();
    // D is checked in program order: a variable's first assignment declares it
    // for everything after, as in dtrace.
    std::unordered_map<const Clause *, size_t> clause_indexes;
    for (size_t i = 0; i < program_.clauses.size(); i++)
        clause_indexes.emplace(program_.clauses[i].get(), i);
    for (const Node *item : program_.items) {
        Node *node = const_cast<Node *>(item); // the Program is ours to annotate
        if (auto *decl = dynamic_cast<Declaration *>(node))
            declare(*decl);
        else if (auto *def = dynamic_cast<InlineDefinition *>(node)) {
            // The D library's are defined when the program first uses them.
            if (from_library(*def))
                library_inlines_[def->name] = def;
            else
                define_inline(*def);
        } else if (auto *xlator = dynamic_cast<TranslatorDefinition *>(node)) {
            if (from_library(*xlator))
                library_translators_.push_back(xlator);
            else
                define_translator(*xlator);
        } else if (auto *provider = dynamic_cast<ProviderDefinition *>(node))
            define_provider(*provider);
        else if (auto *clause = dynamic_cast<Clause *>(node)) {
            clause_index_ = clause_indexes.at(clause);
            check_clause(*clause);
        }
    }
}

void Checker::find_first_assignments() {
    for (size_t c = 0; c < program_.clauses.size(); c++) {
        auto note = [&](const Expr &expr) {
            const Expr *target = nullptr;
            if (const auto *assign = expr.as<Assign>())
                target = assign->target.get();
            else if (const auto *unary = expr.as<Unary>();
                     unary &&
                     (unary->op == UnaryOp::PreIncrement || unary->op == UnaryOp::PostIncrement ||
                      unary->op == UnaryOp::PreDecrement || unary->op == UnaryOp::PostDecrement))
                target = unary->operand.get();
            if (!target)
                return;
            if (const auto *subscript = target->as<Subscript>())
                target = subscript->base.get();
            const auto *id = target->as<Identifier>();
            if (id && !id->scoped && id->module.empty())
                first_assignments_.try_emplace(id->name,
                                               FirstAssignment{const_cast<Expr *>(&expr), c});
        };
        // A predicate counts too: `tick-1s /++n == 3/` declares n.
        if (const ExprPtr &predicate = program_.clauses[c]->predicate)
            for_each_expression(*predicate, note);
        for (const StmtPtr &stmt : program_.clauses[c]->statements)
            for_each_expression(*stmt, note);
    }
}

bool Checker::declare_early(const std::string &name) {
    auto it = first_assignments_.find(name);
    if (it == first_assignments_.end() || declaring_early_.count(name))
        return false;
    declaring_early_.insert(name);
    // The assignment is checked as it will be in its own clause, with
    // nothing reported: its clause reports its errors when its turn comes.
    DiagnosticEngine quiet;
    DiagnosticEngine *reporting = diags_;
    diags_ = &quiet;
    const size_t clause = clause_index_;
    std::optional<ClauseArguments> arguments = std::move(clause_arguments_);
    clause_index_ = it->second.clause;
    clause_arguments_.reset();
    check(*it->second.store);
    clause_index_ = clause;
    clause_arguments_ = std::move(arguments);
    diags_ = reporting;
    declaring_early_.erase(name);
    if (auto found = out_.globals.find(name); found != out_.globals.end())
        return true;
    // The assignment does not check: an int, so that its own errors are the
    // ones reported.
    out_.globals.emplace(name, VariableInfo{name,
                                            VariableScope::Global,
                                            types_.int_type(),
                                            false,
                                            {},
                                            false,
                                            it->second.store->range});
    return true;
}

// --- declarations ------------------------------------------------------------

void Checker::declare(const Declaration &decl) {
    const TypeExpr &written = *decl.type;
    if (decl.name.empty() && decl.storage == StorageClass::None && !written.has_body &&
        !written.name.empty() &&
        (written.kind == TypeExpr::Kind::Struct || written.kind == TypeExpr::Kind::Union ||
         written.kind == TypeExpr::Kind::Enum)) {
        // `struct foo;` declares the tag (incomplete until defined), which
        // the script may then point to.
        types_.tagged(written.kind == TypeExpr::Kind::Struct  ? TypeKind::Struct
                      : written.kind == TypeExpr::Kind::Union ? TypeKind::Union
                                                              : TypeKind::Enum,
                      written.name);
        return;
    }
    // `int counts[string, int]` declares an associative array.
    const bool associative =
        decl.type->kind == TypeExpr::Kind::Array && !decl.type->array_keys.empty();
    const Type *type = resolve_type(associative ? *decl.type->element : *decl.type);
    if (!type || decl.name.empty())
        return;
    std::vector<const Type *> keys;
    for (const TypeExprPtr &key :
         associative ? decl.type->array_keys : std::vector<TypeExprPtr>{}) {
        const Type *key_type = resolve_type(*key);
        if (!key_type)
            return;
        keys.push_back(key_type);
    }
    switch (decl.storage) {
    case StorageClass::Typedef: {
        const Type *defined = nullptr;
        if (!types_.add_typedef(decl.name, type, &defined))
            error("D_DECL_IDRED", decl.range,
                  "typedef '" + decl.name + "' redeclares " + quote(defined) + " as " +
                      quote(type));
        return;
    }
    case StorageClass::Extern:
        externs_[decl.name] = type;
        return;
    default:
        break;
    }
    if (is_void(type)) {
        error("D_DECL_VOIDOBJ", decl.range, "cannot declare '" + decl.name + "' of type void");
        return;
    }
    std::map<std::string, VariableInfo> *scope = &out_.globals;
    VariableScope kind = VariableScope::Global;
    if (decl.storage == StorageClass::Self) {
        scope = &out_.thread_locals;
        kind = VariableScope::Thread;
    } else if (decl.storage == StorageClass::This) {
        scope = &out_.clause_locals;
        kind = VariableScope::Clause;
    }
    if (associative && kind == VariableScope::Clause) {
        error("D_DECL_LOCASSC", decl.range,
              "clause-local variable 'this->" + decl.name + "' cannot be an associative array");
        return;
    }
    VariableInfo var{decl.name, kind, type, associative, std::move(keys), true, decl.range};
    auto [it, inserted] = scope->emplace(decl.name, var);
    if (!inserted && resolve(it->second.type) != resolve(var.type))
        error("D_DECL_IDRED", decl.range,
              "'" + decl.name + "' redeclared as " + quote(var.type) + "; it was declared " +
                  quote(it->second.type));
}

bool Checker::from_library(const Node &node) {
    return node.range.source && node.range.source->library();
}

bool Checker::define_library_inline(const std::string &name) {
    auto it = library_inlines_.find(name);
    if (it == library_inlines_.end())
        return false;
    InlineDefinition *def = it->second;
    library_inlines_.erase(it);
    // Checked on its own, whatever definition the program is in.
    std::vector<ParameterScope> scopes = std::move(parameter_scopes_);
    parameter_scopes_.clear();
    define_inline(*def);
    parameter_scopes_ = std::move(scopes);
    return true;
}

void Checker::define_library_translators(const Type *output) {
    // Taken out of the list before any is checked: a translator's members may
    // translate to another library type, which defines more of them.
    std::vector<const TranslatorDefinition *> matching;
    std::erase_if(library_translators_, [&](const TranslatorDefinition *def) {
        const Type *defined = resolve_type(*def->output_type);
        if (!defined || resolve(defined) != output)
            return false;
        matching.push_back(def);
        return true;
    });
    for (const TranslatorDefinition *def : matching) {
        std::vector<ParameterScope> scopes = std::move(parameter_scopes_);
        parameter_scopes_.clear();
        define_translator(*def);
        parameter_scopes_ = std::move(scopes);
    }
}

void Checker::define_inline(InlineDefinition &def) {
    library_inlines_.erase(def.name); // the program's own wins
    const Type *declared = resolve_type(*def.type);
    // An associative-array inline's value is checked with its parameters.
    std::vector<const Type *> parameter_types;
    ParameterScope scope{&def, {}};
    bool parameters_ok = true;
    for (const InlineParameter &parameter : def.parameters) {
        const Type *type = resolve_type(*parameter.type);
        parameters_ok &= type != nullptr;
        parameter_types.push_back(type);
        scope.parameters.emplace_back(parameter.name, type);
    }
    parameter_scopes_.push_back(std::move(scope));
    const Type *value = parameters_ok ? check(*def.value) : nullptr;
    parameter_scopes_.pop_back();
    if (declared && value && !assignable(declared, value, is_null_constant(*def.value)))
        error("D_OP_INCOMPAT", def.value->range,
              "inline '" + def.name + "' is declared " + quote(declared) +
                  " but its value has type " + quote(value));
    if (out_.inlines.count(def.name) || find_builtin_variable(def.name))
        error("D_DECL_IDRED", def.range, "inline '" + def.name + "' redefines an identifier");
    out_.inlines[def.name] = &def;
    if (!def.parameters.empty())
        out_.inline_parameters[&def] = std::move(parameter_types);
    inline_types_[def.name] = declared ? declared : value;
}

void Checker::define_translator(const TranslatorDefinition &def) {
    const Type *output = resolve_type(*def.output_type);
    const Type *input = resolve_type(*def.input_type);
    if (!output || !input)
        return;
    if (!is_struct_or_union(output)) {
        error("D_XLATE_SOU", def.output_type->range,
              "translator output type " + quote(output) + " must be a struct or union");
        return;
    }
    const Type *record = with_members(resolve(output));
    auto info = std::make_unique<TranslatorInfo>();
    info->definition = &def;
    info->output = record;
    info->input = input;
    parameter_scopes_.push_back({&def, {{def.parameter, input}}});
    for (const TranslatorMember &member : def.members) {
        std::optional<sema::Member> target = find_member(record, member.name);
        if (!target) {
            error("D_XLATE_MEMB", member.range,
                  "translator member '" + member.name + "' is not a member of " + quote(output));
            continue;
        }
        if (info->members.count(member.name)) {
            error("D_XLATE_REDECL", member.range,
                  "translator member '" + member.name + "' is defined twice");
            continue;
        }
        Expr &value = *member.value;
        const Type *type = check(value);
        if (!type)
            continue;
        if (!assignable(target->type, type, is_null_constant(value)) &&
            !(is_char_array(target->type) && is_string_like(type))) {
            error("D_XLATE_INCOMPAT", value.range,
                  "translator member '" + member.name + "' has type " + quote(target->type) +
                      ", which a value of type " + quote(type) + " cannot be assigned to");
            continue;
        }
        info->members[member.name] = &value;
    }
    parameter_scopes_.pop_back();
    out_.translators.push_back(std::move(info));
}

void Checker::define_provider(const ProviderDefinition &def) {
    ProviderInfo provider{def.name, {}};
    for (const ProviderProbe &probe : def.probes) {
        auto function_of = [&](const std::vector<TypeExprPtr> &written) -> const Type * {
            std::vector<const Type *> params;
            for (const TypeExprPtr &t : written) {
                const Type *param = resolve_type(*t);
                if (!param)
                    return nullptr;
                params.push_back(param);
            }
            return types_.function(types_.void_type(), std::move(params), false);
        };
        const Type *native = function_of(probe.native_types);
        const Type *translated =
            probe.translated_types.empty() ? native : function_of(probe.translated_types);
        if (native && translated && native->parameters.size() != translated->parameters.size())
            error("D_PROV_INCOMPAT", probe.range,
                  "probe '" + probe.name + "' translates " +
                      std::to_string(native->parameters.size()) + " arguments into " +
                      std::to_string(translated->parameters.size()));
        provider.probes.push_back({probe.name, native, translated});
    }
    out_.providers.push_back(std::move(provider));
}

// --- types as written --------------------------------------------------------

namespace {

// Where a type named `module`name` may come from: D's own module ("D", and
// "C" for what -C's headers declare) is the script's types, any other module
// the kernel's.
struct ScopedTypeName {
    bool script = true;
    bool kernel = true;
    std::string name;
};

ScopedTypeName scoped_type_name(const std::string &written) {
    const size_t tick = written.rfind('`');
    if (tick == std::string::npos)
        return {.name = written};
    const std::string module = written.substr(0, tick);
    const bool d_module = module == "D" || module == "C";
    std::string name = written.substr(tick + 1);
    if (name == "unsigned" || name == "signed") // the one-word spellings of C's int
        name = name == "signed" ? "int" : "unsigned int";
    return {.script = d_module, .kernel = !d_module, .name = std::move(name)};
}

} // namespace

const Type *Checker::resolve_type(const TypeExpr &type) {
    switch (type.kind) {
    case TypeExpr::Kind::Named: {
        const ScopedTypeName scoped = scoped_type_name(type.name);
        if (const Type *found = scoped.script ? types_.lookup(scoped.name) : nullptr)
            return found;
        if (const Type *kernel = scoped.kernel ? kernel_types().by_typedef(scoped.name) : nullptr)
            return kernel;
        // C's base types are every module's: `vmlinux`int`.
        if (const Type *base = scoped.script ? nullptr : types_.lookup(scoped.name);
            base && base->kind != TypeKind::Typedef)
            return base;
        error("D_TYPE_ERR", type.range, "unknown type name '" + type.name + "'");
        return nullptr;
    }
    case TypeExpr::Kind::Struct:
    case TypeExpr::Kind::Union:
        return resolve_record(type);
    case TypeExpr::Kind::Enum:
        return resolve_enum(type);
    case TypeExpr::Kind::Pointer: {
        const Type *pointee = resolve_type(*type.element);
        bool to_const = type.element->qualifiers & uint8_t(TypeQualifier::Const);
        return pointee ? types_.pointer_to(pointee, to_const) : nullptr;
    }
    case TypeExpr::Kind::Array: {
        const Type *element = resolve_type(*type.element);
        if (!element)
            return nullptr;
        if (!type.array_keys.empty()) {
            error("D_DECL_ARRNULL", type.range,
                  "associative array types [keys] may only declare variables");
            return nullptr;
        }
        if (!type.array_size) {
            error("D_DECL_ARRNULL", type.range, "array declaration requires a size");
            return nullptr;
        }
        std::optional<int64_t> size =
            require_constant(*type.array_size, "D_DECL_ARRSUB", "an array size");
        if (!size)
            return nullptr;
        if (*size <= 0) {
            error("D_DECL_ARRSUB", type.array_size->range, "array size must be positive");
            return nullptr;
        }
        return types_.array_of(element, uint64_t(*size));
    }
    case TypeExpr::Kind::Function: {
        const Type *result = resolve_type(*type.element);
        std::vector<const Type *> params;
        for (const TypeExprPtr &t : type.parameters) {
            // As in C, a parameter declared an array (`char *argv[]`) is a pointer.
            const bool array = t->kind == TypeExpr::Kind::Array && t->array_keys.empty();
            const Type *element = array ? resolve_type(*t->element) : nullptr;
            const Type *param =
                array ? (element ? types_.pointer_to(element) : nullptr) : resolve_type(*t);
            if (!param)
                return nullptr;
            if (!is_void(param))
                params.push_back(param);
        }
        return result ? types_.function(result, std::move(params), type.variadic) : nullptr;
    }
    }
    return nullptr;
}

const Type *Checker::resolve_record(const TypeExpr &type) {
    const TypeKind kind = type.kind == TypeExpr::Kind::Struct ? TypeKind::Struct : TypeKind::Union;
    if (!type.has_body)
        return named_tag(type, kind);
    if (auto it = defined_records_.find(&type); it != defined_records_.end())
        return it->second;
    Type *record = type.name.empty() ? types_.anonymous(kind) : types_.tagged(kind, type.name);
    if (record->complete) {
        error("D_DECL_TYPERED", type.range, quote(record) + " is already defined");
        return record;
    }
    std::vector<MemberDeclaration> members;
    std::set<std::string> names;
    for (const StructMember &member : type.members) {
        // A last member declared `T m[]` is a flexible array member, as in C99.
        const bool flexible = &member == &type.members.back() &&
                              member.type->kind == TypeExpr::Kind::Array &&
                              !member.type->array_size && member.type->array_keys.empty();
        const Type *flexible_element = flexible ? resolve_type(*member.type->element) : nullptr;
        const Type *member_type =
            flexible ? (flexible_element ? types_.array_of(flexible_element, 0) : nullptr)
                     : resolve_type(*member.type);
        if (!member_type)
            return nullptr;
        if (!member.name.empty() && !names.insert(member.name).second)
            error("D_DECL_IDRED", member.range,
                  "member '" + member.name + "' appears twice in " + quote(record));
        const Type *resolved = resolve(member_type);
        if ((is_struct_or_union(resolved) && !resolved->complete) || is_void(resolved)) {
            error("D_DECL_INCOMPLETE", member.range,
                  "member '" + member.name + "' has incomplete type " + quote(member_type));
            return nullptr;
        }
        MemberDeclaration declared{member.name, member_type, std::nullopt};
        if (member.bit_width) {
            std::optional<int64_t> width =
                require_constant(*member.bit_width, "D_DECL_BFCONST", "a bit-field width");
            if (!width)
                return nullptr;
            if (!is_integer(member_type)) {
                error("D_DECL_BFTYPE", member.range,
                      "bit-field '" + member.name + "' must have an integer type, not " +
                          quote(member_type));
                return nullptr;
            }
            if (*width < 0 || uint64_t(*width) > resolved->size * 8 ||
                (*width == 0 && !member.name.empty())) {
                error("D_DECL_BFSIZE", member.bit_width->range,
                      "bit-field '" + member.name + "' width " + std::to_string(*width) +
                          " does not fit " + quote(member_type));
                return nullptr;
            }
            declared.bit_width = uint32_t(*width);
        }
        members.push_back(std::move(declared));
    }
    layout_record(*record, members);
    defined_records_[&type] = record;
    return record;
}

const Type *Checker::resolve_enum(const TypeExpr &type) {
    if (!type.has_body)
        return named_tag(type, TypeKind::Enum);
    if (auto it = defined_records_.find(&type); it != defined_records_.end())
        return it->second;
    Type *enumeration = type.name.empty() ? types_.anonymous(TypeKind::Enum)
                                          : types_.tagged(TypeKind::Enum, type.name);
    if (enumeration->complete) {
        error("D_DECL_TYPERED", type.range, quote(enumeration) + " is already defined");
        return enumeration;
    }
    int64_t next = 0;
    for (const Enumerator &e : type.enumerators) {
        if (e.value) {
            std::optional<int64_t> value =
                require_constant(*e.value, "D_DECL_ENCONST", "an enumerator value");
            if (!value)
                continue;
            next = *value;
        }
        if (next > INT32_MAX || next < INT32_MIN) {
            error("D_DECL_ENOFLOW", e.range,
                  "enumerator '" + e.name + "' value " + std::to_string(next) +
                      " does not fit in an int");
        }
        if (enumerators_.count(e.name) || find_builtin_constant(e.name))
            error("D_DECL_IDRED", e.range, "enumerator '" + e.name + "' is already defined");
        enumerators_[e.name] = {enumeration, next};
        enumeration->enumerators.push_back({e.name, next});
        ++next;
    }
    enumeration->complete = true;
    defined_records_[&type] = enumeration;
    return enumeration;
}

const Type *Checker::named_tag(const TypeExpr &type, TypeKind kind) {
    // A tag mentioned before was declared or defined by the script, imported
    // from the kernel or named by a provider's argument types.
    const ScopedTypeName scoped = scoped_type_name(type.name);
    Type *existing = scoped.script ? types_.find_tag(kind, scoped.name) : nullptr;
    if (existing && existing->complete)
        return existing;
    // A forward declaration of a tag that the kernel defines is the kernel's.
    if (const Type *kernel = scoped.kernel ? kernel_types().by_tag(kind, scoped.name) : nullptr)
        return kernel;
    if (existing)
        return existing;
    const std::string keyword = kind == TypeKind::Struct  ? "struct"
                                : kind == TypeKind::Union ? "union"
                                                          : "enum";
    const std::string shown = keyword + " " + type.name;
    if (!kernel_types().available()) {
        error("D_TYPE_ERR", type.range,
              "unknown type '" + shown + "': the script does not declare it and the kernel " +
                  "has no BTF (/sys/kernel/btf/vmlinux) to take it from")
            .hints.push_back("declare it in the script: " + shown + " { ... };");
        return nullptr;
    }
    const std::string why = !scoped.kernel   ? "the script does not define it"
                            : !scoped.script ? "the kernel's BTF does not define it"
                                             : "neither the script nor the kernel's BTF defines it";
    Diagnostic &d = error("D_TYPE_ERR", type.range, "unknown type '" + shown + "': " + why);
    std::vector<std::string> known = types_.tags(kind);
    const std::vector<std::string> &kernel = kernel_types().tag_names(kind);
    known.insert(known.end(), kernel.begin(), kernel.end());
    if (const std::string *best = closest(type.name, known))
        d.hints.push_back("did you mean '" + keyword + " " + *best + "'?");
    return nullptr;
}

// --- integer constant expressions ----------------------------------------------

std::optional<int64_t> Checker::constant_value(const Expr &expr) const {
    return integer_constant(expr, out_);
}

namespace {

// Signed division and remainder as the BPF code does them (lower_operators.cpp):
// on the magnitudes, truncating toward zero, the remainder taking the
// dividend's sign; INT64_MIN / -1 is INT64_MIN.
int64_t signed_divide(int64_t a, int64_t b, bool remainder) {
    uint64_t magnitude_a = a < 0 ? 0 - uint64_t(a) : uint64_t(a);
    uint64_t magnitude_b = b < 0 ? 0 - uint64_t(b) : uint64_t(b);
    if (remainder) {
        uint64_t r = magnitude_a % magnitude_b;
        return int64_t(a < 0 ? 0 - r : r);
    }
    uint64_t q = magnitude_a / magnitude_b;
    return int64_t((a < 0) != (b < 0) ? 0 - q : q);
}

} // namespace

// Constants fold with the run-time rules (types.h's wrap_to/convert_value):
// 64-bit values, operands converted to their common type, results not cut
// to their type until a cast.
std::optional<int64_t> integer_constant(const Expr &expr, const CheckedProgram &program) {
    auto constant_value = [&](const Expr &e) { return integer_constant(e, program); };
    if (auto it = program.resolutions.find(&expr); it != program.resolutions.end()) {
        const Resolution &r = it->second;
        if (r.kind == Resolution::Kind::Constant && !r.text)
            return r.value;
        if (r.kind == Resolution::Kind::Inline && r.inline_definition &&
            r.inline_definition->parameters.empty()) {
            std::optional<int64_t> v = constant_value(*r.inline_definition->value);
            if (!v)
                return std::nullopt;
            return convert_value(*v, r.inline_definition->value->type, expr.type);
        }
        return std::nullopt;
    }
    switch (expr.kind) {
    case Expr::Kind::IntegerLiteral:
        return int64_t(expr.as<IntegerLiteral>()->value);
    case Expr::Kind::Cast: {
        const auto *cast = expr.as<Cast>();
        std::optional<int64_t> v = constant_value(*cast->operand);
        if (!v || !is_integer(expr.type))
            return std::nullopt;
        return cast_value(*v, cast->operand->type, expr.type);
    }
    case Expr::Kind::Unary: {
        const auto *unary = expr.as<Unary>();
        std::optional<int64_t> v = constant_value(*unary->operand);
        if (!v)
            return std::nullopt;
        switch (unary->op) {
        case UnaryOp::Negate:
            return int64_t(0 - uint64_t(convert_value(*v, unary->operand->type, expr.type)));
        case UnaryOp::Plus:
            return convert_value(*v, unary->operand->type, expr.type);
        case UnaryOp::BitNot:
            return ~convert_value(*v, unary->operand->type, expr.type);
        case UnaryOp::LogicalNot:
            return int64_t(*v == 0);
        default:
            return std::nullopt;
        }
    }
    case Expr::Kind::Binary: {
        const auto *binary = expr.as<Binary>();
        std::optional<int64_t> l = constant_value(*binary->lhs);
        std::optional<int64_t> r = constant_value(*binary->rhs);
        if (!l || !r)
            return std::nullopt;
        const BinaryOp op = binary->op;
        const bool comparison = op >= BinaryOp::Lt && op <= BinaryOp::Ne;
        const bool logical = op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr ||
                             op == BinaryOp::LogicalXor || op == BinaryOp::Comma;
        // Both operands in their common type (a shift's left operand in its
        // promoted type, the result's; its count as it is).
        const Type *common = expr.type;
        if (comparison && is_integer(binary->lhs->type) && is_integer(binary->rhs->type))
            common = usual_arithmetic(*program.types, binary->lhs->type, binary->rhs->type);
        if (!logical && is_integer(common)) {
            l = convert_value(*l, binary->lhs->type, common);
            if (op != BinaryOp::Shl && op != BinaryOp::Shr)
                r = convert_value(*r, binary->rhs->type, common);
        }
        const bool is_unsigned = is_integer(common) && !resolve(common)->is_signed;
        const uint64_t ul = uint64_t(*l), ur = uint64_t(*r);
        auto less = [&](bool strict, bool swap) {
            uint64_t a = swap ? ur : ul, b = swap ? ul : ur;
            int64_t sa = swap ? *r : *l, sb = swap ? *l : *r;
            if (is_unsigned)
                return int64_t(strict ? a < b : a <= b);
            return int64_t(strict ? sa < sb : sa <= sb);
        };
        switch (op) {
        case BinaryOp::Add:
            return int64_t(ul + ur);
        case BinaryOp::Sub:
            return int64_t(ul - ur);
        case BinaryOp::Mul:
            return int64_t(ul * ur);
        case BinaryOp::Div:
        case BinaryOp::Mod:
            if (ur == 0)
                return std::nullopt;
            if (is_unsigned)
                return int64_t(op == BinaryOp::Div ? ul / ur : ul % ur);
            return signed_divide(*l, *r, op == BinaryOp::Mod);
        case BinaryOp::Shl:
            return int64_t(ul << (ur & 63));
        case BinaryOp::Shr:
            return is_unsigned ? int64_t(ul >> (ur & 63)) : (*l >> (ur & 63));
        case BinaryOp::Lt:
            return less(true, false);
        case BinaryOp::Gt:
            return less(true, true);
        case BinaryOp::Le:
            return less(false, false);
        case BinaryOp::Ge:
            return less(false, true);
        case BinaryOp::Eq:
            return int64_t(ul == ur);
        case BinaryOp::Ne:
            return int64_t(ul != ur);
        case BinaryOp::BitAnd:
            return *l & *r;
        case BinaryOp::BitXor:
            return *l ^ *r;
        case BinaryOp::BitOr:
            return *l | *r;
        case BinaryOp::LogicalAnd:
            return int64_t(*l && *r);
        case BinaryOp::LogicalXor:
            return int64_t(!*l != !*r);
        case BinaryOp::LogicalOr:
            return int64_t(*l || *r);
        case BinaryOp::Comma:
            return *r;
        }
        return std::nullopt;
    }
    case Expr::Kind::Conditional: {
        const auto *cond = expr.as<Conditional>();
        std::optional<int64_t> c = constant_value(*cond->condition);
        if (!c)
            return std::nullopt;
        const Expr &chosen = *c ? *cond->if_true : *cond->if_false;
        std::optional<int64_t> v = constant_value(chosen);
        if (!v)
            return std::nullopt;
        return convert_value(*v, chosen.type, expr.type);
    }
    default:
        return std::nullopt;
    }
}

std::optional<int64_t> Checker::require_constant(Expr &expr, const char *code,
                                                 const std::string &what) {
    const Type *type = check(expr);
    if (!type)
        return std::nullopt;
    std::optional<int64_t> value = is_integer(type) ? constant_value(expr) : std::nullopt;
    if (!value)
        error(code, expr.range, what + " must be an integer constant expression");
    return value;
}

// --- clauses and statements ------------------------------------------------------

void Checker::check_clause(Clause &clause) {
    clause_arguments_.reset();
    if (clause.predicate) {
        const Type *type = check(*clause.predicate);
        if (type && !is_scalar(type))
            error("D_PRED_SCALAR", clause.predicate->range,
                  "predicate must be an integer or pointer, not " + quote(type));
    }
    for (StmtPtr &stmt : clause.statements)
        check_statement(*stmt);
    check_clause_roles(clause);
}

// Where speculate(), commit() and aggregations may stand, as dtrace-utils'
// clause flags have it: in program order, each call's role against those
// before it in the clause.
void Checker::check_clause_roles(const Clause &clause) {
    bool speculated = false, committed = false, recorded = false, aggregated = false;
    auto role_of = [&](const Expr &expr) -> const FunctionDescriptor * {
        auto it = out_.resolutions.find(&expr);
        return it != out_.resolutions.end() && it->second.kind == Resolution::Kind::Function
                   ? it->second.function
                   : nullptr;
    };
    auto visit = [&](const Expr &expr) {
        if (const auto *assign = expr.as<Assign>()) {
            const Expr *target = assign->target.get();
            if (const auto *subscript = target->as<Subscript>())
                target = subscript->base.get();
            if (target->kind != Expr::Kind::Aggregation)
                return;
            if (committed)
                error("D_AGG_COMM", expr.range, "aggregating actions may not follow commit()");
            if (speculated)
                error("D_AGG_SPEC", expr.range, "aggregating actions may not follow speculate()");
            aggregated = true;
            return;
        }
        const FunctionDescriptor *fn = role_of(expr);
        if (!fn || fn->function_class == FunctionClass::Aggregating)
            return;
        const SourceRange &at = expr.range;
        switch (fn->role) {
        case ClauseRole::Commit:
            if (recorded || aggregated)
                error("D_COMM_DREC", at, "commit() may not follow data-recording actions");
            committed = true;
            return;
        case ClauseRole::Discard:
            return;
        case ClauseRole::Speculate:
            if (speculated)
                error("D_SPEC_SPEC", at, "speculate() may not follow speculate()");
            if (committed)
                error("D_SPEC_COMM", at, "speculate() may not follow commit()");
            if (recorded || aggregated)
                error("D_SPEC_DREC", at, "speculate() may not follow data-recording actions")
                    .hints.push_back("call speculate() first in the clause");
            speculated = true;
            return;
        case ClauseRole::None:
            if (speculated && fn->destructive)
                error("D_ACT_SPEC", at, "destructive actions may not follow speculate()");
            return;
        case ClauseRole::Records:
        case ClauseRole::Exit:
            if (speculated && fn->destructive)
                error("D_ACT_SPEC", at, "destructive actions may not follow speculate()");
            if (speculated && fn->role == ClauseRole::Exit)
                error("D_EXIT_SPEC", at, "exit() may not follow speculate()");
            if (committed)
                error("D_DREC_COMM", at, "data-recording actions may not follow commit()");
            recorded = true;
            return;
        }
    };
    for (const StmtPtr &stmt : clause.statements)
        for_each_expression(*stmt, visit);
}

void Checker::check_statement(Stmt &stmt) {
    switch (stmt.kind) {
    case Stmt::Kind::Expression:
        check(*stmt.as<ExpressionStmt>()->expr, true);
        break;
    case Stmt::Kind::If: {
        auto *branch = stmt.as<IfStmt>();
        const Type *type = check(*branch->condition);
        if (type && !is_scalar(type))
            error("D_OP_SCALAR", branch->condition->range,
                  "if condition must be an integer or pointer, not " + quote(type));
        check_statement(*branch->then_branch);
        if (branch->else_branch)
            check_statement(*branch->else_branch);
        break;
    }
    case Stmt::Kind::Block:
        for (StmtPtr &inner : stmt.as<BlockStmt>()->statements)
            check_statement(*inner);
        break;
    case Stmt::Kind::Empty:
        break;
    }
}

// --- helpers ---------------------------------------------------------------------

Diagnostic &Checker::error(const char *code, const SourceRange &at, std::string message) {
    return diags_->error(code, at, std::move(message));
}

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

void Checker::suggest(Diagnostic &d, const std::string &name,
                      const std::vector<std::string> &known) {
    if (const std::string *best = closest(name, known))
        d.hints.push_back("did you mean '" + *best + "'?");
}

const std::string *Checker::closest(const std::string &name,
                                    const std::vector<std::string> &known) {
    const std::string *best = nullptr;
    // Up to two edits (a transposition is two), more for long names; never
    // a rewrite of the whole name.
    size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
    for (const std::string &candidate : known) {
        size_t distance = edit_distance(name, candidate);
        if (distance < best_distance && distance < name.size()) {
            best_distance = distance;
            best = &candidate;
        }
    }
    return best;
}

std::vector<std::string> Checker::identifier_names() const {
    std::vector<std::string> names;
    for (const BuiltinVariable &v : builtin_variables())
        names.emplace_back(v.name);
    for (const auto &[name, var] : out_.globals)
        names.push_back(name);
    for (const auto &[name, def] : out_.inlines)
        names.push_back(name);
    for (const auto &[name, value] : enumerators_)
        names.push_back(name);
    for (const auto &[name, ext] : externs_)
        names.push_back(name);
    return names;
}

std::string Checker::quote(const Type *type) {
    return "'" + type->name + "'";
}

const Type *Checker::value_type(const Type *type) {
    return is_char_array(type) ? types_.string_type() : type;
}

bool Checker::is_null_constant(const Expr &expr) const {
    std::optional<int64_t> value =
        is_integer(expr.type) || is_pointer(expr.type) ? constant_value(expr) : std::nullopt;
    return value && *value == 0;
}

} // namespace dtx::sema
