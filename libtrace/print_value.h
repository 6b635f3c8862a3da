// print(): a recorded value shown with its type, as dtrace-utils shows it
// (libbpf's dump of typed data, from column 44, a space a level):
//                                             (struct test) {
//                                              .a = (int)1,
//                                              .b = (char [5]) [
//                                               (char)'t',
//                                              ],
//                                             }
//   - each value is `(type)value`; members are `.name = (type)value,`, and
//     members and array elements that are all zeros are left out;
//   - integers print in decimal, pointers and bit-fields in hex, chars as
//     'c', enums by the name of their value (else decimal), floats as %f;
//   - a pointer to a struct or union, recorded with its pointee, prints as
//     `0xADDR = *` and then the pointee.
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

// `bytes` holds a value of types[type] (missing bytes read as zero); a
// pointer's bytes may go on with its pointee's.
std::string format_printed_value(std::span<const PrintedType> types, uint32_t type,
                                 std::span<const std::byte> bytes);

// Raw bytes as dtrace dumps them (tracemem(), trace() of memory that is not a
// string): a newline, a header of the 16 column digits, then per 16 bytes the
// offset, the bytes in hex and as characters ('.' where not printable). The
// first `size` bytes of `bytes` (missing bytes read as zero).
std::string format_bytes(std::span<const std::byte> bytes, size_t size);

} // namespace dtx::trace
