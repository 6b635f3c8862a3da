// The running kernel's BTF (/sys/kernel/btf/vmlinux), parsed once per process
// on first use and shared by everything that reads kernel types: the checker's
// kernel types, the rawtp provider, -lv's spellings and the session's member
// offsets. Parsing it takes ~13 ms and several MB, so it is done only when a
// script or listing needs it, and never twice.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

struct btf;

namespace dtx::trace {

// Null when the kernel has no BTF.
const btf *vmlinux_btf();

// The byte offset of `member` in the kernel's `struct type` (looking through
// anonymous members), or nullopt without BTF, such a struct or member.
std::optional<uint64_t> kernel_member_offset(std::string_view type, std::string_view member);

} // namespace dtx::trace
