// Where x86-64 instructions start, for the pid provider's instruction probes
// (pid123:a.out:main:1c): a uprobe placed inside an instruction would
// overwrite part of it with a breakpoint and corrupt the traced program.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <span>

namespace dtx::providers {

// Decodes `code` (a function's bytes) from its start up to `offset`. Fails
// unless an instruction starts at `offset`, saying why: "0x3 is inside the
// instruction at 0x1 (3 bytes)", or an undecodable byte's offset.
Status check_instruction_start(std::span<const uint8_t> code, uint64_t offset);

} // namespace dtx::providers
