// print(): a recorded value shown with its type, as Solaris DTrace's print()
// shows it (libdtrace dt_print.c, which follows mdb's `::print -tn`):
//   - the top line is the type, then the value: `int 0x1f4`, `char [16] "dtx"`;
//     a struct or union continues with one member per line, indented four
//     spaces per level: `    struct dentry *dentry = 0xffff8881003c0a80`,
//     a member of struct or union type opening its own `{ ... }` block;
//   - integers and pointers print in hex (%#x: 0 is "0"), char as 'c', enums
//     by the name of their value (else decimal), bit-fields as `name :bits`,
//     floats as %+.7e;
//   - arrays print as `[ 0x1, 0x2 ]`; a char array holding a NUL-terminated
//     printable string prints as `[ "text" ]` (at the top, without the
//     brackets); an array of structs puts each element on its own lines;
//   - a top-level struct or union ends with its closing brace, without a
//     newline; every other value ends with "\n".
// Anonymous struct and union members print as `union {`.
#pragma once

#include "libtrace/program_description.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace dtx::trace {

// A recorded value's bytes as print() and its JSON form read them:
// little-endian, and past the end as zero.
class RecordedBytes {
public:
    explicit RecordedBytes(std::span<const std::byte> bytes) : bytes_(bytes) {}

    uint8_t byte_at(uint64_t offset) const {
        return offset < bytes_.size() ? uint8_t(bytes_[offset]) : 0;
    }
    // `size` bytes (at most 8) at `offset`.
    uint64_t unsigned_at(uint64_t offset, uint32_t size) const {
        uint64_t value = 0;
        for (uint32_t i = 0; i < size && i < 8; i++)
            value |= uint64_t(byte_at(offset + i)) << (8 * i);
        return value;
    }

private:
    std::span<const std::byte> bytes_;
};

// `bytes` holds a value of types[type] (missing bytes read as zero).
std::string format_printed_value(std::span<const PrintedType> types, uint32_t type,
                                 std::span<const std::byte> bytes);

// Raw bytes as dtrace dumps them (tracemem(), trace() of memory that is not a
// string): a newline, a header of the 16 column digits, then per 16 bytes the
// offset, the bytes in hex and as characters ('.' where not printable). The
// first `size` bytes of `bytes` (missing bytes read as zero).
std::string format_bytes(std::span<const std::byte> bytes, size_t size);

} // namespace dtx::trace
