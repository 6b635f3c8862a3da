// Kernel types from the running kernel's BTF (/sys/kernel/btf/vmlinux) as D
// types: the typed arguments of rawtp probes (`args[0]->pid`), curthread's
// struct task_struct, and struct, union, enum and typedef names and enum
// values (TASK_COMM_LEN) a script uses without declaring them.
//
// BTF is loaded on first use. A struct or union is imported with its size but
// without members; its members are imported when a member is first looked up
// (complete_members), so naming `struct task_struct` does not pull in the
// thousands of types reachable from it.
#pragma once

#include "codegen/types.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct btf;

namespace dtx::sema {

// Whether the kernel's BTF has a typedef `name` (atomic_t, spinlock_t): the
// lookup the command gives the parser's TypeNames, so that `(atomic_t *)p`
// parses as a cast. False without BTF.
bool is_kernel_typedef(std::string_view name);

class KernelTypes {
public:
    explicit KernelTypes(TypeTable &types);
    KernelTypes(const KernelTypes &) = delete;
    KernelTypes &operator=(const KernelTypes &) = delete;

    // Whether the kernel has BTF (loads it on first call).
    bool available();

    // The D type of vmlinux BTF type `id`; null without BTF or for an id
    // that names no type.
    const Type *by_id(uint32_t id);
    // `struct NAME`, `union NAME` or `enum NAME` from BTF; null if BTF has none.
    const Type *by_tag(TypeKind kind, std::string_view name);
    // A kernel typedef (`pid_t` as the kernel declares it, `u64`); null if none.
    const Type *by_typedef(std::string_view name);

    // Fills in the members of a struct or union imported from BTF, if not yet
    // done; other types are left alone.
    void complete_members(const Type *record);
    // Completes every record `type` holds by value (members, array elements,
    // typedefs; not what pointers point to), so that all of its bytes can be
    // laid out, as print() does.
    void complete_by_value(const Type *type);

    // A kernel enumerator (TASK_RUNNING, TASK_COMM_LEN) with its enum type
    // and value; nullopt without BTF or if no enum of the kernel has it.
    std::optional<std::pair<const Type *, int64_t>> enumerator(std::string_view name);
    // The tags of every kernel struct, union or enum, for "did you mean"
    // hints; empty without BTF.
    const std::vector<std::string> &tag_names(TypeKind kind);
    // The type of a global kernel variable (`jiffies) as BTF declares it, in
    // one of its data sections; nullptr without BTF or if BTF has no such
    // variable (per-CPU variables are not globals: left out).
    const Type *variable(std::string_view name);

private:
    const Type *import(uint32_t id);
    const Type *import_integer(uint32_t id);
    void load_members(Type &record, uint32_t id);

    TypeTable &types_;
    bool loaded_ = false;
    const btf *btf_ = nullptr; // trace::vmlinux_btf(), shared
    std::map<uint32_t, const Type *> imported_;
    // Records whose members are still to be imported, with their BTF ids.
    std::map<const Type *, uint32_t> pending_members_;
    // Built on first use by enumerator() and tag_names(): one pass over BTF each.
    std::optional<std::map<std::string, std::pair<uint32_t, int64_t>, std::less<>>> enumerators_;
    std::map<TypeKind, std::vector<std::string>> tag_names_;
    std::optional<std::map<std::string, uint32_t, std::less<>>> variables_; // name -> type id
};

} // namespace dtx::sema
