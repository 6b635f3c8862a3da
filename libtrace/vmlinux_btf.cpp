#include "libtrace/vmlinux_btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <memory>
#include <string>

namespace dtx::trace {

const btf *vmlinux_btf() {
    struct Deleter {
        void operator()(btf *types) const { btf__free(types); }
    };
    static const std::unique_ptr<btf, Deleter> loaded = [] {
        btf *types = btf__load_vmlinux_btf();
        return std::unique_ptr<btf, Deleter>(libbpf_get_error(types) ? nullptr : types);
    }();
    return loaded.get();
}

namespace {

// A member's bit offset in the struct or union `type_id`, looking through
// anonymous members (dentry's d_name is in an anonymous union on Linux 6.8).
std::optional<uint64_t> member_bit_offset(const btf *data, uint32_t type_id,
                                          std::string_view member) {
    const btf_type *t = btf__type_by_id(data, btf__resolve_type(data, type_id));
    if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
        return std::nullopt;
    const btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); i++, m++) {
        const uint64_t at = btf_member_bit_offset(t, uint32_t(i));
        const char *name = btf__name_by_offset(data, m->name_off);
        if (name && member == name)
            return at;
        if (name && *name)
            continue;
        if (std::optional<uint64_t> inner = member_bit_offset(data, m->type, member))
            return at + *inner;
    }
    return std::nullopt;
}

} // namespace

std::optional<uint64_t> kernel_member_offset(std::string_view type, std::string_view member) {
    const btf *data = vmlinux_btf();
    if (!data)
        return std::nullopt;
    int id = btf__find_by_name_kind(data, std::string(type).c_str(), BTF_KIND_STRUCT);
    if (id < 0)
        return std::nullopt;
    std::optional<uint64_t> bits = member_bit_offset(data, uint32_t(id), member);
    if (!bits)
        return std::nullopt;
    return *bits / 8;
}

} // namespace dtx::trace
