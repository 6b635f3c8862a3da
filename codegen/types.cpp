#include "codegen/types.h"

#include <algorithm>

namespace dtx::sema {

const Type *resolve(const Type *type) {
    while (type && type->kind == TypeKind::Typedef)
        type = type->element;
    return type;
}

static bool kind_is(const Type *type, TypeKind kind) {
    type = resolve(type);
    return type && type->kind == kind;
}

bool is_void(const Type *type) {
    return kind_is(type, TypeKind::Void);
}
bool is_integer(const Type *type) {
    return kind_is(type, TypeKind::Integer) || kind_is(type, TypeKind::Enum);
}
bool is_arithmetic(const Type *type) {
    return is_integer(type);
}
bool is_pointer(const Type *type) {
    return kind_is(type, TypeKind::Pointer);
}
bool is_array(const Type *type) {
    return kind_is(type, TypeKind::Array);
}
bool is_string(const Type *type) {
    return kind_is(type, TypeKind::String);
}

static bool is_char(const Type *type) {
    type = resolve(type);
    return type && type->kind == TypeKind::Integer && type->size == 1 &&
           type->symbolization == Symbolization::None && type->rank == 1;
}

bool is_char_array(const Type *type) {
    type = resolve(type);
    return type && type->kind == TypeKind::Array && is_char(type->element);
}

bool is_char_pointer(const Type *type) {
    type = resolve(type);
    return type && type->kind == TypeKind::Pointer && is_char(type->element);
}

bool is_scalar(const Type *type) {
    return is_integer(type) || is_pointer(type);
}

bool is_string_like(const Type *type) {
    return is_string(type) || is_char_array(type) || is_char_pointer(type);
}

bool is_struct_or_union(const Type *type) {
    return kind_is(type, TypeKind::Struct) || kind_is(type, TypeKind::Union);
}

// ---------------------------------------------------------------------------

namespace {

struct BaseInteger {
    std::string_view name;
    uint32_t size;
    bool is_signed;
    int rank;
};

// x86-64 Linux (LP64): char is signed, long and pointers are 8 bytes.
constexpr BaseInteger kBaseIntegers[] = {
    {"_Bool", 1, false, 0},      {"char", 1, true, 1},
    {"signed char", 1, true, 1}, {"unsigned char", 1, false, 1},
    {"short", 2, true, 2},       {"unsigned short", 2, false, 2},
    {"int", 4, true, 3},         {"unsigned int", 4, false, 3},
    {"long", 8, true, 4},        {"unsigned long", 8, false, 4},
    {"long long", 8, true, 5},   {"unsigned long long", 8, false, 5},
};

// D's built-in typedefs (parser/type_names.cpp) with their glibc and kernel
// meanings on x86-64; the Solaris-only names keep their Solaris widths.
constexpr std::pair<std::string_view, std::string_view> kBuiltinTypedefs[] = {
    {"int8_t", "signed char"},
    {"int16_t", "short"},
    {"int32_t", "int"},
    {"int64_t", "long"},
    {"uint8_t", "unsigned char"},
    {"uint16_t", "unsigned short"},
    {"uint32_t", "unsigned int"},
    {"uint64_t", "unsigned long"},
    {"intptr_t", "long"},
    {"uintptr_t", "unsigned long"},
    {"size_t", "unsigned long"},
    {"ssize_t", "long"},
    {"off_t", "long"},
    {"off64_t", "long"},
    {"loff_t", "long long"},
    {"pid_t", "int"},
    {"tid_t", "int"},
    {"uid_t", "unsigned int"},
    {"gid_t", "unsigned int"},
    {"id_t", "unsigned int"},
    {"dev_t", "unsigned long"},
    {"ino_t", "unsigned long"},
    {"mode_t", "unsigned int"},
    {"nlink_t", "unsigned long"},
    {"time_t", "long"},
    {"clock_t", "long"},
    {"daddr_t", "int"},
    {"processorid_t", "int"},
    {"psetid_t", "int"},
    {"zoneid_t", "int"},
    {"projid_t", "int"},
    {"taskid_t", "int"},
    {"hrtime_t", "long long"},
    {"boolean_t", "int"},
    {"bool", "_Bool"},
    {"uchar_t", "unsigned char"},
    {"ushort_t", "unsigned short"},
    {"uint_t", "unsigned int"},
    {"ulong_t", "unsigned long"},
    {"longlong_t", "long long"},
    {"u_longlong_t", "unsigned long long"},
    {"u_char", "unsigned char"},
    {"u_short", "unsigned short"},
    {"u_int", "unsigned int"},
    {"u_long", "unsigned long"},
    {"ptrdiff_t", "long"},
    {"wchar_t", "int"},
    {"socklen_t", "unsigned int"},
    {"umode_t", "unsigned short"},
    {"gfp_t", "unsigned int"},
    {"sector_t", "unsigned long long"},
    {"blkcnt_t", "long"},
    {"fmode_t", "unsigned int"},
    {"s8", "signed char"},
    {"s16", "short"},
    {"s32", "int"},
    {"s64", "long long"},
    {"u8", "unsigned char"},
    {"u16", "unsigned short"},
    {"u32", "unsigned int"},
    {"u64", "unsigned long long"},
    {"__s8", "signed char"},
    {"__s16", "short"},
    {"__s32", "int"},
    {"__s64", "long long"},
    {"__u8", "unsigned char"},
    {"__u16", "unsigned short"},
    {"__u32", "unsigned int"},
    {"__u64", "unsigned long long"},
    {"__be16", "unsigned short"},
    {"__be32", "unsigned int"},
    {"__be64", "unsigned long long"},
    {"__le16", "unsigned short"},
    {"__le32", "unsigned int"},
    {"__le64", "unsigned long long"},
    {"__kernel_size_t", "unsigned long"},
    {"__kernel_ssize_t", "long"},
    {"__kernel_pid_t", "int"},
    {"__kernel_uid32_t", "unsigned int"},
    {"__kernel_gid32_t", "unsigned int"},
};

std::string pointer_name(const Type *pointee, bool to_const) {
    std::string base = (to_const ? "const " : "") + pointee->name;
    if (pointee->kind == TypeKind::Pointer)
        return base + "*";
    return base + " *";
}

uint64_t align_up(uint64_t value, uint64_t alignment) {
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

} // namespace

TypeTable::TypeTable(uint64_t string_size) {
    void_ = make({.kind = TypeKind::Void, .name = "void"});
    names_.emplace("void", void_);
    for (const BaseInteger &base : kBaseIntegers) {
        const Type *type = make({.kind = TypeKind::Integer,
                                 .name = std::string(base.name),
                                 .size = base.size,
                                 .alignment = base.size,
                                 .is_signed = base.is_signed,
                                 .rank = base.rank});
        names_.emplace(std::string(base.name), type);
    }
    for (auto [name, size] :
         {std::pair<const char *, uint32_t>{"float", 4}, {"double", 8}, {"long double", 16}})
        names_.emplace(
            name, make({.kind = TypeKind::Float, .name = name, .size = size, .alignment = size}));
    int_ = lookup("int");
    char_ = lookup("char");
    string_ = make({.kind = TypeKind::String, .name = "string", .size = string_size});
    names_.emplace("string", string_);
    stack_ = make({.kind = TypeKind::Stack, .name = "stack", .size = 8, .alignment = 8});
    user_stack_ = make({.kind = TypeKind::Stack,
                        .name = "stack",
                        .size = 8,
                        .alignment = 8,
                        .symbolization = Symbolization::User});
    for (SymbolForm form : {SymbolForm::Address, SymbolForm::Function, SymbolForm::Module}) {
        symaddr_[size_t(form)] = make({.kind = TypeKind::Integer,
                                       .name = "_symaddr",
                                       .size = 8,
                                       .alignment = 8,
                                       .rank = 4,
                                       .symbolization = Symbolization::Kernel,
                                       .symbol_form = form});
        usymaddr_[size_t(form)] = make({.kind = TypeKind::Integer,
                                        .name = "_usymaddr",
                                        .size = 8,
                                        .alignment = 8,
                                        .rank = 4,
                                        .symbolization = Symbolization::User,
                                        .symbol_form = form});
    }
    for (auto [name, aliased] : kBuiltinTypedefs) {
        const Type *unused = nullptr;
        add_typedef(std::string(name), lookup(aliased), &unused);
    }
    // caddr_t is a pointer, not an integer.
    const Type *unused = nullptr;
    add_typedef("caddr_t", pointer_to(char_), &unused);
}

Type *TypeTable::make(Type type) {
    storage_.push_back(std::make_unique<Type>(std::move(type)));
    return storage_.back().get();
}

const Type *TypeTable::lookup(std::string_view name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second;
}

const Type *TypeTable::symbol_address(Symbolization symbolization, SymbolForm form) const {
    return symbolization == Symbolization::User ? usymaddr_[size_t(form)] : symaddr_[size_t(form)];
}

const Type *TypeTable::pointer_to(const Type *pointee, bool to_const) {
    auto key = std::make_pair(pointee, to_const);
    if (auto it = pointers_.find(key); it != pointers_.end())
        return it->second;
    const Type *type = make({.kind = TypeKind::Pointer,
                             .name = pointer_name(pointee, to_const),
                             .size = 8,
                             .alignment = 8,
                             .element = pointee,
                             .element_const = to_const});
    pointers_.emplace(key, type);
    return type;
}

const Type *TypeTable::array_of(const Type *element, uint64_t count) {
    auto key = std::make_pair(element, count);
    if (auto it = arrays_.find(key); it != arrays_.end())
        return it->second;
    const Type *type = make({.kind = TypeKind::Array,
                             .name = element->name + " [" + std::to_string(count) + "]",
                             .size = element->size * count,
                             .alignment = element->alignment,
                             .element = element,
                             .array_count = count});
    arrays_.emplace(key, type);
    return type;
}

const Type *TypeTable::function(const Type *result, std::vector<const Type *> parameters,
                                bool variadic) {
    std::string name = result->name + " (";
    for (size_t i = 0; i < parameters.size(); ++i)
        name += (i ? ", " : "") + parameters[i]->name;
    if (variadic)
        name += parameters.empty() ? "..." : ", ...";
    name += ")";
    return make({.kind = TypeKind::Function,
                 .name = std::move(name),
                 .element = result,
                 .parameters = std::move(parameters),
                 .variadic = variadic});
}

bool TypeTable::add_typedef(const std::string &name, const Type *aliased, const Type **out) {
    if (const Type *existing = lookup(name)) {
        *out = existing;
        // C11 allows repeating a typedef with the same type.
        return existing->kind == TypeKind::Typedef && resolve(existing) == resolve(aliased);
    }
    const Type *type = make({.kind = TypeKind::Typedef,
                             .name = name,
                             .size = aliased->size,
                             .alignment = aliased->alignment,
                             .element = aliased});
    names_.emplace(name, type);
    *out = type;
    return true;
}

static std::string_view tag_keyword(TypeKind kind) {
    return kind == TypeKind::Struct ? "struct" : kind == TypeKind::Union ? "union" : "enum";
}

Type *TypeTable::tagged(TypeKind kind, const std::string &tag) {
    std::string name = std::string(tag_keyword(kind)) + " " + tag;
    if (auto it = tags_.find(name); it != tags_.end())
        return it->second;
    Type *type = make({.kind = kind, .name = name, .complete = false});
    if (kind == TypeKind::Enum) {
        type->size = 4;
        type->alignment = 4;
        type->is_signed = true;
        type->rank = 3;
    }
    tags_.emplace(name, type);
    return type;
}

Type *TypeTable::find_tag(TypeKind kind, const std::string &tag) const {
    auto it = tags_.find(std::string(tag_keyword(kind)) + " " + tag);
    return it == tags_.end() ? nullptr : it->second;
}

std::vector<std::string> TypeTable::tags(TypeKind kind) const {
    const std::string prefix = std::string(tag_keyword(kind)) + " ";
    std::vector<std::string> names;
    for (const auto &[name, type] : tags_)
        if (name.starts_with(prefix))
            names.push_back(name.substr(prefix.size()));
    return names;
}

Type *TypeTable::anonymous(TypeKind kind) {
    Type *type = make(
        {.kind = kind, .name = std::string(tag_keyword(kind)) + " <anonymous>", .complete = false});
    if (kind == TypeKind::Enum) {
        type->size = 4;
        type->alignment = 4;
        type->is_signed = true;
        type->rank = 3;
    }
    return type;
}

// ---------------------------------------------------------------------------

void layout_record(Type &record, const std::vector<MemberDeclaration> &members) {
    const bool is_union = record.kind == TypeKind::Union;
    uint64_t bit_offset = 0; // next free bit (structs)
    uint64_t size_bits = 0;
    uint32_t alignment = 1;
    record.members.clear();
    for (const MemberDeclaration &declared : members) {
        const Type *type = declared.type;
        const uint64_t unit_bits = type->size * 8;
        const uint32_t type_alignment = std::max<uint32_t>(type->alignment, 1);
        uint64_t start = is_union ? 0 : bit_offset;
        if (declared.bit_width) {
            uint32_t width = *declared.bit_width;
            if (width == 0) {
                // `: 0` ends the current storage unit; it takes no space.
                if (!is_union)
                    bit_offset = align_up(bit_offset, uint64_t(type_alignment) * 8);
                continue;
            }
            // A bit-field may not straddle a storage unit of its declared type.
            if (unit_bits && start / unit_bits != (start + width - 1) / unit_bits)
                start = align_up(start, unit_bits);
            if (!declared.name.empty())
                alignment = std::max(alignment, type_alignment);
            if (!declared.name.empty())
                record.members.push_back({declared.name, type, start, width});
            size_bits = std::max(size_bits, start + width);
            if (!is_union)
                bit_offset = start + width;
            continue;
        }
        start = align_up(start, uint64_t(type_alignment) * 8);
        alignment = std::max(alignment, type_alignment);
        record.members.push_back({declared.name, type, start, 0});
        size_bits = std::max(size_bits, start + type->size * 8);
        if (!is_union)
            bit_offset = start + type->size * 8;
    }
    record.alignment = alignment;
    record.size = align_up(align_up(size_bits, 8) / 8, alignment);
    record.complete = true;
}

std::optional<Member> find_member(const Type *record, std::string_view name) {
    record = resolve(record);
    if (!record)
        return std::nullopt;
    for (const Member &member : record->members) {
        if (member.name == name)
            return member;
        if (member.name.empty() && is_struct_or_union(member.type)) {
            if (std::optional<Member> inner = find_member(member.type, name)) {
                inner->bit_offset += member.bit_offset;
                return inner;
            }
        }
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------

const Type *promote(const TypeTable &types, const Type *type) {
    const Type *resolved = resolve(type);
    if (resolved->kind == TypeKind::Enum || resolved->rank < 3)
        return types.int_type();
    return resolved;
}

const Type *usual_arithmetic(const TypeTable &types, const Type *lhs, const Type *rhs) {
    const Type *left = promote(types, lhs);
    const Type *right = promote(types, rhs);
    // Symbol addresses are unsigned longs once they take part in arithmetic.
    if (left->symbolization != Symbolization::None)
        left = types.lookup("unsigned long");
    if (right->symbolization != Symbolization::None)
        right = types.lookup("unsigned long");
    if (left == right)
        return left;
    if (left->is_signed == right->is_signed)
        return left->rank >= right->rank ? left : right;
    const Type *unsigned_side = left->is_signed ? right : left;
    const Type *signed_side = left->is_signed ? left : right;
    if (unsigned_side->rank >= signed_side->rank)
        return unsigned_side;
    if (signed_side->size > unsigned_side->size)
        return signed_side;
    return types.lookup("unsigned " + signed_side->name);
}

int64_t wrap_to(int64_t value, const Type *type) {
    type = resolve(type);
    if (!type || !is_integer(type) || type->size >= 8 || type->size == 0)
        return value;
    const unsigned bits = unsigned(type->size) * 8;
    const uint64_t mask = (uint64_t(1) << bits) - 1;
    uint64_t raw = uint64_t(value) & mask;
    if (type->is_signed && (raw >> (bits - 1)))
        raw |= ~mask;
    return int64_t(raw);
}

int64_t convert_value(int64_t value, const Type *from, const Type *to) {
    const Type *f = resolve(from), *t = resolve(to);
    if (!f || !t || !is_integer(f) || !is_integer(t))
        return value;
    if (t->size < f->size)
        return wrap_to(value, t);
    if (f->is_signed != t->is_signed)
        return wrap_to(wrap_to(value, f), t);
    return value;
}

int64_t cast_value(int64_t value, const Type *from, const Type *to) {
    const Type *t = resolve(to);
    value = convert_value(value, from, to);
    return t && is_integer(t) ? wrap_to(value, t) : value;
}

bool pointers_compatible(const Type *lhs, const Type *rhs) {
    lhs = resolve(lhs);
    rhs = resolve(rhs);
    if (!is_pointer(lhs) || !is_pointer(rhs))
        return false;
    const Type *left = resolve(lhs->element);
    const Type *right = resolve(rhs->element);
    return left == right || left->kind == TypeKind::Void || right->kind == TypeKind::Void;
}

bool assignable(const Type *to, const Type *from, bool rhs_is_null) {
    to = resolve(to);
    from = resolve(from);
    if (!to || !from)
        return false;
    if (is_integer(to) && is_integer(from))
        return true;
    if (is_string_like(to) && is_string_like(from))
        return true;
    // NULL (or 0) is D's null string: `self->name = 0` frees a thread-local.
    if (is_string(to) && rhs_is_null)
        return true;
    if (is_pointer(to) && (pointers_compatible(to, from) || rhs_is_null))
        return true;
    // An array used as a value is a pointer to its first element.
    if (is_pointer(to) && is_array(from)) {
        const Type *element = resolve(from->element);
        const Type *pointee = resolve(to->element);
        return pointee == element || pointee->kind == TypeKind::Void;
    }
    return to == from && to->kind != TypeKind::Void;
}

} // namespace dtx::sema
