#include "codegen/kernel_types.h"

#include "libtrace/vmlinux_btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <string>

namespace dtx::sema {

namespace {

// The D base integer of a BTF integer's size and signedness.
std::string_view integer_name(uint32_t bytes, bool is_signed) {
    switch (bytes) {
    case 1:
        return is_signed ? "signed char" : "unsigned char";
    case 2:
        return is_signed ? "short" : "unsigned short";
    case 4:
        return is_signed ? "int" : "unsigned int";
    default:
        return is_signed ? "long" : "unsigned long";
    }
}

// D's spelling of a C base type as GCC names it in BTF: "long long unsigned
// int" is "unsigned long long", "short int" is "short".
std::string d_spelling(std::string_view name) {
    bool is_unsigned = false, is_signed = false;
    int longs = 0;
    std::string rest;
    size_t start = 0;
    while (start < name.size()) {
        size_t end = name.find(' ', start);
        if (end == std::string_view::npos)
            end = name.size();
        std::string_view word = name.substr(start, end - start);
        if (word == "unsigned")
            is_unsigned = true;
        else if (word == "signed")
            is_signed = true;
        else if (word == "long")
            longs++;
        else if (word != "int")
            rest += (rest.empty() ? "" : " ") + std::string(word);
        start = end + 1;
    }
    if (rest.empty())
        rest = longs == 2 ? "long long" : longs == 1 ? "long" : "int";
    else if (rest != "short" && rest != "char")
        return std::string(name); // not one of C's integer types
    return (is_unsigned ? "unsigned " : is_signed && rest == "char" ? "signed " : "") + rest;
}

// BTF has no alignment; the natural one of a record's size is what the
// kernel's records have in practice, and only D-declared records embedding
// a kernel record by value use it.
uint32_t natural_alignment(uint64_t size) {
    uint32_t alignment = 1;
    while (alignment < 8 && alignment * 2 <= size)
        alignment *= 2;
    return alignment;
}

} // namespace

bool is_kernel_typedef(std::string_view name) {
    const btf *kernel = trace::vmlinux_btf();
    return kernel &&
           btf__find_by_name_kind(kernel, std::string(name).c_str(), BTF_KIND_TYPEDEF) > 0;
}

KernelTypes::KernelTypes(TypeTable &types) : types_(types) {}

bool KernelTypes::available() {
    if (!loaded_) {
        loaded_ = true;
        btf_ = trace::vmlinux_btf();
    }
    return btf_ != nullptr;
}

const Type *KernelTypes::by_id(uint32_t id) {
    if (!available())
        return nullptr;
    return import(id);
}

const Type *KernelTypes::by_tag(TypeKind kind, std::string_view name) {
    if (!available())
        return nullptr;
    std::string text(name);
    if (kind == TypeKind::Enum) {
        int id = btf__find_by_name_kind(btf_, text.c_str(), BTF_KIND_ENUM);
        if (id < 0)
            id = btf__find_by_name_kind(btf_, text.c_str(), BTF_KIND_ENUM64);
        return id < 0 ? nullptr : import(uint32_t(id));
    }
    int id = btf__find_by_name_kind(btf_, text.c_str(),
                                    kind == TypeKind::Union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
    return id < 0 ? nullptr : import(uint32_t(id));
}

const Type *KernelTypes::by_typedef(std::string_view name) {
    if (!available())
        return nullptr;
    int id = btf__find_by_name_kind(btf_, std::string(name).c_str(), BTF_KIND_TYPEDEF);
    return id < 0 ? nullptr : import(uint32_t(id));
}

void KernelTypes::complete_members(const Type *record) {
    auto it = pending_members_.find(record);
    if (it == pending_members_.end())
        return;
    uint32_t id = it->second;
    pending_members_.erase(it);
    load_members(*const_cast<Type *>(record), id);
}

const Type *KernelTypes::import_integer(uint32_t id) {
    const btf_type *t = btf__type_by_id(btf_, id);
    uint32_t encoding = btf_int_encoding(t);
    std::string_view name = btf__name_by_offset(btf_, t->name_off);
    if (encoding & BTF_INT_BOOL)
        return types_.lookup("_Bool");
    // The kernel's own spellings of C's base types ("long unsigned int")
    // differ from D's; "char" keeps its name (and x86-64's signedness).
    if (name == "char")
        return types_.char_type();
    if (t->size > 8) // __int128: D has no such integer; its bytes still copy
        return types_.array_of(types_.lookup("unsigned long"), t->size / 8);
    if (const Type *same = types_.lookup(d_spelling(name));
        same && same->kind == TypeKind::Integer && same->size == t->size &&
        same->is_signed == bool(encoding & BTF_INT_SIGNED))
        return same; // "long long int" is D's long long, not its long
    return types_.lookup(integer_name(t->size, encoding & BTF_INT_SIGNED));
}

const Type *KernelTypes::import(uint32_t id) {
    if (id == 0)
        return types_.void_type();
    if (auto it = imported_.find(id); it != imported_.end())
        return it->second;
    const btf_type *t = btf__type_by_id(btf_, id);
    if (!t)
        return nullptr;
    std::string name = btf__name_by_offset(btf_, t->name_off);
    const Type *result = nullptr;
    switch (btf_kind(t)) {
    case BTF_KIND_INT:
        result = import_integer(id);
        break;
    case BTF_KIND_FLOAT:
        result = types_.lookup(t->size == 4 ? "float" : t->size == 8 ? "double" : "long double");
        break;
    case BTF_KIND_PTR: {
        // A const pointee prints as `const char *`; volatile and restrict don't matter to D.
        uint32_t target = t->type;
        bool to_const = false;
        for (const btf_type *q = btf__type_by_id(btf_, target);
             q && (btf_is_const(q) || btf_is_volatile(q) || btf_is_restrict(q) ||
                   btf_kind(q) == BTF_KIND_TYPE_TAG);
             q = btf__type_by_id(btf_, target)) {
            to_const |= btf_is_const(q);
            target = q->type;
        }
        const btf_type *pointee = btf__type_by_id(btf_, target);
        // A function pointer is an address to D.
        if (pointee && btf_is_func_proto(pointee)) {
            result = types_.pointer_to(types_.void_type());
            break;
        }
        // Cycles in BTF go through records, whose members import() leaves
        // for later, so this recursion ends.
        const Type *pointee_type = import(target);
        result = pointee_type ? types_.pointer_to(pointee_type, to_const) : nullptr;
        break;
    }
    case BTF_KIND_ARRAY: {
        const struct btf_array *array = btf_array(t);
        const Type *element = import(array->type);
        result = element ? types_.array_of(element, array->nelems) : nullptr;
        break;
    }
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION: {
        TypeKind kind = btf_is_union(t) ? TypeKind::Union : TypeKind::Struct;
        Type *record = name.empty() ? types_.anonymous(kind) : types_.tagged(kind, name);
        imported_[id] = record;
        if (record->complete && !record->members.empty())
            return record; // the script defined it: its definition wins
        record->size = t->size;
        record->alignment = natural_alignment(t->size);
        record->complete = true;
        if (name.empty())
            load_members(*record, id); // found only through their parent's members
        else
            pending_members_[record] = id;
        return record;
    }
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64: {
        Type *type =
            name.empty() ? types_.anonymous(TypeKind::Enum) : types_.tagged(TypeKind::Enum, name);
        imported_[id] = type;
        if (type->complete && !type->enumerators.empty())
            return type;
        type->size = t->size;
        type->alignment = natural_alignment(t->size);
        type->is_signed = btf_kflag(t);
        type->complete = true;
        for (int i = 0; i < btf_vlen(t); i++) {
            if (btf_is_enum(t)) {
                // BTF keeps 32-bit values signed; an unsigned enum's are not.
                const struct btf_enum *e = btf_enum(t) + i;
                int64_t value = type->is_signed ? int64_t(e->val) : int64_t(uint32_t(e->val));
                type->enumerators.push_back({btf__name_by_offset(btf_, e->name_off), value});
            } else {
                const struct btf_enum64 *e = btf_enum64(t) + i;
                type->enumerators.push_back(
                    {btf__name_by_offset(btf_, e->name_off), int64_t(btf_enum64_value(e))});
            }
        }
        return type;
    }
    case BTF_KIND_FWD: {
        // A declaration: the definition elsewhere in BTF, if any, has the members.
        bool is_union = btf_kflag(t);
        int defined =
            btf__find_by_name_kind(btf_, name.c_str(), is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
        if (defined > 0)
            return imported_[id] = import(uint32_t(defined));
        result = types_.tagged(is_union ? TypeKind::Union : TypeKind::Struct, name);
        break;
    }
    case BTF_KIND_TYPEDEF: {
        const Type *aliased = import(t->type);
        if (!aliased)
            break;
        // D's own typedef of the same name (uint64_t, pid_t) stands for the
        // kernel's where they agree in size; where they do not (dev_t is 32
        // bits in the kernel, 64 in D) the kernel's type is what its
        // structs hold.
        const Type *type = nullptr;
        types_.add_typedef(name, aliased, &type);
        const Type *d = type ? resolve(type) : nullptr;
        const Type *kernel = resolve(aliased);
        result = type && d && kernel && d->size == kernel->size ? type : aliased;
        break;
    }
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
        result = import(t->type);
        break;
    case BTF_KIND_FUNC_PROTO:
    case BTF_KIND_FUNC:
        result = types_.void_type();
        break;
    default:
        break;
    }
    imported_[id] = result;
    return result;
}

void KernelTypes::complete_by_value(const Type *type) {
    std::set<const Type *> seen;
    std::vector<const Type *> work{type};
    while (!work.empty()) {
        const Type *t = resolve(work.back());
        work.pop_back();
        if (!t || !seen.insert(t).second)
            continue;
        if (t->kind == TypeKind::Array) {
            work.push_back(t->element);
        } else if (t->kind == TypeKind::Struct || t->kind == TypeKind::Union) {
            complete_members(t);
            for (const Member &member : t->members)
                work.push_back(member.type);
        }
    }
}

std::optional<std::pair<const Type *, int64_t>> KernelTypes::enumerator(std::string_view name) {
    if (!available())
        return std::nullopt;
    if (!enumerators_) {
        enumerators_.emplace();
        const uint32_t count = btf__type_cnt(btf_);
        for (uint32_t id = 1; id < count; id++) {
            const btf_type *t = btf__type_by_id(btf_, id);
            if (btf_is_enum(t)) {
                // Values as import() gives them: unsigned enums' are not negative.
                for (int i = 0; i < btf_vlen(t); i++) {
                    const struct btf_enum *e = btf_enum(t) + i;
                    int64_t value = btf_kflag(t) ? int64_t(e->val) : int64_t(uint32_t(e->val));
                    enumerators_->try_emplace(btf__name_by_offset(btf_, e->name_off), id, value);
                }
            } else if (btf_is_enum64(t)) {
                for (int i = 0; i < btf_vlen(t); i++) {
                    const struct btf_enum64 *e = btf_enum64(t) + i;
                    enumerators_->try_emplace(btf__name_by_offset(btf_, e->name_off), id,
                                              int64_t(btf_enum64_value(e)));
                }
            }
        }
    }
    auto it = enumerators_->find(name);
    if (it == enumerators_->end())
        return std::nullopt;
    const Type *type = import(it->second.first);
    if (!type)
        return std::nullopt;
    return std::make_pair(type, it->second.second);
}

const Type *KernelTypes::variable(std::string_view name) {
    if (!available())
        return nullptr;
    if (!variables_) {
        variables_.emplace();
        const uint32_t count = btf__type_cnt(btf_);
        for (uint32_t id = 1; id < count; id++) {
            const btf_type *t = btf__type_by_id(btf_, id);
            if (!btf_is_datasec(t) ||
                std::string_view(btf__name_by_offset(btf_, t->name_off)) == ".data..percpu")
                continue;
            const btf_var_secinfo *info = btf_var_secinfos(t);
            for (int i = 0; i < btf_vlen(t); i++, info++) {
                const btf_type *var = btf__type_by_id(btf_, info->type);
                if (var && btf_is_var(var))
                    variables_->try_emplace(btf__name_by_offset(btf_, var->name_off), var->type);
            }
        }
    }
    auto it = variables_->find(name);
    return it == variables_->end() ? nullptr : import(it->second);
}

const std::vector<std::string> &KernelTypes::tag_names(TypeKind kind) {
    auto [it, inserted] = tag_names_.try_emplace(kind);
    if (!inserted || !available())
        return it->second;
    const uint32_t count = btf__type_cnt(btf_);
    for (uint32_t id = 1; id < count; id++) {
        const btf_type *t = btf__type_by_id(btf_, id);
        bool wanted = kind == TypeKind::Struct  ? btf_is_struct(t)
                      : kind == TypeKind::Union ? btf_is_union(t)
                                                : btf_is_any_enum(t);
        if (wanted && t->name_off)
            it->second.emplace_back(btf__name_by_offset(btf_, t->name_off));
    }
    std::sort(it->second.begin(), it->second.end());
    it->second.erase(std::unique(it->second.begin(), it->second.end()), it->second.end());
    return it->second;
}

void KernelTypes::load_members(Type &record, uint32_t id) {
    const btf_type *t = btf__type_by_id(btf_, id);
    const btf_member *m = btf_members(t);
    for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
        const Type *type = import(m->type);
        if (!type)
            continue; // a kind D cannot show; its neighbours stay usable
        record.members.push_back({.name = btf__name_by_offset(btf_, m->name_off),
                                  .type = type,
                                  .bit_offset = btf_member_bit_offset(t, i),
                                  .bit_width = btf_member_bitfield_size(t, i)});
    }
}

} // namespace dtx::sema
