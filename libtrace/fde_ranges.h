// The FDEs of a call-frame section (.eh_frame or .debug_frame) with the
// address range each describes. libdw's dwarf_next_cfi() enumerates the
// entries but leaves an FDE's initial location and range in the pointer
// encoding its CIE's augmentation gives; this decodes them (absolute and
// pc-relative, as Linux's compilers write them).
#pragma once

#include <libelf.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace dtx::trace {

struct FdeRange {
    uint64_t start = 0, end = 0; // [start, end), link-time addresses
};

// Calls `each` with every FDE of `data` in section order: its range, or
// nullopt where its CIE or encoding is not understood. `section_address` is
// the section's link-time address (pc-relative encodings count from the
// field), `address_size` the ELF class's (4 or 8).
void for_each_fde(const unsigned char *e_ident, Elf_Data *data, bool eh_frame,
                  uint64_t section_address, std::size_t address_size,
                  const std::function<void(std::optional<FdeRange>)> &each);

} // namespace dtx::trace
