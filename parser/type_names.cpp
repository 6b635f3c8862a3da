#include "parser/type_names.h"

namespace dtx::parser {

// The typedefs D programs use without declaring them: C99 fixed-width types,
// the Solaris-style names DTrace scripts are written with, and the Linux kernel's
// short names. Kernel BTF may define more; those are found by later passes.
static constexpr std::string_view kBuiltinTypedefs[] = {
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "intptr_t",
    "uintptr_t",
    "size_t",
    "ssize_t",
    "off_t",
    "off64_t",
    "loff_t",
    "pid_t",
    "tid_t",
    "uid_t",
    "gid_t",
    "id_t",
    "dev_t",
    "ino_t",
    "mode_t",
    "nlink_t",
    "time_t",
    "clock_t",
    "caddr_t",
    "daddr_t",
    "processorid_t",
    "psetid_t",
    "zoneid_t",
    "projid_t",
    "taskid_t",
    "hrtime_t",
    "boolean_t",
    "bool",
    "uchar_t",
    "ushort_t",
    "uint_t",
    "ulong_t",
    "longlong_t",
    "u_longlong_t",
    "u_char",
    "u_short",
    "u_int",
    "u_long",
    "ptrdiff_t",
    "wchar_t",
    "socklen_t",
    "umode_t",
    "gfp_t",
    "sector_t",
    "blkcnt_t",
    "fmode_t",
    "s8",
    "s16",
    "s32",
    "s64",
    "u8",
    "u16",
    "u32",
    "u64",
    "__s8",
    "__s16",
    "__s32",
    "__s64",
    "__u8",
    "__u16",
    "__u32",
    "__u64",
    "__be16",
    "__be32",
    "__be64",
    "__le16",
    "__le32",
    "__le64",
    "__kernel_size_t",
    "__kernel_ssize_t",
    "__kernel_pid_t",
    "__kernel_uid32_t",
    "__kernel_gid32_t",
};

TypeNames::TypeNames() {
    for (std::string_view name : kBuiltinTypedefs)
        names_.emplace(name);
}

bool TypeNames::contains(std::string_view name) const {
    return names_.find(std::string(name)) != names_.end();
}

bool TypeNames::look_up(std::string_view name) {
    if (!lookup_ || !lookup_(name))
        return false;
    add(std::string(name));
    return true;
}

} // namespace dtx::parser
