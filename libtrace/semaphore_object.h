// dtx -G: the relocatable ELF object that defines the semaphores of a
// program's USDT probes, which the header of dtx -h declares and every probe
// site's .note.stapsdt entry points to. As systemtap's dtrace -G makes it:
// one `unsigned short NAME` each, zero, in a writable .probes section, global
// and hidden (each executable or shared library has its own). dtx writes the
// ELF itself, needing no compiler: the ELF class, byte order and machine are
// those of the objects the build links it with (dtrace -G's operands), or
// this machine's when none is given. Nothing else is needed: with stapsdt
// notes the probe sites are complete in the objects the compiler made, so,
// unlike dtrace -G, dtx rewrites none of them.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <span>
#include <string>

namespace dtx::trace {

struct ObjectFormat {
    uint8_t elf_class = 0; // ELFCLASS32 or ELFCLASS64
    uint8_t data = 0;      // ELFDATA2LSB or ELFDATA2MSB
    uint8_t os_abi = 0;
    uint16_t machine = 0; // EM_X86_64 ...
    uint32_t flags = 0;   // e_flags: a RISC-V object's float ABI must match

    bool operator==(const ObjectFormat &) const = default;
};

// The format of the machine dtx runs on.
ObjectFormat host_object_format();

// The format of the ELF file at `path`; an error if it cannot be read or is
// not ELF.
Result<ObjectFormat> object_format_of(const std::string &path);

// The object's bytes: `semaphores` in order, two bytes each, at offsets 0, 2...
// of .probes.
std::string semaphore_object(std::span<const std::string> semaphores, const ObjectFormat &format,
                             std::string_view source_name);

} // namespace dtx::trace
