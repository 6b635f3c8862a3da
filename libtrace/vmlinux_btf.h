// The running kernel's BTF (/sys/kernel/btf/vmlinux), parsed once per process
// on first use and shared by everything that reads kernel types: the checker's
// kernel types, the rawtp provider, -lv's spellings and the session's member
// offsets. Parsing it takes ~13 ms and several MB, so it is done only when a
// script or listing needs it, and never twice.
#pragma once

struct btf;

namespace dtx::trace {

// Null when the kernel has no BTF.
const btf *vmlinux_btf();

} // namespace dtx::trace
